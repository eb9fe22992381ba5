// The inbox (issue 42) on Threads, end to end against the Meta stand-in's graph.threads.net (test/support/meta.ts):
// replies other profiles leave under a published post, at any depth, are collected from its conversation within two
// poll intervals (polls at an injected time), once each, following Threads' pages only back to what the last poll saw,
// without the profile's own replies nor the ones hidden or covered; an answer is a reply of the profile to that
// comment, published once through a container, charged to Threads' 1,000 replies a day; a reply to a deleted comment
// fails with Threads' reason; a crash between threads_publish and our record does not answer twice; another
// workspace's items are not found.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import { MetaStandIn, postOnThreads, type ThreadsProfile } from '../support/meta.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { openTokens } from '../../src/accounts/socialAccounts.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startTestService, type TestService } from '../support/service.ts';

const publicBaseUrl = 'https://publisher.example';
const pollSeconds = 300;
const repliesQuota = 'Threads: 1,000 API-published replies per 24 hours';

let meta: MetaStandIn;
let service: TestService;
let api: Api;
let otherApi: Api;
let connectionId: string;
let driver: InboxDriver;
let db: pg.Client;

/** Other people on Threads, and the profile itself writing in the Threads app: each with their own token. */
const bob: ThreadsProfile = { id: '40112', username: 'bob.baker', name: 'Bob Baker' };
const carol: ThreadsProfile = { id: '40113', username: 'carol.jones', name: 'Carol Jones' };
const tokens = new Map<string, string>();

