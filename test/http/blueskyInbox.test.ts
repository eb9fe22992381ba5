// The inbox (issue 42) on Bluesky, end to end against a real PDS and the real AppView it passes app.bsky.* reads on
// to (test/support/pds.ts, appview.ts): what other people reply under a published post is collected within two
// poll intervals (the polls run at an injected time), once each, without the account's own replies; a reply that is
// deleted, or whose author blocks the account, is not collected; an answer is posted once as the account in reply to
// that comment, in the thread; one the AppView refuses fails with its reason; an attempt that crashed after the PDS
// wrote the answer does not answer twice; another workspace's items are not found.
import type { AppBskyFeedPost } from '@atproto/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { recordKeyFor } from '../../src/providers/bluesky/recordKey.ts';
import { createTestDatabase } from '../support/database.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import { startPds, type PdsAccount, type TestPds } from '../support/pds.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { startTestService, type TestService } from '../support/service.ts';

let pds: TestPds;
let service: TestService;
let api: Api;
let otherApi: Api;
let connectionId: string;
let driver: InboxDriver;
/** The account (alice) and the other people on the PDS, who write through @atproto/api as any client would. */
let alice: PdsAccount;
let bob: PdsAccount;
let carol: PdsAccount;
let dave: PdsAccount;
const pollSeconds = 300;

