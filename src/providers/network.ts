// What a network declares of itself, once, in src/providers/<network>/network.ts: its name and rules, how its
// accounts connect (an OAuth app of the operator's, the credential fields a person fills in, or nothing), the
// operator's settings it reads, and its adapter, loaded only when the service starts publishing. networks.ts lists
// the definitions; the settings (src/config.ts), the catalog, the registry, the contract's enums, the credential
// body of POST /v1/social-accounts and the dashboard's connect forms follow that list.
//
// Nothing here (nor in any adapter) imports from above src/providers/: the service hands each adapter what it needs
// (`AdapterDependencies`), and src/config.ts builds its Config on `NetworkConfig`.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { ProviderAdapter } from './adapter.ts';
import type { InboxAdapter } from './inbox.ts';
import type { LinkedInProducts } from './linkedin/products.ts';
import type { XApiTier } from './x/tiers.ts';
import { callbackUrl } from './oauth2.ts';
import type { ProviderRules } from './rules.ts';

/**
 * The operator's app at an OAuth network with fixed endpoints: `<settingsPrefix>_CLIENT_ID` and `_CLIENT_SECRET` (without
 * both the network is not configured), `_API_BASE_URL` and `_AUTH_BASE_URL` (these the defaults, the real network's).
 */
export interface NetworkApp {
  settingsPrefix: string;
  apiBaseUrl: string;
  /** Where the person signs in and authorizes the app. */
  authBaseUrl: string;
  /** Where the token and revocation endpoints are when on neither of those hosts (Google's): `<settingsPrefix>_TOKEN_BASE_URL`. */
  tokenBaseUrl?: string;
  /** Where uploads go when on a host of their own (Facebook reels' rupload host): `<settingsPrefix>_UPLOAD_BASE_URL`. */
  uploadBaseUrl?: string;
  /** The app's bot publishes, with its token (Discord's): `<settingsPrefix>_BOT_TOKEN`, which the network needs beside the id and secret. */
  botToken?: boolean;
}

/** A network's app as the operator set it, named by its `settingsPrefix` (src/config.ts reads them). */
export interface NetworkSettings {
  /** `<NETWORK>_CLIENT_ID` / `_CLIENT_SECRET`: without both the network is not configured. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** `<NETWORK>_API_BASE_URL` */
  apiBaseUrl: string;
  /** `<NETWORK>_AUTH_BASE_URL`: where the person signs in and authorizes the app. */
  authBaseUrl: string;
  /** `<NETWORK>_TOKEN_BASE_URL`, for a network whose token endpoints are on a third host (YouTube's). */
  tokenBaseUrl?: string;
  /** `<NETWORK>_UPLOAD_BASE_URL`, for a network whose uploads go to a third host (Facebook reels'). */
  uploadBaseUrl?: string;
  /** `<NETWORK>_BOT_TOKEN`, for a network whose app publishes as its bot (Discord's); present (maybe unset) only there. */
  botToken?: string | undefined;
}

/** A network's app with its client id and secret set (and its bot token, where its app has a bot): the network is configured. */
export type GivenApp = NetworkSettings & { clientId: string; clientSecret: string };

export const isGivenApp = (app: NetworkSettings | undefined): app is GivenApp =>
  Boolean(app?.clientId && app.clientSecret && (!('botToken' in app) || app.botToken));

/**
 * One thing a person types to connect an account of a credential network (GET /v1/providers `connection.fields`):
 * checked here, generically, before the network is asked (400 with `details` on `credentials.<name>`).
 */
export interface CredentialField {
  name: string;
  /** What the form calls it (English; the dashboard shows it as the network names it). */
  label: string;
  /** Kept sealed with the tokens, never shown again, typed into a password input. */
  secret: boolean;
  /** `url`: an address of the person's server, checked by the SSRF guard (NETWORK_ALLOWED_HOSTS); `text`: as typed. */
  format: 'text' | 'url';
  required: boolean;
  maxLength: number;
  /** A regular expression (JSON Schema `pattern`, whole value) the value must match. */
  pattern?: string;
  /** Where a person finds the value. */
  help: string;
}

