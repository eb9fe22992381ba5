// Every network this service knows, by its provider name (`provider` in every API, `/oauth/callback/<name>`): each is
// declared once, in src/providers/<network>/network.ts (src/providers/network.ts says what a declaration holds), and
// listed here. The settings (src/config.ts), the catalog (GET /v1/providers), the registry, the credential body of
// POST /v1/social-accounts and the contract's Provider enums (the OpenAPI document's, filled in as it loads, and the
// graph's) follow this list; test/domain/networks.test.ts holds the operator's settings and the docs to it.
import type { Network } from './network.ts';
import { blueskyNetwork } from './bluesky/network.ts';
import { discordNetwork } from './discord/network.ts';
import { facebookNetwork } from './facebook/network.ts';
import { googleBusinessNetwork } from './google_business/network.ts';
import { instagramNetwork } from './instagram/network.ts';
import { linkedinNetwork } from './linkedin/network.ts';
import { mastodonNetwork } from './mastodon/network.ts';
import { pinterestNetwork } from './pinterest/network.ts';
import { redditNetwork } from './reddit/network.ts';
import { sandboxNetwork } from './sandbox/network.ts';
import { telegramNetwork } from './telegram/network.ts';
import { threadsNetwork } from './threads/network.ts';
import { tiktokNetwork } from './tiktok/network.ts';
import { xNetwork } from './x/network.ts';
import { youtubeNetwork } from './youtube/network.ts';

export type { Network } from './network.ts';

/** In the order GET /v1/providers lists them. */
export const networks: readonly Network[] = [
  blueskyNetwork,
  mastodonNetwork,
  xNetwork,
  linkedinNetwork,
  facebookNetwork,
  instagramNetwork,
  threadsNetwork,
  tiktokNetwork,
  youtubeNetwork,
  pinterestNetwork,
  telegramNetwork,
  redditNetwork,
  discordNetwork,
  googleBusinessNetwork,
  sandboxNetwork,
];

export function networkNamed(name: string): Network | undefined {
  return networks.find((entry) => entry.name === name);
}
