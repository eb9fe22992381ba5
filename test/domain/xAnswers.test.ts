// X's answers, as X gives them, through the adapter's reading (x/api.ts over http.ts, oauth2.ts for the token
// endpoint): what the worker does with each, and until when it waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkFetch } from '../../src/providers/http.ts';
import { refreshTokens } from '../../src/providers/oauth2.ts';
import { xHttp } from '../../src/providers/x/api.ts';
import { classification, RecordedNetwork } from '../support/recordedAnswers.ts';
import { clientForbidden } from '../support/x.ts';

let x: RecordedNetwork;
beforeAll(async () => {
  x = await RecordedNetwork.start();
});
afterAll(() => x.stop());

const inSeconds = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);
const post = () => xHttp(5000).send({ method: 'POST', url: `${x.url}/2/tweets`, accessToken: 't', body: { json: { text: 'Hello' } } });
const problem = (status: number, title: string, detail: string, type = 'about:blank') => ({ title, detail, type, status });

describe("X's answers to POST /2/tweets (https://docs.x.com/x-api/fundamentals/response-codes-and-errors)", () => {
  it('a 429 of the 15-minute window: wait until x-rate-limit-reset', async () => {
    x.next = {
      status: 429,
      headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': inSeconds(600) },
      body: problem(429, 'Too Many Requests', 'Too Many Requests'),
    };
    const classified = await classification(post());
    expect(classified).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true });
    expect(Math.abs(classified.retryAfterMs! - 600_000)).toBeLessThan(2000);
  });

  it.each([
    ['x-user-limit-24hour', "the account's"],
    ['x-app-limit-24hour', "the app's"],
  ])("a 429 of a tier's 24-hour cap (%s-*): wait until its reset, not the 15-minute window's", async (prefix, whose) => {
    x.next = {
      status: 429,
      headers: {
        'x-rate-limit-limit': '100',
        'x-rate-limit-remaining': '99',
        'x-rate-limit-reset': inSeconds(900),
        [`${prefix}-limit`]: '17',
        [`${prefix}-remaining`]: '0',
        [`${prefix}-reset`]: inSeconds(20 * 3600),
      },
      body: problem(429, 'Too Many Requests', 'Too Many Requests'),
    };
    const classified = await classification(post());
    expect(classified).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true });
    expect(classified.message).toContain(`${whose} 24-hour posting cap`);
    expect(Math.abs(classified.retryAfterMs! - 20 * 3_600_000)).toBeLessThan(2000);
  });

  it("a 402 (a pay-per-use app's credits used up): refused at once, saying what the operator does", async () => {
    x.next = { status: 402, body: problem(402, 'Payment Required', 'credits depleted', 'https://api.x.com/2/problems/credits-depleted') };
    expect(await classification(post())).toEqual({
      code: 'PROVIDER_REJECTED',
      transient: false,
      retryAfterMs: undefined,
      message:
        "X refused: the X app's pay-per-use credits are used up (credits depleted). The operator adds credits in the X developer console, then publishes again.",
    });
  });

  it.each([
    [
      'a refused token: reconnect (after one refresh)',
      401,
      problem(401, 'Unauthorized', 'Unauthorized'),
      { code: 'ACCOUNT_NEEDS_RECONNECT', transient: false },
    ],
    [
      'a duplicate: refused with X’s reason',
      403,
      problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.'),
      { code: 'PROVIDER_REJECTED', transient: false, message: 'You are not allowed to create a Tweet with duplicate content.' },
    ],
    ['X over capacity (503): retried', 503, problem(503, 'Service Unavailable', 'Service Unavailable'), { code: 'PROVIDER_UNAVAILABLE', transient: true }],
  ])('%s', async (_case, status, body, expected) => {
    x.next = { status, body };
    expect(await classification(post())).toMatchObject(expected);
  });
});

describe("X's answers to GET /2/tweets/search/recent that name the app's access, not the call", () => {
  const search = () => xHttp(5000).send({ method: 'GET', url: `${x.url}/2/tweets/search/recent?query=conversation_id:1`, accessToken: 't' });

  it("a 403 client-forbidden (a tier without search, the Free tier's): refused, naming X_API_TIER and X's reason", async () => {
    // The body X answers an app whose access does not include the endpoint (problem type client-forbidden,
    // https://docs.x.com/x-api/fundamentals/response-codes-and-errors).
    x.next = { status: 403, body: clientForbidden('12345') };
    const classified = await classification(search());
    expect(classified).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false });
    expect(classified.message).toMatch(/does not include this endpoint.*X_API_TIER=free\. X said: When authenticating requests/);
  });

  it('a 429 usage-capped (the monthly cap of posts read): refused until X resets it, not retried at the 15-minute reset', async () => {
    // The body and headers as recorded in xdevplatform/xdk#25 (a cap's 429 beside a 15-minute window far from spent).
    x.next = {
      status: 429,
      headers: { 'x-rate-limit-limit': '60', 'x-rate-limit-remaining': '59', 'x-rate-limit-reset': inSeconds(900) },
      body: {
        title: 'UsageCapExceeded',
        detail: 'Usage cap exceeded: Monthly product cap',
        type: 'https://api.twitter.com/2/problems/usage-capped',
        period: 'Monthly',
        scope: 'Product',
      },
    };
    const classified = await classification(search());
    expect(classified).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: false });
    expect(classified.message).toContain('monthly cap of posts read is used up (Usage cap exceeded: Monthly product cap)');
  });
});

describe("X's token endpoint (https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token)", () => {
  it('a refresh token X no longer takes (`invalid_request`, as X answers it): reconnect', async () => {
    x.next = { status: 400, body: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' } };
    const app = {
      client: { clientId: 'x-client', clientSecret: 's', redirectUri: 'https://publisher.example/oauth/callback/x' },
      server: { authorizationEndpoint: `${x.url}/i/oauth2/authorize`, tokenEndpoint: `${x.url}/2/oauth2/token`, scopes: [], pkce: true, fetch: networkFetch() },
    };
    expect(await classification(refreshTokens(app, 'X', { accessToken: 'a', refreshToken: 'r' }, 5000))).toMatchObject({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      transient: false,
      message: 'invalid_request: Value passed for the token was invalid.',
    });
  });
});
