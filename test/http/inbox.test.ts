// The inbox (issue 42) on Mastodon, end to end against the Mastodon stand-in (test/support/mastodon.ts): comments
// another person leaves on a published post are collected within two poll intervals (the polls run at an injected
// time), once each, without the account's own answers; an answer is posted once as the account in reply to that
// comment; one the instance refuses fails with the instance's reason; a crash between the instance's answer and our
// record does not answer twice; another workspace's items are not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { httpClient, succeed } from '../support/mcp.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
let instance: MastodonStandIn;
let api: Api;
let apiKey: string;
let otherApi: Api;
let connectionId: string;
let driver: InboxDriver;
/** Another person on the instance, and their token: what they write, the test writes through the instance's API. */
const bob = { account: undefined as unknown as ReturnType<MastodonStandIn['addAccount']>, token: '' };
const pollSeconds = 300;

beforeAll(async () => {
  instance = await MastodonStandIn.start();
  service = await startTestService({ NETWORK_ALLOWED_HOSTS: '127.0.0.1', INBOX_POLL_SECONDS: String(pollSeconds) });
  const { services } = service;
  const workspace = await createWorkspace(services);
  ({ apiKey } = await keyFor(services, workspace.workspaceId, workspace.ownerId, { preset: 'publishing' }));
  api = apiFor(service.url, apiKey);
  const other = await createWorkspace(services);
  otherApi = apiFor(service.url, (await keyFor(services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  const host = new URL(instance.url).host;
  ({ connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
    workspaceId: workspace.workspaceId,
    provider: 'mastodon',
    username: `alice@${host}`,
    remoteId: `${instance.signedIn.id}@${host}`,
    tokens: { accessToken: instance.issueToken(), extra: { instanceUrl: instance.url } },
  }));
  bob.account = instance.addAccount('bob', 'Bob Baker');
  bob.token = instance.issueToken(bob.account);
  driver = inboxDriver(service, api);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await instance?.stop();
});

/** The last post published (its id here). */
let publishedPostId: string;

/** Publishes a post to the Mastodon account; answers its status id there. */
async function publish(caption: string): Promise<string> {
  const { postId, remoteId } = await driver.publish(connectionId, caption);
  publishedPostId = postId;
  return remoteId;
}

/** Bob writes a status in reply to `inReplyTo`, through the instance's API as any client would. */
async function bobReplies(inReplyTo: string, text: string, visibility = 'public'): Promise<string> {
  const response = await fetch(`${instance.url}/api/v1/statuses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: text, in_reply_to_id: inReplyTo, visibility }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

const inbox = (query = '') => driver.items(query);
const pollIfDue = (at: Date) => driver.pollIfDue(connectionId, at);
const settledReply = (itemId: string, replyId: string) => driver.settledReply(itemId, replyId);

/** The first poll (the moment everything after is measured from) and its clock. */
let clock: Date;
let postId: string;
let commentId: string;

describe('collecting comments from Mastodon', () => {
  it('collects what another person writes under a published post within two poll intervals, once, newest first', async () => {
    postId = await publish('Our new bakery opens on Sunday');
    clock = new Date(Date.now() + 1000);
    expect(await pollIfDue(clock)).toMatchObject({ status: 'polled', collected: 0 });
    commentId = await bobReplies(postId, '@alice Which street is it on?');
    // Not due again within the interval: nothing is asked.
    const asked = instance.requests.length;
    expect(await pollIfDue(new Date(clock.getTime() + 60_000))).toBeNull();
    expect(instance.requests.length).toBe(asked);
    // Due at the next interval: collected then, one call for the one post.
    const next = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(next)).toEqual({ status: 'polled', collected: 1, calls: 1 });
    const answerToBob = await bobReplies(commentId, '@alice And does it open at 8?');
    clock = new Date(next.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ status: 'polled', collected: 1 });
    const items = await inbox();
    expect(items.map((item) => [item.kind, item.text, item.remoteId])).toEqual([
      ['reply', '@alice And does it open at 8?', answerToBob],
      ['comment', '@alice Which street is it on?', commentId],
    ]);
    expect(items[1]).toMatchObject({
      connectionId,
      provider: 'mastodon',
      author: { displayName: 'Bob Baker', username: 'bob' },
      status: 'open',
      replies: [],
      remoteUrl: `${instance.url}/@bob/${commentId}`,
    });
    // Polled again with nothing new: nothing stored twice.
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ status: 'polled', collected: 0 });
    expect(await inbox()).toHaveLength(2);
  });

  it('asks a refusing instance again at the next interval, not at every tick in between', async () => {
    const path = `/api/v1/statuses/${postId}/context`;
    instance.failNext(1, 403, { error: 'This action is outside the authorized scopes' }, path);
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toEqual({ status: 'skipped', reason: expect.stringContaining('outside the authorized scopes') });
    expect(await pollIfDue(new Date(clock.getTime() + 60_000))).toBeNull();
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ status: 'polled', collected: 0 });
  });

  it('filters by status, account, network and post, and pages like every list', async () => {
    const [newest] = await inbox();
    const done = await api('PATCH', `/inbox/${newest.id}`, { status: 'done' });
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('done');
    expect((await inbox('?status=done')).map((item) => item.id)).toEqual([newest.id]);
    expect((await inbox('?status=open')).map((item) => item.remoteId)).toEqual([commentId]);
    expect(await inbox(`?connectionId=${connectionId}&provider=mastodon`)).toHaveLength(2);
    expect(await inbox('?provider=bluesky')).toEqual([]);
    const first = await api('GET', '/inbox?limit=1');
    expect(first.body.pagination.hasMore).toBe(true);
    const second = await api('GET', `/inbox?limit=1&cursor=${first.body.pagination.nextCursor}`);
    expect(second.body.data.map((item: { remoteId: string }) => item.remoteId)).toEqual([commentId]);
    expect((await api('PATCH', `/inbox/${newest.id}`, { status: 'open' })).status).toBe(200);
    const wrong = await api('GET', '/inbox?status=archived');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].field).toBe('status');
  });

  it("does not show another workspace's items", async () => {
    const [item] = await inbox();
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
    expect((await api('PATCH', '/inbox/not-a-uuid', { status: 'done' })).status).toBe(404);
  });

  it('says in GET /providers which networks have an inbox', async () => {
    const { body } = await api('GET', '/providers');
    const inboxOf = (provider: string) => body.data.find((entry: { provider: string }) => entry.provider === provider).inbox;
    expect(inboxOf('mastodon')).toEqual({ available: true, reason: null });
    expect(inboxOf('tiktok')).toEqual({ available: false, reason: expect.stringContaining('TikTok') });
    expect(inboxOf('pinterest').available).toBe(false);
  });
});

describe('answering on Mastodon', () => {
  it('posts the answer once, as the account, in reply to that comment, and does not collect it as an item', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === commentId);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'On Rue Mouffetard, number 12!' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body.data).toMatchObject({ status: 'pending', text: 'On Rue Mouffetard, number 12!', remoteUrl: null });
    const reply = await settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'published', error: null });
    const answers = instance.statusesOf().filter((status) => status.inReplyToId === commentId);
    expect(answers.map((status) => [status.text, status.visibility])).toEqual([['On Rue Mouffetard, number 12!', 'public']]);
    expect(reply.remoteId).toBe(answers[0]!.id);
    expect(reply.remoteUrl).toBe(`${instance.url}/@alice/${answers[0]!.id}`);
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ status: 'polled', collected: 0 });
    expect((await inbox()).map((candidate) => candidate.remoteId)).not.toContain(answers[0]!.id);
  });

  it('keeps a followers-only comment followers-only in the answer', async () => {
    const quiet = await bobReplies(postId, '@alice Just between us: great croissants', 'private');
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === quiet);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Thank you!' });
    expect((await settledReply(item.id, sent.body.data.id)).status).toBe('published');
    expect(
      instance
        .statusesOf()
        .filter((status) => status.inReplyToId === quiet)
        .map((status) => status.visibility),
    ).toEqual(['private']);
  });

  it("checks the answer against the instance's caption limit first (422, nothing stored)", async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === commentId);
    const refused = await api('POST', `/inbox/${item.id}/replies`, { text: 'x'.repeat(501) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'text', code: 'caption.maxLength' })]);
    expect((await inbox()).find((candidate) => candidate.id === item.id).replies).toHaveLength(1);
  });

  it("fails an answer the instance refuses with the instance's reason", async () => {
    const gone = await bobReplies(postId, '@alice Typo, deleting this');
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ collected: 1 });
    instance.deleteStatus(gone);
    const item = (await inbox()).find((candidate) => candidate.remoteId === gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'No worries' });
    const reply = await settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('Record not found') },
    });
    expect(instance.statusesOf().filter((status) => status.inReplyToId === gone)).toEqual([]);
  });

  it("answers once when an attempt crashed between the instance's answer and our record", async () => {
    const question = await bobReplies(postId, '@alice Gluten-free options?');
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    expect(await pollIfDue(clock)).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    // The crashed attempt: committed as publishing with its call started, sent to the instance, its answer never recorded.
    const replyId = await driver.crashedReply(item.id, 'Yes, on Fridays');
    const alice = instance.issueToken();
    const first = await fetch(`${instance.url}/api/v1/statuses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json', 'idempotency-key': replyId },
      body: JSON.stringify({ status: 'Yes, on Fridays', in_reply_to_id: question }),
    });
    expect(first.status).toBe(200);
    // The job's retry after the crash.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('published');
    const answers = instance.statusesOf().filter((status) => status.inReplyToId === question);
    expect(answers).toHaveLength(1);
    expect((await settledReply(item.id, replyId)).remoteId).toBe(answers[0]!.id);
    // Done is done: a late duplicate of the job posts nothing.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('gone');
    expect(instance.statusesOf().filter((status) => status.inReplyToId === question)).toHaveLength(1);
  });
});

