// Publishing to X through the service, against the X stand-in (test/support/x.ts): connecting end to end, text, two
// images with alt text, a GIF, a video X processes before the post is created, refused and expired tokens, a 429
// that waits for X's reset, and the posts-per-day quota (X_POSTS_PER_DAY=4 here: each test from an account of its own, the
// quota's tests alone posting more than four times).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { image, video } from '../support/mediaFiles.ts';
import { XStandIn } from '../support/x.ts';

const publicBaseUrl = 'https://sps.example.test';
let x: XStandIn;
let service: TestService;
let acme: TestWorkspace;
let api: Api;
let people = 0;

beforeAll(async () => {
  x = await XStandIn.start([`${publicBaseUrl}/oauth/callback/x`]);
  x.videoPolls = 2;
  service = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...x.settings(), X_POSTS_PER_DAY: '4', NETWORK_TIMEOUT_MS: '5000' });
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
});
afterAll(async () => {
  await service.stop();
  await x.stop();
});

/** A new X user authorizes the app, through the start link, X's authorization page and the callback. */
async function connect(): Promise<{ connectionId: string; user: typeof x.oauth.user }> {
  people++;
  x.oauth.user = { id: String(4_000_000 + people), name: `Person ${people}`, username: `person${people}` };
  const started = await api('POST', '/social-accounts/connect', { provider: 'x' });
  expect(started.status).toBe(201);
  const browser = new OAuthBrowser(service.url, publicBaseUrl);
  const authorizationUrl = await browser.start(started.body.data.authorizationUrl);
  const atX = await fetch(authorizationUrl, { redirect: 'manual' });
  const { location } = await browser.callback(atX.headers.get('location')!);
  return { connectionId: location!.searchParams.get('connectionId')!, user: { ...x.oauth.user } };
}

