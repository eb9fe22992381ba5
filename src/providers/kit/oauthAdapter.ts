// What every adapter of an OAuth network at fixed hosts starts from: the options the registry gives it, and the
// connecting half of ProviderAdapter (connector, refresh, revoke) from its OAuth link, so that an adapter writes only
// its publishing.
import type { GivenApp } from '../network.ts';
import type { OAuthConnector, ProviderAdapter } from '../adapter.ts';
import { networkFetch } from '../http.ts';
import { NetworkAdapter, type NetworkTraits } from './networkAdapter.ts';
import { oauthLink, type OAuthLink, type OAuthProfile } from './oauthLink.ts';

/** The options every such adapter takes (its own add to them). */
export interface OAuthAdapterOptions {
  app: GivenApp;
  redirectUri: string;
  timeoutMs: number;
  /** NETWORK_ALLOWED_HOSTS: URLs the network hands over (upload URLs) may name only public hosts, or these. */
  allowedHosts: ReadonlySet<string>;
  retryDelayMs?: number;
}

/** Where the network's API client calls, from the adapter's options. */
export function apiOptions(options: OAuthAdapterOptions) {
  return { baseUrl: options.app.apiBaseUrl, timeoutMs: options.timeoutMs, allowedHosts: options.allowedHosts, retryDelayMs: options.retryDelayMs };
}

/** The link of a profile at the operator's app (the network's fixed hosts, the operator's settings). */
export function linkOf(profile: OAuthProfile, options: Pick<OAuthAdapterOptions, 'app' | 'redirectUri' | 'timeoutMs'>): OAuthLink {
  return oauthLink(profile, options.app, { redirectUri: options.redirectUri, timeoutMs: options.timeoutMs, fetch: networkFetch() });
}

export abstract class OAuthAdapter extends NetworkAdapter implements Pick<ProviderAdapter, 'connector' | 'refresh' | 'revoke'> {
  readonly connector: OAuthConnector;
  readonly refresh: ProviderAdapter['refresh'];
  readonly revoke: ProviderAdapter['revoke'];

  constructor(traits: NetworkTraits, link: OAuthLink) {
    super(traits);
    this.connector = link.connector as OAuthConnector;
    this.refresh = link.refresh;
    this.revoke = link.revoke;
  }
}
