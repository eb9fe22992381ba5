// The network integrations this installation can publish through, and connect accounts of, by provider name.
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { ProviderAdapter } from './adapter.ts';
import { BlueskyAdapter } from './bluesky/adapter.ts';
import { MastodonAdapter } from './mastodon/adapter.ts';
import { mastodonHttp } from './mastodon/api.ts';
import { callbackUrl } from './oauth2.ts';
import { SandboxAdapter } from './sandbox/adapter.ts';
import { xAccountLink } from './x/connector.ts';
import { allowedHostsFrom } from '../webhooks/destination.ts';

export type ProviderAdapters = ReadonlyMap<string, ProviderAdapter>;

/**
 * How one network's accounts are connected, kept fresh and let go. Every adapter is one; a network whose
 * publishing is not built yet can offer just this (X), so its accounts can be connected already.
 */
export type AccountLink = Pick<ProviderAdapter, 'provider' | 'connector' | 'refresh' | 'revoke' | 'rulesFor'>;
export type AccountLinks = ReadonlyMap<string, AccountLink>;

export function createProviderAdapters(db: Database, secrets: SecretBox, config: Config): ProviderAdapters {
  const { publicBaseUrl } = config;
  const allowedHosts = allowedHostsFrom(config.networkAllowedHosts);
  return new Map<string, ProviderAdapter>([
    ['sandbox', new SandboxAdapter(db, publicBaseUrl)],
    ['bluesky', new BlueskyAdapter({ allowedHosts, timeoutMs: config.networkTimeoutMs })],
    ['mastodon', new MastodonAdapter({ db, secrets, publicBaseUrl, http: mastodonHttp({ allowedHosts, timeoutMs: config.networkTimeoutMs }) })],
  ]);
}

/**
 * The networks accounts can be connected to here: those with an adapter, and the OAuth networks whose app
 * credentials (`<NETWORK>_CLIENT_ID`, `<NETWORK>_CLIENT_SECRET`) the operator has set. A network missing here is
 * not configured.
 */
export function createAccountLinks(config: Config, adapters: ProviderAdapters): AccountLinks {
  const links = new Map<string, AccountLink>(adapters);
  const x = config.networks.x;
  if (x.clientId && x.clientSecret && !links.has('x')) {
    links.set('x', xAccountLink({ ...x, clientId: x.clientId }, callbackUrl(config.publicBaseUrl, 'x'), config.networkTimeoutMs));
  }
  return links;
}
