// The inbox (issue 42) on LinkedIn, end to end against the LinkedIn stand-in (test/support/linkedin.ts), for an app
// with the Community Management API: the comments another member leaves on a page's post, and those nested under
// them, are collected within two poll intervals (the polls run at an injected time), once each, every page of the
// comment list read, without the page's own; a deleted comment is not collected; a member's poll is skipped with
// LinkedIn's restriction as the reason; an answer is posted once as the page, nested under the first-level comment;
// one LinkedIn refuses fails with LinkedIn's reason; a crash between LinkedIn's answer and our record does not answer
// twice; another workspace's items are not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { LinkedInApi } from '../../src/providers/linkedin/api.ts';
import { LinkedInInbox } from '../../src/providers/linkedin/inbox.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import { LinkedInStandIn } from '../support/linkedin.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startTestService, type TestService } from '../support/service.ts';

const callback = 'https://publisher.example/oauth/callback/linkedin';
const alice = { id: 'aB3xY9kQ', name: 'Alice Moreau', username: 'alice@example.test' };
const bakery = { id: '5515715', localizedName: 'Moreau Bakery', vanityName: 'moreau-bakery' };
const bob = { id: 'bQ7rT2mZ', name: 'Bob Baker', username: 'bob@example.test' };
const page = `urn:li:organization:${bakery.id}`;
const bobUrn = `urn:li:person:${bob.id}`;
const pollSeconds = 300;

let linkedin: LinkedInStandIn;
let service: TestService;
let api: Api;
let otherApi: Api;
let driver: InboxDriver;
/** Connection ids of the page and of the member. */
let pageId: string;
let memberId: string;
/** Access tokens at the stand-in: Alice's (the page's and her own), and Bob's, another member. */
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  // Two comments a page: the list of four below takes two calls.
  linkedin = await LinkedInStandIn.start({ redirectUris: [callback], products: 'community-management', commentPageSize: 2 });
  linkedin.signInAs(bob);
  bobToken = await linkedin.accessToken(callback);
  linkedin.signInAs(alice, [bakery]);
  aliceToken = await linkedin.accessToken(callback);
  service = await startTestService({
    ...linkedin.appSettings,
    LINKEDIN_VERSION: '202610',
    LINKEDIN_PRODUCTS: 'community-management',
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    INBOX_POLL_SECONDS: String(pollSeconds),
  });
  const { services } = service;
  const workspace = await createWorkspace(services);
  api = apiFor(service.url, (await keyFor(services, workspace.workspaceId, workspace.ownerId, { preset: 'publishing' })).apiKey);
  const other = await createWorkspace(services);
  otherApi = apiFor(service.url, (await keyFor(services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  const connect = (remoteId: string, username: string) =>
    connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId: workspace.workspaceId,
      provider: 'linkedin',
      username,
      remoteId,
      tokens: { accessToken: aliceToken },
    });
  ({ connectionId: pageId } = await connect(page, bakery.vanityName));
  ({ connectionId: memberId } = await connect(`urn:li:person:${alice.id}`, 'alice'));
  driver = inboxDriver(service, api);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await linkedin?.stop();
});

/** Publishes a post to the account; answers its URN at LinkedIn. */
async function publish(connectionId: string, caption: string): Promise<string> {
  const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId, placement: 'feed' }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
  expect(post.status, JSON.stringify(post.targets)).toBe('published');
  return post.targets[0].remoteId;
}

