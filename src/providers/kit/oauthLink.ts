// How an OAuth network at fixed hosts (X, LinkedIn, Meta's, TikTok, YouTube, Pinterest) is connected, kept fresh and
// let go, from its profile: the endpoints and how its token endpoint wants the app to authenticate (OAuthServer),
// who the tokens belong to, and how it refreshes. The flow itself (state, PKCE, the callback) is shared
// (src/accounts/connect.ts); what a network does right after the code exchange (Meta's long-lived token, LinkedIn's
// organizations) belongs in `identities`, which answers the tokens each account keeps.
import type { GivenApp } from '../network.ts';
import {
  ProviderError,
  type AuthorizationContext,
  type ConnectedAccount,
  type OAuthConnector,
  type OAuthServer,
  type ProviderAdapter,
  type ProviderTokens,
  type RemoteIdentity,
} from '../adapter.ts';
import { refreshTokens, revokeTokens, type OAuthApp } from '../oauth2.ts';

export interface OAuthProfile {
  /** As people know it ("LinkedIn"), in reasons. */
  network: string;
  /** The network's endpoints and client authentication, from the operator's settings for it. */
  server: (app: GivenApp) => Omit<OAuthServer, 'fetch'>;
  identities: (tokens: ProviderTokens, app: GivenApp) => Promise<{ identity: RemoteIdentity; tokens: ProviderTokens }[]>;
  /**
   * How tokens are renewed: `standard` (RFC 6749 6; a rotated refresh token replaces the old one, the worker stores
   * both at once), a network's own exchange (Meta's, Threads'), or `none` (tokens that do not expire, or a
   * network without refresh: the account reconnects when the network refuses them).
   */
  refresh: 'standard' | 'none' | ((account: ConnectedAccount, app: OAuthApp) => Promise<ProviderTokens>);
  /**
   * Where a network may grant fewer scopes than asked (people untick them, an app's settings withhold them): those
   * publishing cannot do without, checked against the token answer's `scope` before any account is made, and what
   * to do about a missing one. Where the token answer names no scope (Meta's), the profile's `identities` checks the
   * grant itself (Facebook's `/me/permissions`, Threads' `debug_token`).
   */
  requiredScopes?: { scopes: readonly string[]; advice: string };
}

export type OAuthLink = Pick<ProviderAdapter, 'connector' | 'refresh' | 'revoke'>;

export function tokensOf(account: ConnectedAccount): ProviderTokens {
  if (!account.tokens) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The account has no tokens: reconnect it.', false, { tokenRejected: true });
  return account.tokens;
}

/** The scopes the token answer says were granted (networks join them with spaces or commas); undefined where it named none. */
export function grantedScopes(tokens: ProviderTokens): ReadonlySet<string> | undefined {
  return tokens.scope === undefined ? undefined : new Set(tokens.scope.split(/[\s,]+/));
}

/** An account connected without a scope publishing needs would only fail at its first post: refused at once instead. */
export function refuseMissingScopes({ network, requiredScopes }: Pick<OAuthProfile, 'network' | 'requiredScopes'>, tokens: ProviderTokens): void {
  const granted = grantedScopes(tokens);
  if (!requiredScopes || !granted) return;
  const missing = requiredScopes.scopes.filter((scope) => !granted.has(scope));
  if (missing.length)
    throw new ProviderError('PROVIDER_REJECTED', `${network} did not grant ${missing.join(', ')}, which publishing needs: ${requiredScopes.advice}.`, false);
}

/** The connector, refresh and revocation of an OAuth network, for its adapter to include. */
export function oauthLink(profile: OAuthProfile, app: GivenApp, options: { redirectUri: string; timeoutMs: number; fetch: typeof fetch }): OAuthLink {
  const oauthApp = (redirectUri: string): OAuthApp => ({
    client: { clientId: app.clientId, clientSecret: app.clientSecret, redirectUri },
    server: { ...profile.server(app), fetch: options.fetch },
  });
  const connector: OAuthConnector = {
    method: 'oauth2',
    prepare: async (context: AuthorizationContext) => oauthApp(context.redirectUri),
    identities: (tokens) => {
      refuseMissingScopes(profile, tokens);
      return profile.identities(tokens, app);
    },
  };
  const { refresh } = profile;
  return {
    connector,
    ...(refresh === 'none'
      ? {}
      : {
          refresh: (account: ConnectedAccount) =>
            refresh === 'standard'
              ? refreshTokens(oauthApp(options.redirectUri), profile.network, tokensOf(account), options.timeoutMs)
              : refresh(account, oauthApp(options.redirectUri)),
        }),
    revoke: (account) => revokeTokens(oauthApp(options.redirectUri), profile.network, tokensOf(account), options.timeoutMs),
  };
}
