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
//   Permissions  the get-started page: threads_manage_replies "Required for making POST calls to reply endpoints",
//     threads_read_replies "Required for making GET calls to reply endpoints" (a thread's parts and a first comment
//     are replies, an interrupted one is looked up at GET /{user}/replies); the newer "Create Replies" page only asks
//     to own the root post. Unsettled, so both are asked for, and replies work either way.
//   Debug Access Token  https://developers.facebook.com/documentation/threads/troubleshooting/debug-access-token
//     (GET /v1.0/debug_token?input_token=&access_token= → `data.scopes`): the token answer names no scopes, so the
//     grant is read there and one without what publishing needs is refused at connect. Meta documents the call with
//     a Threads tester's token; where it is refused, what was granted cannot be known and is not checked.
import type { GivenApp } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import { refuseMissingScopes, tokensOf, type OAuthProfile } from '../kit/oauthLink.ts';
import type { Graph } from '../meta/graph.ts';
import { longLivedTokens, type LongLived } from '../meta/longLived.ts';

/** Profile, publishing, insights, and replies (a thread's parts, first comments) and reading them (finding an interrupted one). */
export const threadsScopes = ['threads_basic', 'threads_content_publish', 'threads_manage_insights', 'threads_manage_replies', 'threads_read_replies'];

/** What any publish needs: replies may or may not need their own (see above). */
const requiredScopes = {
  scopes: ['threads_basic', 'threads_content_publish'],
  advice: 'connect again and allow publishing, or ask the app administrator to add the permission to the app',
};

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
      const scope = await grantedScopes(graph, exchanged.access_token);
      const longLived = longLivedTokens('Threads', exchanged, scope ?? tokens.scope);
      refuseMissingScopes({ network: 'Threads', requiredScopes }, longLived);
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
    requiredScopes,
    // Threads' own exchange; a token it refuses (expired: 190) is ACCOUNT_NEEDS_RECONNECT through Meta's classifier.
    refresh: async (account) => {
      const current = tokensOf(account);
      const body = await oauth.get<LongLived>('/refresh_access_token', undefined, { grant_type: 'th_refresh_token', access_token: current.accessToken });
      return longLivedTokens('Threads', body, current.scope);
    },
  };
}

/** The scopes the token was granted (debug_token), comma-separated; undefined where Threads would not say. */
async function grantedScopes(graph: Graph, token: string | undefined): Promise<string | undefined> {
  if (!token) return undefined;
  try {
    const body = await graph.get<{ data?: { scopes?: string[] } }>('/debug_token', token, { input_token: token });
    return body.data?.scopes?.join(',');
  } catch (error) {
    if (error instanceof ProviderError && !error.transient && !error.tokenRejected) return undefined;
    throw error;
  }
}