beforeAll(async () => {
  meta = await MetaStandIn.start({ redirectUris: [`${publicBaseUrl}/oauth/callback/threads`], processingReads: 1 });
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    ...meta.threadsSettings,
    INBOX_POLL_SECONDS: String(pollSeconds),
  });
  const workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
  const other = await createWorkspace(service.services);
  otherApi = apiFor(service.url, (await keyFor(service.services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  connectionId = await connectByOAuth(service, publicBaseUrl, api, 'threads');
  for (const profile of [bob, carol, meta.threadsProfile]) tokens.set(profile.id, meta.issueThreadsToken(profile));
  driver = inboxDriver(service, api);
  db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db?.end();
  await service?.stop();
  await meta?.stop();
});

const inbox = (query = '') => driver.items(query);
const pollIfDue = (at: Date) => driver.pollIfDue(connectionId, at);
const settledReply = (itemId: string, replyId: string) => driver.settledReply(itemId, replyId);

/** A call to graph.threads.net as `profile`, as any Threads client makes it. */
async function threadsCall(profile: ThreadsProfile, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}): Promise<any> {
  const url = new URL(`${meta.threadsUrl}/v1.0${path}`);
  if (method === 'GET') for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${tokens.get(profile.id)}` },
    ...(method === 'POST' ? { body: new URLSearchParams(params) } : {}),
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** `profile` replies to `to` through Threads' API, as any client would. */
const replyAs = (profile: ThreadsProfile, to: string, text: string) => postOnThreads(meta, profile, tokens.get(profile.id)!, text, to);

/** Moves the Threads clock on: what is written after is a minute younger (Threads' timestamps are to the second). */
const aMinuteLater = () => {
  meta.threadsClockAheadMs += 60_000;
};

const answersTo = (remoteId: string) => [...meta.threadsPosts.values()].filter((post) => post.replyTo === remoteId && post.user === meta.threadsProfile.id);

async function repliesUsed(): Promise<number> {
  const { rows } = await db.query('SELECT coalesce(sum(used), 0)::int AS used FROM network_quota_usage WHERE network = $1 AND scope = $2 AND quota = $3', [
    'threads',
    connectionId,
    repliesQuota,
  ]);
  return rows[0].used;
}

let clock: Date;
let postId: string;
let postRemoteId: string;
let question: string;

/** The next poll interval's poll. */
async function nextPoll() {
  clock = new Date(clock.getTime() + pollSeconds * 1000);
  return pollIfDue(clock);
}

describe('collecting replies from Threads', () => {
  it('collects replies at any depth within two poll intervals, once, newest first, without the profile’s own', async () => {
    const created = await api('POST', '/posts', { content: { caption: 'Our spring glazes are in' }, targets: [{ connectionId, placement: 'feed' }] });
    postId = created.body.data.id;
    expect((await api('POST', `/posts/${postId}/publish`)).status).toBe(202);
    const post = await waitForPost(api, postId, ['published', 'failed'], 60_000);
    expect(post.status, JSON.stringify(post.targets)).toBe('published');
    postRemoteId = post.targets[0].remoteId;
    clock = new Date(Date.now() + 1000);
    expect(await pollIfDue(clock)).toMatchObject({ status: 'polled', collected: 0 });

    question = await replyAs(bob, postRemoteId, 'Is the celadon food safe?');
    // Not due again within the interval: Threads is not asked.
    const asked = meta.requests.length;
    expect(await pollIfDue(new Date(clock.getTime() + 60_000))).toBeNull();
    expect(meta.requests.length).toBe(asked);
    expect(await nextPoll()).toEqual({ status: 'polled', collected: 1, calls: 1 });
    const read = meta.requests.findLast((request) => request.path.endsWith('/conversation'))!;
    expect(read.path).toBe(`/threads/v1.0/${postRemoteId}/conversation`);

    aMinuteLater();
    const nested = await replyAs(carol, question, 'Following: same question for the tenmoku');
    // The profile answering in the Threads app: its own reply is not an item.
    await replyAs(meta.threadsProfile, question, 'Yes, all our glazes are food safe');
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 1 });
    const items = await inbox();
    expect(items.map((item) => [item.kind, item.text, item.remoteId])).toEqual([
      ['reply', 'Following: same question for the tenmoku', nested],
      ['comment', 'Is the celadon food safe?', question],
    ]);
    expect(items[1]).toMatchObject({
      connectionId,
      provider: 'threads',
      postId,
      author: { displayName: 'bob.baker', username: 'bob.baker', avatarUrl: `https://scontent.cdninstagram.com/v/${bob.id}.jpg` },
      status: 'open',
      replies: [],
      remoteUrl: meta.threadsPosts.get(question)!.permalink,
    });
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
    expect(await inbox()).toHaveLength(2);
  });

  it('follows the conversation’s pages back to the newest reply it saw, and no further', async () => {
    meta.threadsRepliesPageSize = 2;
    try {
      aMinuteLater();
      const news = [];
      for (const text of ['Do you ship to Norway?', 'Lovely!', 'Restock of the bowls?']) news.push(await replyAs(bob, postRemoteId, text));
      const before = meta.requests.length;
      // Newest first, two a page: the three new, the profile's own and carol's (seen last time), then bob's question,
      // older than the last poll's newest: three pages of four.
      expect(await nextPoll()).toEqual({ status: 'polled', collected: 3, calls: 3 });
      const pages = meta.requests.slice(before).filter((request) => request.path.endsWith('/conversation'));
      expect(pages.map((request) => Boolean(request.params.after))).toEqual([false, true, true]);
      // Written within a second: in any order among themselves.
      expect(
        (await inbox())
          .slice(0, 3)
          .map((item) => item.remoteId)
          .sort(),
      ).toEqual(news.sort());
    } finally {
      meta.threadsRepliesPageSize = 25;
    }
  });

  it('leaves out replies the profile hid (and those below them), those Threads covers, and those deleted before the poll', async () => {
    aMinuteLater();
    const rude = await replyAs(bob, postRemoteId, 'Overpriced');
    const below = await replyAs(carol, rude, 'Agreed');
    expect(await threadsCall(meta.threadsProfile, 'POST', `/${rude}/manage_reply`, { hide: 'true' })).toEqual({ success: true });
    const covered = await replyAs(carol, postRemoteId, 'Buy followers at …');
    meta.coverThreadsReply(covered);
    const gone = await replyAs(bob, postRemoteId, 'Typo, deleting');
    meta.deleteThreadsPost(gone);
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
    const listed = (await inbox()).map((item) => item.remoteId);
    for (const id of [rude, below, covered, gone]) expect(listed).not.toContain(id);
  });

  it('says in GET /providers that Threads has an inbox', async () => {
    const { body } = await api('GET', '/providers');
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'threads').inbox).toEqual({ available: true, reason: null });
  });

  it("does not show another workspace's items", async () => {
    const [item] = await inbox();
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });
  it('says to reconnect a profile that did not grant threads_read_replies when Threads refuses to list the replies', async () => {
    const alice = meta.threadsProfile;
    meta.threadsProfile = { id: '25977', username: 'moreau.studio', name: 'Moreau Studio' };
    meta.threadsDeclinedPermissions = ['threads_read_replies'];
    try {
      const studio = await connectByOAuth(service, publicBaseUrl, api, 'threads');
      const { rows } = await db.query('SELECT username, remote_id, encrypted_tokens FROM social_account WHERE id = $1', [studio]);
      const account = {
        id: studio,
        provider: 'threads',
        username: rows[0].username,
        remoteId: rows[0].remote_id,
        tokens: openTokens(service.services.secrets, { encryptedTokens: rows[0].encrypted_tokens })!,
      };
      const listed = service.services.inboxes.get('threads')!.listComments({
        account,
        posts: [{ targetId: '00000000-0000-4000-8000-000000000000', remoteId: postRemoteId, publishedAt: new Date() }],
        since: {},
        signal: new AbortController().signal,
      });
      await expect(listed).rejects.toThrow(/Application does not have permission.*threads_read_replies permission: connect the profile again/);
    } finally {
      meta.threadsProfile = alice;
      meta.threadsDeclinedPermissions = [];
    }
  });
});

