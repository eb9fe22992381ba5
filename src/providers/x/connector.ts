// Connecting X accounts: OAuth 2.0 authorization code with PKCE, as X documents it
// (https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token): the person authorizes at
// `<X_AUTH_BASE_URL>/oauth2/authorize`, the code is exchanged at `<X_API_BASE_URL>/2/oauth2/token` by the app as a
// confidential client (HTTP Basic), tokens are revoked at `/2/oauth2/revoke`, and `offline.access` is what gets a
// refresh token (access tokens last two hours). The identity is `GET /2/users/me`
// (https://docs.x.com/x-api/users/lookup/quickstart/authenticated-lookup). Publishing to X comes later.
import type { GivenApp } from '../../config.ts';
import type { AuthorizationContext, ConnectedAccount, OAuthConnector, ProviderTokens, RemoteIdentity } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { AccountLink } from '../registry.ts';
import { networkFetch } from '../http.ts';
import { getWithToken, refreshTokens, revokeTokens, type OAuthApp } from '../oauth2.ts';

/** Reading and writing posts, uploading media, reading the profile; `offline.access` for a refresh token. */
export const xScopes = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

interface XUser {
  data?: { id: string; name: string; username: string; profile_image_url?: string };
}

export class XConnector implements OAuthConnector {
  readonly method = 'oauth2';
  readonly #settings: GivenApp;
  readonly #timeoutMs: number;
  /** X's hosts are the operator's settings (X_API_BASE_URL, X_AUTH_BASE_URL), not a person's or a network's word. */
  readonly #fetch = networkFetch();

  constructor(settings: GivenApp, timeoutMs: number) {
    this.#settings = settings;
    this.#timeoutMs = timeoutMs;
  }

  async prepare(context: AuthorizationContext): Promise<OAuthApp> {
    const { clientId, clientSecret, authBaseUrl, apiBaseUrl } = this.#settings;
    return {
      client: { clientId, clientSecret, redirectUri: context.redirectUri },
      server: {
        authorizationEndpoint: `${authBaseUrl}/oauth2/authorize`,
        tokenEndpoint: `${apiBaseUrl}/2/oauth2/token`,
        revocationEndpoint: `${apiBaseUrl}/2/oauth2/revoke`,
        scopes: xScopes,
        pkce: true,
        fetch: this.#fetch,
      },
    };
  }

  async identities(tokens: ProviderTokens): Promise<{ identity: RemoteIdentity; tokens: ProviderTokens }[]> {
    const me = await getWithToken<XUser>(
      this.#fetch,
      `${this.#settings.apiBaseUrl}/2/users/me?user.fields=profile_image_url`,
      'X',
      tokens.accessToken,
      this.#timeoutMs,
    );
    if (!me.data?.id || !me.data.username) throw new ProviderError('PROVIDER_UNAVAILABLE', 'X answered GET /2/users/me without a user', true);
    const { id, name, username, profile_image_url: avatarUrl } = me.data;
    return [{ identity: { remoteId: id, username, displayName: name || username, avatarUrl: avatarUrl ?? null }, tokens }];
  }
}

/** X's accounts connected, refreshed and revoked; publishing to X is not built yet, so this is all of X for now. */
export function xAccountLink(settings: GivenApp, redirectUri: string, timeoutMs: number): AccountLink {
  const connector = new XConnector(settings, timeoutMs);
  const tokensOf = (account: ConnectedAccount) => {
    if (!account.tokens) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The account has no tokens: reconnect it', false, { tokenRejected: true });
    return account.tokens;
  };
  return {
    provider: 'x',
    connector,
    refresh: async (account) => refreshTokens(await connector.prepare({ redirectUri }), 'X', tokensOf(account), timeoutMs),
    revoke: async (account) => revokeTokens(await connector.prepare({ redirectUri }), 'X', tokensOf(account), timeoutMs),
  };
}