beforeAll(async () => {
  pds = await startPds({ appView: { databaseUrl: await createTestDatabase() } });
  [alice, bob, carol, dave] = await Promise.all([pds.createAccount('alice'), pds.createAccount('bob'), pds.createAccount('carol'), pds.createAccount('dave')]);
  await bob.agent.upsertProfile((profile) => ({ ...profile, displayName: 'Bob Baker' }));
  service = await startTestService({ NETWORK_ALLOWED_HOSTS: 'localhost', INBOX_POLL_SECONDS: String(pollSeconds) });
  const workspace = await createWorkspace(service.services);
  const scopes = ['posts:read', 'posts:write', 'accounts:read', 'accounts:write'];
  api = apiFor(service.url, (await keyFor(service.services, workspace.workspaceId, workspace.ownerId, { scopes })).apiKey);
  const other = await createWorkspace(service.services);
  otherApi = apiFor(service.url, (await keyFor(service.services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  const connected = await api('POST', '/social-accounts', { provider: 'bluesky', identifier: alice.handle, appPassword: alice.appPassword, service: pds.url });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  connectionId = connected.body.data.id;
  driver = inboxDriver(service, api);
}, 240_000);

afterAll(async () => {
  await service?.stop();
  await pds?.close();
});

const inbox = (query = '') => driver.items(query);
const poll = (at: Date) => driver.pollIfDue(connectionId, at);

/** Publishes a post to the account through the API; answers its AT-URI. */
const publish = async (caption: string) => (await driver.publish(connectionId, caption)).remoteId;

/** The post's record and strong ref, read from its author's repository. */
async function postAt(uri: string) {
  const [, , repo, collection, rkey] = uri.split('/');
  const { data } = await alice.agent.com.atproto.repo.getRecord({ repo: repo!, collection: collection!, rkey: rkey! });
  return { ref: { uri: data.uri, cid: data.cid! }, record: data.value as AppBskyFeedPost.Record };
}

/** `person` replies to the post at `parentUri` (root: the parent's root), and the AppView has indexed it. */
async function replyAs(person: PdsAccount, parentUri: string, text: string, createdAt = new Date().toISOString()): Promise<string> {
  const parent = await postAt(parentUri);
  const root = parent.record.reply?.root ?? parent.ref;
  const { uri } = await person.agent.post({ text, createdAt, reply: { root, parent: parent.ref } });
  await pds.appViewIndexed();
  return uri;
}

/** The account's reply records in its repository that answer `parentUri`. */
async function answersTo(parentUri: string) {
  const { data } = await alice.agent.com.atproto.repo.listRecords({ repo: alice.did, collection: 'app.bsky.feed.post', limit: 100 });
  return data.records.filter((record) => (record.value as AppBskyFeedPost.Record).reply?.parent.uri === parentUri);
}

/** The first poll (the moment everything after is measured from) and its clock. */
let clock: Date;
const nextInterval = () => (clock = new Date(clock.getTime() + pollSeconds * 1000));
let postUri: string;
let commentUri: string;
let nestedUri: string;

describe('collecting replies from Bluesky', () => {
  it('collects what other people reply under a published post within two poll intervals, once, newest first', async () => {
    postUri = await publish('Our new bakery opens on Sunday');
    clock = new Date(Date.now() + 1000);
    expect(await poll(clock)).toEqual({ status: 'polled', collected: 0, calls: 1 });
    commentUri = await replyAs(bob, postUri, '@alice.test Which street is it on?');
    // Not due again within the interval: nothing is asked.
    expect(await poll(new Date(clock.getTime() + 60_000))).toBeNull();
    // Due at the next interval: collected then, one call for the one post.
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 1, calls: 1 });
    nestedUri = await replyAs(bob, commentUri, 'And does it open at 8?');
    // The account's own reply (written elsewhere) is not an item; a reply to it is.
    const own = await replyAs(alice, commentUri, 'Rue Mouffetard!');
    const underOwn = await replyAs(carol, own, 'Number 12, I checked');
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 2 });
    const items = await inbox();
    expect(items.map((item) => [item.kind, item.text, item.remoteId])).toEqual([
      ['reply', 'Number 12, I checked', underOwn],
      ['reply', 'And does it open at 8?', nestedUri],
      ['comment', '@alice.test Which street is it on?', commentUri],
    ]);
    expect(items[2]).toMatchObject({
      connectionId,
      provider: 'bluesky',
      author: { displayName: 'Bob Baker', username: 'bob.test' },
      status: 'open',
      replies: [],
      remoteUrl: `https://bsky.app/profile/${bob.did}/post/${commentUri.split('/').pop()}`,
    });
    expect(items[0]).toMatchObject({ author: { displayName: 'carol.test', username: 'carol.test' } });
    // Polled again with nothing new: nothing stored twice.
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    expect(await inbox()).toHaveLength(3);
  });

  it('does not collect a reply deleted before the poll, nor one whose author blocks the account', async () => {
    const typo = await replyAs(bob, postUri, 'Typo, deleting this');
    await bob.agent.deletePost(typo);
    await replyAs(dave, postUri, 'Not for your eyes');
    await dave.agent.app.bsky.graph.block.create({ repo: dave.did }, { subject: alice.did, createdAt: new Date().toISOString() });
    await pds.appViewIndexed();
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    expect((await inbox()).map((item) => item.text)).not.toContain('Not for your eyes');
  });

  it('reads each post of the lookback once per poll (the calls a poll costs)', async () => {
    const second = await publish('Croissants on Monday');
    // A client may declare any time: one later than when the AppView saw the reply is not believed.
    const yum = await replyAs(carol, second, 'Yum', '2031-01-01T00:00:00.000Z');
    expect(await poll(nextInterval())).toEqual({ status: 'polled', collected: 1, calls: 2 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === yum);
    expect(new Date(item.createdAt).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("does not show another workspace's items", async () => {
    const [item] = await inbox();
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });

  it('says in GET /providers that Bluesky has an inbox', async () => {
    const { body } = await api('GET', '/providers');
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'bluesky').inbox).toEqual({ available: true, reason: null });
  });
});

describe('answering on Bluesky', () => {
  it('posts the answer once, as the account, in reply to that comment in its thread, and does not collect it', async () => {
    const item = (await inbox()).find((candidate) => candidate.remoteId === nestedUri);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'From 7, @bob.test!' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const reply = await driver.settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'published', error: null });
    const answers = await answersTo(nestedUri);
    expect(answers).toHaveLength(1);
    const record = answers[0]!.value as AppBskyFeedPost.Record;
    expect(record.text).toBe('From 7, @bob.test!');
    // Nested where Bluesky nests: the parent is the comment, the root the published post.
    expect(record.reply).toEqual({ root: (await postAt(postUri)).ref, parent: (await postAt(nestedUri)).ref });
    expect(record.facets?.[0]?.features).toEqual([{ $type: 'app.bsky.richtext.facet#mention', did: bob.did }]);
    expect(reply.remoteId).toBe(answers[0]!.uri);
    expect(reply.remoteUrl).toBe(`https://bsky.app/profile/alice.test/post/${answers[0]!.uri.split('/').pop()}`);
    await pds.appViewIndexed();
    expect(await poll(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    expect((await inbox()).map((candidate) => candidate.remoteId)).not.toContain(answers[0]!.uri);
  });

  it("fails an answer to a deleted comment with the AppView's reason, and writes nothing", async () => {
    const gone = await replyAs(bob, postUri, 'Deleting this soon');
    expect(await poll(nextInterval())).toMatchObject({ collected: 1 });
    await bob.agent.deletePost(gone);
    await pds.appViewIndexed();
    const item = (await inbox()).find((candidate) => candidate.remoteId === gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'No worries' });
    const reply = await driver.settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('Post not found') },
    });
    expect(await answersTo(gone)).toEqual([]);
  });

  it('fails an answer to someone who has blocked the account since, and writes nothing', async () => {
    const comment = await replyAs(carol, postUri, 'Parking nearby?');
    expect(await poll(nextInterval())).toMatchObject({ collected: 1 });
    await carol.agent.app.bsky.graph.block.create({ repo: carol.did }, { subject: alice.did, createdAt: new Date().toISOString() });
    await pds.appViewIndexed();
    const item = (await inbox()).find((candidate) => candidate.remoteId === comment);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Behind the church' });
    const reply = await driver.settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('block') } });
    expect(await answersTo(comment)).toEqual([]);
  });

  it('answers once when an attempt crashed after the PDS wrote the answer, even if the comment is gone since', async () => {
    const question = await replyAs(bob, postUri, 'Gluten-free options?');
    expect(await poll(nextInterval())).toMatchObject({ collected: 1 });
    const item = (await inbox()).find((candidate) => candidate.remoteId === question);
    const replyId = await driver.crashedReply(item.id, 'Yes, on Fridays');
    // What the crashed attempt wrote: the answer under the reply's own record key.
    const parent = await postAt(question);
    await alice.agent.com.atproto.repo.putRecord({
      repo: alice.did,
      collection: 'app.bsky.feed.post',
      rkey: recordKeyFor(replyId),
      record: {
        $type: 'app.bsky.feed.post',
        text: 'Yes, on Fridays',
        createdAt: new Date().toISOString(),
        reply: { root: parent.record.reply!.root, parent: parent.ref },
      },
    });
    // The comment is deleted before the retry: only the look-up of the written answer can make it succeed.
    await bob.agent.deletePost(question);
    await pds.appViewIndexed();
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('published');
    const answers = await answersTo(question);
    expect(answers).toHaveLength(1);
    expect((await driver.settledReply(item.id, replyId)).remoteId).toBe(answers[0]!.uri);
    // Done is done: a late duplicate of the job posts nothing.
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('gone');
    expect(await answersTo(question)).toHaveLength(1);
  });
});
