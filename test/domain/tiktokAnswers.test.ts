// TikTok's answers, as its references print them, through the TikTok adapter's classification (src/providers/tiktok/
// api.ts): each ends in what the worker does next: reconnect (after one refresh where the token was refused), wait
// (until when), retry, or refuse with TikTok's message. Sources of the recorded answers:
//   Error handling  https://developers.tiktok.com/doc/tiktok-api-v2-error-handling (the envelope `{data, error: {code,
//     message, log_id}}`; access_token_invalid 401, scope_not_authorized 401, scope_permission_missed 401,
//     invalid_params 400, rate_limit_exceeded 429, internal_error 500)
//   Direct Post  https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (its error table:
//     spam_risk_too_many_posts, spam_risk_user_banned_from_posting, reached_active_user_cap,
//     unaudited_client_can_only_post_to_private_accounts, url_ownership_unverified, privacy_level_option_mismatch, 403)
//   Integrators report some refusals with HTTP 200 (networks-video.md): the code is read whatever the status.
// TikTok's token endpoint's refusals (`{error, error_description, log_id}`) are the OAuth client's (oauth2.ts), not here.
import { describe, expect, it } from 'vitest';
import { TikTokApi } from '../../src/providers/tiktok/api.ts';
import { recordedNetworkFor, refusalOf } from '../support/recordedAnswers.ts';

const recorded = recordedNetworkFor((options) => new TikTokApi(options));

const envelope = (code: string, message: string) => ({ data: {}, error: { code, message, log_id: '202612011200000102030405060708090A' } });

async function classified(status: number, body: unknown) {
  recorded.network.next = { status, body };
  return refusalOf(() => recorded.api.call('/v2/post/publish/video/init/', 'act.token', { post_info: {}, source_info: {} }));
}

describe("TikTok's answers, classified", () => {
  it('a refused access token: refreshed once, then the account reconnects', async () => {
    expect(await classified(401, envelope('access_token_invalid', 'The access token is invalid or not found in the request.'))).toMatchObject({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      transient: false,
      tokenRejected: true,
      message: 'TikTok: The access token is invalid or not found in the request. (access_token_invalid)',
    });
  });

  it.each([
    ['scope_not_authorized', 'The user did not authorize the scope required for completing this request.'],
    ['scope_permission_missed', 'Access token is invalid, some fields need additional scopes.'],
  ])('a scope not granted (%s): reconnect and allow it, no refresh', async (code, message) => {
    const error = await classified(401, envelope(code, message));
    expect(error).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false, tokenRejected: false });
    expect((error as Error).message).toMatch(/Connect the account again and allow it\.$/);
  });

  it('throttled (429 rate_limit_exceeded, no header saying when): waits, backing off', async () => {
    expect(await classified(429, envelope('rate_limit_exceeded', 'API rate limit was exceeded, please try again later.'))).toMatchObject({
      code: 'RATE_LIMITED_BY_PROVIDER',
      transient: true,
      retryAfterMs: undefined,
    });
  });

  it.each([
    [403, 'spam_risk_too_many_posts', 'The creator has reached the daily post cap.'],
    [200, 'spam_risk_too_many_posts', 'The creator has reached the daily post cap.'],
    [403, 'reached_active_user_cap', 'The daily quota of active posting users of the client is reached.'],
  ])('a daily cap (HTTP %i %s): waits an hour, then tries again', async (status, code, message) => {
    expect(await classified(status, envelope(code, message))).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true, retryAfterMs: 3_600_000 });
  });

  it("TikTok's internal error: retried by the worker", async () => {
    expect(await classified(500, envelope('internal_error', 'Something went wrong. Please try again later.'))).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      transient: true,
    });
  });

  it.each([
    [403, 'unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to a private account.'],
    [403, 'privacy_level_option_mismatch', 'privacy_level is not among the privacy_level_options of the creator.'],
    [403, 'url_ownership_unverified', 'The domain or URL prefix of video_url is not verified.'],
    [403, 'spam_risk_user_banned_from_posting', 'The user is banned from making new posts.'],
    [400, 'invalid_params', 'The request body is not JSON.'],
  ])('a refusal (HTTP %i %s): fails at once with TikTok’s message and code', async (status, code, message) => {
    expect(await classified(status, envelope(code, message))).toMatchObject({
      code: 'PROVIDER_REJECTED',
      transient: false,
      message: `TikTok: ${message} (${code})`,
    });
  });

  it('a refusal written with HTTP 200 is still a refusal; `ok` with HTTP 200 is the answer’s data', async () => {
    expect(await classified(200, envelope('unaudited_client_can_only_post_to_private_accounts', 'Private accounts only.'))).toMatchObject({
      code: 'PROVIDER_REJECTED',
    });
    recorded.network.next = { status: 200, body: { data: { publish_id: 'v_pub_file~v2-1.7' }, error: { code: 'ok', message: '', log_id: 'X' } } };
    expect(await recorded.api.call('/v2/post/publish/video/init/', 'act.token', {})).toEqual({ publish_id: 'v_pub_file~v2-1.7' });
  });
});
