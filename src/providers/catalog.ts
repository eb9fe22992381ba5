import type { ProviderRules } from './rules.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Connector } from './adapter.ts';
import type { AccountLinks } from './registry.ts';
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

/**
 * The rules a post for this account is checked against: the limits the network gave for the account where it
 * gives them per account (a Mastodon instance's), else the catalog's. Settings always come from the catalog.
 */
export function rulesForAccount(account: { provider: string; rules?: unknown }): ProviderRules | undefined {
  const catalog = rulesOf(account.provider);
  if (!catalog || !account.rules || typeof account.rules !== 'object') return catalog;
  return { ...catalog, ...(account.rules as Partial<ProviderRules>), provider: catalog.provider, settings: catalog.settings };
}

export interface ProviderEntry extends ProviderRules {
  /** Whether accounts of this network can be connected on this installation (its app credentials are set). */
  configured: boolean;
  /** How they are connected: OAuth 2.0 (POST /social-accounts/connect), credentials or locally (POST /social-accounts). */
  connection: Connector['method'] | null;
}

/** GET /providers: any authenticated caller may read the rules; the catalog is one page. */
export function listProviders(actor: Actor, links: AccountLinks): { data: ProviderEntry[]; pagination: { nextCursor: null; hasMore: false } } {
  authorize(actor, 'listProviders');
  const data = providerRules.map((rules) => {
    const connector = links.get(rules.provider)?.connector;
    return { ...rules, configured: connector !== undefined, connection: connector?.method ?? null };
  });
  return { data, pagination: { nextCursor: null, hasMore: false } };
}
