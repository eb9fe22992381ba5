// Facebook Pages and Instagram end to end against the Meta stand-in (test/support/meta.ts): one Facebook Login
// connecting Pages and the Instagram account linked to one, publishing every media kind with permalinks (media
// fetched by the stand-in from the service's signed URLs), containers never published before FINISHED, waiting at
// the Instagram quota and at Meta's throttling, media Meta cannot fetch, Pages no longer granted, and a dead token.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { connectRefusal } from '../support/oauthConnect.ts';
import { MetaStandIn, type MetaPage } from '../support/meta.ts';
import { openTokens } from '../../src/accounts/socialAccounts.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { publishMedia } from '../support/publishMedia.ts';

const publicBaseUrl = 'https://publisher.example';
const alice = { id: '10158', name: 'Alice Moreau' };
const bakery: MetaPage = {
  id: '1101',
  name: 'Moreau Bakery',
  username: 'moreaubakery',
  instagram: { id: '17841401', username: 'moreau.bakery', name: 'Moreau Bakery' },
};
const cafe: MetaPage = { id: '1102', name: 'Moreau Café', username: 'moreaucafe' };
const shop: MetaPage = { id: '1103', name: 'Moreau Shop', username: 'moreaushop' };

let meta: MetaStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
/** Connection ids by remote id. */
const accounts = new Map<string, string>();

beforeAll(async () => {
  meta = await MetaStandIn.start({
    redirectUris: ['facebook', 'instagram'].map((network) => `${publicBaseUrl}/oauth/callback/${network}`),
    processingReads: 1,
  });
  meta.signInAs(alice, [bakery, cafe, shop]);
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    FACEBOOK_CLIENT_ID: meta.clientId,
    FACEBOOK_CLIENT_SECRET: meta.clientSecret,
    FACEBOOK_API_BASE_URL: meta.url,
    FACEBOOK_AUTH_BASE_URL: meta.url,
    FACEBOOK_UPLOAD_BASE_URL: meta.reelUploadUrl,
  });
  meta.mediaOrigin = { from: publicBaseUrl, to: service.url };
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await meta?.stop();
});

async function connect(provider: 'facebook' | 'instagram'): Promise<{ ids: string[]; authorization: URL }> {
  const started = await api('POST', '/social-accounts/connect', { provider });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atMeta = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atMeta.headers.get('location')!);
  expect(back.status).toBe(302);
  return { ids: back.location!.searchParams.getAll('connectionId'), authorization };
}

async function uploadMedia(bytes: Buffer, filename: string, contentType: string, altText?: string): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename, contentType, size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  if (altText) expect((await api('PUT', `/media/${id}/alt-text`, { altText })).status).toBe(200);
  return id;
}

async function create(remoteId: string, caption: string, mediaIds: string[] = [], placement = 'feed') {
  const created = await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId: accounts.get(remoteId), placement }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return created.body.data.id as string;
}

async function publish(remoteId: string, caption: string, mediaIds: string[] = [], placement = 'feed') {
  return (await waitForPost(api, await create(remoteId, caption, mediaIds, placement), ['published', 'failed'], 60_000)).targets[0];
}

/** The bakery Page as the adapter sees it, for calls made without the worker. */
async function bakeryAccount() {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [accounts.get(bakery.id)]);
  const tokens = openTokens(service.services.secrets, { encryptedTokens: rows[0].encrypted_tokens });
  return { id: accounts.get(bakery.id)!, provider: 'facebook', username: 'moreaubakery', remoteId: bakery.id, tokens };
}

async function targetWhen(postId: string, ready: (target: any) => boolean) {
  let target: any;
  for (let i = 0; i < 200 && !ready(target); i++, await sleep(100)) target = (await api('GET', `/posts/${postId}`)).body.data.targets[0];
  return target;
}

