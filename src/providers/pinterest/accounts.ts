// Connecting Pinterest: one authorization, one account (the person's, personal or business).
//   Authentication  https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
//     (<auth>/oauth/ with comma-separated scopes and no PKCE; POST <api>/v5/oauth/token with HTTP Basic)
//   OAuth token  https://developers.pinterest.com/docs/api/v5/oauth-token (continuous refresh: api.ts)
//   Scopes  https://developers.pinterest.com/docs/getting-started/scopes/ (pins/create wants boards:read,
//     boards:write, pins:read and pins:write)
//   User account  https://developers.pinterest.com/docs/api/v5/user_account-get (id, username, business_name, profile_image)
import type { GivenApp } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import { tokensOf, type OAuthProfile } from '../kit/oauthLink.ts';
import type { PinterestApi } from './api.ts';

export const pinterestScopes = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];

interface UserAccount {
  id?: string;
  username?: string;
  business_name?: string | null;
  profile_image?: string;
}

export function pinterestProfile(api: PinterestApi, app: GivenApp): OAuthProfile {
  return {
    network: 'Pinterest',
    server: () => ({
      authorizationEndpoint: `${app.authBaseUrl}/oauth/`,
      tokenEndpoint: `${app.apiBaseUrl}/v5/oauth/token`,
      scopes: pinterestScopes,
      scopeSeparator: ',',
      pkce: false,
      clientAuthentication: 'basic',
    }),
    identities: async (tokens) => {
      const { body } = await api.send<UserAccount>({ method: 'GET', path: '/user_account', accessToken: tokens.accessToken });
      if (!body.id || !body.username) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Pinterest answered GET /v5/user_account without the account.', true);
      const identity = { remoteId: body.id, username: body.username, displayName: body.business_name || body.username, avatarUrl: body.profile_image ?? null };
      return [{ identity, tokens }];
    },
    // The token answer's `scope` says what was granted: pinning needs all of these.
    requiredScopes: { scopes: pinterestScopes, advice: 'connect again and allow every permission asked for' },
    // Refusals come as `{code, message}`, which an RFC 6749 client cannot read as one: Pinterest's own exchange.
    refresh: (account) => api.refresh(app, tokensOf(account)),
  };
}
