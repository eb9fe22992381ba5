// What every network integration implements, designed for all ten networks: OAuth 2.0 networks (X, LinkedIn,
// Meta's three, TikTok, YouTube, Pinterest, Mastodon), credential networks (Bluesky app passwords) and the
// built-in sandbox. The shared machinery they are built from is in kit/: publishing as checkpointed steps
// (steps.ts), uploads by byte range and streamed bodies (upload.ts), OAuth profiles (oauthLink.ts), quotas as data
// (quotas.ts), and HTTP with retries and each network's classifier of error answers (http.ts).
//
// Publishing never posts a target twice: the worker commits the attempt before calling `publish`, records
// `remoteId` the moment the network confirms, and gives every attempt the checkpoint the earlier ones saved. Each
// adapter declares how it avoids a duplicate (`duplicates`): the network's idempotency key (the target id), a
// deterministic id, or a look-up at the network of a step an earlier attempt started (`findPublished`, or a step's
// `ifInterrupted`).
//
// Networks that finish asynchronously (Meta's containers, YouTube's processing, TikTok's status polling, X's and
// Mastodon's media processing) answer `publish` with `{ status: 'processing', handle }`: the target stays
// `publishing` without holding a worker, and a status-check job later calls `checkStatus(handle)`, or `publish`
// again (it resumes from its checkpoint) where the adapter has no `checkStatus`.
import type { Readable } from 'node:stream';
import type { Quota } from './kit/quotas.ts';
import type { Checkpoint } from './kit/steps.ts';
import type { FirstCommentResult } from './kit/thread.ts';
import type { AccountRules, ProviderRules } from './rules.ts';
import { shownReason } from './shownReason.ts';

export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string;
  /** ISO 8601; absent when the network's tokens do not expire. */
  expiresAt?: string;
  scope?: string;
  /** Network-specific extras (PDS URL and DID for Bluesky, instance URL for Mastodon, page id for Facebook). */
  extra?: Record<string, string>;
}

/** Who an account is at its network. */
export interface RemoteIdentity {
  remoteId: string;
  username: string;
  displayName: string;
  avatarUrl?: string | null;
}

export interface ConnectedAccount {
  id: string;
  provider: string;
  username: string;
  remoteId: string | null;
  tokens: ProviderTokens | null;
}

/** The operator's app at a network (from `<NETWORK>_CLIENT_ID`/`_SECRET`, or registered per Mastodon instance). */
export interface OAuthClient {
  clientId: string;
  clientSecret?: string;
  /** Where the network sends the person back: `<PUBLIC_BASE_URL>/oauth/callback/<provider>`. */
  redirectUri: string;
}

/** The network's OAuth 2.0 endpoints and what to ask for, for one authorization. */
export interface OAuthServer {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint?: string;
  scopes: string[];
  /** Whether the network supports PKCE (S256); it is used wherever it does. */
  pkce: boolean;
  /** How these endpoints are reached (http.ts `networkFetch`): through the SSRF guard where a network named them. */
  fetch: typeof fetch;
  /** Extra query parameters the network's authorization URL needs. */
  authorizationParams?: Record<string, string>;
  /**
   * How the app authenticates at the token endpoint: HTTP Basic (RFC 6749 2.3.1's default, X), the secret in the
   * form (`post`: LinkedIn, Meta, TikTok), or not at all (a public client). Default: basic with a secret, else none.
   */
  clientAuthentication?: 'basic' | 'post' | 'none';
  /** The client id's parameter name where the network renames it (TikTok's `client_key`); default `client_id`. */
  clientIdParameter?: string;
  /** How the scopes are joined in the authorization URL (RFC 6749: a space; Meta and TikTok: a comma). */
  scopeSeparator?: string;
}

/** Where an authorization happens: the network's base URLs, or the person's instance (Mastodon). */
export interface AuthorizationContext {
  redirectUri: string;
  /** Mastodon: the instance the person chose. Already checked by the SSRF guard. */
  instanceUrl?: string;
  /** The way of connecting chosen, one of the connector's `methods` (its first where none was asked for). */
  method?: string;
}

export interface ReachedIdentity {
  identity: RemoteIdentity;
  tokens: ProviderTokens;
  /** The account's network where it is not the one connected. */
  provider?: string;
  /** How it was connected, where its network offers more than one way (the connector's `methods`). */
  method?: string;
}

