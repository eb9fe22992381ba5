// Pinterest end to end against its stand-in (test/support/pinterest.ts): connecting, an image pin with alt text and
// a link, a carousel pin, video pins (registered, uploaded as S3's form, processed, then pinned) with a cover from
// the media library or a key frame, a pin without a board refused, Pinterest's throttling, refreshed and refused
// tokens, the look-up of an interrupted pin step, and pin analytics.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { PinterestStandIn } from '../support/pinterest.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { PinterestAdapter } from '../../src/providers/pinterest/adapter.ts';
import type { ProviderTokens, PublishRequest } from '../../src/providers/adapter.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/pinterest`;
const alice = { id: '549755885175', name: 'Alice Bakes', username: 'alicebakes', profileImageUrl: 'https://i.pinimg.com/alice.jpg' };
const board = { id: '549755885176', name: 'Recipes' };

let pinterest: PinterestStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let account: string;

beforeAll(async () => {
  pinterest = await PinterestStandIn.start([callback]);
  pinterest.signInAs(alice, [board, { id: '549755885177', name: 'Travel' }]);
  service = await startTestService({ PUBLIC_BASE_URL: publicBaseUrl, ...pinterest.env, NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  pinterest.mediaOrigin = { from: publicBaseUrl, to: service.url };
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await pinterest?.stop();
});

async function connect(): Promise<{ ids: string[]; authorization: URL }> {
  const started = await api('POST', '/social-accounts/connect', { provider: 'pinterest' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atPinterest = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atPinterest.headers.get('location')!);
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

async function createPost(caption: string, mediaIds: string[], settings: Record<string, unknown>) {
  return api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId: account, placement: 'pin', settings }] });
}

