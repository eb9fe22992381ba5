// The inbox (issue 42) on Meta's networks, end to end against the Meta stand-in (test/support/meta.ts): a Facebook
// Page, an Instagram account connected through that Page (Facebook Login, graph.facebook.com) and one connected with
// Instagram Login (graph.instagram.com). For each: what other people write under a published post is collected within
// two poll intervals (the polls run at an injected time), once each, without the account's own comments; the comment
// list's pages are followed, hidden and deleted comments left out, each call counted; an answer is posted once as the
// account in reply to that comment (under its top-level comment for a reply); one Meta refuses fails with Meta's
// reason; a crash between Meta's answer and our record does not answer twice; another workspace's items are not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { crashPublicBaseUrl as publicBaseUrl, uploadMedia } from '../support/crashTests.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import { image } from '../support/mediaFiles.ts';
import { MetaStandIn, type Commenter, type MetaPage } from '../support/meta.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startTestService, type TestService } from '../support/service.ts';

const pollSeconds = 300;
const bakery: MetaPage = {
  id: '1301',
  name: 'Moreau Bakery',
  username: 'moreaubakery',
  instagram: { id: '17841403', username: 'moreau.bakery', name: 'Moreau Bakery' },
};

let meta: MetaStandIn;
let service: TestService;
let api: Api;
let otherApi: Api;
let driver: InboxDriver;
let imageId: string;
/** Connection ids by case. */
const connections: Record<string, string> = {};