/** Networks connected through OAuth 2.0 authorization code (+ PKCE). The flow itself is shared (src/accounts/). */
export interface ConnectionMethod {
  name: string;
  missingSettings?: readonly string[];
}

export interface OAuthConnector {
  readonly method: 'oauth2';
  /** The person names their server (Mastodon's instance): connecting then requires `instanceUrl`. */
  readonly instanceRequired?: boolean;
  /**
   * Where a network is connected in more than one way (Instagram: Facebook Login or Instagram Login), each way, the
   * first the default; `missingSettings` names the operator's settings a way needs where they are not set.
   */
  readonly methods?: readonly ConnectionMethod[];
  /** The app and endpoints to use; Mastodon registers (and keeps) an app per instance here. */
  prepare(context: AuthorizationContext): Promise<{ client: OAuthClient; server: OAuthServer }>;
  /**
   * Who the tokens belong to; several accounts where one authorization reaches several (Facebook pages, LinkedIn
   * organizations), each of another network where it names one (Facebook Login reaches Instagram accounts too).
   * The place for what a network does right after the code exchange (Meta's long-lived token).
   */
  identities(tokens: ProviderTokens, context: AuthorizationContext): Promise<ReachedIdentity[]>;
}

/** Networks connected with credentials the person gives us (Bluesky: identifier + app password + PDS; Telegram: bot token + chat). */
export interface CredentialConnector {
  readonly method: 'credentials';
  /**
   * Signs in with the fields the network declares (network.ts `connection.fields`), already checked against them; a
   * refusal by the network is a ProviderError with code CREDENTIALS_REJECTED (naming the `field` where it knows which).
   */
  connect(credentials: Record<string, string>): Promise<{ identity: RemoteIdentity; tokens: ProviderTokens }>;
}

/** The sandbox: nothing to check at a network. */
export interface LocalConnector {
  readonly method: 'local';
}

export type Connector = OAuthConnector | CredentialConnector | LocalConnector;

export interface PublishMedia {
  id: string;
  kind: 'image' | 'video' | 'gif';
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  altText: string | null;
  /** A signed URL of this service, for networks that fetch media themselves (Meta, Pinterest, TikTok pull). */
  url: string;
  /** The signed URL of the image's JPEG rendition (a JPEG's own), for networks that fetch JPEG images only (Instagram). */
  jpegUrl: string;
  /** The file's bytes, or a range of them, for networks that take uploads (Bluesky blobs, Mastodon media, X segments, YouTube). */
  open(range?: { start: number; end: number }): Promise<Readable>;
}

/** One post of a thread: its text and files. */
export interface PublishPart {
  caption: string;
  media: PublishMedia[];
}

export interface PublishRequest {
  account: ConnectedAccount;
  placement: string;
  caption: string;
  media: PublishMedia[];
  /** The parts after the first post, each posted as a reply to the one before (kit/thread.ts); [] when none. */
  thread: PublishPart[];
  /** `targets[].settings.firstComment`: posted once on the published item by the same account (kit/thread.ts). */
  firstComment: string | null;
  /** `targets[].settings`, validated against `rules.settings`, defaults applied. */
  settings: Record<string, unknown>;
  /** The library files settings name (a setting ending in `MediaId`: YouTube's thumbnail, Pinterest's cover), by setting. */
  settingsMedia?: Readonly<Record<string, PublishMedia>>;
  /** Stable per target; networks that support idempotency keys receive it, the others use it to find earlier attempts. */
  idempotencyKey: string;
  /** What earlier attempts did at the network (kit/steps.ts wraps it). */
  checkpoint: Checkpoint;
  signal: AbortSignal;
}

export interface PublishedItem {
  remoteId: string;
  remoteUrl: string;
  /** Every part of a thread including the first, in order (threads only). */
  parts?: PublishedItem[];
  /** What became of the request's `firstComment`. */
  firstComment?: FirstCommentResult;
  /** What the network refused of the post without refusing the post (YouTube's custom thumbnail): the target's `error`. */
  warning?: { code: string; message: string };
}

export type PublishOutcome =
  | { status: 'published'; item: PublishedItem }
  /** Accepted, still being processed at the network: check again with `checkStatus(handle)` after `checkAfterMs`. */
  | { status: 'processing'; handle: string; checkAfterMs: number };

/** The target error codes of the contract ("Publishing to real networks"). */
export type ProviderErrorCode =
  | 'PROVIDER_REJECTED'
  | 'PROVIDER_UNAVAILABLE'
  | 'ACCOUNT_NEEDS_RECONNECT'
  | 'ACCOUNT_DISCONNECTED'
  | 'RATE_LIMITED_BY_PROVIDER'
  | 'CREDENTIALS_REJECTED'
  | (string & {});