async function publish(caption: string, mediaIds: string[], settings: Record<string, unknown> = { boardId: board.id }) {
  const created = await createPost(caption, mediaIds, settings);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function storedTokens(connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}

describe('connecting Pinterest', () => {
  it('connects the person who authorizes as an active account, asking for comma-separated scopes and exchanging the code with HTTP Basic', async () => {
    const { ids, authorization } = await connect();
    expect(authorization.origin + authorization.pathname).toBe(`${pinterest.url}/oauth/`);
    expect(authorization.searchParams.get('scope')).toBe('boards:read,boards:write,pins:read,pins:write,user_accounts:read');
    const exchange = pinterest.oauth.requests.findLast((request) => request.path === '/v5/oauth/token')!;
    expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', redirect_uri: callback });
    expect(exchange.authorization).toMatch(/^Basic /);
    expect(ids).toHaveLength(1);
    account = ids[0]!;
    const connected = (await api('GET', `/social-accounts/${account}`)).body.data;
    expect(connected).toMatchObject({ provider: 'pinterest', username: 'alicebakes', displayName: 'Alice Bakes', status: 'ACTIVE' });
  });
});

describe('a grant without what pinning needs', () => {
  it('is refused at connect, naming the scope left out; no account is made', async () => {
    const before = (await api('GET', '/social-accounts?limit=100')).body.data.length;
    pinterest.oauth.grantable = ['boards:read', 'boards:write', 'pins:read', 'user_accounts:read'];
    try {
      const started = await api('POST', '/social-accounts/connect', { provider: 'pinterest' });
      const person = new OAuthBrowser(service.url, publicBaseUrl);
      const atPinterest = await fetch(await person.start(started.body.data.authorizationUrl), { redirect: 'manual' });
      const { location } = await person.callback(atPinterest.headers.get('location')!);
      expect(location!.searchParams.get('error')).toBe('invalid_request');
      expect(location!.searchParams.get('error_description')).toContain('Pinterest did not grant pins:write, which publishing needs');
    } finally {
      pinterest.oauth.grantable = undefined;
    }
    expect((await api('GET', '/social-accounts?limit=100')).body.data).toHaveLength(before);
  });
});

describe('pinning', () => {
  it('pins an image with its title, description, link and alt text, once, with its pin page', async () => {
    const file = await image('jpeg', 200, 300);
    const mediaId = await uploadMedia(file, 'cake.jpg', 'image/jpeg', 'A lemon cake on a plate');
    const before = pinterest.pins.size;
    const target = await publish('Lemon cake, the easy way', [mediaId], { boardId: board.id, title: 'Lemon cake', link: 'https://alice.example/cake' });
    expect(target).toMatchObject({ status: 'published', attempts: 1, remoteUrl: `https://www.pinterest.com/pin/${target.remoteId}/` });
    expect(pinterest.pins.size).toBe(before + 1);
    expect(pinterest.pins.get(target.remoteId)).toMatchObject({
      board_id: board.id,
      title: 'Lemon cake',
      description: 'Lemon cake, the easy way',
      link: 'https://alice.example/cake',
      alt_text: 'A lemon cake on a plate',
      media_source: { source_type: 'image_url' },
      images: [{ contentType: 'image/jpeg', sha256: sha256(file) }],
    });
  });

  it('pins several images as one carousel pin', async () => {
    const files = [await image('png', 100, 150), await image('jpeg', 100, 150), await image('png', 100, 150)];
    const mediaIds = [
      await uploadMedia(files[0]!, 'a.png', 'image/png'),
      await uploadMedia(files[1]!, 'b.jpg', 'image/jpeg'),
      await uploadMedia(files[2]!, 'c.png', 'image/png'),
    ];
    const target = await publish('Three steps', mediaIds, { boardId: board.id, link: 'https://alice.example/steps' });
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.pinterest.com/pin/${target.remoteId}/` });
    const pin = pinterest.pins.get(target.remoteId)!;
    expect(pin.media_source).toMatchObject({ source_type: 'multiple_image_urls', items: mediaIds.map(() => ({ link: 'https://alice.example/steps' })) });
    expect(pin.images.map((entry) => entry.sha256)).toEqual(files.map(sha256));
  });

  it('uploads a video as the form Pinterest handed out, waits while it is processed, and pins it with the cover coverMediaId names', async () => {
    const clip = await video(320, 480, 4);
    const cover = await image('jpeg', 320, 480);
    const [videoId, coverId] = [await uploadMedia(clip, 'clip.mp4', 'video/mp4'), await uploadMedia(cover, 'cover.jpg', 'image/jpeg')];
    pinterest.processingPolls = 1;
    const target = await publish('How it is made', [videoId], { boardId: board.id, coverMediaId: coverId });
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.pinterest.com/pin/${target.remoteId}/` });
    const pin = pinterest.pins.get(target.remoteId)!;
    expect(pin.video?.cover).toMatchObject({ contentType: 'image/jpeg', sha256: sha256(cover) });
    const media = pinterest.media.get(pin.video!.mediaId)!;
    expect(media).toMatchObject({ status: 'succeeded', uploads: 1, upload: { bytes: clip.length, sha256: sha256(clip), contentType: 'video/mp4' } });
    expect(Object.keys(media.upload!.fields)).toEqual(expect.arrayContaining(['key', 'policy', 'x-amz-signature', 'x-amz-credential', 'Content-Type']));
    // Asked while processing (the target waited for the status check), then succeeded, then pinned.
    const polls = pinterest.requests.filter((request) => request.path === `/v5/media/${media.id}`);
    expect(polls.length).toBe(2);
  });

  it('pins a video without coverMediaId with a key frame as its cover', async () => {
    const clip = await video(320, 480, 4);
    pinterest.processingPolls = 0;
    const target = await publish('Another clip', [await uploadMedia(clip, 'clip2.mp4', 'video/mp4')]);
    expect(target.status).toBe('published');
    expect(pinterest.pins.get(target.remoteId)!.video?.cover).toEqual({ keyFrameTime: 1 });
  });

  it("fails a Trial app's pin at once (Pinterest's code 29), saying to get Standard access or use the API Sandbox", async () => {
    const mediaId = await uploadMedia(await image('png', 100, 150), 'trial.png', 'image/png');
    pinterest.trialAccess = true;
    try {
      const target = await publish('Not in production', [mediaId]);
      expect(target).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: {
          code: 'PROVIDER_REJECTED',
          message: expect.stringMatching(/Trial access.*Standard access.*PINTEREST_API_BASE_URL=https:\/\/api-sandbox\.pinterest\.com/),
        },
      });
    } finally {
      pinterest.trialAccess = false;
    }
  });

  it('refuses a pin without a board when the post is made (422), before Pinterest is asked', async () => {
    const mediaId = await uploadMedia(await image('png', 100, 150), 'x.png', 'image/png');
    const calls = pinterest.requests.length;
    const refused = await createPost('Nowhere to go', [mediaId], {});
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('boardId');
    expect(pinterest.requests.length).toBe(calls);
  });
});

