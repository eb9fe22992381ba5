// Facebook Login, shared by Facebook Pages and Instagram (Instagram API with Facebook Login): one authorization
// connects each Page the person granted and each Instagram professional account linked to those Pages, each an
// account of its own network ('facebook', 'instagram') with its Page's token.
//   Manual login flow  https://developers.facebook.com/documentation/facebook-login/guides/advanced/manual-flow
//     (<auth>/<version>/dialog/oauth with comma-separated scopes; <api>/<version>/oauth/access_token with
//     client_id, client_secret, redirect_uri and code as parameters: HTTP Basic is not documented)
//   Long-lived tokens  https://developers.facebook.com/documentation/facebook-login/guides/access-tokens/get-long-lived
//     (grant_type=fb_exchange_token, done at once: Page tokens read with a long-lived user token do not expire,
//     those read with the short-lived one die with it in an hour or two)
//   Page access tokens  https://developers.facebook.com/docs/pages-api/getting-started (GET /me/accounts)
//   IG User  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user
//     (a Page's `instagram_business_account`)
//   Permissions  https://developers.facebook.com/docs/facebook-login/guides/permissions/request-revoke
//     (GET /me/permissions → `{data: [{permission, status: granted | declined}]}`): the token answer names no scopes
//     and people may untick permissions in the dialog, so what was granted is read there, with the user token, and a
//     grant without what publishing needs is refused at connect (the kit's `requiredScopes`).
import type { GivenApp } from '../network.ts';
import { ProviderError, type ProviderTokens, type RemoteIdentity } from '../adapter.ts';
import { oauthLink, refuseMissingScopes, type OAuthProfile } from '../kit/oauthLink.ts';
import { Graph, pagesOf } from './graph.ts';

/** Pages: list, read, post, insights; Instagram: profile, publishing, insights. */
export const facebookLoginScopes = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'read_insights',
  'business_management',
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_insights',
  // First comments and the inbox's answers: the Page's on its posts, the Instagram account's on its media.
  'pages_manage_engagement',
  'instagram_manage_comments',
  // The inbox: what people write on the Page's posts (https://developers.facebook.com/docs/features-reference/page-public-content-access:
  // without pages_read_engagement and pages_read_user_content an app reads no one's comments on a Page).
  'pages_read_user_content',
];

/** What publishing to a Page needs (Reels Publishing API, Page feed), and to an Instagram account linked to one. */
const pageScopes = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts'];
const instagramScopes = ['instagram_basic', 'instagram_content_publish'];
const grantAdvice = 'connect again and leave every permission ticked (Meta lets people untick them), or ask the app administrator to add them';

/** An account one Facebook Login reached: a Page ('facebook') or an Instagram account linked to one ('instagram'). */
export interface ReachedAccount {
  provider: 'facebook' | 'instagram';
  identity: RemoteIdentity;
  tokens: ProviderTokens;
  /** An Instagram account's way of connecting (../instagram/login.ts): this one. */
  method?: 'facebook_login';
}

interface Page {
  id: string;
  name?: string;
  username?: string;
  access_token?: string;
  picture?: { data?: { url?: string } };
  instagram_business_account?: { id: string; username?: string; name?: string; profile_picture_url?: string };
}

const pageFields = 'id,name,username,access_token,picture{url},instagram_business_account{id,username,name,profile_picture_url}';

export function facebookLogin(graph: Graph, version: string): OAuthProfile {
  return {
    network: 'Facebook',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/${version}/dialog/oauth`,
      tokenEndpoint: `${app.apiBaseUrl}/${version}/oauth/access_token`,
      scopes: facebookLoginScopes,
      pkce: false,
      clientAuthentication: 'post',
      scopeSeparator: ',',
    }),
    requiredScopes: { scopes: pageScopes, advice: grantAdvice },
    identities: (tokens, app) => reachedAccounts(graph, tokens, app),
    // There is no refresh token: a Page token that Meta refuses means the person logs in again.
    refresh: 'none',
  };
}

async function reachedAccounts(graph: Graph, tokens: ProviderTokens, app: GivenApp): Promise<ReachedAccount[]> {
  const longLived = await graph.get<{ access_token?: string }>('/oauth/access_token', undefined, {
    grant_type: 'fb_exchange_token',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    fb_exchange_token: tokens.accessToken,
  });
  if (!longLived.access_token) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Meta exchanged the token without giving a long-lived one.', true);
  const scope = await grantedPermissions(graph, longLived.access_token);
  refuseMissingScopes({ network: 'Facebook', requiredScopes: { scopes: pageScopes, advice: grantAdvice } }, { ...tokens, scope });
  const person = await graph.get<{ id?: string }>('/me', longLived.access_token, { fields: 'id' });
  // Who granted the Pages: a later authorization by the same person that no longer reaches one tells it apart.
  const grantedBy = `facebook-login:${person.id}`;
  const reached: ReachedAccount[] = [];
  for await (const page of grantedPages(graph, longLived.access_token)) {
    if (!page.access_token) continue;
    const tokensOfPage: ProviderTokens = { accessToken: page.access_token, scope, extra: { grantedBy, pageId: page.id } };
    reached.push({
      provider: 'facebook',
      identity: { remoteId: page.id, username: page.username || page.id, displayName: page.name || page.id, avatarUrl: page.picture?.data?.url ?? null },
      tokens: tokensOfPage,
    });
    const instagram = page.instagram_business_account;
    if (instagram?.id) {
      refuseMissingScopes({ network: 'Facebook', requiredScopes: { scopes: instagramScopes, advice: grantAdvice } }, { ...tokens, scope });
      const handle = instagram.username || instagram.id;
      reached.push({
        provider: 'instagram',
        identity: { remoteId: instagram.id, username: handle, displayName: instagram.name || handle, avatarUrl: instagram.profile_picture_url ?? null },
        tokens: tokensOfPage,
        method: 'facebook_login',
      });
    }
  }
  return reached;
}

/** The permissions the person granted the app (GET /me/permissions), comma-separated as Facebook Login's scopes are. */
async function grantedPermissions(graph: Graph, userToken: string): Promise<string> {
  const body = await graph.get<{ data?: { permission?: string; status?: string }[] }>('/me/permissions', userToken);
  return (body.data ?? [])
    .filter((entry) => entry.status === 'granted' && entry.permission)
    .map((entry) => entry.permission)
    .join(',');
}

async function* grantedPages(graph: Graph, userToken: string): AsyncGenerator<Page> {
  for await (const pages of pagesOf<Page>(graph, '/me/accounts', userToken, { fields: pageFields, limit: '100' })) yield* pages;
}

/** The Graph client and Facebook Login link an adapter of Meta's is made with, from the operator's Facebook app. */
export function metaParts(deps: { app: GivenApp; redirectUri: string; config: GraphSettings }, network: string) {
  const { app, redirectUri, config } = deps;
  const graph = graphAt(app, config, network);
  const link = oauthLink(facebookLogin(graph, config.metaGraphVersion), app, { redirectUri, timeoutMs: config.networkTimeoutMs, fetch: graph.fetch });
  return { graph, link };
}

/** The settings a Graph client of Meta's is made with. */
export interface GraphSettings {
  networkTimeoutMs: number;
  metaGraphVersion: string;
}

/** The versioned Graph API at the host of the operator's app (graph.facebook.com, graph.instagram.com). */
export const graphAt = (app: GivenApp, config: GraphSettings, network: string) =>
  new Graph({ baseUrl: app.apiBaseUrl, version: config.metaGraphVersion, network, timeoutMs: config.networkTimeoutMs });