beforeAll(async () => {
  meta = await MetaStandIn.start({
    redirectUris: [`${publicBaseUrl}/oauth/callback/facebook`, `${publicBaseUrl}/oauth/callback/instagram`],
    processingReads: 0,
  });
  meta.signInAs({ id: '10158', name: 'Alice Moreau' }, [bakery]);
  meta.instagramAccount = { userId: '17841409', appScopedId: '7364811', username: 'moreau.cafe', name: 'Moreau Café' };
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    INBOX_POLL_SECONDS: String(pollSeconds),
    ...meta.appSettings,
  });
  meta.mediaOrigin = { from: publicBaseUrl, to: service.url };
  const { services } = service;
  const workspace = await createWorkspace(services);
  api = apiFor(service.url, workspace.ownerKey);
  const other = await createWorkspace(services);
  otherApi = apiFor(service.url, (await keyFor(services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  await connectByOAuth(service, publicBaseUrl, api, 'facebook');
  await connectByOAuth(service, publicBaseUrl, api, 'instagram', { method: 'instagram_login' });
  const accounts: { id: string; provider: string; username: string }[] = (await api('GET', '/social-accounts')).body.data;
  const idOf = (provider: string, username: string) => accounts.find((account) => account.provider === provider && account.username === username)!.id;
  connections.facebook = idOf('facebook', bakery.username);
  connections.facebookLogin = idOf('instagram', bakery.instagram!.username);
  connections.instagramLogin = idOf('instagram', meta.instagramAccount.username);
  imageId = await uploadMedia(api, service.url, { bytes: await image('jpeg', 1080, 1080), filename: 'loaf.jpg', contentType: 'image/jpeg' });
  driver = inboxDriver(service, api);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await meta?.stop();
});

/** One of Meta's inboxes: the account, how it publishes, and the people who comment on its posts. */
interface Case {
  name: string;
  provider: 'facebook' | 'instagram';
  connection: string;
  /** The account as it comments (its id, and its name on Facebook or username on Instagram). */
  self: () => Commenter;
  mediaIds: () => string[];
  people: Commenter[];
}

const facebookPeople = ['Bob Baker', 'Carol Chen', 'Dan Diaz', 'Erin Evans', 'Fay Fox'].map((name, index) => ({ id: `55500${index}`, name }));
const instagramPeople = ['bob.baker', 'carol.chen', 'dan.diaz', 'erin.evans', 'fay.fox'].map((name, index) => ({ id: `1784199000${index}`, name }));

const cases: Case[] = [
  { name: 'a Facebook Page', provider: 'facebook', connection: 'facebook', self: () => bakery, mediaIds: () => [], people: facebookPeople },
  {
    name: 'Instagram with Facebook Login',
    provider: 'instagram',
    connection: 'facebookLogin',
    self: () => ({ id: bakery.instagram!.id, name: bakery.instagram!.username }),
    mediaIds: () => [imageId],
    people: instagramPeople,
  },
  {
    name: 'Instagram with Instagram Login',
    provider: 'instagram',
    connection: 'instagramLogin',
    self: () => ({ id: meta.instagramAccount.userId, name: meta.instagramAccount.username }),
    mediaIds: () => [imageId],
    people: instagramPeople,
  },
];

describe.each(cases)('the inbox of $name', (network) => {
  const [bob, carol, dan, erin, fay] = network.people as [Commenter, Commenter, Commenter, Commenter, Commenter];
  const connectionId = () => connections[network.connection]!;
  const ofAccount = async () => (await driver.items()).filter((item) => item.connectionId === connectionId());
  const poll = (at: Date) => driver.pollIfDue(connectionId(), at);
  let clock: Date;
  /** Polls at the next interval: what it collected, and the calls it made as the stand-in counted them. */
  const nextPoll = async () => {
    clock = new Date(clock.getTime() + pollSeconds * 1000);
    const asked = meta.requests.length;
    const result = await poll(clock);
    return { result, asked: meta.requests.length - asked };
  };
  const itemOf = async (remoteId: string) => (await ofAccount()).find((item) => item.remoteId === remoteId);
  /** What the account answered under the comment, as the stand-in holds it. */
  const answersUnder = (commentId: string) =>
    [...meta.comments.values()].filter((comment) => comment.parent === commentId && comment.from === network.self().id).map((comment) => comment.message);
  let postId: string;
  let bobsComment: string;
  let carolsReply: string;

  it('collects what other people write under a published post within two poll intervals, once, without the account’s own', async () => {
    const created = await api('POST', '/posts', {
      content: { caption: `Sourdough on Sunday (${network.name})`, mediaIds: network.mediaIds() },
      targets: [{ connectionId: connectionId(), placement: 'feed', settings: { firstComment: 'Order by Friday' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
    const target = (await waitForPost(api, created.body.data.id, ['published', 'failed'], 60_000)).targets[0];
    expect(target.status, JSON.stringify(target)).toBe('published');
    postId = target.remoteId;
    clock = new Date(Date.now() + 1000);
    // The account's own first comment is there already: not an item.
    expect(await poll(clock)).toMatchObject({ status: 'polled', collected: 0 });
    bobsComment = meta.commentAs(bob, postId, 'Is there a rye loaf too?').id;
    expect(await poll(new Date(clock.getTime() + 60_000))).toBeNull();
    expect(await nextPoll()).toEqual({ result: { status: 'polled', collected: 1, calls: 1 }, asked: 1 });
    carolsReply = meta.commentAs(carol, bobsComment, 'I hope so!').id;
    expect((await nextPoll()).result).toMatchObject({ status: 'polled', collected: 1 });
    const items = await ofAccount();
    expect(items.map((item) => [item.kind, item.text, item.remoteId, item.author.displayName])).toEqual([
      ['reply', 'I hope so!', carolsReply, carol.name],
      ['comment', 'Is there a rye loaf too?', bobsComment, bob.name],
    ]);
    expect(items[1]).toMatchObject({ provider: network.provider, status: 'open', replies: [] });
    // Polled again with nothing new: nothing stored twice.
    expect((await nextPoll()).result).toMatchObject({ status: 'polled', collected: 0 });
    expect(await ofAccount()).toHaveLength(2);
  });

  it('follows the comment list’s pages, leaves out hidden and deleted comments, and counts every call', async () => {
    meta.commentPageSize = 2;
    try {
      const written = [
        meta.commentAs(dan, postId, 'Gluten-free?'),
        meta.commentAs(erin, postId, 'What time do you open?'),
        meta.commentAs(fay, bobsComment, 'Rye please'),
      ];
      meta.commentAs(dan, postId, 'Buy followers at …', { hidden: true });
      meta.deleteComment(meta.commentAs(erin, postId, 'Oops, wrong post').id);
      const { result, asked } = await nextPoll();
      expect(result).toMatchObject({ status: 'polled', collected: 3 });
      // More than one page was read, and the poll counted each call it made.
      expect(asked).toBeGreaterThanOrEqual(2);
      expect(result).toMatchObject({ calls: asked });
      const texts = (await ofAccount()).map((item) => item.text);
      expect(texts).toEqual(expect.arrayContaining(written.map((comment) => comment.message)));
      expect(texts).not.toContain('Buy followers at …');
      expect(texts).not.toContain('Oops, wrong post');
      expect(texts).toHaveLength(5);
      // Nothing new: Facebook's list, newest first, is read down to what the last poll saw (one page); Instagram's,
      // in no documented order, all of it again.
      const again = await nextPoll();
      expect(again.result).toMatchObject({ status: 'polled', collected: 0, calls: again.asked });
      expect(again.asked).toBe(network.provider === 'facebook' ? 1 : asked);
    } finally {
      meta.commentPageSize = 25;
    }
  });

  it('answers once as the account in reply to the comment, a reply under its top-level comment, and does not collect the answer', async () => {
    const comment = await itemOf(bobsComment);
    const sent = await api('POST', `/inbox/${comment.id}/replies`, { text: 'Yes, on Saturdays' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const reply = await driver.settledReply(comment.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'published', error: null });
    expect(answersUnder(bobsComment)).toEqual(['Yes, on Saturdays']);
    expect(meta.comments.get(reply.remoteId)).toMatchObject({ parent: bobsComment, message: 'Yes, on Saturdays' });
    expect(reply.remoteUrl).toMatch(/^https:\/\/www\.(facebook|instagram)\.com\//);
    const nested = await itemOf(carolsReply);
    const toReply = await api('POST', `/inbox/${nested.id}/replies`, { text: 'Noted, Carol!' });
    expect((await driver.settledReply(nested.id, toReply.body.data.id)).status).toBe('published');
    expect(answersUnder(bobsComment)).toEqual(['Yes, on Saturdays', 'Noted, Carol!']);
    expect((await nextPoll()).result).toMatchObject({ status: 'polled', collected: 0 });
  });

  it('fails an answer Meta refuses with Meta’s reason', async () => {
    const gone = meta.commentAs(erin, postId, 'Typo, deleting this').id;
    expect((await nextPoll()).result).toMatchObject({ collected: 1 });
    meta.deleteComment(gone);
    const item = await itemOf(gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'No worries' });
    expect(await driver.settledReply(item.id, sent.body.data.id)).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('does not exist') },
    });
    expect(answersUnder(gone)).toEqual([]);
  });

  it('answers once when an attempt crashed between Meta’s answer and our record', async () => {
    const question = meta.commentAs(fay, postId, 'Do you deliver?').id;
    expect((await nextPoll()).result).toMatchObject({ collected: 1 });
    const item = await itemOf(question);
    const replyId = await driver.crashedReply(item.id, 'Within 5 km, yes');
    // The crashed attempt's answer, which Meta made.
    const made = meta.commentAs(network.self(), question, 'Within 5 km, yes');
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('published');
    expect(answersUnder(question)).toEqual(['Within 5 km, yes']);
    expect((await driver.settledReply(item.id, replyId)).remoteId).toBe(made.id);
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('gone');
    expect(answersUnder(question)).toHaveLength(1);
  });

  it("does not show another workspace's items", async () => {
    const item = await itemOf(bobsComment);
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });
});

it('says in GET /providers that Facebook and Instagram have an inbox', async () => {
  const { body } = await api('GET', '/providers');
  const inboxOf = (provider: string) => body.data.find((entry: { provider: string }) => entry.provider === provider).inbox;
  expect(inboxOf('facebook')).toEqual({ available: true, reason: null });
  expect(inboxOf('instagram')).toEqual({ available: true, reason: null });
});

it('asks for pages_read_user_content, without which a Page’s inbox is not read until the Page is connected again', async () => {
  const facebook = (await api('GET', '/social-accounts')).body.data.find((account: { id: string }) => account.id === connections.facebook);
  const [postId] = [...meta.posts.keys()];
  meta.commentAs({ id: '555099', name: 'Gus Green' }, postId!, 'Still open at noon?');
  // Connected (again) without it, as Pages connected before the inbox were.
  meta.declinedPermissions = ['pages_read_user_content'];
  try {
    expect(await connectByOAuth(service, publicBaseUrl, api, 'facebook')).toBe(facebook.id);
  } finally {
    meta.declinedPermissions = [];
  }
  let clock = new Date(Date.now() + 3_600_000);
  expect(await driver.pollIfDue(facebook.id, clock)).toEqual({
    status: 'skipped',
    reason: expect.stringContaining('pages_read_user_content'),
  });
  await connectByOAuth(service, publicBaseUrl, api, 'facebook');
  const asked = meta.requests.filter((request) => request.path === '/dialog/oauth').at(-1)!;
  expect(asked.params.scope!.split(',')).toEqual(expect.arrayContaining(['pages_read_engagement', 'pages_read_user_content', 'pages_manage_engagement']));
  clock = new Date(clock.getTime() + pollSeconds * 1000);
  expect(await driver.pollIfDue(facebook.id, clock)).toMatchObject({ status: 'polled', collected: 1 });
});