describe('connecting Facebook Pages and Instagram', () => {
  it('connects each granted Page and the Instagram account linked to one from one Facebook Login, with long-lived Page tokens', async () => {
    const { ids, authorization } = await connect('facebook');
    expect(authorization.origin + authorization.pathname).toBe(`${meta.url}/v23.0/dialog/oauth`);
    expect(authorization.searchParams.get('scope')).toContain('pages_manage_posts,read_insights');
    expect(authorization.searchParams.get('scope')).toContain('instagram_content_publish');
    // The secret as a parameter, then the long-lived exchange at once.
    const exchange = meta.requests.find((request) => request.path === '/oauth/access_token' && request.method === 'POST')!;
    expect(exchange.params).toMatchObject({
      client_id: meta.clientId,
      client_secret: meta.clientSecret,
      redirect_uri: `${publicBaseUrl}/oauth/callback/facebook`,
    });
    expect(exchange.authorization).toBeUndefined();
    expect(meta.requests.some((request) => request.path === '/oauth/access_token' && request.params.grant_type === 'fb_exchange_token')).toBe(true);

    const connected = await Promise.all(ids.map(async (id) => (await api('GET', `/social-accounts/${id}`)).body.data));
    expect(connected.map(({ provider, username, displayName, status }) => ({ provider, username, displayName, status }))).toEqual([
      { provider: 'facebook', username: 'moreaubakery', displayName: 'Moreau Bakery', status: 'ACTIVE' },
      { provider: 'facebook', username: 'moreaucafe', displayName: 'Moreau Café', status: 'ACTIVE' },
      { provider: 'facebook', username: 'moreaushop', displayName: 'Moreau Shop', status: 'ACTIVE' },
      { provider: 'instagram', username: 'moreau.bakery', displayName: 'Moreau Bakery', status: 'ACTIVE' },
    ]);
    for (const [index, remoteId] of [bakery.id, cafe.id, shop.id, bakery.instagram!.id].entries()) accounts.set(remoteId, ids[index]!);
    // The short-lived user token ends within hours: the Page tokens kept were read with the long-lived one.
    meta.expireShortLivedTokens();
  });
});

