// The inbox (issue 42) on YouTube, end to end against the YouTube stand-in (test/support/youtube.ts): the comment
// threads another person starts under a published video, and the replies in them, are collected within two poll
// intervals (the polls run at an injected time), once each, without the channel's own; the thread list is paged and
// a thread's replies beyond the embedded ones are read with comments.list; comments held for review appear once
// published; every list call is counted (`calls`) and charged to the project's daily units; an answer is posted
// once as the channel under that thread (a reply to a reply goes under the same top-level comment); one YouTube
// refuses fails with YouTube's reason; a crash between YouTube's answer and our record does not answer twice;
// another workspace's items are not found; connecting asks for youtube.force-ssl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { postInboxReply } from '../../src/inbox/replies.ts';
import { crashPublicBaseUrl, uploadMedia } from '../support/crashTests.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { inboxDriver, type InboxDriver } from '../support/inbox.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { video } from '../support/mediaFiles.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { YouTubeStandIn } from '../support/youtube.ts';
import { methodOf, youtubeClientMethods } from '../support/youtubeMethods.ts';

const callback = `${crashPublicBaseUrl}/oauth/callback/youtube`;
const scope = (name: string) => `https://www.googleapis.com/auth/${name}`;
const connectScopes = [scope('youtube.upload'), scope('youtube.readonly'), scope('youtube.force-ssl')].join(' ');
const nora = {
  user: { id: '108548912937465', name: 'Nora Field', username: 'nora@example.test' },
  channel: { id: 'UCx9fQmW2nq8Ih0mYQd7kZpA', title: 'Nora Field Travels', customUrl: '@norafield' },
};
const bob = {
  user: { id: '204958120394857', name: 'Bob Baker', username: 'bob@example.test' },
  channel: { id: 'UCb0bB4kerCh4nnelXyZ12ab', title: 'Bob Baker', customUrl: '@bobbakes' },
};
const pollSeconds = 300;

let youtube: YouTubeStandIn;
let service: TestService;
let api: Api;
/** The owner's own key: connecting takes accounts:write, which the publishing preset has not. */
let ownerApi: Api;
let otherApi: Api;
let connectionId: string;
let workspaceId: string;
let driver: InboxDriver;
let noraToken: string;
let bobToken: string;

beforeAll(async () => {
  youtube = await YouTubeStandIn.start({ redirectUris: [callback], processingPolls: 0 });
  service = await startTestService({
    PUBLIC_BASE_URL: crashPublicBaseUrl,
    ...youtube.serviceSettings(),
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    INBOX_POLL_SECONDS: String(pollSeconds),
  });
  const { services } = service;
  const workspace = await createWorkspace(services);
  workspaceId = workspace.workspaceId;
  ownerApi = apiFor(service.url, workspace.ownerKey);
  api = apiFor(service.url, (await keyFor(services, workspace.workspaceId, workspace.ownerId, { preset: 'publishing' })).apiKey);
  const other = await createWorkspace(services);
  otherApi = apiFor(service.url, (await keyFor(services, other.workspaceId, other.ownerId, { preset: 'publishing' })).apiKey);
  youtube.signInAs(bob.user, bob.channel);
  bobToken = await youtube.accessToken(callback, connectScopes);
  youtube.signInAs(nora.user, nora.channel);
  noraToken = await youtube.accessToken(callback, connectScopes);
  ({ connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
    workspaceId: workspace.workspaceId,
    provider: 'youtube',
    username: nora.channel.customUrl,
    remoteId: nora.channel.id,
    tokens: { accessToken: noraToken, scope: connectScopes },
  }));
  driver = inboxDriver(service, api);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await youtube?.stop();
});