/** How accounts of the network are connected. */
export type ConnectionProfile =
  /** POST /v1/social-accounts/connect, through the network's OAuth. */
  | { method: 'oauth2' }
  /** POST /v1/social-accounts {provider, credentials: {...}}. */
  | { method: 'credentials'; fields: readonly CredentialField[] }
  /** The sandbox: POST /v1/social-accounts {provider, username}. */
  | { method: 'local' };

/** The operator's settings adapters read (src/config.ts names, checks and documents each; its Config extends this). */
export interface NetworkConfig {
  /** Each OAuth network with fixed endpoints (src/providers/networks.ts), by name: the operator's app there and where its API and sign-in live. */
  networks: Readonly<Record<string, NetworkSettings>>;
  /** Hosts (names or addresses) a person's network URLs (Mastodon instance, Bluesky PDS) may name even when private, and over http. */
  networkAllowedHosts: string | undefined;
  /** How long one call to a network may take while connecting, refreshing or revoking. */
  networkTimeoutMs: number;
  /** NETWORK_ANSWER_MAX_BYTES: the most of any one answer a network (or a host it names) gives that is read; a longer one fails the call. */
  networkAnswerMaxBytes: number;
  /** LINKEDIN_VERSION: the `LinkedIn-Version` (YYYYMM) of LinkedIn's versioned API to ask for. */
  linkedinVersion: string;
  /** LINKEDIN_PRODUCTS: the products of the operator's LinkedIn app, which decide the scopes asked for (linkedin/accounts.ts). */
  linkedinProducts: LinkedInProducts;
  /** META_GRAPH_API_VERSION: the Graph API version (`v23.0`) Facebook Pages and Instagram are called with, in every path. */
  metaGraphVersion: string;
  /** `X_POSTS_PER_DAY`: posts per X account per day, as the operator's X API access allows (the tier's per-user cap: Free about 17, Basic 100). */
  xPostsPerDay: number;
  /** `X_API_TIER`: the X API access tier of the operator's app (x/tiers.ts), which decides what X's inbox may read. */
  xApiTier: XApiTier;
  /** `THREADS_POSTS_PER_DAY`: posts per Threads profile per day (Threads allows 250 API-published posts in 24 hours). */
  threadsPostsPerDay: number;
  /** `TIKTOK_POSTS_PER_DAY`: posts per TikTok creator per day (TikTok caps API posts a day without publishing the figure). */
  tiktokPostsPerDay: number;
  /** `TIKTOK_INITS_PER_MINUTE`: post initializations per creator token a minute (TikTok documents 6; apps granted more raise it). */
  tiktokInitsPerMinute: number;
  /** `TIKTOK_PULL_FROM_URL`: TikTok fetches videos from the signed URLs (the operator verified the domain at TikTok) instead of our upload. */
  tiktokPullFromUrl: boolean;
  /** `YOUTUBE_DAILY_QUOTA_UNITS`: the YouTube Data API units the operator's Google Cloud project has a day (10,000 unless raised). */
  youtubeDailyQuotaUnits: number;
  /** `YOUTUBE_DAILY_UPLOADS`: videos.insert calls a day of the operator's project, a bucket of its own (100 unless raised). */
  youtubeDailyUploads: number;
  /** `APP_QUOTA_WORKSPACE_SHARE`: the percentage of an app-wide quota (YouTube's) one workspace may use in a window while another has the network (100: no share). */
  appQuotaWorkspaceShare: number;
  /** `<NETWORK>_API_BASE_URL` of each network without an app of the operator's that has fixed hosts (Telegram's Bot API), by name. */
  apiBaseUrls: Readonly<Record<string, string>>;
  /** SANDBOX_QUOTA `<posts>/<seconds>`: a quota per account for the sandbox network, to try waiting targets; none by default. */
  sandboxQuota: { posts: number; seconds: number } | null;
}

/** What the service hands every adapter as it makes it. */
export interface AdapterDependencies {
  db: Database;
  secrets: SecretBox;
  config: NetworkConfig;
  /** PUBLIC_BASE_URL: where this service answers (signed media URLs, OAuth callbacks). */
  publicBaseUrl: string;
  /** NETWORK_ALLOWED_HOSTS, parsed. */
  allowedHosts: ReadonlySet<string>;
}

