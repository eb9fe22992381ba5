// The YouTube stand-in (test/support/youtube.ts) kept honest with Google's own Node client, @googleapis/youtube:
// what the client sends for channels.list, videos.list and thumbnails.set (repeated `part`, `uploadType=media`) the
// stand-in takes, and what the stand-in answers (resources, Google's error bodies) the client reads as it reads
// Google's; likewise the comment methods the inbox uses (threads with their replies, paged; replies posted). The
// client has no resumable upload (it uploads multipart), so the video is made by the adapter and then read back
// through the client.
import { Readable } from 'node:stream';
import { auth, youtube } from '@googleapis/youtube';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YouTubeAdapter } from '../../src/providers/youtube/adapter.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { image, video } from '../support/mediaFiles.ts';
import { publishMedia } from '../support/publishMedia.ts';
import { YouTubeStandIn } from '../support/youtube.ts';

const callback = 'https://publisher.example/oauth/callback/youtube';
const owner = { id: '3301987465', name: 'Lea Quinn', username: 'lea@example.test' };
const channel = { id: 'UCq1ientTe5tCh4nn3lAbCdE', title: 'Lea Quinn', customUrl: '@leaquinn' };

/** Another Google account, with a channel of its own: a viewer commenting on the channel's video. */
const viewer = {
  user: { id: '5519034761', name: 'Vic Olsen', username: 'vic@example.test' },
  channel: { id: 'UCv1ewerCh4nnelQrStUvWxYz', title: 'Vic Olsen', customUrl: '@vicolsen' },
};
const commentScopes = 'https://www.googleapis.com/auth/youtube.force-ssl';

let standIn: YouTubeStandIn;
let accessToken: string;
let viewerToken: string;
let videoId: string;
let threadId: string;

/** Google's client, pointed at the stand-in, authorized by an OAuth2 client holding the token. */
function client(token: string) {
  const oauth2 = new auth.OAuth2(standIn.oauth.clientId, standIn.oauth.clientSecret, callback);
  oauth2.setCredentials({ access_token: token });
  return youtube({ version: 'v3', auth: oauth2, rootUrl: `${standIn.url}/` });
}

beforeAll(async () => {
  standIn = await YouTubeStandIn.start({ redirectUris: [callback], processingPolls: 0 });
  standIn.signInAs(viewer.user, viewer.channel);
  viewerToken = await standIn.accessToken(callback, commentScopes);
  standIn.signInAs(owner, channel);
  accessToken = await standIn.accessToken(callback, `${commentScopes} https://www.googleapis.com/auth/youtube.upload`);
  const adapter = new YouTubeAdapter({
    app: { clientId: standIn.oauth.clientId, clientSecret: standIn.oauth.clientSecret, apiBaseUrl: standIn.url, authBaseUrl: standIn.oauth.url },
    redirectUri: callback,
    timeoutMs: 5000,
    allowedHosts: new Set(['127.0.0.1']),
    dailyQuotaUnits: 10_000,
  });
  const outcome = await adapter.publish({
    account: { id: 'a', provider: 'youtube', username: channel.customUrl, remoteId: channel.id, tokens: { accessToken } },
    placement: 'video',
    caption: 'Made by the adapter\nRead back by Google’s client.',
    media: [publishMedia(await video(320, 240, 1), { kind: 'video', mimeType: 'video/mp4' })],
    thread: [],
    firstComment: null,
    settings: { privacy: 'private', tags: ['client'], madeForKids: false },
    idempotencyKey: crypto.randomUUID(),
    checkpoint: keptCheckpoint(),
    signal: new AbortController().signal,
  });
  if (outcome.status !== 'published') throw new Error('the adapter did not publish');
  videoId = outcome.item.remoteId;
}, 60_000);

afterAll(async () => {
  await standIn?.stop();
});

