// The X stand-in (test/support/x.ts) kept honest: twitter-api-v2, X's maintained client, posts, uploads (chunked, with
// alt text, a video through STATUS), reads metrics and a timeline, searches a conversation page by page and deletes
// against it, and gets X's errors where X gives them.
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiResponseError, TwitterApi, type TwitterApiv2 } from 'twitter-api-v2';
import { XStandIn } from '../support/x.ts';

const redirectUri = 'https://sps.example.test/oauth/callback/x';
let x: XStandIn;
let client: TwitterApiv2;

beforeAll(async () => {
  x = await XStandIn.start([redirectUri]);
  x.videoPolls = 1;
  client = clientOf((await x.authorize(redirectUri)).access_token);
});

function clientOf(accessToken: string): TwitterApiv2 {
  // twitter-api-v2 speaks https only; a plain http agent lets it reach the local stand-in.
  // Its prefix is protected: the documented way to reach another host is a subclass or this.
  const v2 = new TwitterApi(accessToken, { httpAgent: new Agent() }).v2;
  (v2 as unknown as { setPrefix(prefix: string): void }).setPrefix(`${x.url}/2/`);
  return v2;
}
afterAll(() => x.stop());

const failure = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiResponseError);
  return error as ApiResponseError;
};

describe('the X stand-in, through twitter-api-v2', () => {
  it('posts text, reads it back with public_metrics and in the timeline, and refuses the same text again with 403', async () => {
    const me = await client.me();
    expect(me.data.username).toBe(x.oauth.user.username);
    const posted = await client.tweet('Hello from the stand-in', { reply_settings: 'following' });
    expect(posted.data.id).toMatch(/^\d+$/);
    const read = await client.singleTweet(posted.data.id, { 'tweet.fields': ['public_metrics'] });
    expect(read.data.public_metrics).toMatchObject({ like_count: 0, retweet_count: 0 });
    const timeline = await client.userTimeline(me.data.id, { max_results: 5 });
    expect(timeline.tweets.map((tweet) => tweet.id)).toContain(posted.data.id);
    const duplicate = await failure(client.tweet('Hello from the stand-in'));
    expect(duplicate.code).toBe(403);
    expect(duplicate.data).toMatchObject({ title: 'Forbidden', detail: expect.stringContaining('duplicate content') });
  });

  it("finds a conversation's replies by recent search, newest first, page after page, with their authors; since_id and deletes as X does", async () => {
    const root = await client.tweet('Ask me anything');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await client.reply(`Answer number ${i}`, root.data.id)).data.id);
    const found = await client.search(`conversation_id:${root.data.id}`, {
      max_results: 10,
      'tweet.fields': ['author_id', 'created_at', 'conversation_id', 'referenced_tweets'],
      expansions: ['author_id'],
      'user.fields': ['profile_image_url'],
    });
    expect(found.tweets).toHaveLength(10);
    await found.fetchNext();
    // The conversation's first post is in it too: its conversation_id is its own id.
    expect(found.tweets.map((tweet) => tweet.id)).toEqual([...[...ids].reverse(), root.data.id]);
    expect(found.tweets[0]).toMatchObject({
      author_id: x.oauth.user.id,
      conversation_id: root.data.id,
      referenced_tweets: [{ type: 'replied_to', id: root.data.id }],
    });
    expect(found.includes.author(found.tweets[0]!)).toMatchObject({ username: x.oauth.user.username, profile_image_url: x.oauth.user.profileImageUrl });
    await client.deleteTweet(ids[11]!);
    const newer = await client.search(`conversation_id:${root.data.id}`, { since_id: ids[8] });
    expect(newer.tweets.map((tweet) => tweet.id)).toEqual([ids[10], ids[9]]);
    expect((await failure(client.search(`conversation_id:${root.data.id}`, { max_results: 5 }))).code).toBe(400);
    x.searchRefused = true;
    try {
      const refused = await failure(client.search(`conversation_id:${root.data.id}`));
      expect(refused.code).toBe(403);
      expect(refused.data).toMatchObject({ reason: 'client-not-enrolled', type: 'https://api.twitter.com/2/problems/client-forbidden' });
    } finally {
      x.searchRefused = false;
    }
  });

  it('uploads an image in chunks with alt text, and a video it processes before a post may carry it', async () => {
    const image = Buffer.alloc(300_000, 7);
    const imageId = await client.uploadMedia(image, { media_type: 'image/png' }, 100_000);
    await client.createMediaMetadata(imageId, { alt_text: { text: 'Seven sevens' } });
    expect(x.media.get(imageId)).toMatchObject({ totalBytes: 300_000, altText: 'Seven sevens', finalized: true });
    const videoId = await client.uploadMedia(Buffer.alloc(2_500_000, 1), { media_type: 'video/mp4' });
    expect(x.calls.filter((call) => call.route === 'status' && call.mediaId === videoId)).toHaveLength(1);
    const posted = await client.tweet('', { media: { media_ids: [videoId] } });
    expect(x.posts.find((post) => post.id === posted.data.id)?.mediaIds).toEqual([videoId]);
  });

  it("answers X's errors: invalid requests, segments over 5 MB, media still processing, 429 with its reset, 401", async () => {
    const tooBig = await failure(client.uploadMedia(Buffer.alloc(6 * 1024 * 1024), { media_type: 'image/png' }, 6 * 1024 * 1024));
    expect(tooBig.code).toBe(400);
    expect(tooBig.data).toMatchObject({ title: 'Invalid Request', errors: [expect.objectContaining({ message: expect.any(String) })] });
    const segments = await failure(client.uploadMedia(Buffer.alloc(5 * 1024 * 1024 + 1), { media_type: 'video/mp4' }, 5 * 1024 * 1024 + 1));
    expect(segments.data.errors).toEqual([expect.objectContaining({ message: 'The segment is larger than 5 MB.' })]);

    x.videoPolls = 3;
    const init = await client.post<{ data: { id: string } }>('media/upload/initialize', {
      media_type: 'video/mp4',
      total_bytes: 10,
      media_category: 'tweet_video',
    });
    await client.post(`media/upload/${init.data.id}/append`, { segment_index: 0, media: Buffer.alloc(10) }, { forceBodyMode: 'form-data' });
    const finalized = await client.post<{ data: { processing_info: { state: string } } }>(`media/upload/${init.data.id}/finalize`);
    expect(finalized.data.processing_info.state).toBe('in_progress');
    const early = await failure(client.tweet('With a video not ready', { media: { media_ids: [init.data.id] } }));
    expect(early.data.errors).toEqual([expect.objectContaining({ message: 'Your media IDs are invalid.' })]);

    x.limit('tweet', 60);
    const limited = await failure(client.tweet('Over the limit'));
    expect(limited.code).toBe(429);
    expect(limited.rateLimit?.reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 59);
    x.limited.clear();

    x.oauth.expireAccessTokens();
    expect((await failure(client.tweet('Expired'))).code).toBe(401);
  });
});

