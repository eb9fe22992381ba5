// The network integrations this installation can publish through, and connect accounts of, by provider name.
import { isGivenApp, type Config, type GivenApp } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { ProviderAdapter } from './adapter.ts';
import { BlueskyAdapter } from './bluesky/adapter.ts';
import { createFacebookAdapter } from './facebook/adapter.ts';
import { createInstagramAdapter } from './instagram/adapter.ts';
import { createLinkedInAdapter } from './linkedin/adapter.ts';
import { MastodonAdapter } from './mastodon/adapter.ts';
import { mastodonHttp } from './mastodon/api.ts';
import { callbackUrl } from './oauth2.ts';
import { createPinterestAdapter } from './pinterest/adapter.ts';
import { SandboxAdapter } from './sandbox/adapter.ts';
import { createTikTokAdapter } from './tiktok/adapter.ts';
import { createThreadsAdapter } from './threads/adapter.ts';
import { createXAdapter } from './x/adapter.ts';
import { createYouTubeAdapter } from './youtube/adapter.ts';
import { allowedHostsFrom } from '../outbound/guard.ts';
import { limitNetworkAnswers } from './http.ts';
import { networkNamed } from './networks.ts';

export type ProviderAdapters = ReadonlyMap<string, ProviderAdapter>;

/** How one network's accounts are connected, kept fresh and let go: every adapter is one. */
export type AccountLink = Pick<ProviderAdapter, 'provider' | 'connector' | 'refresh' | 'revoke' | 'rulesFor'>;
export type AccountLinks = ReadonlyMap<string, AccountLink>;

interface AdapterDependencies {
  db: Database;
  secrets: SecretBox;
  config: Config;
  allowedHosts: ReadonlySet<string>;
}

/** What an OAuth network at fixed hosts is made from: the operator's app there and where the network sends people back. */
export interface OAuthAdapterDependencies extends AdapterDependencies {
  app: GivenApp;
  redirectUri: string;
}

/**
 * Networks connected through another network's app by default, whose settings make them: Instagram API with Facebook
 * Login is a product of the same Facebook app (Instagram Login, its other way, has its own: instagram/login.ts).
 */
export const appNetworks: Readonly<Record<string, string>> = { instagram: 'facebook' };

/**
 * The networks this service publishes to, each with how its adapter is made: a network missing here does not
 * publish. An OAuth network at fixed hosts has an adapter only where the operator gave its app (`oauth`).
 */
const publishingAdapters: Readonly<Record<string, (dependencies: AdapterDependencies) => ProviderAdapter | null>> = {
  sandbox: ({ db, config }) => new SandboxAdapter(db, config.publicBaseUrl, config.sandboxQuota),
  bluesky: ({ config, allowedHosts }) => new BlueskyAdapter({ allowedHosts, timeoutMs: config.networkTimeoutMs }),
  mastodon: ({ db, secrets, config, allowedHosts }) =>
    new MastodonAdapter({ db, secrets, publicBaseUrl: config.publicBaseUrl, http: mastodonHttp({ allowedHosts, timeoutMs: config.networkTimeoutMs }) }),
  x: oauth('x', (deps) => createXAdapter(deps)),
  linkedin: oauth('linkedin', createLinkedInAdapter),
  facebook: oauth('facebook', createFacebookAdapter),
  instagram: (dependencies) =>
    createInstagramAdapter({
      ...dependencies,
      apps: { facebook_login: appOrSettings(dependencies.config, 'facebook'), instagram_login: appOrSettings(dependencies.config, 'instagram') },
      redirectUri: callbackUrl(dependencies.config.publicBaseUrl, 'instagram'),
    }),
  threads: oauth('threads', createThreadsAdapter),
  pinterest: oauth('pinterest', createPinterestAdapter),
  tiktok: oauth('tiktok', createTikTokAdapter),
  youtube: oauth('youtube', createYouTubeAdapter),
};

/** An OAuth network's adapter, made only where `<NETWORK>_CLIENT_ID` and `_CLIENT_SECRET` are set. */
function oauth(network: string, adapterFor: (dependencies: OAuthAdapterDependencies) => ProviderAdapter) {
  return (dependencies: AdapterDependencies) => {
    const app = dependencies.config.networks[network];
    if (!isGivenApp(app)) return null;
    return adapterFor({ ...dependencies, app, redirectUri: callbackUrl(dependencies.config.publicBaseUrl, network) });
  };
}

/** The operator's app at the network, or the settings that would give it. */
function appOrSettings(config: Config, network: string): GivenApp | { missingSettings: string[] } {
  const app = config.networks[network];
  if (isGivenApp(app)) return app;
  const prefix = networkNamed(network)!.app!.settingsPrefix;
  return { missingSettings: [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`] };
}

/** Whether posts can be published to the network here, so whether its accounts may connect and be targets. */
export function publishes(network: string): boolean {
  return Object.hasOwn(publishingAdapters, network);
}

export function createProviderAdapters(db: Database, secrets: SecretBox, config: Config): ProviderAdapters {
  limitNetworkAnswers(config.networkAnswerMaxBytes);
  const dependencies: AdapterDependencies = { db, secrets, config, allowedHosts: allowedHostsFrom(config.networkAllowedHosts) };
  return new Map(
    Object.entries(publishingAdapters).flatMap(([network, adapterFor]) => {
      const adapter = adapterFor(dependencies);
      return adapter ? [[network, adapter] as const] : [];
    }),
  );
}

/** The networks accounts can be connected to here: those with an adapter (an OAuth network's only where its app is given). */
export function createAccountLinks(adapters: ProviderAdapters): AccountLinks {
  return adapters;
}
