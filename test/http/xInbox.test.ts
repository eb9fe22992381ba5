// The inbox (issue 42) on X, end to end against the X stand-in (test/support/x.ts): replies another person posts under
// a published post are found by their conversation (recent search) within two poll intervals (the polls run at an
// injected time), once each, following X's pages, without the account's own posts and without deleted ones; an
// answer is posted once as the account in reply to that reply; one X refuses fails with X's reason; a crash between
// X's answer and our record does not answer twice (X has no idempotency key: the account's posts are looked up);
// another workspace's items are not found; an app whose tier has no search is said so, never faked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import type { NetworkUser } from '../support/oauthNetwork.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { XStandIn } from '../support/x.ts';

const publicBaseUrl = 'https://sps.example.test';
const redirectUri = `${publicBaseUrl}/oauth/callback/x`;
const pollSeconds = 300;
const alice: NetworkUser = { id: '5100001', name: 'Alice Bakery', username: 'alicebakes', profileImageUrl: 'https://pbs.twimg.com/profile_images/alice.jpg' };
const bob: NetworkUser = { id: '5100002', name: 'Bob Baker', username: 'bob', profileImageUrl: 'https://pbs.twimg.com/profile_images/bob.jpg' };

let x: XStandIn;
let service: TestService;
let api: Api;
let otherApi: Api;
let connectionId: string;
let driver: InboxDriver;
const tokens = { alice: '', bob: '' };

beforeAll(async () => {
  x = await XStandIn.start([redirectUri]);
  // Pro: 300 searches per 15 minutes, so this file's polls (in one real quarter hour) stay within the polls' share.
  service = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...x.settings(), X_API_TIER: 'pro', INBOX_POLL_SECONDS: String(pollSeconds) });
  const { services } = service;
  const workspace = await createWorkspace(services);
  api = apiFor(service.url, (await keyFor(services, workspace.workspaceId, workspace.ownerId, { preset: 'publishing' })).apiKey);
  const other = await createWorkspace(services);
  otherApi = apiFor(service.url, (await keyFor(services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  // Each person authorizes an app at X (PKCE): the account's tokens, and Bob's for what he writes.
  x.oauth.user = bob;
  tokens.bob = (await x.authorize(redirectUri)).access_token;
  x.oauth.user = alice;
  const granted = await x.authorize(redirectUri);
  tokens.alice = granted.access_token;
  ({ connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
    workspaceId: workspace.workspaceId,
    provider: 'x',
    username: alice.username,
    remoteId: alice.id,
    tokens: { accessToken: granted.access_token, refreshToken: granted.refresh_token },
  }));
  driver = inboxDriver(service, api);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await x?.stop();
});

/** Publishes a post to the X account; answers its id at X and ours. */
async function publish(caption: string): Promise<{ remoteId: string; postId: string }> {
  const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId, placement: 'feed' }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
  expect(post.status, JSON.stringify(post.targets)).toBe('published');
  return { remoteId: post.targets[0].remoteId, postId: post.id };
}

