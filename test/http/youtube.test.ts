// YouTube end to end against its stand-in (test/support/youtube.ts): connecting a channel through Google's OAuth,
// publishing a video and a Short with a thumbnail through the resumable upload (processed before it is published),
// videos.insert's daily bucket and the project's units as quotas the target waits for (each workspace its share), a
// thumbnail refused to a channel without custom thumbnails (the video published all the same), Google's quotaExceeded and rateLimitExceeded, a
// refused token, and the video's statistics.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startElsewhere } from '../support/elsewhere.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { YouTubeStandIn } from '../support/youtube.ts';
import { methodOf, youtubeClientMethods } from '../support/youtubeMethods.ts';
import { YouTubeAdapter } from '../../src/providers/youtube/adapter.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/youtube`;
const owner = { id: '108548912937465', name: 'Nora Field', username: 'nora@example.test' };
const channel = { id: 'UCx9fQmW2nq8Ih0mYQd7kZpA', title: 'Nora Field Travels', customUrl: '@norafield' };

let youtube: YouTubeStandIn;

interface Connected {
  service: TestService;
  api: Api;
  connectionId: string;
  /** The authorization URL the service sent the person to. */
  authorization: URL;
}

const running: TestService[] = [];

/** A service configured for the stand-in, a workspace, and the channel connected through the service. */
async function connectedService(env: Record<string, string> = {}): Promise<Connected> {
  const service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    ...youtube.serviceSettings(),
    // Upload session URLs are Google's word: they pass the SSRF guard only for hosts the operator allows.
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    ...env,
  });
  running.push(service);
  const workspace = await createWorkspace(service.services);
  const api = apiFor(service.url, workspace.ownerKey);
  const { connectionId, authorization } = await connect(service, api);
  return { service, api, connectionId, authorization };
}

async function connect(service: TestService, api: Api): Promise<{ connectionId: string; authorization: URL }> {
  const started = await api('POST', '/social-accounts/connect', { provider: 'youtube' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atGoogle = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atGoogle.headers.get('location')!);
  expect(back.status).toBe(302);
  const connectionId = back.location!.searchParams.get('connectionId');
  expect(connectionId, back.location!.href).toBeTruthy();
  return { connectionId: connectionId!, authorization };
}

async function uploadMedia(api: Api, service: TestService, bytes: Buffer, filename: string, contentType: string): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename, contentType, size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

async function createPost(api: Api, connectionId: string, caption: string, mediaIds: string[], placement = 'video', settings: Record<string, unknown> = {}) {
  const created = await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId, placement, settings }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return created.body.data.id as string;
}

async function publish(...args: Parameters<typeof createPost>) {
  const id = await createPost(...args);
  return (await waitForPost(args[0], id, ['published', 'failed'])).targets[0];
}

/** The post's target once it waits (`waitingUntil`). */
async function waitingTarget(api: Api, postId: string): Promise<any> {
  let target: any;
  for (let i = 0; i < 150 && !target?.waitingUntil; i++, await sleep(100)) target = (await api('GET', `/posts/${postId}`)).body.data.targets[0];
  return target;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  youtube = await YouTubeStandIn.start({ redirectUris: [callback], processingPolls: 1 });
  youtube.signInAs(owner, channel);
}, 60_000);

afterAll(async () => {
  for (const service of running) await service.stop();
  await youtube?.stop();
});