describe('throttling and tokens', () => {
  it("waits after Pinterest's throttling, which names no time, for 30 s or more", async () => {
    const before = pinterest.pins.size;
    pinterest.throttleNext = 1;
    const created = await createPost('Throttled', [await uploadMedia(await image('png', 100, 150), 't.png', 'image/png')], { boardId: board.id });
    const asked = Date.now();
    await api('POST', `/posts/${created.body.data.id}/publish`);
    let target: any;
    for (let i = 0; i < 100 && !target?.waitingUntil; i++, await sleep(100)) target = (await api('GET', `/posts/${created.body.data.id}`)).body.data.targets[0];
    expect(target).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(Date.parse(target.waitingUntil) - asked).toBeGreaterThanOrEqual(30_000);
    expect(Date.parse(target.waitingUntil) - asked).toBeLessThan(62_000);
    expect(pinterest.pins.size).toBe(before);
  });

  it('refreshes an expired token (keeping the rotated refresh token) and pins; a refused refresh leaves the account to reconnect', async () => {
    const mediaId = await uploadMedia(await image('png', 100, 150), 'r.png', 'image/png');
    const refreshes = () => pinterest.oauth.requests.filter((request) => request.form.grant_type === 'refresh_token');
    const before = refreshes().length;
    const oldRefreshToken = (await storedTokens(account)).refreshToken;
    pinterest.oauth.expireAccessTokens();
    expect((await publish('After a refresh', [mediaId])).status).toBe('published');
    expect(refreshes().length).toBe(before + 1);
    expect(refreshes().at(-1)).toMatchObject({
      form: { refresh_token: oldRefreshToken, continuous_refresh: 'true' },
      authorization: expect.stringMatching(/^Basic /),
    });
    const rotated = (await storedTokens(account)).refreshToken;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(oldRefreshToken);

    pinterest.oauth.expireAccessTokens();
    pinterest.oauth.revoked.add(rotated!);
    const refused = await publish('Not any more', [mediaId]);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect((await api('GET', `/social-accounts/${account}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
    account = (await connect()).ids[0]!;
  });
});

describe('the adapter on its own', () => {
  const adapter = () =>
    new PinterestAdapter({
      app: { clientId: pinterest.oauth.clientId, clientSecret: pinterest.oauth.clientSecret, apiBaseUrl: pinterest.url, authBaseUrl: pinterest.url },
      redirectUri: callback,
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });

  async function request(title: string, imageUrl: string): Promise<PublishRequest> {
    const tokens = await storedTokens(account);
    return {
      account: { id: account, provider: 'pinterest', username: alice.username, remoteId: alice.id, tokens },
      placement: 'pin',
      caption: 'Interrupted',
      media: [
        {
          id: 'm',
          kind: 'image',
          mimeType: 'image/png',
          size: 1,
          width: 1,
          height: 1,
          durationMs: null,
          altText: null,
          url: imageUrl,
          jpegUrl: imageUrl,
          open: async () => undefined as never,
        },
      ],
      thread: [],
      firstComment: null,
      settings: { boardId: board.id, title },
      idempotencyKey: crypto.randomUUID(),
      checkpoint: keptCheckpoint({ done: {}, started: 'pin' }),
      signal: new AbortController().signal,
    };
  }

  it('finds the pin an interrupted pin step made instead of pinning again, and pins when there is none', async () => {
    const existing = [...pinterest.pins.values()].find((pin) => pin.media_source.source_type === 'image_url')!;
    const imageUrl = existing.media_source.url as string;
    const made = await adapter().publish(await request(`Made once ${crypto.randomUUID()}`, imageUrl));
    expect(made.status).toBe('published');
    const before = pinterest.pins.size;
    const again = await adapter().publish(await request(pinterest.pins.get((made as any).item.remoteId)!.title!, imageUrl));
    expect(again).toEqual(made);
    expect(pinterest.pins.size).toBe(before);
  });

  it("reads a pin's impressions, saves, clicks and video views", async () => {
    const videoPin = [...pinterest.pins.values()].find((pin) => pin.video)!;
    const tokens = await storedTokens(account);
    const metrics = await adapter().metrics({ id: account, provider: 'pinterest', username: alice.username, remoteId: alice.id, tokens }, videoPin.id);
    expect(metrics).toEqual({ impressions: 120, saves: 7, clicks: 12, videoViews: 40 });
    const asked = new URL(pinterest.requests.findLast((call) => call.path.includes('/analytics'))!.path, pinterest.url).searchParams;
    expect(asked.get('metric_types')).toBe('IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,VIDEO_MRC_VIEW');
  });
});
