// A stand-in for an OAuth 2.0 network, as the RFCs specify it: the authorization endpoint redirecting back with a
// code or an error (RFC 6749 4.1.1-4.1.2), the token endpoint with client authentication by HTTP Basic (2.3.1),
// the code grant checked against the PKCE verifier (RFC 7636 4.6), the refresh grant rotating the refresh token
// (RFC 6749 6, 10.4), errors as JSON `{error, error_description}` (5.2), and revocation (RFC 7009 2).
//
// Its paths default to X's (https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token):
// `/i/oauth2/authorize` (X_AUTH_BASE_URL = <url>/i), `/2/oauth2/token` and `/2/oauth2/revoke` (X_API_BASE_URL =
// <url>), and it answers `GET /2/users/me` as X documents it
// (https://docs.x.com/x-api/users/lookup/quickstart/authenticated-lookup): `{data: {id, name, username,
// profile_image_url?}}`, 401 without a valid token.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NetworkUser {
  id: string;
  name: string;
  username: string;
  profileImageUrl?: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  scope: string;
  user: NetworkUser;
  used: boolean;
  /** Google's `access_type=offline` was asked for. */
  offline: boolean;
}

interface Grant {
  user: NetworkUser;
  scope: string;
  accessTokens: Set<string>;
  refreshToken: string | null;
  offline: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

/**
 * Where another network's OAuth part differs from X's (LinkedIn: https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow):
 * its paths, client authentication in the form (`post`, RFC 6749 2.3.1's alternative), and refresh tokens given
 * with every grant and kept across refreshes (LinkedIn's programmatic refresh tokens) rather than for
 * `offline.access` and rotated (X), or given for Google's `access_type=offline` and kept, a refresh answering none
 * (https://developers.google.com/identity/protocols/oauth2/web-server).
 */
export interface OAuthNetworkOptions {
  paths?: { authorize: string; token: string; revoke: string };
  clientAuthentication?: 'basic' | 'post';
  refreshTokens?: 'offline.access' | 'kept' | 'access_type=offline' | 'rotated';
  /** The token endpoint's error body where it is not RFC 6749 5.2's (Pinterest's `{code, message}`). */
  errorBody?: (error: string, description: string) => unknown;
  /** The client id's parameter where the network renames it (TikTok's `client_key`), in the authorization URL and the form. */
  clientIdParameter?: string;
  /** How granted scopes are joined (TikTok: a comma). */
  scopeSeparator?: string;
  /** Fields the token answer adds for the authorizing user (TikTok's `open_id`). */
  tokenFields?: (user: NetworkUser) => Record<string, unknown>;
}

export class OAuthNetwork {
  readonly clientId = `client-${randomBytes(6).toString('hex')}`;
  readonly clientSecret = randomBytes(16).toString('base64url');
  /** Who authorizes at the authorization endpoint next. */
  user: NetworkUser = { id: '2244994945', name: 'X Developers', username: 'XDevelopers', profileImageUrl: 'https://pbs.twimg.com/profile_images/x.jpg' };
  /** The person refuses at the authorization page (RFC 6749 4.1.2.1 `access_denied`). */
  deny = false;
  /**
   * The scopes the app may be granted, where not every one asked for (an X app whose permissions are "Read" gets no
   * tweet.write or media.write): the others are left out of the grant and of the token answer's `scope`.
   */
  grantable: string[] | undefined;
  /**
   * What happens to scopes asked for that are not grantable: left out of the grant (X), or the whole authorization
   * refused with `unauthorized_scope_error` (LinkedIn, for a scope none of the app's products provides:
   * hybridauth/hybridauth#1296 `error=unauthorized_scope_error&error_description=Scope "w_member_social" is not
   * authorized for your application`; learn.microsoft.com authorization-code-flow, "Failed requests").
   */
  ungrantable: 'left-out' | 'refused' = 'left-out';
  /** The token endpoint answers 503 (a network in trouble), or not at all. */
  tokenEndpoint: 'ok' | 'failing' | 'hanging' = 'ok';
  /**
   * Token answers that are not RFC-perfect, as real networks give them:
   *   idTokenIssuer  the code exchange of a grant with `openid` also carries an OpenID Connect ID token from this
   *     issuer. LinkedIn's is https://www.linkedin.com/oauth (its discovery document,
   *     https://www.linkedin.com/oauth/.well-known/openid-configuration), not its authorization endpoint's origin;
   *     "Sign In with LinkedIn using OpenID Connect" (learn.microsoft.com): "you will receive the member's access
   *     token and ID token".
   *   tokenType  where the answer leaves out `token_type` (RFC 6749 5.1 requires it): LinkedIn's refresh answer has
   *     none ("Refresh Tokens with OAuth 2.0", learn.microsoft.com, sample `{access_token, expires_in, refresh_token,
   *     refresh_token_expires_in}`; linkedin-api-client's `RefreshTokenExchangeResponse`), and its code exchange
   *     sometimes none either (panva/openid-client#826).
   *   refusalStatus  the HTTP status of a refused grant: TikTok may answer a refused refresh with 200 and
   *     `{error, error_description, log_id}` ("Manage User Access Tokens", developers.tiktok.com).
   */
  quirks: { idTokenIssuer?: string; tokenType: 'always' | 'not-on-refresh' | 'never'; refusalStatus: 400 | 200 } = {
    tokenType: 'always',
    refusalStatus: 400,
  };
  readonly requests: RecordedRequest[] = [];
  readonly revoked = new Set<string>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #grants: Grant[] = [];
  readonly #redirectUris: string[];
  readonly #server: Server;
  readonly #hanging = new Set<ServerResponse>();
  readonly #options: Required<Omit<OAuthNetworkOptions, 'errorBody' | 'tokenFields'>> & Pick<OAuthNetworkOptions, 'errorBody' | 'tokenFields'>;
  url = '';
  /**
   * The network's API on the same server (test/support/x.ts): asked first for every request but the OAuth endpoints,
   * before its body is read; true when it answered.
   */
  api: ((req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>) | undefined;

  constructor(redirectUris: string[], options: OAuthNetworkOptions = {}) {
    this.#redirectUris = redirectUris;
    this.#options = {
      paths: { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token', revoke: '/2/oauth2/revoke' },
      clientAuthentication: 'basic',
      refreshTokens: 'offline.access',
      clientIdParameter: 'client_id',
      scopeSeparator: ' ',
      ...options,
    };
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Whether an access token still opens the API (issued, not revoked, its grant not rotated away). */
  accepts(accessToken: string): boolean {
    return this.#grants.some((grant) => grant.accessTokens.has(accessToken)) && !this.revoked.has(accessToken);
  }

  /** Who authorized the grant an access token opens, while it does. */
  userOf(accessToken: string): NetworkUser | undefined {
    return this.accepts(accessToken) ? this.#grants.find((grant) => grant.accessTokens.has(accessToken))?.user : undefined;
  }

  /** The scopes granted with an access token, while it opens the API. */
  scopeOf(accessToken: string): string[] {
    return this.accepts(accessToken)
      ? (this.#grants.find((grant) => grant.accessTokens.has(accessToken))?.scope.split(this.#options.scopeSeparator) ?? [])
      : [];
  }

  /** Every access token issued so far expires (401 from then on); refresh tokens stay valid. */
  expireAccessTokens(): void {
    for (const grant of this.#grants) for (const token of grant.accessTokens) this.revoked.add(token);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (this.api && !Object.values(this.#options.paths).includes(url.pathname) && (await this.api(req, res, url))) return;
    const body = await new Promise<string>((resolve) => {
      let text = '';
      req
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () => resolve(text));
    });
    const form = Object.fromEntries(new URLSearchParams(body));
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization, form });
    const route = `${req.method} ${url.pathname}`;
    const { paths } = this.#options;
    if (route === `GET ${paths.authorize}`) return this.#authorize(url.searchParams, res);
    if (route === `POST ${paths.token}`) return this.#token(req, form, res);
    if (route === `POST ${paths.revoke}`) return this.#revoke(req, form, res);
    if (route === 'GET /2/users/me') return this.#me(req, url.searchParams, res);
    res.writeHead(404).end();
  }

  /** RFC 6749 4.1.1: a bad client or redirect URI is shown to the person, never redirected to. */
  #authorize(query: URLSearchParams, res: ServerResponse): void {
    const redirectUri = query.get('redirect_uri') ?? '';
    if (query.get(this.#options.clientIdParameter) !== this.clientId || !this.#redirectUris.includes(redirectUri)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown client or redirect_uri');
      return;
    }
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state) back.searchParams.set('state', state);
    const challenge = query.get('code_challenge');
    if (query.get('response_type') !== 'code') back.searchParams.set('error', 'unsupported_response_type');
    else if (challenge && query.get('code_challenge_method') !== 'S256') back.searchParams.set('error', 'invalid_request');
    else if (this.ungrantable === 'refused' && this.#notGrantable(query.get('scope') ?? '')) {
      back.searchParams.set('error', 'unauthorized_scope_error');
      back.searchParams.set('error_description', `Scope "${this.#notGrantable(query.get('scope') ?? '')}" is not authorized for your application`);
    } else if (this.deny) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied the request');
    } else {
      const code = randomBytes(24).toString('base64url');
      const offline = query.get('access_type') === 'offline';
      const separator = this.#options.scopeSeparator;
      const asked = (query.get('scope') ?? '').split(separator);
      const scope = (this.grantable ? asked.filter((name) => this.grantable!.includes(name)) : asked).join(separator);
      this.#codes.set(code, { clientId: this.clientId, redirectUri, challenge, scope, user: { ...this.user }, used: false, offline });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.href }).end();
  }