/** A comment through LinkedIn's Comments API as any client would make it: by Bob unless `as` says, nested under `parent` if given. */
async function comment(post: string, text: string, { parent, as = 'bob' }: { parent?: string; as?: 'bob' | 'page' } = {}): Promise<string> {
  const actor = as === 'bob' ? bobUrn : page;
  const response = await fetch(`${linkedin.url}/rest/socialActions/${encodeURIComponent(parent ?? post)}/comments`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${as === 'bob' ? bobToken : aliceToken}`,
      'content-type': 'application/json',
      'linkedin-version': '202610',
      'x-restli-protocol-version': '2.0.0',
    },
    body: JSON.stringify({ actor, object: post, message: { text }, ...(parent ? { parentComment: parent } : {}) }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { commentUrn: string }).commentUrn;
}

/** Bob deletes his comment (Delete a Comment: DELETE …/comments/{id}?actor=). */
async function bobDeletes(post: string, urn: string): Promise<void> {
  const id = /,(\d+)\)$/.exec(urn)![1];
  const response = await fetch(`${linkedin.url}/rest/socialActions/${encodeURIComponent(post)}/comments/${id}?actor=${encodeURIComponent(bobUrn)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${bobToken}`, 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' },
  });
  expect(response.status).toBe(204);
}

const inbox = (query = '') => driver.items(query);
const commentCalls = () => linkedin.requests.filter((request) => request.path.startsWith('/rest/socialActions/')).length;

let clock: Date;
let postUrn: string;
let first: string;
let second: string;
let nested: string;

/** The next poll interval's poll of the page. */
async function nextPoll() {
  clock = new Date(clock.getTime() + pollSeconds * 1000);
  return driver.pollIfDue(pageId, clock);
}

describe("collecting a LinkedIn page's comments", () => {
  it('collects what another member writes under a post within two poll intervals, every page of the list, once, without the page’s own', async () => {
    postUrn = await publish(pageId, 'Our new bakery opens on Sunday');
    clock = new Date(Date.now() + 1000);
    expect(await driver.pollIfDue(pageId, clock)).toEqual({ status: 'polled', collected: 0, calls: 1 });
    first = await comment(postUrn, 'Which street is it on?');
    second = await comment(postUrn, 'Do you bake sourdough?');
    await comment(postUrn, 'Welcome, neighbours!', { as: 'page' });
    const third = await comment(postUrn, 'Congratulations!');
    // Not due again within the interval: nothing is asked.
    const asked = commentCalls();
    expect(await driver.pollIfDue(pageId, new Date(clock.getTime() + 60_000))).toBeNull();
    expect(commentCalls()).toBe(asked);
    // Due at the next: four first-level comments in two pages of two, none with anything nested yet.
    expect(await nextPoll()).toEqual({ status: 'polled', collected: 3, calls: 2 });
    expect(commentCalls()).toBe(asked + 2);
    const items = await inbox();
    expect(items.map((item) => item.remoteId).sort()).toEqual([first, second, third].sort());
    expect(items.find((item) => item.remoteId === first)).toMatchObject({
      connectionId: pageId,
      provider: 'linkedin',
      kind: 'comment',
      text: 'Which street is it on?',
      author: { displayName: bobUrn, username: bobUrn, avatarUrl: null },
      status: 'open',
      replies: [],
      remoteUrl: `https://www.linkedin.com/feed/update/${postUrn}/?commentUrn=${encodeURIComponent(first)}`,
    });
  });

  it('collects a comment nested under another, and not the page’s own nested answer; nothing twice', async () => {
    nested = await comment(postUrn, 'And does it open at 8?', { parent: first });
    await comment(postUrn, 'Yes, every morning!', { parent: second, as: 'page' });
    // Two pages of first-level comments, and the comments under each of the two that have some.
    expect(await nextPoll()).toEqual({ status: 'polled', collected: 1, calls: 4 });
    expect((await inbox()).find((item) => item.remoteId === nested)).toMatchObject({
      kind: 'reply',
      text: 'And does it open at 8?',
      author: { username: bobUrn },
    });
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
    expect(await inbox()).toHaveLength(4);
  });

  it('does not collect a comment deleted before the poll', async () => {
    const typo = await comment(postUrn, 'Typo, deleting this');
    await bobDeletes(postUrn, typo);
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
    expect((await inbox()).map((item) => item.remoteId)).not.toContain(typo);
  });

  it('skips a poll LinkedIn throttles, with its reason, and asks again at the next interval', async () => {
    linkedin.throttleNext = 1;
    expect(await nextPoll()).toEqual({ status: 'skipped', reason: expect.stringContaining('throttle') });
    expect(await driver.pollIfDue(pageId, new Date(clock.getTime() + 60_000))).toBeNull();
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
  });

  it("skips a member's poll, without a call or a charge to the read quota, saying LinkedIn restricts a member's comments (r_member_social)", async () => {
    const memberPost = await publish(memberId, 'Proud of the team');
    await comment(memberPost, 'Well done!');
    const asked = commentCalls();
    const charged = async (connectionId: string) =>
      (
        await service.services.db.pool.query<{ used: number }>(
          "SELECT coalesce(sum(used), 0)::int AS used FROM network_quota_usage WHERE network = 'linkedin' AND scope = $1",
          [connectionId],
        )
      ).rows[0]!.used;
    expect(await driver.pollIfDue(memberId, new Date(Date.now() + 1000))).toEqual({
      status: 'skipped',
      reason: expect.stringContaining('r_member_social'),
    });
    expect(commentCalls()).toBe(asked);
    expect(await charged(memberId)).toBe(0);
    expect(await charged(pageId)).toBeGreaterThan(0);
    expect(await inbox(`?connectionId=${memberId}`)).toEqual([]);
  });

  it('reads no page comments for an app without the Community Management API, and says which product is needed', async () => {
    const inboxOfShareApp = new LinkedInInbox(
      new LinkedInApi({ baseUrl: linkedin.url, timeoutMs: 5000, allowedHosts: new Set(['127.0.0.1']), version: '202610' }),
      'share',
    );
    const asked = linkedin.requests.length;
    await expect(
      inboxOfShareApp.listComments({
        account: { id: pageId, provider: 'linkedin', username: bakery.vanityName, remoteId: page, tokens: { accessToken: aliceToken } },
        posts: [{ targetId: pageId, remoteId: postUrn, publishedAt: new Date() }],
        since: {},
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/LINKEDIN_PRODUCTS=community-management/);
    expect(linkedin.requests.length).toBe(asked);
  });

  it("does not show another workspace's items", async () => {
    const [item] = await inbox();
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });

  it('says in GET /providers that LinkedIn has an inbox', async () => {
    const { body } = await api('GET', '/providers');
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'linkedin').inbox).toEqual({ available: true, reason: null });
  });
});

