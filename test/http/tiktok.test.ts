// TikTok end to end against its stand-in (test/support/tiktok.ts): connecting a creator through Login Kit
// (`client_key`, comma-separated scopes), a video by chunked FILE_UPLOAD and by PULL_FROM_URL, photos pulled from
// signed URLs, creator_info deciding the privacy level and the interaction switches, the settings TikTok's Content
// Sharing Guidelines require (a privacy level chosen for each post, interactions off by default, the commercial
// content disclosure), a video longer than the creator's maximum refused before it is sent, the per-minute init
// quota spacing seven videos, TikTok's 429 and FAILED, and a refused token refreshed once, then NEEDS_RECONNECT.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { TikTokStandIn } from '../support/tiktok.ts';
import type { NetworkUser } from '../support/oauthNetwork.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/tiktok`;
const creator: NetworkUser = {
  id: '-000OkPQZ9rQvD2Cz7hLgqgR',
  name: 'Mara Quill',
  username: 'maraquill',
  profileImageUrl: 'https://p16.tiktokcdn.example/mara.jpeg',
};

let tiktok: TikTokStandIn;
const running: TestService[] = [];

interface Connected {
  service: TestService;
  api: Api;
  connectionId: string;
  authorization: URL;
}

async function startService(env: Record<string, string> = {}): Promise<{ service: TestService; api: Api }> {
  const service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    TIKTOK_CLIENT_ID: tiktok.oauth.clientId,
    TIKTOK_CLIENT_SECRET: tiktok.oauth.clientSecret,
    TIKTOK_API_BASE_URL: tiktok.url,
    TIKTOK_AUTH_BASE_URL: tiktok.url,
    // Upload URLs are TikTok's word: they pass the SSRF guard only for hosts the operator allows.
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    ...env,
  });
  running.push(service);
  const workspace = await createWorkspace(service.services);
  // TikTok fetches the signed URLs at the public base URL, which is this service.
  tiktok.mediaOrigin = { from: publicBaseUrl, to: service.url };
  return { service, api: apiFor(service.url, workspace.ownerKey) };
}

