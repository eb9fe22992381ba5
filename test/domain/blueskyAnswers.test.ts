// A PDS's answers, as a PDS gives them, through the Bluesky adapter's reading (bluesky/errors.ts over @atproto/api's
// Agent with our fetch): what the worker does with each, and until when it waits.
// The shapes: an XRPC error is a non-2xx status with the JSON body `{error, message}` (https://atproto.com/specs/xrpc,
// "Error Responses"); @atproto/xrpc's XrpcClient.call (dist/xrpc-client.js) reads `error` and `message` from it into
// an XRPCError with the status and every response header, and the lexicon's named errors become its subclasses
// (@atproto/api's client/types/**/*.js, toKnownErr). The names and messages are the PDS's (node_modules/@atproto/pds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedAccount, PublishRequest } from '../../src/providers/adapter.ts';
import { ProviderError } from '../../src/providers/adapter.ts';
import { BlueskyAdapter } from '../../src/providers/bluesky/adapter.ts';
import { classification, RecordedNetwork, refusalOf } from '../support/recordedAnswers.ts';

let pds: RecordedNetwork;
beforeAll(async () => {
  pds = await RecordedNetwork.start();
});
afterAll(() => pds.stop());

const adapter = new BlueskyAdapter({ allowedHosts: new Set(['127.0.0.1']), timeoutMs: 5000 });
const account = (): ConnectedAccount => ({
  id: 'account-1',
  provider: 'bluesky',
  username: 'alice.test',
  remoteId: 'did:plc:alice',
  tokens: { accessToken: 'access-jwt', refreshToken: 'refresh-jwt', extra: { did: 'did:plc:alice', handle: 'alice.test', pdsUrl: pds.url, service: pds.url } },
});
const publish = () =>
  adapter.publish({
    account: account(),
    placement: 'feed',
    caption: 'Hello from the recorded answers',
    media: [],
    thread: [],
    firstComment: null,
    settings: {},
    idempotencyKey: 'target-1',
    checkpoint: { saved: undefined, save: async () => {} },
    signal: new AbortController().signal,
  } satisfies PublishRequest);
const connect = () => adapter.connector.connect({ identifier: 'alice.test', appPassword: 'abcd-efgh-ijkl-mnop', service: pds.url });
const inSeconds = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);

describe("a PDS's answers to com.atproto.repo.putRecord (publishing)", () => {
  it('an expired access token (400 ExpiredToken): the token is refused, refreshed once, then the account reconnects', async () => {
    // auth-verifier.js: `new InvalidRequestError('Token has expired', 'ExpiredToken')`, a 400, not a 401.
    pds.next = { status: 400, body: { error: 'ExpiredToken', message: 'Token has expired' } };
    const refused = await refusalOf(publish);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false, tokenRejected: true, message: 'Token has expired' });
  });

  it('an account taken down (401 AccountTakedown): refused, saying so, with no refresh of its tokens', async () => {
    // auth-verifier.js: `new AuthRequiredError('Account has been taken down', 'AccountTakedown')` on any authed call.
    pds.next = { status: 401, body: { error: 'AccountTakedown', message: 'Account has been taken down' } };
    const refused = await refusalOf(publish);
    expect(refused).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false, tokenRejected: false });
    expect((refused as Error).message).toMatch(/Bluesky has taken the account down/);
  });

  it('throttled (429 RateLimitExceeded): wait until RateLimit-Reset, in Unix seconds', async () => {
    // xrpc-server's rate-limiter-http.js sets RateLimit-Limit, -Remaining, -Reset (`Math.floor((Date.now() +
    // msBeforeNext) / 1e3)`) and -Policy; the error is RateLimitExceededError ('Rate Limit Exceeded').
    pds.next = {
      status: 429,
      headers: { 'ratelimit-limit': '5000', 'ratelimit-remaining': '0', 'ratelimit-reset': inSeconds(600), 'ratelimit-policy': '5000;w=3600' },
      body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    };
    const classified = await classification(publish());
    expect(classified).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true });
    expect(Math.abs(classified.retryAfterMs! - 600_000)).toBeLessThan(2000);
  });

  it.each([
    // xrpc-server's InternalServerError, its default name and message.
    ['the PDS failing (500 InternalServerError)', { status: 500, body: { error: 'InternalServerError', message: 'Internal Server Error' } }],
    // The PDS proxying to an AppView or entryway that failed (xrpc-server's UpstreamFailureError).
    ['an upstream failing (502 UpstreamFailure)', { status: 502, body: { error: 'UpstreamFailure', message: 'Upstream Failure' } }],
    // A load balancer in front of the PDS: no XRPC body at all.
    ['a proxy in front of it (503, an HTML page)', { status: 503, body: '<html><body>503 Service Temporarily Unavailable</body></html>' }],
  ])('%s: retried', async (_case, answer) => {
    pds.next = answer;
    expect(await classification(publish())).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
  });

  it("a record the lexicon refuses (400 InvalidRequest): refused with the PDS's reason", async () => {
    // putRecord.js turns prepare.js's `Invalid ${$type} record: ${reason}` into an InvalidRequestError; the reason is
    // @atproto/lexicon's validators/primitives.js: `${path} must not be longer than ${maxGraphemes} graphemes`.
    const reason = 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes';
    pds.next = { status: 400, body: { error: 'InvalidRequest', message: reason } };
    expect(await classification(publish())).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false, message: reason });
  });
});

describe("a PDS's answers to com.atproto.server.refreshSession", () => {
  it.each([
    // auth-verifier.js: a refresh JWT that does not verify.
    ['a revoked refresh token (400 InvalidToken)', { error: 'InvalidToken', message: 'Token could not be verified' }],
    ['an expired refresh token (400 ExpiredToken)', { error: 'ExpiredToken', message: 'Token has expired' }],
  ])('%s: the account reconnects', async (_case, body) => {
    pds.next = { status: 400, body };
    expect(await classification(adapter.refresh(account()))).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false, message: body.message });
  });
});

describe("a PDS's answers to com.atproto.server.createSession (connecting)", () => {
  it('a wrong identifier or app password (401 AuthenticationRequired): refused with the PDS’s reason', async () => {
    // account-manager.js: `new AuthRequiredError('Invalid identifier or password')`, named by its status.
    pds.next = { status: 401, body: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' } };
    expect(await classification(connect())).toMatchObject({ code: 'CREDENTIALS_REJECTED', transient: false, message: 'Invalid identifier or password' });
  });

  it('a sign-in code asked for (401 AuthFactorTokenRequired): refused, saying to use an app password', async () => {
    // createSession's lexicon error (@atproto/api client/types/com/atproto/server/createSession.js); bsky.social's
    // entryway asks for the e-mailed code when the account password is given, an app password skips it.
    pds.next = { status: 401, body: { error: 'AuthFactorTokenRequired', message: 'A sign in code has been sent to your email address' } };
    const classified = await classification(connect());
    expect(classified).toMatchObject({ code: 'CREDENTIALS_REJECTED', transient: false });
    expect(classified.message).toMatch(/sign-in code.*app password/);
  });

  it('an account taken down (401 AccountTakedown): refused, saying Bluesky took the account down', async () => {
    // createSession.js: `new AuthRequiredError('Account has been taken down', 'AccountTakedown')`.
    pds.next = { status: 401, body: { error: 'AccountTakedown', message: 'Account has been taken down' } };
    const classified = await classification(connect());
    expect(classified).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false });
    expect(classified.message).toMatch(/Bluesky.*taken down/);
  });
});
