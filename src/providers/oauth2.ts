// OAuth 2.0 (RFC 6749) with PKCE (RFC 7636) and revocation (RFC 7009), shared by every OAuth network, through
// oauth4webapi: the authorization URL, the code exchange, refresh and revocation. A network's refusal of a grant
// (`invalid_grant`, ...) and a network that cannot be reached become ProviderErrors that say which.
import * as oauth from 'oauth4webapi';
import { ProviderError, type OAuthClient, type OAuthServer, type ProviderTokens } from './adapter.ts';
import { answerTooLargeIn } from '../outbound/answerLimit.ts';
import { refusalOf, tooLarge } from './http.ts';
import { readableTokenAnswers } from './tokenAnswers.ts';

/** The app and endpoints of one authorization, as a connector's `prepare` gives them. */
export interface OAuthApp {
  client: OAuthClient;
  server: OAuthServer;
}

/** Where a network sends the person back after authorizing: `<PUBLIC_BASE_URL>/oauth/callback/<provider>`. */
export function callbackUrl(publicBaseUrl: string, provider: string): string {
  return `${publicBaseUrl}/oauth/callback/${provider}`;
}

function authorizationServer(server: OAuthServer): oauth.AuthorizationServer {
  return {
    issuer: new URL(server.authorizationEndpoint).origin,
    authorization_endpoint: server.authorizationEndpoint,
    token_endpoint: server.tokenEndpoint,
    revocation_endpoint: server.revocationEndpoint,
  };
}

function clientAuthentication(client: OAuthClient, server: OAuthServer): oauth.ClientAuth {
  // RFC 6749 2.3.1: servers must support HTTP Basic for clients with a password; public clients send only their id.
  const method = server.clientAuthentication ?? (client.clientSecret ? 'basic' : 'none');
  if (method === 'none' || !client.clientSecret) return oauth.None();
  return method === 'post' ? oauth.ClientSecretPost(client.clientSecret) : oauth.ClientSecretBasic(client.clientSecret);
}

function requestOptions(app: OAuthApp, endpoint: string, timeoutMs: number) {
  const { server, client } = app;
  const renamedClientId = server.clientIdParameter ? { [server.clientIdParameter]: client.clientId } : undefined;
  return {
    ...(renamedClientId ? { additionalParameters: renamedClientId } : {}),
    signal: AbortSignal.timeout(timeoutMs),
    // Plain http only where the operator pointed a network at it (a local stand-in, an allowed private host).
    [oauth.allowInsecureRequests]: new URL(endpoint).protocol === 'http:',
    // Never the global fetch: the network's own client, guarded where a network named the endpoint.
    [oauth.customFetch]: server.fetch,
  };
}

/** The request options of a token request (a code exchange, a refresh): its answer made readable (tokenAnswers.ts). */
function tokenRequestOptions(app: OAuthApp, timeoutMs: number) {
  const options = requestOptions(app, app.server.tokenEndpoint, timeoutMs);
  return { ...options, [oauth.customFetch]: readableTokenAnswers(options[oauth.customFetch]) };
}

/** The URL the person opens to authorize the app; `codeVerifier` is kept (sealed) until the callback. */
export async function authorizationRequest(app: OAuthApp, state: string): Promise<{ url: URL; codeVerifier: string | null }> {
  const url = new URL(app.server.authorizationEndpoint);
  const codeVerifier = app.server.pkce ? oauth.generateRandomCodeVerifier() : null;
  const parameters: Record<string, string> = {
    response_type: 'code',
    [app.server.clientIdParameter ?? 'client_id']: app.client.clientId,
    redirect_uri: app.client.redirectUri,
    scope: app.server.scopes.join(app.server.scopeSeparator ?? ' '),
    state,
    ...app.server.authorizationParams,
  };
  if (codeVerifier) {
    parameters.code_challenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
    parameters.code_challenge_method = 'S256';
  }
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return { url, codeVerifier };
}

function tokensOf(response: oauth.TokenEndpointResponse, previous?: ProviderTokens): ProviderTokens {
  return {
    accessToken: response.access_token,
    // RFC 6749 6: a refresh answer without a new refresh token leaves the old one valid.
    refreshToken: response.refresh_token ?? previous?.refreshToken,
    expiresAt: response.expires_in === undefined ? undefined : new Date(Date.now() + response.expires_in * 1000).toISOString(),
    scope: response.scope ?? previous?.scope,
    extra: previous?.extra,
  };
}

/** The network refused a grant (a code, a refresh token) with an RFC 6749 5.2 error such as `invalid_grant`. */
export class GrantRefused extends ProviderError {
  readonly oauthError: string;

  constructor(oauthError: string, reason: string) {
    super('ACCOUNT_NEEDS_RECONNECT', reason, false, { tokenRejected: true });
    this.name = 'GrantRefused';
    // Passed on to the person as the redirect's `error`: an RFC 6749 error code, or the generic one for a grant.
    this.oauthError = /^[a-z_]{1,64}$/.test(oauthError) ? oauthError : 'invalid_grant';
  }
}

