// The network integrations this installation can publish through, and connect accounts of, by provider name.
import { isGivenApp, type Config, type GivenApp } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { ProviderAdapter } from './adapter.ts';
import { BlueskyAdapter } from './bluesky/adapter.ts';
import { MastodonAdapter } from './mastodon/adapter.ts';
import { mastodonHttp } from './mastodon/api.ts';
import { callbackUrl } from './oauth2.ts';
import { SandboxAdapter } from './sandbox/adapter.ts';
import { xAccountLink } from './x/connector.ts';
import { allowedHostsFrom } from '../outbound/guard.ts';

export type ProviderAdapters = ReadonlyMap<string, ProviderAdapter>;

/**
 * How one network's accounts are connected, kept fresh and let go. Every adapter is one; a network whose
 * publishing is not built yet can offer just this (X), so its accounts can be connected already.
 */
export type AccountLink = Pick<ProviderAdapter, 'provider' | 'connector' | 'refresh' | 'revoke' | 'rulesFor'>;
export type AccountLinks = ReadonlyMap<string, AccountLink>;

/** The networks with an app of the operator's whose accounts can be connected while publishing there is not built yet. */
const connectOnlyLinks: Readonly<Record<string, (app: GivenApp, redirectUri: string, timeoutMs: number) => AccountLink>> = { x: xAccountLink };

export function createProviderAdapters(db: Database, secrets: SecretBox, config: Config): ProviderAdapters {
  const { publicBaseUrl } = config;
  const allowedHosts = allowedHostsFrom(config.networkAllowedHosts);
  const adapters: ProviderAdapter[] = [
    new SandboxAdapter(db, publicBaseUrl),
    new BlueskyAdapter({ allowedHosts, timeoutMs: config.networkTimeoutMs }),
    new MastodonAdapter({ db, secrets, publicBaseUrl, http: mastodonHttp({ allowedHosts, timeoutMs: config.networkTimeoutMs }) }),
  ];
  return new Map(adapters.map((adapter) => [adapter.provider, adapter]));
}

/**
 * The networks accounts can be connected to here: those with an adapter, and the OAuth networks whose app
 * credentials (`<NETWORK>_CLIENT_ID`, `<NETWORK>_CLIENT_SECRET`) the operator has set. A network missing here is
 * not configured.
 */
export function createAccountLinks(config: Config, adapters: ProviderAdapters): AccountLinks {
  const links = new Map<string, AccountLink>(adapters);
  for (const [network, app] of Object.entries(config.networks)) {
    const connectOnly = connectOnlyLinks[network];
    if (connectOnly && isGivenApp(app) && !links.has(network)) {
      links.set(network, connectOnly(app, callbackUrl(config.publicBaseUrl, network), config.networkTimeoutMs));
    }
  }
  return links;
}