  /** The first scope asked for that the app may not be granted. */
  #notGrantable(scope: string): string | undefined {
    return this.grantable && scope.split(this.#options.scopeSeparator).find((name) => !this.grantable!.includes(name));
  }

  /** RFC 6749 2.3.1: HTTP Basic with the client id and secret each application/x-www-form-urlencoded, or both in the form. */
  #clientAuthenticated(req: IncomingMessage, form: Record<string, string>): boolean {
    if (this.#options.clientAuthentication === 'post')
      return form[this.#options.clientIdParameter] === this.clientId && form.client_secret === this.clientSecret;
    const encoded = /^Basic ([A-Za-z0-9+/=]+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!encoded) return false;
    const [id, secret] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
    const formDecode = (value = '') => decodeURIComponent(value.replace(/\+/g, ' '));
    return formDecode(id) === this.clientId && formDecode(secret) === this.clientSecret;
  }

  #error(res: ServerResponse, status: number, error: string, description: string): void {
    const body = this.#options.errorBody?.(error, description) ?? {
      error,
      error_description: description,
      ...(this.quirks.refusalStatus === 200 ? { log_id: randomBytes(8).toString('hex') } : {}),
    };
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  }

  /** An ID token as an OpenID provider signs it (RS256; the signature is not checked by clients of the token endpoint). */
  #idToken(grant: Grant, issuer: string): string {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = { iss: issuer, aud: this.clientId, iat: now, exp: now + 3600, sub: grant.user.id, name: grant.user.name, email: grant.user.username };
    return `${part({ alg: 'RS256', kid: 'stand-in', typ: 'JWT' })}.${part(claims)}.${randomBytes(64).toString('base64url')}`;
  }

  #issue(res: ServerResponse, grant: Grant, refreshed = false): void {
    const accessToken = randomBytes(24).toString('base64url');
    grant.accessTokens.add(accessToken);
    const mode = this.#options.refreshTokens;
    if (mode === 'kept') grant.refreshToken ??= randomBytes(24).toString('base64url');
    else if (mode === 'rotated') grant.refreshToken = randomBytes(24).toString('base64url');
    else if (mode === 'access_type=offline') grant.refreshToken ??= grant.offline ? randomBytes(24).toString('base64url') : null;
    else if (grant.scope.split(' ').includes('offline.access')) grant.refreshToken = randomBytes(24).toString('base64url');
    const { idTokenIssuer, tokenType } = this.quirks;
    const typed = tokenType === 'always' || (tokenType === 'not-on-refresh' && !refreshed);
    const openid = !refreshed && idTokenIssuer && grant.scope.split(this.#options.scopeSeparator).includes('openid');
    const answer = {
      ...(typed ? { token_type: 'bearer' } : {}),
      ...(openid ? { id_token: this.#idToken(grant, idTokenIssuer) } : {}),
      expires_in: 7200,
      access_token: accessToken,
      scope: grant.scope,
      ...this.#options.tokenFields?.(grant.user),
      ...(grant.refreshToken && !(refreshed && mode === 'access_type=offline') ? { refresh_token: grant.refreshToken } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer));
  }

  #token(req: IncomingMessage, form: Record<string, string>, res: ServerResponse): void {
    if (this.tokenEndpoint === 'hanging') {
      this.#hanging.add(res);
      return;
    }
    if (this.tokenEndpoint === 'failing') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('over capacity');
    if (!this.#clientAuthenticated(req, form)) return this.#error(res, 401, 'invalid_client', 'Client authentication failed');
    if (form.grant_type === 'authorization_code') {
      const issued = this.#codes.get(form.code ?? '');
      if (!issued || issued.used) return this.#error(res, 400, 'invalid_grant', 'The authorization code is invalid or was already used');
      issued.used = true;
      if (issued.redirectUri !== form.redirect_uri) return this.#error(res, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      if (issued.challenge) {
        const verifier = form.code_verifier ?? '';
        const computed = createHash('sha256').update(verifier).digest('base64url');
        if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) || computed !== issued.challenge) {
          return this.#error(res, 400, 'invalid_grant', 'The code_verifier does not match the code_challenge');
        }
      }
      const grant: Grant = { user: issued.user, scope: issued.scope, accessTokens: new Set(), refreshToken: null, offline: issued.offline };
      this.#grants.push(grant);
      return this.#issue(res, grant);
    }
    if (form.grant_type === 'refresh_token') {
      const grant = this.#grants.find(
        (candidate) => candidate.refreshToken !== null && candidate.refreshToken === form.refresh_token && !this.revoked.has(candidate.refreshToken),
      );
      if (!grant) return this.#error(res, this.quirks.refusalStatus, 'invalid_grant', 'The refresh token is invalid, revoked or was already used');
      return this.#issue(res, grant, true);
    }
    this.#error(res, 400, 'unsupported_grant_type', `grant_type ${form.grant_type ?? '(none)'} is not supported`);
  }

  /** RFC 7009 2.2: 200 whether or not the token was valid; a refresh token takes its grant's access tokens along. */
  #revoke(req: IncomingMessage, form: Record<string, string>, res: ServerResponse): void {
    if (!this.#clientAuthenticated(req, form)) return this.#error(res, 401, 'invalid_client', 'Client authentication failed');
    const token = form.token ?? '';
    this.revoked.add(token);
    const grant = this.#grants.find((candidate) => candidate.refreshToken === token);
    for (const accessToken of grant?.accessTokens ?? []) this.revoked.add(accessToken);
    res.writeHead(200).end();
  }

  #me(req: IncomingMessage, query: URLSearchParams, res: ServerResponse): void {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const grant = this.#grants.find((candidate) => candidate.accessTokens.has(token));
    if (!grant || this.revoked.has(token)) {
      res
        .writeHead(401, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }));
      return;
    }
    const fields = (query.get('user.fields') ?? '').split(',');
    const { id, name, username, profileImageUrl } = grant.user;
    const data = { id, name, username, ...(fields.includes('profile_image_url') && profileImageUrl ? { profile_image_url: profileImageUrl } : {}) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
  }
}
