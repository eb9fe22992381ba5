// Instagram's two ways of connecting, one account kind each: Facebook Login (../meta/login.ts: professional accounts
// linked to a Facebook Page, called at graph.facebook.com with the Page's token) and Business Login for Instagram
// (accounts without a Page, called at graph.instagram.com with the account's own token):
//   Business Login  https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
//     (www.instagram.com/oauth/authorize with comma-separated scopes; POST api.instagram.com/oauth/access_token with
//     client_id, client_secret, grant_type, redirect_uri and code as parameters → a short-lived token (an hour), the
//     Instagram-scoped user id and the permissions granted; the answer's shapes: ../tokenAnswers.ts)
//   Access Token  https://developers.facebook.com/documentation/instagram-platform/reference/access_token
//     (GET graph.instagram.com/access_token?grant_type=ig_exchange_token&client_secret&access_token: 60 days)
//   Refresh Access Token  https://developers.facebook.com/documentation/instagram-platform/reference/refresh_access_token
//     (GET graph.instagram.com/refresh_access_token?grant_type=ig_refresh_token for a token at least 24 hours old and
//     not expired; an expired one cannot be refreshed: the person logs in again)
//   Get started  https://developers.facebook.com/documentation/instagram-platform/instagram-api-with-instagram-login/get-started
//     (GET /me?fields=user_id,username,name,account_type,profile_picture_url: `user_id` is the professional account's
//     id that publishing is called with; `id` is app-scoped (atinux/nuxt-auth-utils#298 tells the two apart), and the
//     code exchange's `user_id` may be a number beyond 2^53 (ChatbotXIO/ChatbotX#559): neither is used)
// Postiz (`instagram.standalone.provider.ts`) connects the same way: these scopes, the exchange at once, the permissions
// of the code exchange checked, publishing through its Facebook Login code at graph.instagram.com.
import type { GivenApp } from '../network.ts';
import { ProviderError, type ConnectedAccount, type ConnectionMethod, type OAuthConnector, type ProviderTokens } from '../adapter.ts';
import { tokensOf, type OAuthLink, type OAuthProfile } from '../kit/oauthLink.ts';
import type { Graph } from '../meta/graph.ts';
import { longLivedTokens, type LongLived } from '../meta/longLived.ts';

export const connectionMethods = ['facebook_login', 'instagram_login'] as const;
export type InstagramConnection = (typeof connectionMethods)[number];

/** Profile, publishing, and first comments. */
export const instagramLoginScopes = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments'];

const requiredScopes = {
  scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
  advice: 'connect again and allow publishing, or ask the app administrator to add the permission to the app',
};

/** Which way the account was connected: kept with its tokens (`extra.method`); tokens without it are Facebook Login's. */
export const connectionOf = (account: ConnectedAccount): InstagramConnection =>
  tokensOf(account).extra?.method === 'instagram_login' ? 'instagram_login' : 'facebook_login';

/** A long-lived token of Instagram Login, marked as such (connectionOf). */
const instagramTokens = (body: LongLived, scope: string | undefined): ProviderTokens =>
  longLivedTokens('Instagram', body, scope, { method: 'instagram_login' });

interface Me {
  user_id?: string | number;
  username?: string;
  name?: string;
  account_type?: string;
  profile_picture_url?: string;
}

/** `tokens` calls graph.instagram.com's unversioned token paths, `graph` its versioned API. */
export function instagramLogin(tokens: Graph, graph: Graph): OAuthProfile {
  return {
    network: 'Instagram',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/oauth/authorize`,
      tokenEndpoint: `${app.tokenBaseUrl ?? app.apiBaseUrl}/oauth/access_token`,
      scopes: instagramLoginScopes,
      pkce: false,
      clientAuthentication: 'post',
      scopeSeparator: ',',
    }),
    requiredScopes,
    identities: async (shortLived, app) => {
      const exchanged = await tokens.get<LongLived>('/access_token', undefined, {
        grant_type: 'ig_exchange_token',
        client_secret: app.clientSecret,
        access_token: shortLived.accessToken,
      });
      const longLived = instagramTokens(exchanged, shortLived.scope);
      const me = await graph.get<Me>('/me', longLived.accessToken, { fields: 'user_id,username,name,account_type,profile_picture_url' });
      if (me.user_id === undefined || me.user_id === '') throw new ProviderError('PROVIDER_UNAVAILABLE', 'Instagram did not say whose the token is.', true);
      const remoteId = String(me.user_id);
      const handle = me.username || remoteId;
      return [
        {
          identity: { remoteId, username: handle, displayName: me.name || handle, avatarUrl: me.profile_picture_url ?? null },
          tokens: longLived,
          method: 'instagram_login',
        },
      ];
    },
    // Instagram's own exchange; a token it refuses (expired: 190) is ACCOUNT_NEEDS_RECONNECT through Meta's classifier.
    refresh: async (account) => {
      const current = tokensOf(account);
      const body = await tokens.get<LongLived>('/refresh_access_token', undefined, { grant_type: 'ig_refresh_token', access_token: current.accessToken });
      return instagramTokens(body, current.scope);
    },
  };
}

/** Each way's link where the operator set its app; the settings of the app where not. */
export type InstagramLinks = Record<InstagramConnection, OAuthLink | { missingSettings: readonly string[] }>;

const isLink = (entry: InstagramLinks[InstagramConnection]): entry is OAuthLink => 'connector' in entry;

/**
 * One link for both ways: connecting follows the way chosen (`context.method`, Facebook Login by default), refreshing
 * and revoking the way the account was connected. Facebook Login's Page tokens are never refreshed.
 */
export function instagramLink(links: InstagramLinks): OAuthLink {
  const linkFor = (method: string | undefined): OAuthLink => {
    const entry = links[method === 'instagram_login' ? 'instagram_login' : 'facebook_login'];
    if (!isLink(entry)) throw new ProviderError('PROVIDER_REJECTED', `Instagram (${method}) is not configured on this installation.`, false);
    return entry;
  };
  const connectorOf = (method: string | undefined) => linkFor(method).connector as OAuthConnector;
  const methods: ConnectionMethod[] = connectionMethods.map((name) => {
    const entry = links[name];
    return isLink(entry) ? { name } : { name, missingSettings: entry.missingSettings };
  });
  const refreshing = isLink(links.instagram_login) ? links.instagram_login.refresh : undefined;
  return {
    connector: {
      method: 'oauth2',
      methods,
      prepare: (context) => connectorOf(context.method).prepare(context),
      identities: (tokens, context) => connectorOf(context.method).identities(tokens, context),
    },
    ...(refreshing
      ? {
          refresh: async (account: ConnectedAccount) => {
            if (connectionOf(account) === 'instagram_login') return refreshing(account);
            throw new ProviderError(
              'ACCOUNT_NEEDS_RECONNECT',
              'Meta refused the Page token, which Facebook Login does not refresh: connect the account again.',
              false,
              {
                tokenRejected: true,
              },
            );
          },
        }
      : {}),
    revoke: async (account) => linkFor(connectionOf(account)).revoke?.(account),
  };
}
