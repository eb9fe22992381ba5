// A Mastodon instance's answers, as Mastodon gives them (https://docs.joinmastodon.org/entities/Error/, `{error}`),
// through the adapter's reading (mastodon/api.ts over http.ts, oauth2.ts for the token endpoint).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkFetch } from '../../src/providers/http.ts';
import { refreshTokens } from '../../src/providers/oauth2.ts';
import { mastodonHttp } from '../../src/providers/mastodon/api.ts';
import { classification, RecordedNetwork } from '../support/recordedAnswers.ts';

let instance: RecordedNetwork;
beforeAll(async () => {
  instance = await RecordedNetwork.start();
});
afterAll(() => instance.stop());

const http = () => mastodonHttp({ allowedHosts: new Set(['127.0.0.1']), timeoutMs: 5000, retryDelayMs: 1 });
const call = (path: string) => http().send({ method: 'POST', url: `${instance.url}${path}`, accessToken: 't', body: { json: {} } });

describe("a Mastodon instance's answers", () => {
  it.each([
    [
      // apps_controller.rb before 4.3, given an array (https://docs.joinmastodon.org/methods/apps/#422-unprocessable-entity)
      'an app refused (422): refused with the instance’s reason',
      '/api/v1/apps',
      { status: 422, body: { error: "Validation failed: Redirect URI can't be blank" } },
      { code: 'PROVIDER_REJECTED', transient: false, message: expect.stringContaining("Redirect URI can't be blank") },
    ],
    [
      'a revoked token (401): reconnect',
      '/api/v1/statuses',
      { status: 401, body: { error: 'The access token is invalid' } },
      { code: 'ACCOUNT_NEEDS_RECONNECT', transient: false, message: expect.stringContaining('The access token is invalid') },
    ],
    [
      'a status refused (422): refused with the instance’s reason',
      '/api/v1/statuses',
      { status: 422, body: { error: 'Validation failed: Text character limit of 500 exceeded' } },
      { code: 'PROVIDER_REJECTED', transient: false, message: expect.stringContaining('character limit of 500') },
    ],
    ['the instance failing (503): retried', '/api/v1/statuses', { status: 503, body: '<html>503</html>' }, { code: 'PROVIDER_UNAVAILABLE', transient: true }],
  ])('%s', async (_case, path, answer, expected) => {
    instance.next = answer;
    expect(await classification(call(path))).toMatchObject(expected);
  });

  it('throttled (429, https://docs.joinmastodon.org/api/rate-limits/): wait until X-RateLimit-Reset, an ISO 8601 time', async () => {
    const reset = new Date(Date.now() + 240_000);
    instance.next = {
      status: 429,
      headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset.toISOString() },
      body: { error: 'Too many requests' },
    };
    const classified = await classification(call('/api/v1/statuses'));
    expect(classified).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true });
    expect(Math.abs(classified.retryAfterMs! - 240_000)).toBeLessThan(2000);
  });

  it("a grant the instance refuses (Doorkeeper's invalid_grant): reconnect", async () => {
    instance.next = {
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      },
    };
    const app = {
      client: { clientId: 'c', clientSecret: 's', redirectUri: 'https://publisher.example/oauth/callback/mastodon' },
      server: {
        authorizationEndpoint: `${instance.url}/oauth/authorize`,
        tokenEndpoint: `${instance.url}/oauth/token`,
        scopes: [],
        pkce: true,
        fetch: networkFetch(),
      },
    };
    expect(await classification(refreshTokens(app, 'Mastodon', { accessToken: 'a', refreshToken: 'r' }, 5000))).toMatchObject({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      transient: false,
    });
  });
});