async function upload(filename: string, contentType: string, bytes: Buffer, altText?: string): Promise<string> {
  const started = (await api('POST', '/media/uploads', { filename, contentType, size: bytes.length })).body.data;
  await fetch(started.uploadUrl.replace(publicBaseUrl, service.url), { method: started.method, headers: started.headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${started.id}/complete`);
  for (let i = 0; i < 300; i++) {
    const { body } = await api('GET', `/media/${started.id}`);
    if (body.data.status === 'ready') break;
    await sleep(100);
  }
  if (altText) await api('PUT', `/media/${started.id}/alt-text`, { altText });
  return started.id;
}

async function publish(connectionId: string, caption: string, mediaIds: string[] = [], settings?: Record<string, unknown>) {
  const created = await api('POST', '/posts', {
    content: { caption, mediaIds },
    targets: [{ connectionId, placement: 'feed', ...(settings ? { settings } : {}) }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return created.body.data.id as string;
}

/** The target's row once it waits (post_target.waiting_until is set). */
async function waiting(postId: string) {
  for (let i = 0; i < 150; i++) {
    const { rows } = await service.services.db.pool.query('SELECT waiting_until, waiting_reason, error_code FROM post_target WHERE post_id = $1', [postId]);
    if (rows[0].waiting_until) return rows[0];
    await sleep(100);
  }
  throw new Error(`the target of post ${postId} does not wait`);
}

describe('connecting an X account', () => {
  it('runs POST /social-accounts/connect -> X authorization (PKCE, HTTP Basic) -> callback to an ACTIVE account', async () => {
    const { connectionId, user } = await connect();
    expect((await api('GET', `/social-accounts/${connectionId}`)).body.data).toMatchObject({ provider: 'x', username: user.username, status: 'ACTIVE' });
    const exchange = x.oauth.requests.filter((request) => request.path === '/2/oauth2/token').at(-1)!;
    expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', code_verifier: expect.stringMatching(/^[\w-]{43,}$/) });
    expect(exchange.authorization).toMatch(/^Basic /);
    const { body } = await api('GET', '/providers');
    expect(body.data.find((entry: any) => entry.provider === 'x')).toMatchObject({ configured: true, publishing: true, connection: { method: 'oauth2' } });
  });

  it('refuses an app X grants no write scopes ("Read" permissions), naming them and what to change; no account is made', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    x.oauth.grantable = ['tweet.read', 'users.read', 'offline.access'];
    try {
      const started = await api('POST', '/social-accounts/connect', { provider: 'x' });
      const browser = new OAuthBrowser(service.url, publicBaseUrl);
      const atX = await fetch(await browser.start(started.body.data.authorizationUrl), { redirect: 'manual' });
      const { location } = await browser.callback(atX.headers.get('location')!);
      expect(location!.searchParams.get('error')).toBe('invalid_request');
      expect(location!.searchParams.get('error_description')).toBe(
        'Nothing was connected: X did not grant tweet.write, media.write, which publishing needs: give the app "Read and write" permissions in the X developer portal, then connect again.',
      );
    } finally {
      x.oauth.grantable = undefined;
    }
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });
});

describe('publishing to X', () => {
  it('posts text with reply settings, once, with its x.com URL; the caption is counted as X counts it', async () => {
    const { connectionId, user } = await connect();
    const caption = `Hello X ${'日本'.repeat(60)} https://example.com/${'long/'.repeat(30)}`;
    const postId = await publish(connectionId, caption, [], { replySettings: 'following' });
    const published = await waitForPost(api, postId, ['published', 'failed']);
    const posts = x.postsBy(user);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ text: caption, replySettings: 'following' });
    expect(published.targets[0]).toMatchObject({
      status: 'published',
      remoteId: posts[0]!.id,
      remoteUrl: `https://x.com/${user.username}/status/${posts[0]!.id}`,
    });
    posts[0]!.metrics = { like_count: 5, retweet_count: 2, quote_count: 1, reply_count: 3, impression_count: 40 };
    const { access_token } = await x.authorize(`${publicBaseUrl}/oauth/callback/x`);
    const account = { id: connectionId, provider: 'x', username: user.username, remoteId: user.id, tokens: { accessToken: access_token } };
    expect(await service.services.adapters.get('x')!.metrics(account, posts[0]!.id)).toEqual({ likes: 5, shares: 3, comments: 3, impressions: 40 });
    // 8 + 240 (CJK at 2) + 1 + 23 (a link) = 272 of 280: as plain characters it would be 8 + 120 + 1 + 170 = 299.
    const tooLong = await api('POST', '/posts/validate', {
      content: { caption: `${caption}${'日'.repeat(5)}` },
      targets: [{ connectionId, placement: 'feed' }],
    });
    expect(tooLong.body.data.targets[0].findings).toEqual([
      expect.objectContaining({ code: 'caption.maxLength', message: 'The caption is 282 characters long; the limit is 280.' }),
    ]);
  });

  it('uploads two images in segments, sends their alt text to /2/media/metadata, then posts them', async () => {
    const { connectionId, user } = await connect();
    const media = [
      await upload('a.png', 'image/png', await image('png', 64, 48), 'A red square'),
      await upload('b.jpg', 'image/jpeg', await image('jpeg', 48, 64), 'A red portrait'),
    ];
    const published = await waitForPost(api, await publish(connectionId, 'Two pictures', media), ['published', 'failed']);
    expect(published.targets[0].status).toBe('published');
    const [post] = x.postsBy(user);
    expect(post!.mediaIds.map((id) => x.media.get(id)!.altText)).toEqual(['A red square', 'A red portrait']);
    expect(post!.mediaIds.map((id) => x.media.get(id)!.category)).toEqual(['tweet_image', 'tweet_image']);
  });

  it('posts a GIF as tweet_gif', async () => {
    const { connectionId, user } = await connect();
    const gif = await upload('a.gif', 'image/gif', await image('gif', 32, 32), 'A red GIF');
    expect((await waitForPost(api, await publish(connectionId, 'A GIF', [gif]), ['published', 'failed'])).targets[0].status).toBe('published');
    expect(x.media.get(x.postsBy(user)[0]!.mediaIds[0]!)).toMatchObject({ category: 'tweet_gif', altText: 'A red GIF' });
  });

  it('uploads a video, waits while X processes it (STATUS), and creates the post only after it succeeded', async () => {
    const { connectionId, user } = await connect();
    const clip = await video(160, 120, 1);
    const postId = await publish(connectionId, 'A clip', [await upload('clip.mp4', 'video/mp4', clip)]);
    const published = await waitForPost(api, postId, ['published', 'failed'], 60_000);
    expect(published.targets[0].status).toBe('published');
    const [post, ...more] = x.postsBy(user);
    expect(more).toHaveLength(0);
    const mediaId = post!.mediaIds[0]!;
    // The post was created once, after the second STATUS answered `succeeded` (X refuses media still processing).
    const calls = x.calls.filter((call) => call.mediaId === mediaId || call.route === 'tweet').map((call) => call.route);
    expect(calls.slice(calls.indexOf('initialize'))).toEqual(['initialize', 'append', 'finalize', 'status', 'status', 'tweet']);
    expect(x.media.get(mediaId)).toMatchObject({ totalBytes: clip.length, finalized: true, pollsLeft: 0 });
  });

  it('refreshes an expired access token once and publishes', async () => {
    const { connectionId, user } = await connect();
    x.oauth.expireAccessTokens();
    const refreshes = () => x.oauth.requests.filter((request) => request.form.grant_type === 'refresh_token').length;
    const before = refreshes();
    const published = await waitForPost(api, await publish(connectionId, 'After a refresh'), ['published', 'failed']);
    expect(published.targets[0].status).toBe('published');
    expect(refreshes() - before).toBe(1);
    expect(x.postsBy(user)).toHaveLength(1);
  });

  it('a token X keeps refusing: refreshed once, then the account needs reconnecting and the target fails', async () => {
    const { connectionId, user } = await connect();
    x.refuseTokens = true;
    try {
      const refreshes = () => x.oauth.requests.filter((request) => request.form.grant_type === 'refresh_token').length;
      const before = refreshes();
      const failed = await waitForPost(api, await publish(connectionId, 'Refused'), ['failed', 'published']);
      expect(failed.targets[0]).toMatchObject({ status: 'failed', error: expect.objectContaining({ code: 'ACCOUNT_NEEDS_RECONNECT' }) });
      expect(refreshes() - before).toBe(1);
      expect((await api('GET', `/social-accounts/${connectionId}`)).body.data.status).toBe('NEEDS_RECONNECT');
      expect(x.postsBy(user)).toHaveLength(0);
    } finally {
      x.refuseTokens = false;
    }
  });

  it('a 429 waits until x-rate-limit-reset (the target shows waitingUntil), without posting', async () => {
    const { connectionId, user } = await connect();
    x.limit('tweet', 3600);
    try {
      const postId = await publish(connectionId, 'Rate limited');
      const row = await waiting(postId);
      const reset = x.limited.get('tweet')! * 1000;
      expect(Math.abs(new Date(row.waiting_until).getTime() - reset)).toBeLessThan(5000);
      expect(row.error_code).toBe('RATE_LIMITED_BY_PROVIDER');
      expect(x.postsBy(user)).toHaveLength(0);
    } finally {
      x.limited.clear();
    }
  });

  it("the tier's 24-hour cap (429 with x-user-limit-24hour-reset) waits until that reset, not the 15-minute window's", async () => {
    const { connectionId, user } = await connect();
    x.capDaily('user', 0, 20);
    try {
      const row = await waiting(await publish(connectionId, 'Past the daily cap'));
      expect(Math.abs(new Date(row.waiting_until).getTime() - x.dailyCap!.reset * 1000)).toBeLessThan(5000);
      expect(row.error_code).toBe('RATE_LIMITED_BY_PROVIDER');
      expect(row.waiting_reason).toContain('24-hour');
      expect(x.postsBy(user)).toHaveLength(0);
    } finally {
      x.dailyCap = undefined;
    }
  });

  it('a pay-per-use app without credits (402) fails the target at once, saying the operator adds credits', async () => {
    const { connectionId, user } = await connect();
    x.credits = 0;
    try {
      const failed = await waitForPost(api, await publish(connectionId, 'Without credits'), ['failed', 'published']);
      expect(failed.targets[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: expect.objectContaining({ code: 'PROVIDER_REJECTED', message: expect.stringContaining('credits') }),
      });
      expect(failed.targets[0].error.message).toContain('developer console');
      expect(x.postsBy(user)).toHaveLength(0);
    } finally {
      x.credits = undefined;
    }
  });

  it('X_POSTS_PER_DAY: a thread counts each part and its first comment; the next post waits for the window instead of reaching X', async () => {
    const { connectionId, user } = await connect();
    const created = await api('POST', '/posts', {
      content: { caption: 'Day 1/3', thread: [{ caption: 'Day 2/3' }, { caption: 'Day 3/3' }] },
      targets: [{ connectionId, placement: 'feed', settings: { firstComment: 'Day, the sources' } }],
    });
    await api('POST', `/posts/${created.body.data.id}/publish`);
    expect((await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0].status).toBe('published');
    expect(x.postsBy(user)).toHaveLength(4);
    const row = await waiting(await publish(connectionId, 'Fifth of the day'));
    // Asked again at the next of the day's two-hour buckets (the quota counts a moving 24 hours).
    expect(new Date(row.waiting_until).getTime()).toBe(Math.ceil(Date.now() / 7_200_000) * 7_200_000);
    expect(row.waiting_reason).toContain('X posts per day');
    expect(x.postsBy(user)).toHaveLength(4);
  });

  it('X_POSTS_PER_DAY: a thread longer than a whole day allows fails at once, naming the quota, with nothing at X', async () => {
    const { connectionId, user } = await connect();
    const created = await api('POST', '/posts', {
      content: { caption: 'Long 1/5', thread: ['Long 2/5', 'Long 3/5', 'Long 4/5', 'Long 5/5'].map((caption) => ({ caption })) },
      targets: [{ connectionId, placement: 'feed' }],
    });
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const failed = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    expect(failed.targets[0]).toMatchObject({
      status: 'failed',
      error: { code: 'PROVIDER_VALIDATION_FAILED', message: 'The post and its replies cost 5 of X posts per day, more than its 4.' },
    });
    expect(x.postsBy(user)).toHaveLength(0);
  });

  it('a duplicate X refuses (403) fails the target for good with X’s reason', async () => {
    const { connectionId, user } = await connect();
    x.posts.push({
      id: '1',
      conversationId: '1',
      authorId: user.id,
      text: 'Said before',
      mediaIds: [],
      replySettings: null,
      inReplyToId: null,
      createdAt: new Date(0),
      metrics: { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, impression_count: 0 },
    });
    const failed = await waitForPost(api, await publish(connectionId, 'Said before'), ['failed', 'published']);
    expect(failed.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: expect.objectContaining({ code: 'PROVIDER_REJECTED', message: expect.stringContaining('duplicate content') }),
    });
  });
});