/** What an OAuth network at fixed hosts is made from: the operator's app there and where the network sends people back. */
export interface OAuthAdapterDependencies extends AdapterDependencies {
  app: GivenApp;
  redirectUri: string;
}

/** A network's adapter, made from what the service hands it: null where the operator has not configured the network. */
export type AdapterFactory = (dependencies: AdapterDependencies) => ProviderAdapter | null;

/** A network's inbox adapter (./inbox.ts), made from what the service hands it: null where the operator has not configured the network. */
export type InboxFactory = (dependencies: AdapterDependencies) => InboxAdapter | null;

/**
 * Whether the network has an inbox here (GET /v1/providers `inbox`): the module of its InboxAdapter, or why there is
 * none; `unavailableWith`: why the operator's settings leave it without one (X's Free tier), null where they do not.
 */
export type InboxProfile = { adapter: () => Promise<InboxFactory>; unavailableWith?: (config: NetworkConfig) => string | null } | { unavailable: string };

export interface Network {
  name: string;
  displayName: string;
  rules: ProviderRules;
  connection: ConnectionProfile;
  /** Absent for networks that need no app of the operator's: Mastodon (one per instance, registered as needed), Bluesky, Telegram, the sandbox. */
  app?: NetworkApp;
  /**
   * The default of `<NAME>_API_BASE_URL` for a network at fixed hosts without an app of the operator's (Telegram's
   * Bot API): the setting lets a deployment point elsewhere (a self-hosted Bot API server, a test's stand-in).
   */
  apiBaseUrl?: string;
  /** Where the accounts connect through another network's app (Instagram with Facebook Login: `facebook`). */
  appOf?: string;
  /** The adapter's module, imported once as the service starts publishing (so a network's code loads only where it runs). */
  adapter: () => Promise<AdapterFactory>;
  /** Its inbox: absent where the network's API allows one and it is not built yet. */
  inbox?: InboxProfile;
}

/** A network's definition, its name and display name its rules'. */
export function defineNetwork(definition: Omit<Network, 'name' | 'displayName'>): Network {
  return { name: definition.rules.provider, displayName: definition.rules.displayName, ...definition };
}

/**
 * The factory of an OAuth network at fixed hosts: an adapter only where `<NETWORK>_CLIENT_ID` and `_CLIENT_SECRET` of
 * `appNetwork` (the network itself, or the one whose app it connects through) are set.
 */
export function oauthFactory<Made extends ProviderAdapter | InboxAdapter>(
  appNetwork: string,
  adapterFor: (dependencies: OAuthAdapterDependencies) => Made,
): (dependencies: AdapterDependencies) => Made | null {
  return (dependencies) => {
    const app = dependencies.config.networks[appNetwork];
    if (!isGivenApp(app)) return null;
    return adapterFor({ ...dependencies, app, redirectUri: callbackUrl(dependencies.publicBaseUrl, appNetwork) });
  };
}

/** The operator's app at the network, or the settings that would give it (`<settingsPrefix>_CLIENT_ID` and `_CLIENT_SECRET`). */
export function appOrSettings(config: NetworkConfig, network: string, settingsPrefix: string): GivenApp | { missingSettings: string[] } {
  const app = config.networks[network];
  if (isGivenApp(app)) return app;
  return { missingSettings: [`${settingsPrefix}_CLIENT_ID`, `${settingsPrefix}_CLIENT_SECRET`] };
}

/** A credential network's fields as the JSON Schema (2020-12) of its `credentials` object: what is checked, and what rest/openapi.yaml shows. */
export function credentialsSchema(fields: readonly CredentialField[]): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: fields.filter((field) => field.required).map((field) => field.name),
    properties: Object.fromEntries(
      fields.map((field) => [field.name, { type: 'string', minLength: 1, maxLength: field.maxLength, ...(field.pattern ? { pattern: field.pattern } : {}) }]),
    ),
  };
}
