// What every network integration implements. Publishing is split so that a target is never posted twice:
// the publish pipeline records `remoteId` the moment `publish` returns, and before any re-attempt asks
// `findPublished` whether an earlier attempt reached the network after all (see src/posts/ once it lands).
import type { ProviderRules } from './rules.ts';

export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: string;
  /** Network-specific extras (instance URL for Mastodon, page id for Facebook, board id for Pinterest). */
  extra?: Record<string, string>;
}

export interface ConnectedAccount {
  id: string;
  provider: string;
  username: string;
  remoteId: string | null;
  tokens: ProviderTokens | null;
}

export interface PublishRequest {
  account: ConnectedAccount;
  placement: string;
  caption: string;
  media: { id: string; kind: string; url: string; altText: string | null }[];
  /** Stable per target; networks that support idempotency keys receive it, the others use it to find earlier attempts. */
  idempotencyKey: string;
  signal: AbortSignal;
}

export interface PublishedItem {
  remoteId: string;
  remoteUrl: string;
}

/** A failure reported by a network: `transient` ones are retried with backoff, the others fail the target. */
export class ProviderError extends Error {
  readonly code: string;
  readonly transient: boolean;

  constructor(code: string, message: string, transient: boolean) {
    super(message);
    this.name = 'ProviderError';
    this.code = code;
    this.transient = transient;
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

export interface ProviderAdapter {
  readonly rules: ProviderRules;
  /** Checks tokens given at connection time and returns the account's identity at the network. */
  verifyConnection(tokens: ProviderTokens | null, username: string): Promise<{ remoteId: string; displayName?: string }>;
  publish(request: PublishRequest): Promise<PublishedItem>;
  /** The item an earlier attempt with this idempotency key created, if it reached the network. */
  findPublished(request: PublishRequest): Promise<PublishedItem | null>;
  metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics>;
}