describe("Google's client against the YouTube stand-in", () => {
  it('reads the channel of the token with channels.list mine=true', async () => {
    const { data } = await client(accessToken).channels.list({ part: ['snippet'], mine: true });
    expect(data.items?.map((item) => ({ id: item.id, title: item.snippet?.title, customUrl: item.snippet?.customUrl }))).toEqual([
      { id: channel.id, title: channel.title, customUrl: channel.customUrl },
    ]);
  });

  it("reads the adapter's video: its snippet, status, processing and statistics", async () => {
    const { data } = await client(accessToken).videos.list({ part: ['snippet', 'status', 'processingDetails', 'statistics'], id: [videoId] });
    const [item] = data.items ?? [];
    expect(item).toMatchObject({
      id: videoId,
      snippet: { title: 'Made by the adapter', description: 'Made by the adapter\nRead back by Google’s client.', tags: ['client'], channelId: channel.id },
      status: { privacyStatus: 'private', uploadStatus: 'processed', selfDeclaredMadeForKids: false },
      processingDetails: { processingStatus: 'succeeded' },
      statistics: { viewCount: '1532', likeCount: '87', commentCount: '9' },
    });
  });

  it('sets a thumbnail as a media upload', async () => {
    const bytes = await image('png', 160, 90);
    // The client builds upload URLs from the call's own rootUrl (the client-wide one reaches only the API's).
    const { data } = await client(accessToken).thumbnails.set(
      { videoId, media: { mimeType: 'image/png', body: Readable.from([bytes]) } },
      { rootUrl: `${standIn.url}/` },
    );
    expect(data.items?.[0]?.default?.url).toContain(videoId);
    expect(standIn.videos.get(videoId)?.thumbnail?.contentType).toBe('image/png');
  });

  it('starts a thread and replies in it (commentThreads.insert, comments.insert), as another channel than the video’s', async () => {
    const thread = await client(viewerToken).commentThreads.insert({
      part: ['snippet'],
      requestBody: { snippet: { channelId: channel.id, videoId, topLevelComment: { snippet: { textOriginal: 'First <3' } } } },
    });
    threadId = thread.data.id!;
    expect(thread.data.snippet?.topLevelComment?.snippet).toMatchObject({ authorChannelId: { value: viewer.channel.id }, textOriginal: 'First <3' });
    for (let i = 0; i < 6; i++) {
      const reply = await client(i % 2 ? accessToken : viewerToken).comments.insert({
        part: ['snippet'],
        requestBody: { snippet: { parentId: threadId, textOriginal: `Reply ${i}` } },
      });
      expect(reply.data.snippet).toMatchObject({ parentId: threadId, textOriginal: `Reply ${i}` });
    }
    const refused = await client(viewerToken)
      .comments.insert({ part: ['snippet'], requestBody: { snippet: { parentId: 'Ugnothere', textOriginal: 'Hello?' } } })
      .catch((error: unknown) => error as { response?: { status: number; data: any } });
    expect(refused).toMatchObject({ response: { status: 404, data: { error: { errors: [{ reason: 'parentCommentNotFound' }] } } } });
  });

  it('lists the threads with some of their replies, page by page, in the text format asked (commentThreads.list)', async () => {
    for (let i = 0; i < 2; i++)
      await client(viewerToken).commentThreads.insert({
        part: ['snippet'],
        requestBody: { snippet: { channelId: channel.id, videoId, topLevelComment: { snippet: { textOriginal: `Later ${i}` } } } },
      });
    const first = await client(accessToken).commentThreads.list({
      part: ['snippet', 'replies'],
      videoId,
      order: 'time',
      maxResults: 2,
      textFormat: 'plainText',
    });
    expect(first.data.items?.map((item) => item.snippet?.topLevelComment?.snippet?.textDisplay)).toEqual(['Later 1', 'Later 0']);
    // textOriginal only for the author: the video's channel reading another's comment gets textDisplay alone.
    expect(first.data.items?.[0]?.snippet?.topLevelComment?.snippet?.textOriginal).toBeUndefined();
    const second = await client(accessToken).commentThreads.list({
      part: ['snippet', 'replies'],
      videoId,
      maxResults: 2,
      pageToken: first.data.nextPageToken!,
    });
    const [thread] = second.data.items ?? [];
    expect(thread).toMatchObject({ id: threadId, snippet: { totalReplyCount: 6, canReply: true } });
    // HTML, the default format, escapes the text.
    expect(thread?.snippet?.topLevelComment?.snippet?.textDisplay).toBe('First &lt;3');
    expect(thread?.replies?.comments?.length).toBeLessThan(6);
    expect(second.data.nextPageToken).toBeUndefined();
  });

  it('reads every reply of a thread, oldest first, page by page (comments.list parentId)', async () => {
    const first = await client(accessToken).comments.list({ part: ['snippet'], parentId: threadId, maxResults: 4, textFormat: 'plainText' });
    const second = await client(accessToken).comments.list({ part: ['snippet'], parentId: threadId, maxResults: 4, pageToken: first.data.nextPageToken! });
    const replies = [...(first.data.items ?? []), ...(second.data.items ?? [])];
    expect(replies.map((reply) => reply.snippet?.textDisplay)).toEqual(['Reply 0', 'Reply 1', 'Reply 2', 'Reply 3', 'Reply 4', 'Reply 5']);
    expect(replies.map((reply) => reply.snippet?.authorChannelId?.value)).toEqual(
      [viewer, channel, viewer, channel, viewer, channel].map((c) => ('channel' in c ? c.channel.id : c.id)),
    );
    const invalid = await client(accessToken)
      .comments.list({ part: ['snippet'], parentId: threadId, pageToken: 'not-a-token' })
      .catch((error: unknown) => error as { response?: { status: number; data: any } });
    expect(invalid).toMatchObject({ response: { status: 400, data: { error: { errors: [{ reason: 'invalidPageToken' }] } } } });
  });

  it("answers Google's error bodies: quotaExceeded, and 401 for a token Google no longer takes", async () => {
    standIn.quotaExceeded = true;
    const quota = await client(accessToken)
      .channels.list({ part: ['snippet'], mine: true })
      .catch((error: unknown) => error as { response?: { status: number; data: any } });
    standIn.quotaExceeded = false;
    expect(quota).toMatchObject({ response: { status: 403, data: { error: { code: 403, errors: [{ reason: 'quotaExceeded', domain: 'youtube.quota' }] } } } });

    const expired = await standIn.accessToken(callback);
    standIn.oauth.revoked.add(expired);
    const refused = await client(expired)
      .channels.list({ part: ['snippet'], mine: true })
      .catch((error: unknown) => error as { response?: { status: number; data: any } });
    expect(refused).toMatchObject({ response: { status: 401, data: { error: { code: 401, errors: [{ reason: 'authError' }] } } } });
  });
});