/** Publishes a video to the channel; answers its id at YouTube. */
async function publish(caption: string): Promise<string> {
  const mediaId = await uploadMedia(api, service.url, { bytes: await video(320, 240, 1), filename: 'clip.mp4', contentType: 'video/mp4' });
  const created = await api('POST', '/posts', {
    content: { caption, mediaIds: [mediaId] },
    targets: [{ connectionId, placement: 'video', settings: { privacy: 'public' } }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  const post = await waitForPost(api, created.body.data.id, ['published', 'failed'], 60_000);
  expect(post.status, JSON.stringify(post.targets)).toBe('published');
  return post.targets[0].remoteId;
}

/** Writes as a person would through YouTube's API: a top-level comment on the video (commentThreads.insert), or a reply (comments.insert). */
async function write(token: string, on: { videoId: string } | { parentId: string }, text: string): Promise<string> {
  const thread = 'videoId' in on;
  const response = await fetch(`${youtube.url}/youtube/v3/${thread ? 'commentThreads' : 'comments'}?part=snippet`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(
      thread
        ? { snippet: { channelId: nora.channel.id, videoId: on.videoId, topLevelComment: { snippet: { textOriginal: text } } } }
        : { snippet: { parentId: on.parentId, textOriginal: text } },
    ),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

const bobComments = (videoId: string, text: string) => write(bobToken, { videoId }, text);
const bobReplies = (parentId: string, text: string) => write(bobToken, { parentId }, text);
const pollIfDue = (at: Date) => driver.pollIfDue(connectionId, at);
/** The channel's replies under a thread at YouTube. */
const noraRepliesUnder = (threadId: string) => [...youtube.comments.values()].filter((c) => c.parentId === threadId && c.channelId === nora.channel.id);

/** The project's units the service has charged today (what the poll and the answers cost against uploads' room). */
async function unitsCharged(): Promise<number> {
  const { rows } = await service.services.db.pool.query<{ used: string }>(
    `SELECT coalesce(sum(used), 0) AS used FROM network_quota_usage WHERE network = 'youtube' AND quota = 'YouTube Data API units per day' AND scope = 'app'`,
  );
  return Number(rows[0]!.used);
}

let clock: Date;
const nextInterval = () => {
  clock = new Date(clock.getTime() + pollSeconds * 1000);
  return clock;
};
let videoId: string;
let questionId: string;
/** Bob's reply in his own thread. */
let followUpId: string;

describe('connecting YouTube for the inbox', () => {
  it('asks for youtube.force-ssl, the scope every comment method needs', async () => {
    const started = await ownerApi('POST', '/social-accounts/connect', { provider: 'youtube' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const atGoogle = await new OAuthBrowser(service.url, crashPublicBaseUrl).start(started.body.data.authorizationUrl);
    const asked = atGoogle.searchParams.get('scope')!.split(' ');
    expect(asked).toContain(scope('youtube.force-ssl'));
  });

  it('says in GET /providers that YouTube has an inbox', async () => {
    const { body } = await api('GET', '/providers');
    expect(body.data.find((entry: { provider: string }) => entry.provider === 'youtube').inbox).toEqual({ available: true, reason: null });
  });
});

describe('collecting comments from YouTube', () => {
  it('collects what another person writes under a published video within two poll intervals, once, without the channel’s own', async () => {
    videoId = await publish('Lisbon in three days\nTrams, tiles and pastéis.');
    clock = new Date(Date.now() + 1000);
    expect(await pollIfDue(clock)).toEqual({ status: 'polled', collected: 0, calls: 1 });
    questionId = await bobComments(videoId, 'Which tram line was that?\nLooks like the 28');
    // Not due again within the interval: nothing is asked.
    const asked = youtube.requests.length;
    expect(await pollIfDue(new Date(clock.getTime() + 60_000))).toBeNull();
    expect(youtube.requests.length).toBe(asked);
    const unitsBefore = youtube.unitsUsed;
    const chargedBefore = await unitsCharged();
    expect(await pollIfDue(nextInterval())).toEqual({ status: 'polled', collected: 1, calls: 1 });
    // One list call: one unit at YouTube, and one of the project's units charged here.
    expect(youtube.unitsUsed - unitsBefore).toBe(1);
    expect((await unitsCharged()) - chargedBefore).toBe(1);
    followUpId = await bobReplies(questionId, 'And is it worth the queue?');
    // The channel answering at YouTube itself: its own comments are never items.
    await write(noraToken, { parentId: questionId }, 'Yes, the 28!');
    await write(noraToken, { videoId }, 'Thanks for watching');
    expect(await pollIfDue(nextInterval())).toMatchObject({ status: 'polled', collected: 1 });
    const items = await driver.items();
    expect(items.map((item) => [item.kind, item.text, item.remoteId])).toEqual([
      ['reply', 'And is it worth the queue?', followUpId],
      ['comment', 'Which tram line was that?\nLooks like the 28', questionId],
    ]);
    expect(items[1]).toMatchObject({
      connectionId,
      provider: 'youtube',
      author: { displayName: '@bobbakes', username: '@bobbakes' },
      status: 'open',
      replies: [],
      remoteUrl: `https://www.youtube.com/watch?v=${videoId}&lc=${questionId}`,
    });
    // Polled again with nothing new: nothing stored twice.
    expect(await pollIfDue(nextInterval())).toMatchObject({ status: 'polled', collected: 0, calls: 1 });
    expect(await driver.items()).toHaveLength(2);
  });

  it('pages through the threads, and reads a thread’s replies beyond the embedded ones with comments.list', async () => {
    const many = await publish('Porto at night');
    // Two pages of threads (100 a page) and a thread with more replies than a thread embeds (five).
    const threads: string[] = [];
    for (let i = 0; i < 104; i++) threads.push(await bobComments(many, `Night shot number ${i}`));
    const replies: string[] = [];
    for (let i = 0; i < 7; i++) replies.push(await bobReplies(threads.at(-1)!, `Detail ${i}`));
    // Both videos: two pages of Porto's threads, the replies of its newest thread, one page of Lisbon's; each a unit.
    const chargedBefore = await unitsCharged();
    expect(await pollIfDue(nextInterval())).toEqual({ status: 'polled', collected: 111, calls: 4 });
    expect((await unitsCharged()) - chargedBefore).toBe(4);
    const remoteIds = new Set((await driver.allItems()).map((item) => item.remoteId));
    expect([...threads, ...replies].every((id) => remoteIds.has(id))).toBe(true);
    // Nothing new: the first page of each video is enough, and the thread's replies are not read again.
    expect(await pollIfDue(nextInterval())).toEqual({ status: 'polled', collected: 0, calls: 2 });
    // A new reply in that thread: its count changed, so its replies are read again.
    const eighth = await bobReplies(threads.at(-1)!, 'Detail 7');
    expect(await pollIfDue(nextInterval())).toEqual({ status: 'polled', collected: 1, calls: 3 });
    expect((await driver.items()).map((item) => item.remoteId)).toContain(eighth);
  });

  it('collects a comment held for review once the channel publishes it', async () => {
    youtube.holdingForReview.add(nora.channel.id);
    const held = await bobComments(videoId, 'Check out my channel for more trams');
    youtube.holdingForReview.delete(nora.channel.id);
    expect(await pollIfDue(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    youtube.moderate(held, 'published');
    expect(await pollIfDue(nextInterval())).toMatchObject({ status: 'polled', collected: 1 });
    expect((await driver.items()).map((item) => item.remoteId)).toContain(held);
  });

  it('passes over a video whose comments are off, and still reads the others', async () => {
    const quiet = await publish('Comments off for this one');
    const fresh = await bobComments(videoId, 'Great video!');
    youtube.commentsOff.add(quiet);
    expect(await pollIfDue(nextInterval())).toMatchObject({ status: 'polled', collected: 1 });
    youtube.commentsOff.delete(quiet);
    expect((await driver.items()).map((item) => item.remoteId)).toContain(fresh);
  });

  it("does not show another workspace's items", async () => {
    const [item] = await driver.items();
    expect((await otherApi('GET', '/inbox')).body.data).toEqual([]);
    expect((await otherApi('PATCH', `/inbox/${item.id}`, { status: 'done' })).status).toBe(404);
    expect((await otherApi('POST', `/inbox/${item.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });
});

describe('answering on YouTube', () => {
  it('posts the answer once, as the channel, under that comment, charged 50 units, and does not collect it', async () => {
    const item = await driver.item(questionId);
    const chargedBefore = await unitsCharged();
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'The 28, from Martim Moniz' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const reply = await driver.settledReply(item.id, sent.body.data.id);
    expect(reply).toMatchObject({ status: 'published', error: null });
    const answers = noraRepliesUnder(questionId).filter((c) => c.text === 'The 28, from Martim Moniz');
    expect(answers).toHaveLength(1);
    expect(reply.remoteId).toBe(answers[0]!.id);
    expect(reply.remoteUrl).toBe(`https://www.youtube.com/watch?v=${videoId}&lc=${answers[0]!.id}`);
    expect((await unitsCharged()) - chargedBefore).toBe(50);
    expect(await pollIfDue(nextInterval())).toMatchObject({ status: 'polled', collected: 0 });
    expect((await driver.allItems()).map((candidate) => candidate.remoteId)).not.toContain(answers[0]!.id);
  });

  it('answers a reply under the same top-level comment: YouTube nests one level', async () => {
    const item = await driver.item(followUpId);
    expect(item.kind).toBe('reply');
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Go early, before nine' });
    expect((await driver.settledReply(item.id, sent.body.data.id)).status).toBe('published');
    expect(noraRepliesUnder(questionId).map((c) => c.text)).toContain('Go early, before nine');
  });

  it("fails an answer YouTube refuses with YouTube's reason", async () => {
    const gone = await bobComments(videoId, 'Typo, deleting this');
    expect(await pollIfDue(nextInterval())).toMatchObject({ collected: 1 });
    youtube.deleteComment(gone);
    const item = await driver.item(gone);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'No worries' });
    expect(await driver.settledReply(item.id, sent.body.data.id)).toMatchObject({
      status: 'failed',
      remoteUrl: null,
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('parent comment could not be found') },
    });
  });

  it("answers once when an attempt crashed between YouTube's answer and our record", async () => {
    const question = await bobComments(videoId, 'Where did you stay?');
    expect(await pollIfDue(nextInterval())).toMatchObject({ collected: 1 });
    const item = await driver.item(question);
    const replyId = await driver.crashedReply(item.id, 'In Alfama, near the castle');
    // The crashed attempt's call reached YouTube: the channel's reply is there, its answer never recorded.
    const made = await write(noraToken, { parentId: question }, 'In Alfama, near the castle');
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('published');
    expect(noraRepliesUnder(question)).toHaveLength(1);
    expect((await driver.settledReply(item.id, replyId)).remoteId).toBe(made);
    expect(await postInboxReply(driver.replies, replyId, false)).toBe('gone');
    expect(noraRepliesUnder(question)).toHaveLength(1);
  });

  it('refuses an answer from a channel connected without youtube.force-ssl, with the reason to reconnect', async () => {
    const question = await bobComments(videoId, 'Any tips for Sintra?');
    expect(await pollIfDue(nextInterval())).toMatchObject({ collected: 1 });
    const item = await driver.item(question);
    // The channel connected again, its owner unticking the permission to manage comments.
    const { services } = service;
    const { connectionId: narrow } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'youtube',
      username: nora.channel.customUrl,
      remoteId: nora.channel.id,
      tokens: { accessToken: noraToken, scope: `${scope('youtube.upload')} ${scope('youtube.readonly')}` },
    });
    expect(narrow).toBe(connectionId);
    const sent = await api('POST', `/inbox/${item.id}/replies`, { text: 'Go on a weekday' });
    expect(await driver.settledReply(item.id, sent.body.data.id)).toMatchObject({
      status: 'failed',
      error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('reconnect') },
    });
    expect(noraRepliesUnder(question)).toEqual([]);
  });
});

describe("Google's own description of the API", () => {
  it('finds every call the inbox and these tests made among the methods of Google’s generated client', () => {
    const methods = youtubeClientMethods();
    const calls = youtube.requests.filter((request) => !new URL(request.path, youtube.url).searchParams.has('upload_id'));
    expect(calls.filter((request) => methodOf(methods, request) === null)).toEqual([]);
    const used = new Set(calls.map((request) => `${request.method} ${methodOf(methods, request)!.path}`));
    for (const method of ['GET /youtube/v3/commentThreads', 'GET /youtube/v3/comments', 'POST /youtube/v3/comments'])
      expect(used.has(method), method).toBe(true);
  });
});
