// The long-lived tokens of Meta's own logins (Threads', Instagram's), 60 days from an exchange or a refresh:
//   https://developers.facebook.com/docs/threads/get-started/long-lived-tokens (th_exchange_token, th_refresh_token)
//   https://developers.facebook.com/documentation/instagram-platform/reference/refresh_access_token (ig_refresh_token)
// Either refreshes only an unexpired token, so the stored `expiresAt` is `refreshMarginMs` before the real end: the
// service's refresh job renews tokens shortly before their `expiresAt`, so around day 50, and a service down for days
// still catches it.
import { ProviderError, type ProviderTokens } from '../adapter.ts';

export const refreshMarginMs = 10 * 86_400_000;

/** The exchange's or the refresh's answer: `{access_token, token_type, expires_in}`. */
export interface LongLived {
  access_token?: string;
  expires_in?: number;
}

export function longLivedTokens(network: string, body: LongLived, scope: string | undefined, extra?: Record<string, string>): ProviderTokens {
  if (!body.access_token) throw new ProviderError('PROVIDER_UNAVAILABLE', `${network} answered without a long-lived token.`, true);
  const expiresAt = body.expires_in === undefined ? undefined : new Date(Date.now() + body.expires_in * 1000 - refreshMarginMs).toISOString();
  return { accessToken: body.access_token, expiresAt, scope, ...(extra ? { extra } : {}) };
}