/** What a network's failure means for us: its refusal of a grant (permanent) or trouble reaching it (transient). */
function providerErrorOf(error: unknown, provider: string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const reason = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    if (error.status >= 500) return new ProviderError('PROVIDER_UNAVAILABLE', `${provider} answered ${error.status} (${reason})`, true);
    return new GrantRefused(error.error, reason);
  }
  // A refusal in the network's own shape rather than RFC 6749's (Pinterest's `{code, message}`, Meta's Graph error):
  // a 4xx from the token endpoint refuses the grant all the same; 429 and 5xx are the network's trouble.
  // (The answer is undici's Response, not the global class: read its status without instanceof.)
  const answered = error instanceof oauth.OperationProcessingError && error.code === oauth.RESPONSE_IS_NOT_CONFORM;
  const status = answered ? (error.cause as { status?: unknown } | undefined)?.status : undefined;
  if (typeof status === 'number') {
    if (status >= 400 && status < 500 && status !== 429) return new GrantRefused('invalid_grant', `${provider} refused the grant (HTTP ${status}).`);
    return new ProviderError('PROVIDER_UNAVAILABLE', `${provider} answered ${status}.`, true);
  }
  // The network answered, in a form no reading makes a token answer of (tokenAnswers.ts reads what real networks
  // send): asking again gets the same. A refresh then leaves the account to reconnect, a connect says what came.
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return new ProviderError('PROVIDER_REJECTED', `${provider} answered in a form this service cannot read as tokens (${error.message}).`, false);
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new ProviderError('PROVIDER_UNAVAILABLE', `${provider} did not answer in time`, true);
  }
  const refusal = refusalOf(error);
  if (refusal) return new ProviderError('PROVIDER_UNAVAILABLE', `${provider}: ${refusal.reasonWith('NETWORK_ALLOWED_HOSTS')}`, false);
  const overlong = answerTooLargeIn(error);
  if (overlong) return tooLarge(provider, overlong);
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('PROVIDER_UNAVAILABLE', `${provider} could not be reached or answered unexpectedly (${message})`, true);
}

/**
 * Exchanges the callback's code (RFC 6749 4.1.3, with the PKCE verifier). The callback's `state` was already
 * matched to its stored authorization by the caller. A refused code is GrantRefused.
 */
export async function exchangeCode(
  app: OAuthApp,
  provider: string,
  callback: URLSearchParams,
  codeVerifier: string | null,
  timeoutMs: number,
): Promise<ProviderTokens> {
  const server = authorizationServer(app.server);
  const client: oauth.Client = { client_id: app.client.clientId };
  try {
    const parameters = oauth.validateAuthResponse(server, client, callback, oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      clientAuthentication(app.client, app.server),
      parameters,
      app.client.redirectUri,
      codeVerifier ?? oauth.nopkce,
      tokenRequestOptions(app, timeoutMs),
    );
    return tokensOf(await oauth.processAuthorizationCodeResponse(server, client, response));
  } catch (error) {
    throw providerErrorOf(error, provider);
  }
}

/** New tokens for the refresh token (RFC 6749 6); the network may rotate the refresh token. */
export async function refreshTokens(app: OAuthApp, provider: string, tokens: ProviderTokens, timeoutMs: number): Promise<ProviderTokens> {
  if (!tokens.refreshToken)
    throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', `${provider} gave no refresh token: reconnect the account`, false, { tokenRejected: true });
  const server = authorizationServer(app.server);
  const client: oauth.Client = { client_id: app.client.clientId };
  try {
    const response = await oauth.refreshTokenGrantRequest(
      server,
      client,
      clientAuthentication(app.client, app.server),
      tokens.refreshToken,
      tokenRequestOptions(app, timeoutMs),
    );
    return tokensOf(await oauth.processRefreshTokenResponse(server, client, response), tokens);
  } catch (error) {
    throw providerErrorOf(error, provider);
  }
}

/** Revokes the refresh token and the access token (RFC 7009) where the network has a revocation endpoint. */
export async function revokeTokens(app: OAuthApp, provider: string, tokens: ProviderTokens, timeoutMs: number): Promise<void> {
  const endpoint = app.server.revocationEndpoint;
  if (!endpoint) return;
  const server = authorizationServer(app.server);
  const client: oauth.Client = { client_id: app.client.clientId };
  const revocations: [string, string][] = [['access_token', tokens.accessToken]];
  if (tokens.refreshToken) revocations.unshift(['refresh_token', tokens.refreshToken]);
  try {
    for (const [hint, token] of revocations) {
      const options = requestOptions(app, endpoint, timeoutMs);
      const response = await oauth.revocationRequest(server, client, clientAuthentication(app.client, app.server), token, {
        ...options,
        additionalParameters: { ...options.additionalParameters, token_type_hint: hint },
      });
      await oauth.processRevocationResponse(response);
    }
  } catch (error) {
    throw providerErrorOf(error, provider);
  }
}

/** GET of a JSON resource with the account's access token (RFC 6750), through the network's `client`: a 401 means the token was refused. */
export async function getWithToken<Body>(client: typeof fetch, url: string, provider: string, accessToken: string, timeoutMs: number): Promise<Body> {
  let response: Response;
  try {
    response = await client(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw providerErrorOf(error, provider);
  }
  if (response.status === 401) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', `${provider} refused the access token`, false, { tokenRejected: true });
  if (!response.ok) {
    const transient = response.status >= 500 || response.status === 429;
    throw new ProviderError(
      transient ? 'PROVIDER_UNAVAILABLE' : 'PROVIDER_REJECTED',
      `${provider} answered ${response.status} to GET ${new URL(url).pathname}`,
      transient,
    );
  }
  try {
    return (await response.json()) as Body;
  } catch (error) {
    throw providerErrorOf(error, provider);
  }
}