describe('answering on Threads', () => {
  it('publishes the answer once as a reply of the profile to that comment, counted in its 1,000 replies a day', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    const used = await repliesUsed();
    const containers = meta.threadsContainers.size;
    // Threads has the text container ready at its first status read.
    meta.processingReads = 0;
    try {
      const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Yes: lead-free and tested' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      expect(await settledReply(item.id, sent.body.data.id)).toMatchObject({ status: 'published', error: null });
    } finally {
      meta.processingReads = 1;
    }
    const answers = answersTo(question).filter((answer) => answer.text === 'Yes: lead-free and tested');
    expect(answers).toHaveLength(1);
    const reply = (await inbox()).find((candidate) => candidate.id === item.id).replies[0];
    expect(reply).toMatchObject({ remoteId: answers[0]!.id, remoteUrl: answers[0]!.permalink });
    expect(meta.threadsContainers.size).toBe(containers + 1);
    expect(meta.threadsContainers.get(answers[0]!.container)!.params).toMatchObject({ media_type: 'TEXT', reply_to_id: question });
    expect(await repliesUsed()).toBe(used + 1);
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
    expect((await inbox()).map((candidate) => candidate.remoteId)).not.toContain(answers[0]!.id);
  });

  it('ends an attempt whose container Threads is still processing, and the next goes on from that container', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO inbox_reply (id, item_id, text, status) VALUES (gen_random_uuid(), $1, 'And dishwasher safe', 'pending') RETURNING id`,
      [item.id],
    );
    const containers = meta.threadsContainers.size;
    const used = await repliesUsed();
    // The job's attempts: the first finds the container IN_PROGRESS (a transient failure, retried by the job).
    expect(await postInboxReply(driver.replies, rows[0]!.id, false)).toBe('retry');
    expect(meta.threadsContainers.size).toBe(containers + 1);
    expect(await postInboxReply(driver.replies, rows[0]!.id, false)).toBe('published');
    expect(meta.threadsContainers.size).toBe(containers + 1);
    expect(answersTo(question).filter((answer) => answer.text === 'And dishwasher safe')).toHaveLength(1);
    // One reply, charged once however many attempts it took.
    expect(await repliesUsed()).toBe(used + 1);
  });

  it("fails an answer to a comment deleted since with Threads' reason", async () => {
    aMinuteLater();
    const gone = await replyAs(bob, postRemoteId, 'Never mind');
    expect(await nextPoll()).toMatchObject({ collected: 1 });
    meta.deleteThreadsPost(gone);
    const item = (await inbox()).find((candidate) => candidate.remoteId === gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'No problem' });
    const reply = await settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('does not exist') },
    });
    expect(answersTo(gone)).toEqual([]);
  });

  it('answers once when an attempt crashed between threads_publish and our record', async () => {
    aMinuteLater();
    const asked = await replyAs(bob, postRemoteId, 'Open on Sundays?');
    expect(await nextPoll()).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === asked);
    // The crashed attempt: its container made and FINISHED, threads_publish sent and done at Threads, its answer never recorded.
    const container = await threadsCall(meta.threadsProfile, 'POST', `/${meta.threadsProfile.id}/threads`, {
      media_type: 'TEXT',
      text: 'From 10 to 4',
      reply_to_id: asked,
    });
    while ((await threadsCall(meta.threadsProfile, 'GET', `/${container.id}`, { fields: 'status' })).status !== 'FINISHED');
    await threadsCall(meta.threadsProfile, 'POST', `/${meta.threadsProfile.id}/threads_publish`, { creation_id: container.id });
    const checkpoint = { done: { 'reply:container': container.id, 'reply:container:finished': true }, started: 'reply:publish' };
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO inbox_reply (id, item_id, text, status, attempts, checkpoint) VALUES (gen_random_uuid(), $1, 'From 10 to 4', 'publishing', 1, $2::jsonb) RETURNING id`,
      [item.id, JSON.stringify(checkpoint)],
    );
    // The job's retry after the crash.
    expect(await postInboxReply(driver.replies, rows[0]!.id, false)).toBe('published');
    const answers = answersTo(asked);
    expect(answers).toHaveLength(1);
    expect((await settledReply(item.id, rows[0]!.id)).remoteId).toBe(answers[0]!.id);
    expect(await postInboxReply(driver.replies, rows[0]!.id, false)).toBe('gone');
    expect(answersTo(asked)).toHaveLength(1);
  });

  it('waits, rather than answers, once the profile has used its 1,000 replies of the day', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    await db.query('UPDATE network_quota_usage SET used = 1000 WHERE network = $1 AND scope = $2 AND quota = $3', ['threads', connectionId, repliesQuota]);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO inbox_reply (id, item_id, text, status) VALUES (gen_random_uuid(), $1, 'One more thing', 'pending') RETURNING id`,
      [item.id],
    );
    const answered = answersTo(question).length;
    expect(await postInboxReply(driver.replies, rows[0]!.id, false)).toBe('waiting');
    expect(answersTo(question)).toHaveLength(answered);
    await db.query('DELETE FROM network_quota_usage WHERE scope = $1', [connectionId]);
  });
});
