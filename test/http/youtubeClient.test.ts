// The YouTube stand-in (test/support/youtube.ts) kept honest with Google's own Node client, @googleapis/youtube:
// what the client sends for channels.list, videos.list and thumbnails.set (repeated `part`, `uploadType=media`) the
// stand-in takes, and what the stand-in answers (resources, Google's error bodies) the client reads as it reads
// Google's. The client has no resumable upload (it uploads multipart), so the video is made by the adapter and then
// read back through the client.
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

let standIn: YouTubeStandIn;
let accessToken: string;
let videoId: string;

/** Google's client, pointed at the stand-in, authorized by an OAuth2 client holding the token. */
function client(token: string) {
  const oauth2 = new auth.OAuth2(standIn.oauth.clientId, standIn.oauth.clientSecret, callback);
  oauth2.setCredentials({ access_token: token });
  return youtube({ version: 'v3', auth: oauth2, rootUrl: `${standIn.url}/` });
}

beforeAll(async () => {
  standIn = await YouTubeStandIn.start({ redirectUris: [callback], processingPolls: 0 });
  standIn.signInAs(owner, channel);
  accessToken = await standIn.accessToken(callback);
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