describe('a thread on X', () => {
  it('posts each part once as a reply to the one before, the first comment to the last part', async () => {
    const { connectionId, user } = await connect();
    const picture = await upload('t.png', 'image/png', await image('png', 64, 48), 'A square');
    const created = await api('POST', '/posts', {
      content: { caption: 'X thread 1/3', thread: [{ caption: 'X thread 2/3', mediaIds: [picture] }, { caption: 'X thread 3/3' }] },
      targets: [{ connectionId, placement: 'feed', settings: { firstComment: 'X thread, the sources' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const published = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    expect(published.status).toBe('published');
    const posts = x.postsBy(user);
    expect(posts.map((post) => [post.text, post.inReplyToId])).toEqual([
      ['X thread 1/3', null],
      ['X thread 2/3', posts[0]!.id],
      ['X thread 3/3', posts[1]!.id],
      ['X thread, the sources', posts[2]!.id],
    ]);
    expect(posts[1]!.mediaIds).toHaveLength(1);
    const [target] = published.targets;
    expect(target.remoteId).toBe(posts[0]!.id);
    expect(target.parts.map((part: { remoteId: string }) => part.remoteId)).toEqual(posts.slice(0, 3).map((post) => post.id));
    expect(target.firstComment).toEqual({ remoteId: posts[3]!.id, remoteUrl: `https://x.com/${user.username}/status/${posts[3]!.id}`, error: null });
  });

  it('fails the target at a part X refuses, with the parts already posted kept and listed', async () => {
    const { connectionId, user } = await connect();
    // The third part says what the account already said: X refuses it (403 duplicate content).
    x.posts.push({
      id: '2',
      conversationId: '2',
      authorId: user.id,
      text: 'Said before too',
      mediaIds: [],
      replySettings: null,
      inReplyToId: null,
      createdAt: new Date(0),
      metrics: { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, impression_count: 0 },
    });
    const created = await api('POST', '/posts', {
      content: { caption: 'Kept 1/3', thread: [{ caption: 'Kept 2/3' }, { caption: 'Said before too' }] },
      targets: [{ connectionId, placement: 'feed' }],
    });
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const failed = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    const [first, second] = x.postsBy(user).filter((post) => post.text.startsWith('Kept'));
    expect(failed.targets[0]).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED' } });
    expect(failed.targets[0].parts.map((part: { remoteId: string }) => part.remoteId)).toEqual([first!.id, second!.id]);
    expect(second!.inReplyToId).toBe(first!.id);
  });
});