/** `who` posts `text` in reply to `inReplyTo` through X's API, as any client would; answers the new post's id. */
async function replyAs(who: keyof typeof tokens, inReplyTo: string, text: string): Promise<string> {
  const response = await fetch(`${x.url}/2/tweets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, reply: { in_reply_to_tweet_id: inReplyTo } }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

const inbox = (query = '') => driver.items(query);
const settled = (itemId: string, replyId: string) => driver.settledReply(itemId, replyId);
/** The item of X's post `remoteId` among the first post's. */
const itemOf = async (remoteId: string) => (await inbox(`?postId=${post.postId}&limit=100`)).find((candidate) => candidate.remoteId === remoteId);
const poll = (at: Date) => driver.pollIfDue(connectionId, at);
const searches = () => x.calls.filter((call) => call.route === 'search').length;
/** What the account has used of an X quota (kit/quotas.ts) so far. */
async function used(quota: string): Promise<number> {
  const { rows } = await service.services.db.pool.query<{ used: number }>(
    `SELECT coalesce(sum(used), 0)::int AS used FROM network_quota_usage WHERE network = 'x' AND quota = $1`,
    [quota],
  );
  return rows[0]!.used;
}

/** The first poll (the moment everything after is measured from) and its clock. */
let clock: Date;
const nextInterval = () => {
  clock = new Date(clock.getTime() + pollSeconds * 1000);
  return clock;
};
let post: { remoteId: string; postId: string };
let commentId: string;

describe('collecting replies from X', () => {
  it('collects what another person replies under a published post within two poll intervals, once, newest first, without the account’s own', async () => {
    post = await publish('Our new bakery opens on Sunday');
    clock = new Date(Date.now() + 1000);
    expect(await poll(clock)).toEqual({ status: 'polled', collected: 0, calls: 1 });
    commentId = await replyAs('bob', post.remoteId, '@alicebakes Which street is it on?');
    const ownAnswer = await replyAs('alice', commentId, '@bob Rue Mouffetard!');
    // Not due again within the interval: nothing is asked.
    const asked = searches();
    expect(await poll(new Date(clock.getTime() + 60_000))).toBeNull();
    expect(searches()).toBe(asked);
    // Due at the next interval: Bob's reply collected then, one search for the one post; Alice's own is no item.
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 1, calls: 1 });
    const nested = await replyAs('bob', ownAnswer, '@alicebakes And does it open at 8?');
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 1 });
    const items = await inbox();
    expect(items.map((item) => [item.kind, item.text, item.remoteId])).toEqual([
      ['reply', '@alicebakes And does it open at 8?', nested],
      ['comment', '@alicebakes Which street is it on?', commentId],
    ]);
    expect(items[1]).toMatchObject({
      connectionId,
      provider: 'x',
      postId: post.postId,
      author: { displayName: 'Bob Baker', username: 'bob', avatarUrl: bob.profileImageUrl },
      status: 'open',
      replies: [],
      remoteUrl: `https://x.com/bob/status/${commentId}`,
    });
    // Polled again with nothing new: since_id leaves the seen ones out, nothing stored twice. Each poll is charged
    // to the tier's recent-search limit, one unit a post.
    const searched = await used('X recent search: 300 per 15 minutes (pro)');
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 0, calls: 1 });
    expect(await used('X recent search: 300 per 15 minutes (pro)')).toBe(searched + 1);
    expect(await inbox()).toHaveLength(2);
  });

  it('follows X’s pages (100 a page) and counts each search as a call', async () => {
    const busy = await publish('Free croissants for the first hundred');
    const ids: string[] = [];
    for (let i = 1; i <= 105; i++) ids.push(await replyAs('bob', busy.remoteId, `@alicebakes Me! Number ${i}`));
    // Two pages for the busy post, one search for the first.
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 105, calls: 3 });
    const first = await api('GET', `/inbox?postId=${busy.postId}&limit=100`);
    const second = await api('GET', `/inbox?postId=${busy.postId}&limit=100&cursor=${first.body.pagination.nextCursor}`);
    const collected = [...first.body.data, ...second.body.data].map((item: { remoteId: string }) => item.remoteId);
    expect(collected.sort()).toEqual([...ids].sort());
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 0, calls: 2 });
  });

  it('does not collect a reply deleted before the poll (deleted posts are gone from search)', async () => {
    const gone = await replyAs('bob', post.remoteId, '@alicebakes Typo, deleting this');
    const deleted = await fetch(`${x.url}/2/tweets/${gone}`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.bob}` } });
    expect(await deleted.json()).toEqual({ data: { deleted: true } });
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    expect(await itemOf(gone)).toBeUndefined();
  });

  it('does not search posts older than recent search’s 7 days', async () => {
    const old = await publish('Last month’s opening hours');
    await service.services.db.pool.query(`UPDATE post_target SET published_at = now() - interval '8 days' WHERE post_id = $1`, [old.postId]);
    await replyAs('bob', old.remoteId, '@alicebakes Still valid?');
    // The two recent posts are searched; the old one is not.
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 0, calls: 2 });
  });

  it('skips the poll with X’s reason when the app’s access has no recent search, and asks again at the next interval', async () => {
    x.searchRefused = true;
    try {
      expect(await poll(nextInterval())).toEqual({
        status: 'skipped',
        reason: expect.stringMatching(/X_API_TIER=free. X said: When authenticating requests to the Twitter API v2 endpoints/),
      });
      expect(await poll(new Date(clock.getTime() + 60_000))).toBeNull();
    } finally {
      x.searchRefused = false;
    }
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
  });

  it("does not show another workspace's items", async () => {
    const [item] = await inbox();
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });

  it('says in GET /providers that X has an inbox here', async () => {
    const { body } = await api('GET', '/providers');
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'x').inbox).toEqual({ available: true, reason: null });
  });
});

describe('answering on X', () => {
  const answersTo = (id: string) => x.posts.filter((candidate) => candidate.inReplyToId === id && candidate.authorId === alice.id);

  it('posts the answer once, as the account, in reply to that reply, and does not collect it as an item', async () => {
    const item = await itemOf(commentId);
    const posted = await used('X posts per day');
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Number 12, next to the fountain' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const reply = await settled(item.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'published', error: null });
    // An answer is a post at X: charged to X_POSTS_PER_DAY as one.
    expect(await used('X posts per day')).toBe(posted + 1);
    const answers = answersTo(commentId).filter((candidate) => candidate.text === 'Number 12, next to the fountain');
    expect(answers).toHaveLength(1);
    expect(answers[0]!.conversationId).toBe(post.remoteId);
    expect(reply.remoteId).toBe(answers[0]!.id);
    expect(reply.remoteUrl).toBe(`https://x.com/${alice.username}/status/${answers[0]!.id}`);
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    expect(await itemOf(answers[0]!.id)).toBeUndefined();
  });

  it("checks the answer against X's 280 characters first (422, nothing stored)", async () => {
    const item = await itemOf(commentId);
    const refused = await api('POST', `/inbox/${item.id}/replies`, { text: 'x'.repeat(281) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'text' })]);
    expect((await itemOf(commentId)).replies).toHaveLength(1);
  });

  it("fails an answer X refuses with X's reason (the reply was deleted meanwhile)", async () => {
    const gone = await replyAs('bob', post.remoteId, '@alicebakes Never mind');
    expect(await poll(nextInterval())).toMatchObject({ collected: 1 });
    await fetch(`${x.url}/2/tweets/${gone}`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.bob}` } });
    const item = await itemOf(gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'No worries' });
    expect(await settled(item.id, sent.body.data.id)).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('deleted or not visible to you') },
    });
    expect(answersTo(gone)).toEqual([]);
  });

  it("answers once when an attempt crashed between X's answer and our record", async () => {
    const question = await replyAs('bob', post.remoteId, '@alicebakes Gluten-free options?');
    expect(await poll(nextInterval())).toMatchObject({ collected: 1 });
    const item = await itemOf(question);
    // The crashed attempt: committed as publishing with its call started, the post created at X, its answer never recorded.
    const replyId = await driver.crashedReply(item.id, 'Yes, on Fridays');
    const created = await replyAs('alice', question, 'Yes, on Fridays');
    // The job's retry after the crash finds the post X has instead of posting a second one.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('published');
    expect(answersTo(question).map((candidate) => candidate.id)).toEqual([created]);
    expect((await settled(item.id, replyId)).remoteId).toBe(created);
    // Done is done: a late duplicate of the job posts nothing.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('gone');
    expect(answersTo(question)).toHaveLength(1);
  });
});

describe('an X app on the Free tier', () => {
  let free: TestService;
  beforeAll(async () => {
    free = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...x.settings(), X_API_TIER: 'free' });
  }, 120_000);
  afterAll(() => free?.stop());

  it('has no inbox, and GET /providers says why instead of polling', async () => {
    const workspace = await createWorkspace(free.services);
    const { body } = await apiFor(free.url, workspace.ownerKey)('GET', '/providers');
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'x').inbox).toEqual({
      available: false,
      reason: expect.stringContaining('Free tier has no recent search'),
    });
    expect(free.services.inboxes.has('x')).toBe(false);
  });
});
