// Pinterest's answers, as its OpenAPI description (github.com/pinterest/api-description v5/openapi.yaml: every error
// is `Pinterest.Lib.Error` {code, message}; OauthAccessTokenResponseRefresh) and a production client received them,
// through the Pinterest adapter's classification (src/providers/pinterest/api.ts, src/providers/http.ts): each ends
// in what the worker does next: reconnect, wait (until when), retry, or refuse with which message.
//   401 code 2 "Authentication failed."  the reference's authentication failure
//   403 code 29 Trial access              gitroomhq/postiz-app#1084 (Nov 2025), the message as received
//   403 code 29, another reason           the reference's 403 ("might not have the necessary permissions")
//   404, 400                              pins/create's 404 (board not found) and 400 (invalid parameters)
//   429 code 8                            the reference's rate limit, which names no time to come back
//   token endpoint                        refusals as {code, message}, not RFC 6749's `error`; continuous refresh
//                                         answers a new refresh token each time
import { describe, expect, it } from 'vitest';
import { PinterestApi } from '../../src/providers/pinterest/api.ts';
import { recordedNetworkFor, refusalOf } from '../support/recordedAnswers.ts';

const recorded = recordedNetworkFor((options) => new PinterestApi(options));
const app = { clientId: '1509641', clientSecret: 'secret' };

async function pinRefusal(status: number, body: unknown) {
  recorded.network.next = { status, body };
  return refusalOf(() =>
    recorded.api.send({ method: 'POST', path: '/pins', accessToken: 'pina_token', body: { json: { board_id: '549755885176', media_source: {} } } }),
  );
}

describe("Pinterest's answers to a pin, classified", () => {
  it('a refused token (401 code 2): refreshed once, then the account reconnects', async () => {
    expect(await pinRefusal(401, { code: 2, message: 'Authentication failed.' })).toMatchObject({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      tokenRejected: true,
    });
  });

  it("a Trial app's pin (403 code 29): refused at once, naming Standard access and the API Sandbox", async () => {
    const error = await pinRefusal(403, {
      code: 29,
      message:
        'Apps with Trial access may not create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead.',
    });
    expect(error).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false });
    expect((error as Error).message).toBe(
      "Pinterest refuses pins from this installation's app: it has Trial access (code 29). Apply for Standard access on the app's page at developers.pinterest.com, or set PINTEREST_API_BASE_URL=https://api-sandbox.pinterest.com to pin in Pinterest's API Sandbox.",
    );
  });

  it.each([
    [403, 29, 'You are not permitted to access that resource.'],
    [404, 40, 'Board not found.'],
    [400, 1, 'Invalid parameters: could not fetch the image.'],
  ])('a refusal (HTTP %i code %i): fails at once with Pinterest’s message', async (status, code, message) => {
    expect(await pinRefusal(status, { code, message })).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false, message: `Pinterest: ${message}` });
  });

  it('throttled (429 code 8, no time named): waits, backing off', async () => {
    expect(await pinRefusal(429, { code: 8, message: 'You have exceeded your rate limit. Try again later.' })).toMatchObject({
      code: 'RATE_LIMITED_BY_PROVIDER',
      transient: true,
      retryAfterMs: undefined,
    });
  });

  it("Pinterest's server errors: retried", async () => {
    expect(await pinRefusal(503, { code: 1, message: 'Service unavailable.' })).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
  });
});

describe("Pinterest's token endpoint, on refresh", () => {
  const tokens = { accessToken: 'pina_old', refreshToken: 'pinr_old', scope: 'boards:read,pins:write' };

  it('a refused refresh token ({code, message}, not RFC 6749): the account reconnects', async () => {
    for (const [status, body] of [
      [400, { code: 1, message: 'Invalid refresh token.' }],
      [401, { code: 2, message: 'Authentication failed.' }],
    ] as const) {
      recorded.network.next = { status, body };
      expect(await refusalOf(() => recorded.api.refresh(app, tokens))).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false });
    }
  });

  it('throttled: waits; a continuous refresh: the new refresh token replaces the old', async () => {
    recorded.network.next = { status: 429, body: { code: 8, message: 'You have exceeded your rate limit. Try again later.' } };
    expect(await refusalOf(() => recorded.api.refresh(app, tokens))).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true });
    recorded.network.next = {
      status: 200,
      body: {
        access_token: 'pina_new',
        refresh_token: 'pinr_new',
        response_type: 'refresh_token',
        token_type: 'bearer',
        expires_in: 2_592_000,
        refresh_token_expires_in: 5_184_000,
        refresh_token_expires_at: 1_800_000_000,
        scope: 'boards:read,pins:write',
      },
    };
    expect(await recorded.api.refresh(app, tokens)).toMatchObject({ accessToken: 'pina_new', refreshToken: 'pinr_new', scope: 'boards:read,pins:write' });
  });
});