describe('answering on LinkedIn', () => {
  /** The comments the stand-in holds under `parent`. */
  const under = (parent: string) => [...linkedin.comments.values()].filter((candidate) => candidate.parentComment === parent);

  it('posts the answer once, as the page, nested under the comment, and does not collect it', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === first);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'On Rue Mouffetard, number 12!' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const reply = await driver.settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'published', error: null });
    const answers = under(first).filter((candidate) => candidate.actor === page);
    expect(answers.map(({ text, object }) => ({ text, object }))).toEqual([{ text: 'On Rue Mouffetard, number 12!', object: postUrn }]);
    expect(reply.remoteId).toBe(answers[0]!.urn);
    expect(reply.remoteUrl).toBe(`https://www.linkedin.com/feed/update/${postUrn}/?commentUrn=${encodeURIComponent(answers[0]!.urn)}`);
    expect(await nextPoll()).toMatchObject({ status: 'polled', collected: 0 });
    expect((await inbox()).map((candidate) => candidate.remoteId)).not.toContain(answers[0]!.urn);
  });

  it('answers a nested comment under the same first-level comment (LinkedIn nests one level)', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === nested);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'From 7, even!' });
    expect((await driver.settledReply(item.id, sent.body.data.id)).status).toBe('published');
    expect(under(first).map((candidate) => candidate.text)).toContain('From 7, even!');
    expect(under(nested)).toEqual([]);
  });

  it("checks the answer against LinkedIn's comment limit, 1,250 characters, first (422, nothing stored)", async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === first);
    const refused = await api('POST', `/inbox/${item.id}/replies`, { text: 'x'.repeat(1251) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'text', code: 'caption.maxLength' })]);
    expect((await inbox()).find((candidate) => candidate.id === item.id).replies).toHaveLength(1);
  });

  it("fails an answer LinkedIn refuses with LinkedIn's reason: the comment was deleted since", async () => {
    const gone = await comment(postUrn, 'Is there parking?');
    expect(await nextPoll()).toMatchObject({ collected: 1 });
    await bobDeletes(postUrn, gone);
    const item = (await inbox()).find((candidate) => candidate.remoteId === gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Behind the shop' });
    expect(await driver.settledReply(item.id, sent.body.data.id)).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('does not exist') },
    });
    expect([...linkedin.comments.values()].filter((candidate) => candidate.text === 'Behind the shop')).toEqual([]);
  });

  it("answers once when an attempt crashed between LinkedIn's answer and our record", async () => {
    const question = await comment(postUrn, 'Gluten-free options?');
    expect(await nextPoll()).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    // The crashed attempt: committed as publishing with its call started, taken by LinkedIn, its answer never recorded.
    const replyId = await driver.crashedReply(item.id, 'Yes, on Fridays');
    const taken = await comment(postUrn, 'Yes, on Fridays', { parent: question, as: 'page' });
    // The job's retry after the crash finds it, and posts nothing.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('published');
    expect(under(question).map((candidate) => candidate.urn)).toEqual([taken]);
    expect((await driver.settledReply(item.id, replyId)).remoteId).toBe(taken);
    // Done is done: a late duplicate of the job posts nothing.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('gone');
    expect(under(question)).toHaveLength(1);
  });

  it("finds an answer whose reply LinkedIn lost (a gateway timeout after taking it) at the job's retry, and posts no second", async () => {
    const question = await comment(postUrn, 'Any vegan croissants?');
    expect(await nextPoll()).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    linkedin.lostCommentAnswers = 1;
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'On Saturdays' });
    const reply = await driver.settledReply(item.id, sent.body.data.id);
    expect(linkedin.lostCommentAnswers).toBe(0);
    expect(under(question).map(({ urn, text }) => ({ urn, text }))).toEqual([{ urn: reply.remoteId, text: 'On Saturdays' }]);
    expect(reply.status).toBe('published');
  });

  it('posts an interrupted answer LinkedIn never took, once', async () => {
    const question = await comment(postUrn, 'Do you deliver?');
    expect(await nextPoll()).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    expect(await postInboxReply(driver.replies, await driver.crashedReply(item.id, 'Within 5 km'), false)).toBe('published');
    expect(under(question).map(({ actor, text }) => ({ actor, text }))).toEqual([{ actor: page, text: 'Within 5 km' }]);
  });
});