describe('publishing to a Facebook Page', () => {
  it('posts text with its link, one photo with alt text, several photos as one post and a video, each once, with permalinks', async () => {
    const [one, two, clip] = await Promise.all([
      uploadMedia(await image('jpeg', 800, 600), 'one.jpg', 'image/jpeg', 'A sourdough loaf'),
      uploadMedia(await image('png', 640, 640), 'two.png', 'image/png', 'Croissants on a tray'),
      uploadMedia(await video(320, 240, 1), 'clip.mp4', 'video/mp4'),
    ]);
    const [text, photo, photos, film] = await Promise.all([
      publish(bakery.id, 'Open on Sunday: https://moreau.example/hours'),
      publish(bakery.id, 'Fresh bread', [one]),
      publish(bakery.id, 'This morning', [one, two]),
      publish(bakery.id, 'How we bake', [clip]),
    ]);
    for (const target of [text, photo, photos, film]) expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
    expect(meta.posts.get(text.remoteId)).toMatchObject({ message: 'Open on Sunday: https://moreau.example/hours', link: 'https://moreau.example/hours' });
    expect(text.remoteUrl).toBe(`https://www.facebook.com/${bakery.id}/posts/${text.remoteId.split('_')[1]}`);
    const single = meta.posts.get(photo.remoteId)!;
    expect(meta.photos.get(single.photo!)).toMatchObject({ published: true, altText: 'A sourdough loaf', media: { contentType: 'image/jpeg' } });
    const album = meta.posts.get(photos.remoteId)!;
    expect(album.message).toBe('This morning');
    expect(album.attachedMedia.map((id) => meta.photos.get(id)!.altText)).toEqual(['A sourdough loaf', 'Croissants on a tray']);
    expect(meta.videos.get(film.remoteId)).toMatchObject({ description: 'How we bake' });
    expect(film.remoteUrl).toBe(`https://www.facebook.com/${bakery.id}/videos/${film.remoteId}/`);
    // Each target once at Meta: four posts, one video.
    expect([...meta.posts.values()].filter((post) => post.page === bakery.id)).toHaveLength(3);
    expect(meta.videos.size).toBe(1);
  });

  it('reads a Page post’s insights into metrics', async () => {
    const [post] = [...meta.posts.values()];
    expect(await service.services.adapters.get('facebook')!.metrics(await bakeryAccount(), post!.id)).toEqual({
      impressions: 250,
      reach: 180,
      clicks: 12,
      likes: 9,
    });
  });

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const reelStatusReads = (id: string) => meta.requests.filter((request) => request.path === `/${id}` && request.params.fields === 'status').length;

  it('publishes a reel through the Reels Publishing API (start, the bytes to the upload host, finish), once, with its permalink', async () => {
    const bytes = await video(360, 640, 4);
    const target = await publish(bakery.id, 'Shaping baguettes', [await uploadMedia(bytes, 'shaping.mp4', 'video/mp4')], 'reel');
    expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
    const reel = meta.reels.get(target.remoteId)!;
    expect(reel).toMatchObject({ page: bakery.id, description: 'Shaping baguettes', fileSize: bytes.length, received: bytes.length, finishes: 1 });
    expect(reel.hash.copy().digest('hex')).toBe(sha256(bytes));
    expect(target.remoteUrl).toBe(`https://www.facebook.com/reel/${target.remoteId}/`);
    expect(meta.reels.size).toBe(1);
    expect(meta.requests.filter((request) => request.path === `/${bakery.id}/video_reels`).map((request) => request.params.upload_phase)).toEqual([
      'start',
      'finish',
    ]);
    // Published as a reel, not as a Page video.
    expect(meta.videos.has(target.remoteId)).toBe(false);
  });

  it('waits while Meta processes a reel, asking its status until the publishing phase is complete', async () => {
    meta.processingReads = 4;
    try {
      const clip = await uploadMedia(await video(360, 640, 3), 'proofing.mp4', 'video/mp4');
      const target = await publish(bakery.id, 'Proofing', [clip], 'reel');
      expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
      expect(meta.reels.get(target.remoteId)).toMatchObject({ description: 'Proofing', finishes: 1 });
      expect(reelStatusReads(target.remoteId)).toBe(5);
    } finally {
      meta.processingReads = 1;
    }
  });

  it('goes on with the same reel after an attempt that stopped at finish: one start, one upload, one reel', async () => {
    const bytes = await video(360, 640, 3);
    const request = {
      account: await bakeryAccount(),
      placement: 'reel',
      caption: 'Scoring',
      media: [publishMedia(bytes, { kind: 'video', mimeType: 'video/mp4' })],
      thread: [],
      firstComment: null,
      settings: {},
      idempotencyKey: 'reel-resumed',
      checkpoint: keptCheckpoint(),
      signal: new AbortController().signal,
    };
    const adapter = service.services.adapters.get('facebook')!;
    const reels = meta.reels.size;
    meta.failReelFinishes = 1;
    await expect(adapter.publish(request)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
    let outcome = await adapter.publish(request);
    while (outcome.status === 'processing') outcome = await adapter.publish(request);
    expect(meta.reels.size).toBe(reels + 1);
    const reel = meta.reels.get(outcome.item.remoteId)!;
    expect(reel).toMatchObject({ description: 'Scoring', received: bytes.length, finishes: 1 });
    expect(request.media[0]!.reads).toEqual([{ start: 0, end: bytes.length }]);
  });

  it('sends the rest of an interrupted reel upload from the bytes Meta says it has', async () => {
    const bytes = await video(360, 640, 3);
    const account = await bakeryAccount();
    const token = account.tokens!.accessToken;
    // An earlier attempt started the reel and sent half its bytes, then stopped before its upload step was recorded.
    const started = await fetch(`${meta.url}/v23.0/${bakery.id}/video_reels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams({ upload_phase: 'start' }),
    });
    const { video_id: id } = (await started.json()) as { video_id: string };
    const half = Math.floor(bytes.length / 2);
    const sent = await fetch(`${meta.reelUploadUrl}/video-upload/v23.0/${id}`, {
      method: 'POST',
      headers: { authorization: `OAuth ${token}`, offset: '0', file_size: String(bytes.length) },
      body: new Uint8Array(bytes.subarray(0, half)),
    });
    expect(sent.status).toBe(200);
    const media = publishMedia(bytes, { kind: 'video', mimeType: 'video/mp4' });
    const request = {
      account,
      placement: 'reel',
      caption: 'Resumed',
      media: [media],
      thread: [],
      firstComment: null,
      settings: {},
      idempotencyKey: 'reel-upload-resumed',
      checkpoint: keptCheckpoint({ done: { 'reel:start': { video_id: id } }, started: 'reel:upload' }),
      signal: new AbortController().signal,
    };
    const adapter = service.services.adapters.get('facebook')!;
    let outcome = await adapter.publish(request);
    while (outcome.status === 'processing') outcome = await adapter.publish(request);
    expect(outcome.item.remoteId).toBe(id);
    expect(media.reads).toEqual([{ start: half, end: bytes.length }]);
    const reel = meta.reels.get(id)!;
    expect(reel).toMatchObject({ received: bytes.length, finishes: 1, description: 'Resumed' });
    expect(reel.hash.copy().digest('hex')).toBe(sha256(bytes));
  });

  it('refuses a Facebook story before publishing, naming the placements it takes', async () => {
    const clip = await uploadMedia(await video(360, 640, 3), 'story.mp4', 'video/mp4');
    const refused = await api('POST', '/posts', {
      content: { caption: 'A story', mediaIds: [clip] },
      targets: [{ connectionId: accounts.get(bakery.id), placement: 'story' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toContainEqual(expect.objectContaining({ field: 'targets[0].placement', code: 'placement' }));
  });
});

describe('publishing to Instagram', () => {
  it('publishes an image with alt text, a carousel, a reel and a story through containers polled until FINISHED, with permalinks', async () => {
    const [photo, second, square, reel] = await Promise.all([
      uploadMedia(await image('jpeg', 1080, 1080), 'photo.jpg', 'image/jpeg', 'A baguette'),
      uploadMedia(await image('jpeg', 1080, 1080), 'second.jpg', 'image/jpeg'),
      uploadMedia(await video(360, 360, 4), 'square.mp4', 'video/mp4'),
      uploadMedia(await video(360, 640, 4), 'reel.mp4', 'video/mp4'),
    ]);
    const ig = bakery.instagram!.id;
    const [single, carousel, reelPost, story] = await Promise.all([
      publish(ig, 'Our baguette #bread', [photo]),
      publish(ig, 'The whole morning', [photo, second, square]),
      publish(ig, 'Kneading', [reel], 'reel'),
      publish(ig, '', [second], 'story'),
    ]);
    for (const target of [single, carousel, reelPost, story]) {
      expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
      expect(target.remoteUrl).toBe(meta.igMedia.get(target.remoteId)!.permalink);
    }
    const containerOf = (target: { remoteId: string }) => meta.containers.get(meta.igMedia.get(target.remoteId)!.container)!;
    expect(containerOf(single).params).toMatchObject({ caption: 'Our baguette #bread', alt_text: 'A baguette' });
    expect(containerOf(single).media).toMatchObject({ contentType: 'image/jpeg' });
    const children = containerOf(carousel)
      .params.children!.split(',')
      .map((id) => meta.containers.get(id)!.params);
    expect(containerOf(carousel).params).toMatchObject({ media_type: 'CAROUSEL', caption: 'The whole morning' });
    expect(children.map((child) => child.media_type ?? 'IMAGE')).toEqual(['IMAGE', 'IMAGE', 'VIDEO']);
    expect(containerOf(reelPost).params).toMatchObject({ media_type: 'REELS', share_to_feed: 'true', caption: 'Kneading' });
    expect(containerOf(story).params).toMatchObject({ media_type: 'STORIES' });
    // Each container was read IN_PROGRESS, and nothing was published before it was FINISHED.
    for (const container of meta.containers.values()) expect(container.reads).toBeGreaterThan(1);
    expect(meta.earlyPublishes).toBe(0);
    expect(meta.igMedia.size).toBe(4);
  }, 60_000);

  it('refuses a caption alone before publishing', async () => {
    const connectionId = accounts.get(bakery.instagram!.id);
    const alone = await api('POST', '/posts', { content: { caption: 'Just words' }, targets: [{ connectionId, placement: 'feed' }] });
    expect(alone.status).toBe(422);
    expect(alone.body.error.details).toContainEqual(expect.objectContaining({ field: 'targets[0].mediaIds' }));
  });

  it('waits, rather than fails, when the account has used its 100 posts of the day', async () => {
    const db = new pg.Client({ connectionString: service.databaseUrl });
    await db.connect();
    const accountId = accounts.get(bakery.instagram!.id);
    // The four posts above were charged to the account's day; it then publishes 96 more elsewhere.
    const usage = await db.query('SELECT used FROM network_quota_usage WHERE network = $1 AND scope = $2', ['instagram', accountId]);
    expect(usage.rows).toEqual([{ used: 4 }]);
    await db.query('UPDATE network_quota_usage SET used = 100 WHERE network = $1 AND scope = $2', ['instagram', accountId]);
    const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'late.jpg', 'image/jpeg');
    const published = meta.igMedia.size;
    const target = await targetWhen(await create(bakery.instagram!.id, 'One too many', [photo]), (candidate) => Boolean(candidate?.waitingUntil));
    expect(target).toMatchObject({ status: expect.not.stringMatching(/failed|published/), waitingReason: expect.stringContaining('100 API-published posts') });
    // Asked again at the next of the day's two-hour buckets (the quota counts a moving 24 hours).
    expect(Date.parse(target.waitingUntil) % 7_200_000).toBe(0);
    expect(meta.igMedia.size).toBe(published);
    await db.query('DELETE FROM network_quota_usage WHERE scope = $1', [accountId]);
    await db.end();
  });

  it('publishes a PNG and a WebP as the JPEG renditions made when they were uploaded, and the library keeps the originals', async () => {
    const originals = { png: await image('png', 1080, 1080), webp: await image('webp', 1080, 1080) };
    const [png, webp] = await Promise.all([
      uploadMedia(originals.png, 'tart.png', 'image/png', 'An apricot tart'),
      uploadMedia(originals.webp, 'eclair.webp', 'image/webp'),
    ]);
    const ig = bakery.instagram!.id;
    const [single, carousel] = await Promise.all([publish(ig, 'Apricot tart', [png]), publish(ig, 'Tart and éclair', [png, webp])]);
    for (const target of [single, carousel]) expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
    const containerOf = (target: { remoteId: string }) => meta.containers.get(meta.igMedia.get(target.remoteId)!.container)!;
    expect(containerOf(single).params).toMatchObject({ alt_text: 'An apricot tart' });
    const fetched = [
      containerOf(single),
      ...containerOf(carousel)
        .params.children!.split(',')
        .map((id) => meta.containers.get(id)!),
    ].map((container) => container.media!);
    expect(fetched.map((media) => media.contentType)).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg']);
    // The PNG's one rendition, fetched twice; the WebP's its own.
    expect(fetched[0]!.sha256).toBe(fetched[1]!.sha256);
    expect(fetched[2]!.sha256).not.toBe(fetched[0]!.sha256);

    for (const [id, bytes, mimeType] of [
      [png, originals.png, 'image/png'],
      [webp, originals.webp, 'image/webp'],
    ] as const) {
      const shown = (await api('GET', `/media/${id}`)).body.data;
      expect(shown).toMatchObject({ mimeType, size: bytes.length });
      const file = await fetch(shown.url.replace(publicBaseUrl, service.url));
      expect(file.headers.get('content-type')).toBe(mimeType);
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    }
  }, 60_000);

  it('fails the target with Meta’s message, without retrying, when Meta cannot fetch the media (9004/2207052)', async () => {
    const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'unreachable.jpg', 'image/jpeg');
    const reachable = meta.mediaOrigin;
    // The service's signed URLs lead nowhere Meta can reach (port 9, discard, has no listener here).
    meta.mediaOrigin = { from: publicBaseUrl, to: 'http://127.0.0.1:9' };
    try {
      const containersAsked = () => meta.requests.filter((request) => request.method === 'POST' && request.path === `/${bakery.instagram!.id}/media`).length;
      const before = containersAsked();
      const target = await publish(bakery.instagram!.id, 'Behind a wall', [photo]);
      expect(target, JSON.stringify(target)).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { code: 'PROVIDER_REJECTED', message: expect.stringMatching(/media could not be fetched from this URI.*#9004\/2207052/) },
      });
      expect(containersAsked() - before).toBe(1);
    } finally {
      meta.mediaOrigin = reachable;
    }
  });
});

describe('Meta as it really answers', () => {
  it('refuses at connect a Facebook Login whose person unticked a permission publishing needs (read from /me/permissions); no account is made', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    meta.declinedPermissions = ['pages_manage_posts'];
    try {
      expect(await connectRefusal(service, publicBaseUrl, api, 'facebook')).toContain('Facebook did not grant pages_manage_posts, which publishing needs');
    } finally {
      meta.declinedPermissions = [];
    }
    expect(meta.requests.some((request) => request.path === '/me/permissions')).toBe(true);
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });

  it('lets a 31st reel of the Page’s 24 hours wait instead of failing at Meta, while its other posts go out', async () => {
    const accountId = accounts.get(bakery.id)!;
    // 30 reels published in the last hours (through this service or another app): Meta would refuse a 31st.
    meta.reelsPublishedAt.set(
      bakery.id,
      Array.from({ length: 30 }, (_, i) => Date.now() - (i + 1) * 60_000),
    );
    await service.services.db.pool.query(
      `INSERT INTO network_quota_usage (network, quota, scope, window_start, used)
       VALUES ('facebook', 'Facebook: 30 API-published reels per Page per 24 hours', $1, to_timestamp(floor(extract(epoch FROM now()) / 7200) * 7200), 30)
       ON CONFLICT (network, quota, scope, window_start) DO UPDATE SET used = 30`,
      [accountId],
    );
    try {
      const finishes = [...meta.reels.values()].reduce((sum, reel) => sum + reel.finishes, 0);
      const clip = await uploadMedia(await video(360, 640, 3), 'one-more.mp4', 'video/mp4');
      const waiting = await targetWhen(await create(bakery.id, 'One reel too many', [clip], 'reel'), (target) => Boolean(target?.waitingUntil));
      expect(waiting).toMatchObject({
        status: expect.not.stringMatching(/failed|published/),
        error: null,
        waitingReason: expect.stringContaining('30 API-published reels'),
      });
      expect([...meta.reels.values()].reduce((sum, reel) => sum + reel.finishes, 0)).toBe(finishes);
      // The quota counts reels only.
      expect(await publish(bakery.id, 'Bread is out of the oven')).toMatchObject({ status: 'published' });
    } finally {
      meta.reelsPublishedAt.delete(bakery.id);
      await service.services.db.pool.query(`DELETE FROM network_quota_usage WHERE network = 'facebook'`);
    }
  });

  it('waits an hour when Instagram’s daily cap is reached by another app (9/2207042), instead of failing for good', async () => {
    meta.instagramDailyCapReached = true;
    try {
      const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'capped.jpg', 'image/jpeg');
      const asked = Date.now();
      const target = await targetWhen(await create(bakery.instagram!.id, 'Past the daily cap', [photo]), (candidate) => Boolean(candidate?.waitingUntil));
      expect(target).toMatchObject({
        status: expect.not.stringMatching(/failed|published/),
        error: { code: 'RATE_LIMITED_BY_PROVIDER', message: expect.stringContaining('2207042') },
      });
      expect(Date.parse(target.waitingUntil) - asked).toBeGreaterThan(3_500_000);
      expect(Date.parse(target.waitingUntil) - asked).toBeLessThan(3_700_000);
    } finally {
      meta.instagramDailyCapReached = false;
    }
  });
});

describe('Meta refusing', () => {
  it('waits as long as Meta’s usage header says when it throttles (code 80001, no 429)', async () => {
    meta.throttle = { code: 80001, minutes: 3, calls: 1 };
    const asked = Date.now();
    const target = await targetWhen(await create(cafe.id, 'Throttled'), (candidate) => Boolean(candidate?.waitingUntil));
    expect(target).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(Date.parse(target.waitingUntil) - asked).toBeGreaterThanOrEqual(180_000 - 1_000);
    expect(Date.parse(target.waitingUntil) - asked).toBeLessThan(185_000);
  });

  it('marks the Pages left out of a new authorization as needing reconnection, and keeps the others', async () => {
    meta.signInAs(alice, [bakery, cafe]);
    const { ids } = await connect('instagram');
    expect(ids).toEqual([accounts.get(bakery.id), accounts.get(cafe.id), accounts.get(bakery.instagram!.id)]);
    const left = (await api('GET', `/social-accounts/${accounts.get(shop.id)}`)).body.data;
    expect(left).toMatchObject({ status: 'NEEDS_RECONNECT', needsReconnect: true });
    expect((await api('GET', `/social-accounts/${accounts.get(cafe.id)}`)).body.data.status).toBe('ACTIVE');
  });

  it('needs the account reconnected when Meta refuses its token (code 190 in an HTTP 400)', async () => {
    meta.expireAllTokens();
    const target = await publish(bakery.id, 'After a password change');
    expect(target).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect(target.error.message).toContain('Session has expired');
    expect((await api('GET', `/social-accounts/${accounts.get(bakery.id)}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
  });

  it('needs the Instagram account reconnected when Meta refuses its token (code 190)', async () => {
    const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'refused.jpg', 'image/jpeg');
    const target = await publish(bakery.instagram!.id, 'After a password change', [photo]);
    expect(target, JSON.stringify(target)).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect(target.error.message).toContain('Session has expired');
    expect((await api('GET', `/social-accounts/${accounts.get(bakery.instagram!.id)}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
  });
});
