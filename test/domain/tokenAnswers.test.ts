// The shared OAuth client's reading of token answers that are not RFC-perfect (src/providers/tokenAnswers.ts), here
// TikTok's: a refused refresh may come as HTTP 200 with `{error, error_description, log_id}` ("Manage User Access
// Tokens", developers.tiktok.com), answered by the shared OAuth stand-in with that switch on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkFetch } from '../../src/providers/http.ts';
import { refreshTokens, type OAuthApp } from '../../src/providers/oauth2.ts';
import { OAuthNetwork } from '../support/oauthNetwork.ts';
import { classification, RecordedNetwork } from '../support/recordedAnswers.ts';

const redirectUri = 'https://publisher.example/oauth/callback/tiktok';
let tiktok: OAuthNetwork;
let recorded: RecordedNetwork;
beforeAll(async () => {
  tiktok = await new OAuthNetwork([redirectUri], {
    paths: { authorize: '/v2/auth/authorize/', token: '/v2/oauth/token/', revoke: '/v2/oauth/revoke/' },
    clientAuthentication: 'post',
    clientIdParameter: 'client_key',
    scopeSeparator: ',',
    refreshTokens: 'rotated',
  }).start();
  tiktok.quirks.refusalStatus = 200;
  recorded = await RecordedNetwork.start();
});
afterAll(async () => {
  await tiktok.stop();
  await recorded.stop();
});

const appAt = (url: string, token = '/v2/oauth/token/'): OAuthApp => ({
  client: { clientId: tiktok.clientId, clientSecret: tiktok.clientSecret, redirectUri },
  server: {
    authorizationEndpoint: `${url}/v2/auth/authorize/`,
    tokenEndpoint: `${url}${token}`,
    scopes: ['user.info.basic', 'video.publish'],
    pkce: false,
    clientAuthentication: 'post',
    clientIdParameter: 'client_key',
    fetch: networkFetch(),
  },
});

describe('a refusal answered with HTTP 200', () => {
  it('is the refusal it says it is: the account reconnects, with the network’s reason', async () => {
    const refused = await classification(refreshTokens(appAt(tiktok.url), 'TikTok', { accessToken: 'act.1', refreshToken: 'rft.unknown' }, 5000));
    expect(refused).toEqual({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      transient: false,
      retryAfterMs: undefined,
      message: 'invalid_grant: The refresh token is invalid, revoked or was already used',
    });
  });

  it('but one saying the network is in trouble (server_error) is retried', async () => {
    recorded.next = { status: 200, body: { error: 'server_error', error_description: 'Something went wrong.', log_id: '20261201' } };
    expect(await classification(refreshTokens(appAt(recorded.url), 'TikTok', { accessToken: 'a', refreshToken: 'r' }, 5000))).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      transient: true,
    });
  });
});