/**
 * A failure reported by a network, carrying its own reason in `message`, made fit to show people (`shownReason`)
 * here, once, whichever network or call it came from. `transient` ones are retried (after
 * `retryAfterMs` when the network said when); `tokenRejected` means the network refused the access token (401):
 * the worker refreshes once and tries again, and an account whose tokens cannot be refreshed needs reconnecting.
 */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly transient: boolean;
  readonly retryAfterMs: number | undefined;
  readonly tokenRejected: boolean;
  /** For CREDENTIALS_REJECTED: the credential field the network refused, where it says which (a Telegram chat the bot is not in). */
  readonly field: string | undefined;

  constructor(code: ProviderErrorCode, message: string, transient: boolean, options: { retryAfterMs?: number; tokenRejected?: boolean; field?: string } = {}) {
    super(shownReason(message));
    this.name = 'ProviderError';
    this.code = code;
    this.transient = transient;
    this.retryAfterMs = options.retryAfterMs;
    this.tokenRejected = options.tokenRejected ?? false;
    this.field = options.field;
  }
}

export interface ItemMetrics {
  impressions?: number;
  reach?: number;
  likes?: number;
  comments?: number;
  shares?: number;
  saves?: number;
  clicks?: number;
  videoViews?: number;
}

/** One value a setting may take for an account, with what people see for it (a board's name). */
export interface SettingChoice {
  value: string;
  label: string;
}

/** What one account may choose for one setting, read from its network (`settingOptions`). */
export interface SettingOption {
  /** The values allowed, in the network's order; absent where the setting's schema alone says what is allowed. */
  choices?: SettingChoice[];
  /** What a target that leaves the setting out gets. */
  default?: string | boolean;
  /** Why the account cannot use the setting (the creator turned duets off): it stays at `default` whatever a target says. */
  unavailable?: string;
  /** The settings its choices depend on (Reddit's `flairId` on `subreddit`): asked again, with their values given, when they change. */
  dependsOn?: string[];
}

/** The values of the settings some options depend on (`dependsOn`), as the caller gives them. */
export type GivenSettings = Readonly<Record<string, string>>;

/** Per setting name (as in `rules.settings`), what the account may choose; settings left out are as the schema says. */
export type SettingOptions = Record<string, SettingOption>;

/** How an adapter keeps a re-attempt from posting twice (see the top of this file). */
export type DuplicateGuard = 'idempotency-key' | 'deterministic-id' | 'look-up' | 'none';

export interface ProviderAdapter {
  readonly provider: string;
  readonly duplicates: DuplicateGuard;
  /** Charged before each publish; a publish that would exceed one waits for its window (kit/quotas.ts). */
  readonly quotas?: readonly Quota[];
  /** The network's rules, `settings` schema included (served by GET /providers). */
  readonly rules: ProviderRules;
  readonly connector: Connector;
  /**
   * Rules for one account where they differ per account (Mastodon reads its instance's limits; a LinkedIn page has
   * fewer visibilities), stored with it at connect; null where the catalog's hold.
   */
  rulesFor?(account: ConnectedAccount): Promise<AccountRules | null>;
  /** The account's own choices for settings where the network decides them per account (Pinterest's boards, TikTok's privacy levels). */
  settingOptions?(account: ConnectedAccount, signal: AbortSignal, given: GivenSettings): Promise<SettingOptions>;
  /**
   * New tokens for old ones. A refusal (revoked, invalid_grant) is ProviderError ACCOUNT_NEEDS_RECONNECT, not
   * transient; a network that cannot be reached is transient and the old tokens stay as they are.
   */
  refresh?(account: ConnectedAccount): Promise<ProviderTokens>;
  /** Revokes the tokens at the network, where it offers that (best effort on disconnect). */
  revoke?(account: ConnectedAccount): Promise<void>;
  publish(request: PublishRequest): Promise<PublishOutcome>;
  /** For `processing` outcomes: where the network's processing stands now. */
  checkStatus?(request: PublishRequest, handle: string): Promise<PublishOutcome>;
  /** The item an earlier attempt created, if it reached the network: asked before a re-attempt where `duplicates` is `look-up`. */
  findPublished?(request: PublishRequest): Promise<PublishedItem | null>;
  metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics>;
}
