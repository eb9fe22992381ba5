import type { ProviderRules } from './rules.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { blueskyRules } from './bluesky/rules.ts';
import { facebookRules } from './facebook/rules.ts';
import { instagramRules } from './instagram/rules.ts';
import { linkedinRules } from './linkedin/rules.ts';
import { mastodonRules } from './mastodon/rules.ts';
import { pinterestRules } from './pinterest/rules.ts';
import { sandboxRules } from './sandbox/rules.ts';
import { threadsRules } from './threads/rules.ts';
import { tiktokRules } from './tiktok/rules.ts';
import { xRules } from './x/rules.ts';
import { youtubeRules } from './youtube/rules.ts';

export const providerRules: readonly ProviderRules[] = [
  blueskyRules,
  mastodonRules,
  xRules,
  linkedinRules,
  facebookRules,
  instagramRules,
  threadsRules,
  tiktokRules,
  youtubeRules,
  pinterestRules,
  sandboxRules,
];

export const providerNames = providerRules.map((r) => r.provider);

export function rulesOf(provider: string): ProviderRules | undefined {
  return providerRules.find((r) => r.provider === provider);
}

/** GET /providers: any authenticated caller may read the rules; the catalog is one page. */
export function listProviders(actor: Actor) {
  authorize(actor, 'listProviders');
  return { data: providerRules, pagination: { nextCursor: null, hasMore: false } };
}
