// Which networks have an inbox here, and how each one's InboxAdapter is made (src/providers/<network>/inbox.ts).
// GET /v1/providers shows `inbox` for every network: available, or why not.
import type { Config } from '../config.ts';
import { allowedHostsFrom } from '../outbound/guard.ts';
import { mastodonHttp } from '../providers/mastodon/api.ts';
import { MastodonInbox } from '../providers/mastodon/inbox.ts';
import type { InboxAdapter } from './adapter.ts';

export type InboxAdapters = ReadonlyMap<string, InboxAdapter>;

interface InboxDependencies {
  config: Config;
  allowedHosts: ReadonlySet<string>;
}

const inboxNetworks: Readonly<Record<string, (dependencies: InboxDependencies) => InboxAdapter>> = {
  mastodon: ({ config, allowedHosts }) => new MastodonInbox(mastodonHttp({ allowedHosts, timeoutMs: config.networkTimeoutMs })),
};

/** Why a network has no inbox here (shown in GET /v1/providers). */
const noInbox: Readonly<Record<string, string>> = {
  tiktok: "TikTok's API offers no reading or answering of comments.",
  pinterest: "Pinterest's API offers no reading or answering of comments.",
  sandbox: 'The sandbox publishes nowhere, so nobody comments.',
};
const notYet = 'Not collected by this version yet: its API allows it, and it is planned.';

export interface InboxSupport {
  available: boolean;
  /** Why not, where it is not. */
  reason: string | null;
}

export function inboxSupport(provider: string): InboxSupport {
  if (Object.hasOwn(inboxNetworks, provider)) return { available: true, reason: null };
  return { available: false, reason: noInbox[provider] ?? notYet };
}

export function createInboxAdapters(config: Config): InboxAdapters {
  const dependencies: InboxDependencies = { config, allowedHosts: allowedHostsFrom(config.networkAllowedHosts) };
  return new Map(Object.entries(inboxNetworks).map(([network, inboxFor]) => [network, inboxFor(dependencies)] as const));
}