describe('the inbox through GraphQL and MCP', () => {
  const graph = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string; extensions: { code: string } }[] };
  };

  it('lists, counts, marks and answers as REST does', async () => {
    const open = await graph(
      '{ inboxOpenCount inbox(first: 2, status: OPEN) { edges { node { id kind provider text status post { id } author { username } } } } }',
    );
    expect(open.errors).toBeUndefined();
    const rest = await inbox('?status=open');
    expect(open.data.inboxOpenCount).toBe(rest.length);
    expect(open.data.inbox.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(rest.slice(0, 2).map((item) => item.id));
    expect(open.data.inbox.edges[0].node).toMatchObject({ provider: 'MASTODON', status: 'OPEN', post: { id: publishedPostId }, author: { username: 'bob' } });
    const id = open.data.inbox.edges[0].node.id;
    const done = await graph('mutation($id: ID!) { updateInboxItem(id: $id, status: DONE) { status } }', { id });
    expect(done.data.updateInboxItem.status).toBe('DONE');
    expect((await graph('{ inboxOpenCount }')).data.inboxOpenCount).toBe(rest.length - 1);
    const tooLong = await graph('mutation($id: ID!, $text: String!) { replyToInboxItem(id: $id, text: $text) { id } }', { id, text: 'x'.repeat(501) });
    expect(tooLong.errors?.[0]?.extensions.code).toBe('PROVIDER_VALIDATION_FAILED');
    const other = await graph('mutation { updateInboxItem(id: "00000000-0000-4000-8000-000000000000", status: OPEN) { id } }');
    expect(other.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    await graph('mutation($id: ID!) { updateInboxItem(id: $id, status: OPEN) { status } }', { id });
  });

  it("shows a post's open comments in MCP's get_post, newest first", async () => {
    const client = await httpClient(service.url, apiKey);
    try {
      const result = await succeed(client, 'get_post', { postId: publishedPostId });
      const open = (await inbox('?status=open')).filter((item) => item.postId === publishedPostId);
      expect(result.post.openComments.map((comment: { id: string }) => comment.id)).toEqual(open.map((item) => item.id));
      expect(result.post.openComments[0]).toMatchObject({ provider: 'mastodon', author: { username: 'bob' } });
      expect(['comment', 'reply']).toContain(result.post.openComments[0].kind);
    } finally {
      await client.close();
    }
  });
});
