// Google's OAuth 2.0 for web server apps, as every Google network here (YouTube, Google Business Profile) connects:
//   https://developers.google.com/identity/protocols/oauth2/web-server: <auth>/o/oauth2/v2/auth with PKCE S256;
//   `access_type=offline` for a refresh token, `prompt=consent` for one every time (also when the person consented
//   before); the token and revocation endpoints on a third host (`<NETWORK>_TOKEN_BASE_URL`): /token with the secret
//   in the form, /revoke. A refresh answers no new refresh token, so the old one is kept (`refresh: 'standard'`).
import type { OAuthServer } from '../adapter.ts';
import type { GivenApp } from '../network.ts';

/** Google's token and revocation host, where the operator's settings name none. */
const googleTokenBaseUrl = 'https://oauth2.googleapis.com';

/** A Google scope by its short name (`youtube.upload`, `business.manage`). */
export const googleScope = (name: string) => `https://www.googleapis.com/auth/${name}`;

/** The endpoints and client authentication of Google's OAuth at the operator's app, asking for `scopes`. */
export function googleOAuthServer(app: GivenApp, scopes: readonly string[]): Omit<OAuthServer, 'fetch'> {
  const tokenBaseUrl = app.tokenBaseUrl ?? googleTokenBaseUrl;
  return {
    authorizationEndpoint: `${app.authBaseUrl}/o/oauth2/v2/auth`,
    tokenEndpoint: `${tokenBaseUrl}/token`,
    revocationEndpoint: `${tokenBaseUrl}/revoke`,
    scopes: [...scopes],
    pkce: true,
    clientAuthentication: 'post',
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  };
}