async function connect(service: TestService, api: Api, user: NetworkUser): Promise<{ connectionId: string; authorization: URL }> {
  tiktok.signInAs(user);
  const started = await api('POST', '/social-accounts/connect', { provider: 'tiktok' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atTikTok = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atTikTok.headers.get('location')!);
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

/** The privacy level chosen when a test names none (TikTok's guidelines give none by default). */
const everyone = { privacyLevel: 'PUBLIC_TO_EVERYONE' };

async function createPost(
  api: Api,
  connectionId: string,
  caption: string,
  mediaIds: string[],
  placement = 'video',
  settings: Record<string, unknown> = everyone,
) {
  const created = await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId, placement, settings }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return created.body.data.id as string;
}

async function publish(...args: Parameters<typeof createPost>) {
  const id = await createPost(...args);
  return (await waitForPost(args[0], id, ['published', 'failed'], 60_000)).targets[0];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const lastPublish = () => [...tiktok.publishes.values()].at(-1)!;

beforeAll(async () => {
  tiktok = await TikTokStandIn.start([callback]);
  tiktok.processingPolls = 0;
  tiktok.verifiedPrefixes = [`${publicBaseUrl}/`];
}, 60_000);

afterAll(async () => {
  for (const service of running) await service.stop();
  await tiktok?.stop();
});

describe('TikTok', () => {
  let main: Connected;
  let clip: Buffer;
  let clipId: string;

  beforeAll(async () => {
    // The tests of this block publish more than TikTok's 6 a minute between them, as an app TikTok granted more
    // would; the seven-videos test keeps 6.
    tiktok.initsPerMinute = 100;
    const { service, api } = await startService({ TIKTOK_INITS_PER_MINUTE: '100' });
    main = { service, api, ...(await connect(service, api, creator)) };
    clip = await video(320, 240, 3);
    clipId = await uploadMedia(api, service, clip, 'clip.mp4', 'video/mp4');
  }, 120_000);

  it('connects the creator through Login Kit: client_key, comma-separated scopes, the secret in the form, open_id as the account', async () => {
    const { authorization } = main;
    expect(authorization.origin + authorization.pathname).toBe(`${tiktok.url}/v2/auth/authorize/`);
    expect(authorization.searchParams.get('client_key')).toBe(tiktok.oauth.clientId);
    expect(authorization.searchParams.get('scope')).toBe('user.info.basic,video.publish,video.upload');
    expect(authorization.searchParams.has('code_challenge')).toBe(false);
    const exchange = tiktok.oauth.requests.findLast((request) => request.path === '/v2/oauth/token/')!;
    expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', client_key: tiktok.oauth.clientId, client_secret: tiktok.oauth.clientSecret });
    const account = (await main.api('GET', `/social-accounts/${main.connectionId}`)).body.data;
    expect(account).toMatchObject({ provider: 'tiktok', username: 'maraquill', displayName: 'Mara Quill', status: 'ACTIVE' });
    const { rows } = await main.service.services.db.pool.query('SELECT remote_id FROM social_account WHERE id = $1', [main.connectionId]);
    expect(rows[0].remote_id).toBe(creator.id);
  });

  it('publishes a video once by chunked upload, with its 19-digit post id to the last digit and its permalink', async () => {
    const before = tiktok.publishes.size;
    const target = await publish(main.api, main.connectionId, 'Low tide at the harbour #sea', [clipId]);
    expect(tiktok.publishes.size).toBe(before + 1);
    const made = lastPublish();
    expect(target).toMatchObject({
      status: 'published',
      attempts: 1,
      remoteId: made.postId,
      remoteUrl: `https://www.tiktok.com/@maraquill/video/${made.postId}`,
    });
    expect(made.postId).toMatch(/^\d{19}$/);
    expect(made).toMatchObject({
      kind: 'video',
      sha256: sha256(clip),
      bytesReceived: clip.length,
      contentRanges: [`bytes 0-${clip.length - 1}/${clip.length}`],
      sourceInfo: { source: 'FILE_UPLOAD', video_size: clip.length, chunk_size: clip.length, total_chunk_count: 1 },
      // The privacy level chosen; comments, duets and stitches off and no commercial content, as the settings' defaults.
      postInfo: {
        title: 'Low tide at the harbour #sea',
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: true,
        disable_duet: true,
        disable_stitch: true,
        brand_organic_toggle: false,
        brand_content_toggle: false,
      },
    });
  });

  it('publishes photos pulled from signed URLs, titled by the caption’s first line', async () => {
    const jpeg = await image('jpeg', 640, 480);
    const webp = await image('webp', 480, 640);
    const ids = [
      await uploadMedia(main.api, main.service, jpeg, 'a.jpg', 'image/jpeg'),
      await uploadMedia(main.api, main.service, webp, 'b.webp', 'image/webp'),
    ];
    const caption = 'Market morning\nFigs, bread and the first cherries.';
    const target = await publish(main.api, main.connectionId, caption, ids, 'photo', { privacyLevel: 'SELF_ONLY', allowComments: true });
    const made = lastPublish();
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.tiktok.com/@maraquill/photo/${made.postId}` });
    expect(made.fetched.map(({ contentType, sha256: hash }) => ({ contentType, hash }))).toEqual([
      { contentType: 'image/jpeg', hash: sha256(jpeg) },
      { contentType: 'image/webp', hash: sha256(webp) },
    ]);
    expect(made.postInfo).toMatchObject({ title: 'Market morning', description: caption, privacy_level: 'SELF_ONLY', disable_comment: false });
    expect((made.sourceInfo.photo_images as string[]).every((url) => url.startsWith(`${publicBaseUrl}/`))).toBe(true);
  });

  it('refuses a privacy level the creator does not offer, naming the allowed ones, before any init', async () => {
    tiktok.creators.get(creator.id)!.privacyLevels = ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
    try {
      const inits = tiktok.inits.length;
      const target = await publish(main.api, main.connectionId, 'Everyone should see this', [clipId], 'video', { privacyLevel: 'PUBLIC_TO_EVERYONE' });
      expect(target).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('allowed: FOLLOWER_OF_CREATOR, SELF_ONLY') },
      });
      expect(tiktok.inits.length).toBe(inits);
      const forFollowers = await publish(main.api, main.connectionId, 'For followers', [clipId], 'video', { privacyLevel: 'FOLLOWER_OF_CREATOR' });
      expect(forFollowers).toMatchObject({ status: 'published' });
      expect(lastPublish().postInfo.privacy_level).toBe('FOLLOWER_OF_CREATOR');
    } finally {
      tiktok.creators.get(creator.id)!.privacyLevels = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
    }
  });

  it('keeps off the comments and duets the creator turned off, whatever the settings allow', async () => {
    const options = tiktok.creators.get(creator.id)!;
    options.commentDisabled = true;
    options.duetDisabled = true;
    try {
      const target = await publish(main.api, main.connectionId, 'Quiet one', [clipId], 'video', {
        ...everyone,
        allowComments: true,
        allowDuet: true,
        allowStitch: false,
      });
      expect(target.status).toBe('published');
      expect(lastPublish().postInfo).toMatchObject({ disable_comment: true, disable_duet: true, disable_stitch: true });
    } finally {
      options.commentDisabled = false;
      options.duetDisabled = false;
    }
  });

  it('refuses a target without a chosen privacy level, and branded content made private, when the post is made (422 on settings.privacyLevel)', async () => {
    const calls = tiktok.requests.length;
    for (const settings of [{}, { privacyLevel: 'SELF_ONLY', brandedContent: true }]) {
      const refused = await main.api('POST', '/posts', {
        content: { caption: 'Whose is it?', mediaIds: [clipId] },
        targets: [{ connectionId: main.connectionId, placement: 'video', settings }],
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'targets[0].settings.privacyLevel' })]);
    }
    expect(tiktok.requests.length).toBe(calls);
  });

  it('sends the commercial content disclosure the person chose, and the interactions they turned on', async () => {
    const settings = { privacyLevel: 'MUTUAL_FOLLOW_FRIENDS', allowComments: true, allowStitch: true, yourBrand: true, brandedContent: true };
    expect(await publish(main.api, main.connectionId, 'Made with our own flour #bakery', [clipId], 'video', settings)).toMatchObject({ status: 'published' });
    expect(lastPublish().postInfo).toMatchObject({
      privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
      disable_comment: false,
      disable_duet: true,
      disable_stitch: false,
      brand_organic_toggle: true,
      brand_content_toggle: true,
    });
  });

  it("refuses a video longer than the creator's own maximum before any init or upload, naming the limit", async () => {
    const long = await video(160, 120, 61);
    const longId = await uploadMedia(main.api, main.service, long, 'long.mp4', 'video/mp4');
    const options = tiktok.creators.get(creator.id)!;
    options.maxVideoSeconds = 60;
    try {
      const inits = tiktok.inits.length;
      const target = await publish(main.api, main.connectionId, 'The whole walk', [longId]);
      expect(target).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: { code: 'PROVIDER_REJECTED', message: expect.stringMatching(/at most 60 seconds.*lasts 61 seconds/) },
      });
      expect(tiktok.inits.length).toBe(inits);
      // A creator allowed 3 minutes posts the same video.
      options.maxVideoSeconds = 180;
      expect(await publish(main.api, main.connectionId, 'The whole walk', [longId])).toMatchObject({ status: 'published' });
    } finally {
      options.maxVideoSeconds = 600;
    }
  }, 90_000);

  it('waits for the status check while TikTok processes, and fails with TikTok’s fail_reason', async () => {
    tiktok.processingPolls = 1;
    try {
      const id = await createPost(main.api, main.connectionId, 'Processed later', [clipId]);
      const published = (await waitForPost(main.api, id, ['published', 'failed'], 60_000)).targets[0];
      expect(published).toMatchObject({ status: 'published', attempts: 1 });
      // Asked once in the publish, once by the status check; init and upload not again.
      const made = [...tiktok.publishes.values()].find((candidate) => candidate.postId === published.remoteId)!;
      expect(made.statusPolls).toBe(2);
      expect(made.contentRanges.length).toBe(1);
    } finally {
      tiktok.processingPolls = 0;
    }
    tiktok.failNext = 'file_format_check_failed';
    const failed = await publish(main.api, main.connectionId, 'Broken', [clipId]);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('file_format_check_failed') } });
  }, 90_000);

  it('backs off after a 429 that says nothing of when to come back, posting nothing twice', async () => {
    const before = tiktok.publishes.size;
    tiktok.throttleNext = 1;
    const id = await createPost(main.api, main.connectionId, 'Throttled', [clipId]);
    // It may wait for its init window first; then TikTok throttles it.
    let throttled: any;
    for (let i = 0; i < 300 && throttled?.error?.code !== 'RATE_LIMITED_BY_PROVIDER'; i++, await sleep(100))
      throttled = (await main.api('GET', `/posts/${id}`)).body.data.targets[0];
    const seenAt = Date.now();
    expect(throttled).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(Date.parse(throttled.waitingUntil) - seenAt).toBeGreaterThanOrEqual(29_000);
    expect(Date.parse(throttled.waitingUntil) - seenAt).toBeLessThan(46_000);
    expect(tiktok.publishes.size).toBe(before);
    // The wait's end brought forward (as the clock would): the job tries again and posts once.
    await main.service.services.db.pool.query(
      `UPDATE pgboss.job SET start_after = now() WHERE name = 'publish-target' AND state = 'created' AND data->>'targetId' = $1`,
      [throttled.id],
    );
    const published = (await waitForPost(main.api, id, ['published', 'failed'], 30_000)).targets[0];
    expect(published).toMatchObject({ status: 'published', attempts: 2 });
    expect(tiktok.publishes.size).toBe(before + 1);
  });

  it('refreshes a refused token once (the rotated refresh token kept) and publishes; a refused refresh leaves the account to reconnect', async () => {
    const refreshes = () => tiktok.oauth.requests.filter((request) => request.form.grant_type === 'refresh_token');
    const before = refreshes().length;
    const oldRefresh = (await storedTokens(main, main.connectionId)).refreshToken;
    tiktok.oauth.expireAccessTokens();
    expect((await publish(main.api, main.connectionId, 'After a refresh', [clipId])).status).toBe('published');
    expect(refreshes().length).toBe(before + 1);
    expect(refreshes().at(-1)!.form).toMatchObject({ client_key: tiktok.oauth.clientId, client_secret: tiktok.oauth.clientSecret });
    const rotated = (await storedTokens(main, main.connectionId)).refreshToken;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(oldRefresh);

    tiktok.oauth.expireAccessTokens();
    tiktok.oauth.revoked.add(rotated!);
    const refused = await publish(main.api, main.connectionId, 'Not any more', [clipId]);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect(refreshes().length).toBe(before + 2);
    expect((await main.api('GET', `/social-accounts/${main.connectionId}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
  });
});

describe('TikTok with TIKTOK_PULL_FROM_URL', () => {
  it('lets TikTok fetch the video from its signed URL instead of uploading it', async () => {
    const { service, api } = await startService({ TIKTOK_PULL_FROM_URL: 'true' });
    const { connectionId } = await connect(service, api, { id: 'pull-creator', name: 'Pia Pull', username: 'piapull' });
    const clip = await video(320, 240, 3);
    const target = await publish(api, connectionId, 'Pulled', [await uploadMedia(api, service, clip, 'clip.mp4', 'video/mp4')]);
    const made = lastPublish();
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.tiktok.com/@piapull/video/${made.postId}` });
    expect(made.sourceInfo).toMatchObject({ source: 'PULL_FROM_URL', video_url: expect.stringMatching(`^${publicBaseUrl}/`) });
    expect(made.fetched[0]!.sha256).toBe(sha256(clip));
    expect(made.contentRanges).toEqual([]);
  }, 120_000);
});

describe('TikTok’s 6 inits a minute', () => {
  it('spaces seven videos published at once so that no sliding minute holds more than six inits, and all go out', async () => {
    tiktok.initsPerMinute = 6;
    const { service, api } = await startService();
    const { connectionId } = await connect(service, api, { id: 'busy-creator', name: 'Bo Busy', username: 'bobusy' });
    const mediaId = await uploadMedia(api, service, await video(320, 240, 3), 'clip.mp4', 'video/mp4');
    const ids = await Promise.all(Array.from({ length: 7 }, (_, index) => createPost(api, connectionId, `Batch video ${index + 1}`, [mediaId])));
    const waits = new Set<string>();
    const finals: any[] = [];
    let broughtForward = false;
    for (let i = 0; i < 600 && finals.length < 7; i++, await sleep(100)) {
      const targets = await Promise.all(ids.map(async (id) => (await api('GET', `/posts/${id}`)).body.data.targets[0]));
      const waiting = targets.filter((candidate) => candidate.waitingUntil);
      for (const target of waiting) {
        expect(target).toMatchObject({ status: 'pending', waitingReason: expect.stringContaining('TikTok post initializations') });
        waits.add(target.waitingUntil);
      }
      finals.splice(0, finals.length, ...targets.filter((target) => target.status === 'published' || target.status === 'failed'));
      if (!broughtForward && finals.length === 6 && waiting.length === 1) {
        // The minute brought forward (as the clock would), at the service and at TikTok alike: the six inits were a
        // minute and a bucket ago, and the waiting target's job is due now.
        broughtForward = true;
        await service.services.db.pool.query(
          `UPDATE network_quota_usage SET window_start = window_start - interval '65 seconds' WHERE network = 'tiktok' AND scope = $1`,
          [connectionId],
        );
        for (const init of tiktok.inits.filter((init) => init.openId === 'busy-creator')) init.at -= 65_000;
        await service.services.db.pool.query(
          `UPDATE pgboss.job SET start_after = now() WHERE name = 'publish-target' AND state = 'created' AND data->>'targetId' = $1`,
          [waiting[0].id],
        );
      }
    }
    expect(broughtForward).toBe(true);
    expect(finals.map((target) => target.status)).toEqual(Array(7).fill('published'));
    // Six went out at once; the seventh waited (at 5-s buckets of the minute) until the minute had room.
    expect(waits.size).toBeGreaterThanOrEqual(1);
    for (const until of waits) expect(Date.parse(until) % 5_000).toBe(0);
    const inits = tiktok.inits.filter((init) => init.openId === 'busy-creator').map((init) => init.at);
    expect(inits).toHaveLength(7);
    for (const at of inits) expect(inits.filter((other) => other <= at && at - other < 60_000).length).toBeLessThanOrEqual(6);
    expect(tiktok.refusedInits.filter((openId) => openId === 'busy-creator')).toEqual([]);
  }, 120_000);
});

async function storedTokens({ service }: Connected, connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}