describe('YouTube', () => {
  let main: Connected;
  let clip: Buffer;
  let clipId: string;

  beforeAll(async () => {
    main = await connectedService();
    clip = await video(320, 240, 2);
    clipId = await uploadMedia(main.api, main.service, clip, 'clip.mp4', 'video/mp4');
  }, 120_000);

  it("connects the channel through Google's OAuth (PKCE, offline access, consent) as an active account", async () => {
    const { authorization } = main;
    expect(authorization.origin + authorization.pathname).toBe(`${youtube.oauth.url}/o/oauth2/v2/auth`);
    expect(authorization.searchParams.get('scope')).toBe(
      'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
    );
    expect(Object.fromEntries(['access_type', 'prompt', 'code_challenge_method'].map((name) => [name, authorization.searchParams.get(name)]))).toEqual({
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    // The token endpoint on its own host (YOUTUBE_TOKEN_BASE_URL), the secret in the form with the PKCE verifier.
    const exchange = youtube.oauth.requests.findLast((request) => request.path === '/token')!;
    expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', client_secret: youtube.oauth.clientSecret, code_verifier: expect.any(String) });
    expect((await storedTokens(main, main.connectionId)).refreshToken).toBeTruthy();
    const account = (await main.api('GET', `/social-accounts/${main.connectionId}`)).body.data;
    expect(account).toMatchObject({ provider: 'youtube', username: '@norafield', displayName: 'Nora Field Travels', status: 'ACTIVE' });
    const { rows } = await main.service.services.db.pool.query('SELECT remote_id FROM social_account WHERE id = $1', [main.connectionId]);
    expect(rows[0].remote_id).toBe(channel.id);
  });

  it('publishes a video once, processed first, with its title, description, tags and privacy as sent', async () => {
    const videosBefore = youtube.videos.size;
    const sessionsBefore = youtube.sessions.size;
    const caption = 'Three days on the coast path\nFrom Porthcurno to St Ives, with the tide tables we used.';
    const target = await publish(main.api, main.connectionId, caption, [clipId], 'video', {
      title: 'Coast path, day one',
      privacy: 'unlisted',
      tags: ['hiking', 'cornwall'],
      categoryId: '19',
      madeForKids: false,
    });
    expect(target).toMatchObject({ status: 'published', attempts: 1, remoteUrl: `https://www.youtube.com/watch?v=${target.remoteId}` });
    expect(youtube.videos.size).toBe(videosBefore + 1);
    expect(youtube.sessions.size).toBe(sessionsBefore + 1);
    const made = youtube.videos.get(target.remoteId)!;
    expect(made).toMatchObject({
      channelId: channel.id,
      snippet: { title: 'Coast path, day one', description: caption, tags: ['hiking', 'cornwall'], categoryId: '19' },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
      sha256: sha256(clip),
      size: clip.length,
    });
    const session = [...youtube.sessions.values()].find((entry) => entry.videoId === made.id)!;
    expect(session.bytesReceived).toBe(clip.length);
    // Read while processing (the target waited for the status check), then processed.
    const reads = youtube.requests.filter((request) => request.path.startsWith('/youtube/v3/videos?part=status') && request.path.includes(made.id));
    expect(reads.length).toBe(2);
  });

  it("publishes a Short with a thumbnail from the library, titled by the caption's first line cut to 100 characters", async () => {
    const vertical = await video(240, 320, 2);
    const verticalId = await uploadMedia(main.api, main.service, vertical, 'short.mp4', 'video/mp4');
    const cover = await image('jpeg', 320, 180);
    const coverId = await uploadMedia(main.api, main.service, cover, 'cover.jpg', 'image/jpeg');
    const firstLine = `${'Sunrise over the bay '.repeat(6)}and more`;
    const target = await publish(main.api, main.connectionId, `${firstLine}\n#shorts`, [verticalId], 'short', { thumbnailMediaId: coverId });
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.youtube.com/shorts/${target.remoteId}` });
    const made = youtube.videos.get(target.remoteId)!;
    expect(made.snippet.title).toBe([...firstLine].slice(0, 100).join('').trim());
    expect(made.status.privacyStatus).toBe('public');
    expect(made.thumbnail).toEqual({ sha256: sha256(cover), contentType: 'image/jpeg' });
  });

  it('refuses a thumbnail that is not a ready file of the library before uploading anything', async () => {
    const sessionsBefore = youtube.sessions.size;
    const target = await publish(main.api, main.connectionId, 'No such cover', [clipId], 'video', { thumbnailMediaId: randomUUID() });
    expect(target).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_VALIDATION_FAILED' } });
    expect(youtube.sessions.size).toBe(sessionsBefore);
  });

  it("waits until Google's midnight (Pacific) after quotaExceeded, and backs off after rateLimitExceeded", async () => {
    const videosBefore = youtube.videos.size;
    youtube.quotaExceeded = true;
    const asked = Date.now();
    const spent = await waitingTarget(main.api, await createPost(main.api, main.connectionId, 'Out of units', [clipId]));
    youtube.quotaExceeded = false;
    expect(spent).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' }, waitingReason: expect.stringContaining('quota') });
    const until = new Date(spent.waitingUntil);
    const pacific = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(until);
    expect(pacific).toBe('00:00');
    expect(until.getTime() - asked).toBeGreaterThan(0);
    expect(until.getTime() - asked).toBeLessThanOrEqual(25 * 3600_000);

    youtube.rateLimitNext = 1;
    const throttledAt = Date.now();
    const throttled = await waitingTarget(main.api, await createPost(main.api, main.connectionId, 'Throttled', [clipId]));
    expect(throttled).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(Date.parse(throttled.waitingUntil) - throttledAt).toBeGreaterThanOrEqual(30_000);
    expect(Date.parse(throttled.waitingUntil) - throttledAt).toBeLessThan(62_000);
    expect(youtube.videos.size).toBe(videosBefore);
  });

  it('refreshes a refused token once and publishes; a refused refresh leaves the account to reconnect', async () => {
    const refreshes = () => youtube.oauth.requests.filter((request) => request.form.grant_type === 'refresh_token').length;
    const before = refreshes();
    youtube.oauth.expireAccessTokens();
    const target = await publish(main.api, main.connectionId, 'After a refresh', [clipId]);
    expect(target.status).toBe('published');
    expect(refreshes()).toBe(before + 1);

    youtube.oauth.expireAccessTokens();
    // Google answers no refresh token on refresh: the one from the consent is kept, and refused now.
    youtube.oauth.revoked.add((await storedTokens(main, main.connectionId)).refreshToken!);
    const refused = await publish(main.api, main.connectionId, 'Not any more', [clipId]);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect(refreshes()).toBe(before + 2);
    expect((await main.api('GET', `/social-accounts/${main.connectionId}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
  });

  it("reads a video's views, likes and comments", async () => {
    const adapter = new YouTubeAdapter({
      app: { clientId: youtube.oauth.clientId, clientSecret: youtube.oauth.clientSecret, apiBaseUrl: youtube.url, authBaseUrl: youtube.oauth.url },
      redirectUri: callback,
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
      dailyQuotaUnits: 10_000,
    });
    const tokens = { accessToken: await youtube.accessToken(callback) };
    const [made] = youtube.videos.values();
    const account = { id: 'a', provider: 'youtube', username: '@norafield', remoteId: channel.id, tokens };
    expect(await adapter.metrics(account, made!.id)).toEqual({ videoViews: 1532, likes: 87, comments: 9 });
  });
});

describe('upload sessions Google names', () => {
  it("sends the channel's token to no upload session outside Google's hosts: the post fails saying so", async () => {
    // A service of its own: the day's units the other tests count on stay unspent.
    const { service, api, connectionId } = await connectedService();
    const mediaId = await uploadMedia(api, service, await video(320, 240, 1), 'clip.mp4', 'video/mp4');
    const elsewhere = await startElsewhere();
    youtube.sessionsAt = elsewhere.url;
    try {
      const target = await publish(api, connectionId, 'A session elsewhere', [mediaId]);
      expect(target).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_UNAVAILABLE' } });
      expect(target.error.message).toContain("which is not one of its own hosts; the account's token is not sent there");
      expect(elsewhere.authorizations).toEqual([]);
    } finally {
      youtube.sessionsAt = null;
      await elsewhere.stop();
    }
  });
});

describe("the project's daily quota", () => {
  it('lets an upload past YOUTUBE_DAILY_UPLOADS (videos.insert’s own bucket) wait for the window to have room instead of failing', async () => {
    const { service, api, connectionId } = await connectedService({ YOUTUBE_DAILY_UPLOADS: '1' });
    const mediaId = await uploadMedia(api, service, await video(320, 240, 1), 'clip.mp4', 'video/mp4');
    const videosBefore = youtube.videos.size;
    const first = await publish(api, connectionId, 'The day’s one upload', [mediaId]);
    expect(first.status).toBe('published');
    const second = await waitingTarget(api, await createPost(api, connectionId, 'Tomorrow’s', [mediaId]));
    expect(second).toMatchObject({ status: 'pending', waitingReason: expect.stringContaining('YouTube videos.insert calls per day') });
    // Asked again at the next of the day's two-hour buckets (the quota counts a moving 24 hours).
    expect(Date.parse(second.waitingUntil)).toBe(Math.ceil(Date.now() / 7_200_000) * 7_200_000);
    expect(youtube.videos.size).toBe(videosBefore + 1);
  }, 120_000);

  it('publishes a seventh upload of the day: an upload is one call of the 100 a day, not 1,600 of the 10,000 units', async () => {
    const { service, api, connectionId } = await connectedService();
    const mediaId = await uploadMedia(api, service, await video(320, 240, 1), 'clip.mp4', 'video/mp4');
    const uploadsBefore = youtube.uploadsUsed;
    const ids = await Promise.all(Array.from({ length: 7 }, (_, i) => createPost(api, connectionId, `Upload ${i + 1} of the day`, [mediaId])));
    for (const id of ids) expect((await waitForPost(api, id, ['published', 'failed'], 60_000)).targets[0]).toMatchObject({ status: 'published', attempts: 1 });
    expect(youtube.uploadsUsed - uploadsBefore).toBe(7);
    expect(youtube.unitsUsed).toBeLessThan(youtube.unitsPerDay);
  }, 120_000);

  it('keeps a workspace to its share of the app-wide quota: one workspace using its share leaves another’s upload going out', async () => {
    // Two uploads a day for the installation, each workspace at most half (APP_QUOTA_WORKSPACE_SHARE's default, 50).
    const a = await connectedService({ YOUTUBE_DAILY_UPLOADS: '2', YOUTUBE_DAILY_QUOTA_UNITS: '3200' });
    const other = { id: '208548912937466', name: 'Omar Lund', username: 'omar@example.test' };
    youtube.signInAs(other, { id: 'UCo2mArLuNdChAnNeL00000A', title: 'Omar Lund', customUrl: '@omarlund' });
    const workspaceB = await createWorkspace(a.service.services);
    const apiB = apiFor(a.service.url, workspaceB.ownerKey);
    const b = await connect(a.service, apiB);
    youtube.signInAs(owner, channel);
    const clipA = await uploadMedia(a.api, a.service, await video(320, 240, 1), 'a.mp4', 'video/mp4');
    const clipB = await uploadMedia(apiB, a.service, await video(320, 240, 1), 'b.mp4', 'video/mp4');
    expect(await publish(a.api, a.connectionId, 'A’s first', [clipA])).toMatchObject({ status: 'published' });
    const secondOfA = await waitingTarget(a.api, await createPost(a.api, a.connectionId, 'A’s second', [clipA]));
    expect(secondOfA).toMatchObject({ status: 'pending', waitingReason: expect.stringContaining('this workspace has used its 50% (1 of 2)') });
    expect(await publish(apiB, b.connectionId, 'B’s upload', [clipB])).toMatchObject({ status: 'published', attempts: 1 });
  }, 120_000);
});

describe('a channel without custom thumbnails', () => {
  it('publishes the video, its id recorded, with the thumbnail’s refusal as the target’s warning', async () => {
    const { service, api, connectionId } = await connectedService();
    youtube.withoutCustomThumbnails.add(channel.id);
    try {
      const clipId = await uploadMedia(api, service, await video(320, 240, 1), 'clip.mp4', 'video/mp4');
      const coverId = await uploadMedia(api, service, await image('jpeg', 320, 180), 'cover.jpg', 'image/jpeg');
      const target = await publish(api, connectionId, 'Unverified channel', [clipId], 'video', { thumbnailMediaId: coverId });
      expect(target).toMatchObject({
        status: 'published',
        attempts: 1,
        remoteUrl: `https://www.youtube.com/watch?v=${target.remoteId}`,
        error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('without its thumbnail') },
      });
      expect(target.error.message).toContain('permissions to upload and set custom video thumbnails');
      expect(youtube.videos.get(target.remoteId)).toMatchObject({ channelId: channel.id, thumbnail: null });
    } finally {
      youtube.withoutCustomThumbnails.delete(channel.id);
    }
  }, 120_000);
});

async function storedTokens({ service }: Connected, connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}

describe("Google's own description of the API", () => {
  it('finds every call the adapter made in these tests among the methods of Google’s generated client (HTTP method, path, required parameters)', () => {
    const methods = youtubeClientMethods();
    expect(methods.length).toBeGreaterThan(50);
    // The bytes sent to an upload session (`upload_id`) are the resumable protocol, not a method of the API.
    const calls = youtube.requests.filter((request) => !new URL(request.path, youtube.url).searchParams.has('upload_id'));
    expect(calls.length).toBeGreaterThan(10);
    const unknown = calls.filter((request) => methodOf(methods, request) === null);
    expect(unknown).toEqual([]);
    const used = new Set(calls.map((request) => methodOf(methods, request)!.mediaPath ?? methodOf(methods, request)!.path));
    // The inbox's polls of the published videos (commentThreads.list) come whenever the worker's tick finds them due.
    used.delete('/youtube/v3/commentThreads');
    expect([...used].sort()).toEqual(['/upload/youtube/v3/thumbnails/set', '/upload/youtube/v3/videos', '/youtube/v3/channels', '/youtube/v3/videos']);
  });
});
