// Connecting TikTok: Login Kit for Web, one creator per authorization.
//   Login Kit for Web  https://developers.tiktok.com/doc/login-kit-web
//     (<auth>/v2/auth/authorize/ with the app's id as `client_key`, scopes comma-separated; PKCE is for mobile and
//     desktop apps, a web app sends none)
//   Access token management  https://developers.tiktok.com/doc/oauth-user-access-token-management
//     (POST <api>/v2/oauth/token/ form-encoded with client_key and client_secret; the answer names `open_id` and
//     the granted `scope`; refresh tokens rotate: the newest is stored every time; POST /v2/oauth/revoke/)
//   Get user info  https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info
//     (GET /v2/user/info/?fields=open_id,union_id,avatar_url,display_name: user.info.basic; `username` needs
//     user.info.profile, which is not asked for: the handle comes from creator_info, below)
//   Query creator info  https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
//     (`creator_username`, the @handle of the creator's pages)
import type { GivenApp } from '../network.ts';
import { ProviderError, type ProviderTokens } from '../adapter.ts';
import type { OAuthProfile } from '../kit/oauthLink.ts';
import type { TikTokApi } from './api.ts';
import { creatorInfo } from './creator.ts';

/** The creator's basic profile, Direct Post, and uploads (the scopes the Content Posting API names). */
export const tiktokScopes = ['user.info.basic', 'video.publish', 'video.upload'];

interface UserInfo {
  user?: { open_id?: string; union_id?: string; avatar_url?: string; display_name?: string };
}

export function tiktokProfile(api: TikTokApi): OAuthProfile {
  return {
    network: 'TikTok',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/v2/auth/authorize/`,
      tokenEndpoint: `${app.apiBaseUrl}/v2/oauth/token/`,
      revocationEndpoint: `${app.apiBaseUrl}/v2/oauth/revoke/`,
      scopes: tiktokScopes,
      pkce: false,
      clientAuthentication: 'post',
      clientIdParameter: 'client_key',
      scopeSeparator: ',',
    }),
    requiredScopes: { scopes: ['video.publish'], advice: 'connect again and allow posting videos' },
    identities: async (tokens: ProviderTokens) => {
      const { user } = await api.call<UserInfo>('/v2/user/info/?fields=open_id,union_id,avatar_url,display_name', tokens.accessToken);
      if (!user?.open_id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'TikTok answered GET /v2/user/info/ without the open_id.', true);
      const creator = await creatorInfo(api, tokens.accessToken);
      const username = creator.creator_username || user.open_id;
      const identity = { remoteId: user.open_id, username, displayName: user.display_name || username, avatarUrl: user.avatar_url ?? null };
      return [{ identity, tokens }];
    },
    refresh: 'standard',
  };
}
