// LinkedIn's answers, as LinkedIn gives them, through the adapter's reading: the token endpoint's (read by the shared
// OAuth client, oauth2.ts with tokenAnswers.ts) and the API's (linkedin/api.ts over http.ts). Each says what the
// worker does: keep the tokens, reconnect, wait, retry, or refuse with LinkedIn's reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkFetch } from '../../src/providers/http.ts';
import { exchangeCode, refreshTokens, type OAuthApp } from '../../src/providers/oauth2.ts';
import { LinkedInApi } from '../../src/providers/linkedin/api.ts';
import { classification, RecordedNetwork } from '../support/recordedAnswers.ts';

let linkedin: RecordedNetwork;
beforeAll(async () => {
  linkedin = await RecordedNetwork.start();
});
afterAll(() => linkedin.stop());

const app = (): OAuthApp => ({
  client: { clientId: '86abc', clientSecret: 'secret', redirectUri: 'https://publisher.example/oauth/callback/linkedin' },
  server: {
    authorizationEndpoint: `${linkedin.url}/oauth/v2/authorization`,
    tokenEndpoint: `${linkedin.url}/oauth/v2/accessToken`,
    scopes: ['openid', 'profile', 'email', 'w_member_social'],
    pkce: false,
    clientAuthentication: 'post',
    fetch: networkFetch(),
  },
});
const exchange = () => exchangeCode(app(), 'LinkedIn', new URLSearchParams({ code: 'AQTz', state: 's' }), null, 5000);
const refresh = () => refreshTokens(app(), 'LinkedIn', { accessToken: 'old', refreshToken: 'AQXr' }, 5000);

/** An ID token as LinkedIn signs it: its issuer is https://www.linkedin.com/oauth (LinkedIn's OIDC discovery document). */
const idToken = (() => {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'RS256', kid: 'd929668a-bab1-4c69-9598-4373149723ff' })}.${part({ iss: 'https://www.linkedin.com/oauth', aud: '86abc', iat: now, exp: now + 3600, sub: 'aB3xY9kQ' })}.c2lnbmF0dXJl`;
})();

describe("LinkedIn's token answers", () => {
  it('reads the code exchange of an openid grant, whose ID token is of LinkedIn\'s own issuer ("Sign In with LinkedIn using OpenID Connect")', async () => {
    linkedin.next = {
      status: 200,
      body: {
        access_token: 'AQUvlL_DYEzvT2wz1QJiEPeLioeA',
        expires_in: 5184000,
        scope: 'email,openid,profile,w_member_social',
        token_type: 'Bearer',
        id_token: idToken,
      },
    };
    const tokens = await exchange();
    expect(tokens).toMatchObject({ accessToken: 'AQUvlL_DYEzvT2wz1QJiEPeLioeA', scope: 'email,openid,profile,w_member_social' });
    expect(Date.parse(tokens.expiresAt!) - Date.now()).toBeGreaterThan(5183000_000);
  });

  it('reads a code exchange without token_type (panva/openid-client#826)', async () => {
    linkedin.next = { status: 200, body: { access_token: 'AQUv', expires_in: 5184000, scope: 'r_basicprofile,w_member_social' } };
    expect(await exchange()).toMatchObject({ accessToken: 'AQUv', scope: 'r_basicprofile,w_member_social' });
  });

  it('reads the refresh answer, which has no token_type ("Refresh Tokens with OAuth 2.0"; RefreshTokenExchangeResponse)', async () => {
    linkedin.next = {
      status: 200,
      body: { access_token: 'BBBB2', expires_in: 5184000, refresh_token: 'AQXr2', refresh_token_expires_in: 525600 },
    };
    expect(await refresh()).toMatchObject({ accessToken: 'BBBB2', refreshToken: 'AQXr2' });
  });

  it('a refused refresh: reconnect', async () => {
    linkedin.next = {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The provided authorization grant or refresh token is invalid, expired or revoked.' },
    };
    expect(await classification(refresh())).toEqual({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      transient: false,
      retryAfterMs: undefined,
      message: 'invalid_grant: The provided authorization grant or refresh token is invalid, expired or revoked.',
    });
  });

  it('an answer that is no token answer at all: not retried for ever (the account reconnects), and said as what it is', async () => {
    linkedin.next = { status: 200, body: { expires_in: 5184000 } };
    const classified = await classification(refresh());
    expect(classified).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false });
    expect(classified.message).toMatch(/^LinkedIn answered in a form this service cannot read as tokens/);
  });

  it('the token endpoint in trouble (503): retried', async () => {
    linkedin.next = { status: 503, body: 'Service Unavailable' };
    expect(await classification(refresh())).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
  });
});

describe("LinkedIn's API errors (https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling)", () => {
  const api = () => new LinkedInApi({ baseUrl: linkedin.url, version: '202610', timeoutMs: 5000, allowedHosts: new Set(), retryDelayMs: 1 });
  const post = () => api().send({ method: 'POST', path: '/rest/posts', accessToken: 'AQUv', body: { json: {} } });

  it.each([
    [
      'an expired token: reconnect (after one refresh)',
      { status: 401, body: { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' } },
      { code: 'ACCOUNT_NEEDS_RECONNECT', transient: false, message: 'LinkedIn: Invalid access token' },
    ],
    [
      'throttling, which names no time (rate limits reset at midnight UTC): wait, as the worker backs off',
      { status: 429, body: { status: 429, message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' } },
      { code: 'RATE_LIMITED_BY_PROVIDER', transient: true, retryAfterMs: undefined },
    ],
    [
      'a permission the app lacks: refused with LinkedIn’s reason',
      {
        status: 403,
        body: {
          status: 403,
          serviceErrorCode: 100,
          code: 'ACCESS_DENIED',
          message: 'Not enough permissions to access: partnerApiPostsExternal.CREATE.20261001',
        },
      },
      { code: 'PROVIDER_REJECTED', transient: false, message: 'LinkedIn: Not enough permissions to access: partnerApiPostsExternal.CREATE.20261001' },
    ],
    [
      'a visibility an organization may not use: refused',
      { status: 422, body: { status: 422, message: 'ERROR :: /visibility :: "CONNECTIONS" is not an enum symbol for this author' } },
      { code: 'PROVIDER_REJECTED', transient: false },
    ],
    [
      'LinkedIn failing (500): retried',
      { status: 500, body: { status: 500, message: 'Internal Server Error' } },
      { code: 'PROVIDER_UNAVAILABLE', transient: true },
    ],
  ])('%s', async (_case, answer, expected) => {
    linkedin.next = answer;
    expect(await classification(post())).toMatchObject(expected);
  });
});