describe("the X stand-in's posting limits, as twitter-api-v2 reads them", () => {
  beforeAll(async () => {
    // The tests above expired the tokens: a new user's.
    x.oauth.user = { id: '783214', name: 'Capped Person', username: 'capped' };
    client = clientOf((await x.authorize(redirectUri)).access_token);
  });

  it("reports a tier's 24-hour cap in the headers twitter-api-v2 reads as rateLimit.userDay, and answers 429 past it", async () => {
    x.capDaily('user', 1, 10);
    try {
      await client.tweet('The one of the day');
      const capped = await failure(client.tweet('One more today'));
      expect(capped.code).toBe(429);
      expect(capped.rateLimit?.userDay).toEqual({ limit: 1, remaining: 0, reset: x.dailyCap!.reset });
      // The 15-minute window is not what is spent.
      expect(capped.rateLimit?.remaining).toBeGreaterThan(0);
    } finally {
      x.dailyCap = undefined;
    }
  });

  it('answers 402 Payment Required once a pay-per-use app has no credits left', async () => {
    x.credits = 1;
    try {
      await client.tweet('Paid with the last credit');
      const unpaid = await failure(client.tweet('Nothing left to pay with'));
      expect(unpaid.code).toBe(402);
      expect(unpaid.data).toMatchObject({ title: 'Payment Required', type: 'https://api.x.com/2/problems/credits-depleted' });
    } finally {
      x.credits = undefined;
    }
  });
});

describe("the X stand-in's OAuth 2.0", () => {
  const verifier = 'v'.repeat(43);

  it('refuses a code exchanged with another PKCE verifier, and a code exchanged twice', async () => {
    const code = await x.authorizationCode(redirectUri, verifier);
    expect(await x.exchange(redirectUri, code, 'w'.repeat(43))).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const fresh = await x.authorizationCode(redirectUri, verifier);
    expect((await x.exchange(redirectUri, fresh, verifier)).status).toBe(200);
    expect(await x.exchange(redirectUri, fresh, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('grants an app with "Read" permissions no write scopes, and its token cannot post or upload (403)', async () => {
    x.oauth.grantable = ['tweet.read', 'users.read', 'offline.access'];
    try {
      const { body } = await x.exchange(redirectUri, await x.authorizationCode(redirectUri, verifier), verifier);
      expect(body.scope).toBe('tweet.read users.read offline.access');
      const reader = new TwitterApi(String(body.access_token), { httpAgent: new Agent() }).v2;
      (reader as unknown as { setPrefix(prefix: string): void }).setPrefix(`${x.url}/2/`);
      expect((await reader.me()).data.username).toBe(x.oauth.user.username);
      expect((await failure(reader.tweet('Read only'))).data).toMatchObject({ status: 403, title: 'Forbidden' });
      expect((await failure(reader.uploadMedia(Buffer.alloc(10), { media_type: 'image/png' }))).code).toBe(403);
    } finally {
      x.oauth.grantable = undefined;
    }
  });
});
