// Threads' own authorization (not Facebook Login): the Threads app id and secret of the operator's Meta app with the
// Threads use case, tokens of graph.threads.net.
//   Get started  https://developers.facebook.com/docs/threads/get-started (the Threads app id and secret; the
//     permissions threads_basic, threads_content_publish, threads_manage_insights)
//   Get access tokens  https://developers.facebook.com/documentation/threads/get-started/get-access-tokens-and-permissions
//     (<auth>/oauth/authorize with comma-separated scopes; POST <api>/oauth/access_token with client_id,
//     client_secret, code, grant_type, redirect_uri as parameters → `{access_token, user_id}`: one hour)
//   Long-lived tokens  https://developers.facebook.com/docs/threads/get-started/long-lived-tokens
//     (GET /access_token?grant_type=th_exchange_token, done at once: 60 days; GET /refresh_access_token
//     ?grant_type=th_refresh_token for a token at least 24 hours old and not expired: an expired one cannot be
//     refreshed, the person authorizes again)
//   User profile  https://developers.facebook.com/docs/threads/threads-profiles (GET /me?fields=id,username,name,…)
import type { GivenApp } from '../../config.ts';
import { ProviderError, type ProviderTokens } from '../adapter.ts';
import { tokensOf, type OAuthProfile } from '../kit/oauthLink.ts';
import type { Graph } from '../meta/graph.ts';

/** Profile, publishing, insights. */
export const threadsScopes = ['threads_basic', 'threads_content_publish', 'threads_manage_insights'];

/**
 * How long before Threads' 60 days end the tokens are refreshed. The service's refresh job renews tokens shortly
 * before their `expiresAt`, and an expired Threads token cannot be refreshed at all: the stored `expiresAt` is this
 * much before the real end, so the refresh happens around day 50 and a service down for days still catches it.
 */
export const refreshMarginMs = 10 * 86_400_000;

interface LongLived {
  access_token?: string;
  expires_in?: number;
}

function longLivedTokens(body: LongLived, scope: string | undefined): ProviderTokens {
  if (!body.access_token) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Threads answered without a long-lived token.', true);
  const expiresAt = body.expires_in === undefined ? undefined : new Date(Date.now() + body.expires_in * 1000 - refreshMarginMs).toISOString();
  return { accessToken: body.access_token, expiresAt, scope };
}

/** `oauth` calls the unversioned paths (`/access_token`), `graph` the versioned API (`/v1.0/me`). */
export function threadsLogin(oauth: Graph, graph: Graph): OAuthProfile {
  return {
    network: 'Threads',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/oauth/authorize`,
      tokenEndpoint: `${app.apiBaseUrl}/oauth/access_token`,
      scopes: threadsScopes,
      pkce: false,
      clientAuthentication: 'post',
      scopeSeparator: ',',
    }),
    identities: async (tokens, app) => {
      const exchanged = await oauth.get<LongLived>('/access_token', undefined, {
        grant_type: 'th_exchange_token',
        client_secret: app.clientSecret,
        access_token: tokens.accessToken,
      });
      const longLived = longLivedTokens(exchanged, tokens.scope);
      const me = await graph.get<{ id?: string; username?: string; name?: string; threads_profile_picture_url?: string }>('/me', longLived.accessToken, {
        fields: 'id,username,name,threads_profile_picture_url',
      });
      if (!me.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Threads did not say whose the token is.', true);
      const handle = me.username || me.id;
      return [
        {
          identity: { remoteId: me.id, username: handle, displayName: me.name || handle, avatarUrl: me.threads_profile_picture_url ?? null },
          tokens: longLived,
        },
      ];
    },
    // Threads' own exchange; a token it refuses (expired: 190) is ACCOUNT_NEEDS_RECONNECT through Meta's classifier.
    refresh: async (account) => {
      const current = tokensOf(account);
      const body = await oauth.get<LongLived>('/refresh_access_token', undefined, { grant_type: 'th_refresh_token', access_token: current.accessToken });
      return longLivedTokens(body, current.scope);
    },
  };
}
