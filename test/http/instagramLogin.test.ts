// Instagram with Instagram Login end to end against the Meta stand-in's www./api./graph.instagram.com
// (test/support/meta.ts): connecting a professional account without a Facebook Page (Business Login, the code
// exchange in either of its shapes, the long-lived exchange at once, the account's kind), publishing an image with alt
// text, a carousel, a reel and a story with a first comment at graph.instagram.com through the same containers as
// Facebook Login's accounts, refusals by Instagram's rules, a refused token, Meta's throttling waited, and the refresh
// well before day 60.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { connectByOAuth, connectRefusal } from '../support/oauthConnect.ts';
import { MetaStandIn, type MetaPage } from '../support/meta.ts';
import { crashPublicBaseUrl as publicBaseUrl, uploadMedia as uploaded } from '../support/crashTests.ts';
import { openTokens } from '../../src/accounts/socialAccounts.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';

const dayMs = 86_400_000;
const scopes = 'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments';
const pageAccount: MetaPage = {
  id: '1201',
  name: 'Moreau Café',
  username: 'moreaucafe',
  instagram: { id: '17841402', username: 'moreau.cafe', name: 'Moreau Café' },
};

let meta: MetaStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let connectionId: string;

/** Both ways of connecting Instagram set up, at the one stand-in. */
const instagramLoginEnv = () => ({
  PUBLIC_BASE_URL: publicBaseUrl,
  INSTAGRAM_CLIENT_ID: meta.instagramClientId,
  INSTAGRAM_CLIENT_SECRET: meta.instagramClientSecret,
  INSTAGRAM_API_BASE_URL: meta.instagramUrl,
  INSTAGRAM_AUTH_BASE_URL: meta.instagramUrl,
  INSTAGRAM_TOKEN_BASE_URL: meta.instagramUrl,
});

beforeAll(async () => {
  meta = await MetaStandIn.start({ redirectUris: [`${publicBaseUrl}/oauth/callback/instagram`], processingReads: 1 });
  meta.signInAs({ id: '10158', name: 'Alice Moreau' }, [pageAccount]);
  service = await startTestService({
    ...instagramLoginEnv(),
    FACEBOOK_CLIENT_ID: meta.clientId,
    FACEBOOK_CLIENT_SECRET: meta.clientSecret,
    FACEBOOK_API_BASE_URL: meta.url,
    FACEBOOK_AUTH_BASE_URL: meta.url,
  });
  meta.mediaOrigin = { from: publicBaseUrl, to: service.url };
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await meta?.stop();
});

async function storedTokens(id = connectionId): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [id]);
  return openTokens(service.services.secrets, { encryptedTokens: rows[0].encrypted_tokens })!;
}

/** A file in the media library, processed, with its alt text. */
async function uploadMedia(bytes: Buffer, filename: string, contentType: string, altText?: string): Promise<string> {
  const id = await uploaded(api, service.url, { bytes, filename, contentType });
  if (altText) expect((await api('PUT', `/media/${id}/alt-text`, { altText })).status).toBe(200);
  return id;
}

interface Target {
  placement?: string;
  settings?: Record<string, unknown>;
  connection?: string;
}

const postBody = (caption: string, mediaIds: string[], { placement = 'feed', settings = {}, connection = connectionId }: Target = {}) => ({
  content: { caption, mediaIds },
  targets: [{ connectionId: connection, placement, settings }],
});

async function create(caption: string, mediaIds: string[], target: Target = {}) {
  const created = await api('POST', '/posts', postBody(caption, mediaIds, target));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return created.body.data.id as string;
}

async function publish(caption: string, mediaIds: string[], target: Target = {}) {
  return (await waitForPost(api, await create(caption, mediaIds, target), ['published', 'failed'], 60_000)).targets[0];
}

async function targetWhen(postId: string, ready: (target: any) => boolean) {
  let target: any;
  for (let i = 0; i < 200 && !ready(target); i++, await sleep(100)) target = (await api('GET', `/posts/${postId}`)).body.data.targets[0];
  return target;
}

const containerOf = (remoteId: string) => meta.containers.get(meta.igMedia.get(remoteId)!.container)!;
const userId = () => meta.instagramAccount.userId;

describe('connecting an Instagram account with Instagram Login', () => {
  it('authorizes at Instagram, exchanges the code (the reference’s data[] answer) and at once for a long-lived token, and reads the account', async () => {
    const started = await api('POST', '/social-accounts/connect', { provider: 'instagram', method: 'instagram_login' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const person = new OAuthBrowser(service.url, publicBaseUrl);
    const authorization = await person.start(started.body.data.authorizationUrl);
    expect(authorization.origin + authorization.pathname).toBe(`${meta.instagramUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('scope')).toBe(scopes);
    expect(authorization.searchParams.get('client_id')).toBe(meta.instagramClientId);
    const back = await person.callback((await fetch(authorization, { redirect: 'manual' })).headers.get('location')!);
    expect(back.status).toBe(302);
    const connected = back.location!.searchParams.getAll('connectionId');
    expect(connected).toHaveLength(1);
    connectionId = connected[0]!;

    const code = meta.requests.find((request) => request.path === '/instagram/oauth/access_token')!;
    expect(code).toMatchObject({
      method: 'POST',
      params: { client_id: meta.instagramClientId, client_secret: meta.instagramClientSecret, grant_type: 'authorization_code' },
    });
    const exchange = meta.requests.find((request) => request.path === '/instagram/access_token')!;
    expect(exchange).toMatchObject({ method: 'GET', params: { grant_type: 'ig_exchange_token', client_secret: meta.instagramClientSecret } });

    const account = (await api('GET', `/social-accounts/${connectionId}`)).body.data;
    expect(account).toMatchObject({
      provider: 'instagram',
      connectionMethod: 'instagram_login',
      username: 'moreau.bakery',
      displayName: 'Moreau Bakery',
      status: 'ACTIVE',
    });
    // Publishing is called with the professional account's id (`user_id`), not the app-scoped `id`.
    const { rows } = await service.services.db.pool.query('SELECT remote_id FROM social_account WHERE id = $1', [connectionId]);
    expect(rows[0].remote_id).toBe(userId());
    const tokens = await storedTokens();
    // What was granted, from the answer's `permissions`, is kept with the tokens.
    expect(tokens.scope).toBe(scopes);
    // Due for its refresh around day 50: well before the 60 days Instagram gives, and an expired token is lost.
    const dueInDays = (Date.parse(tokens.expiresAt!) - Date.now()) / dayMs;
    expect(dueInDays).toBeGreaterThan(49);
    expect(dueInDays).toBeLessThan(51);
    // The GraphQL view says the same kind.
    const graph = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ socialAccounts { edges { node { id connectionMethod } } } }' }),
    });
    const nodes = ((await graph.json()) as any).data.socialAccounts.edges.map((edge: any) => edge.node);
    expect(nodes).toContainEqual({ id: connectionId, connectionMethod: 'instagram_login' });
  });

  it('reconnects the same account from the flat answer (user_id a number beyond 2^53, permissions an array), never a duplicate', async () => {
    meta.instagramTokenAnswer = 'flat';
    try {
      expect(await connectByOAuth(service, publicBaseUrl, api, 'instagram', { method: 'instagram_login' })).toBe(connectionId);
    } finally {
      meta.instagramTokenAnswer = 'data';
    }
    expect((await storedTokens()).scope).toBe(scopes);
    const { rows } = await service.services.db.pool.query("SELECT count(*)::int AS n FROM social_account WHERE provider = 'instagram'");
    expect(rows[0].n).toBe(1);
  });

  it('refuses a grant without content publishing, connecting nothing', async () => {
    meta.instagramDeclinedPermissions = ['instagram_business_content_publish'];
    try {
      const reason = await connectRefusal(service, publicBaseUrl, api, 'instagram', { method: 'instagram_login' });
      expect(reason).toContain('instagram_business_content_publish');
    } finally {
      meta.instagramDeclinedPermissions = [];
    }
  });

  it('keeps Facebook Login the default, and says which kind each account is', async () => {
    await connectByOAuth(service, publicBaseUrl, api, 'instagram');
    // Facebook Login's dialog, reaching the Page and the Instagram account linked to it.
    expect(meta.requests.some((request) => request.path === '/dialog/oauth')).toBe(true);
    const { rows } = await service.services.db.pool.query("SELECT id FROM social_account WHERE provider = 'instagram' AND remote_id = $1", [
      pageAccount.instagram!.id,
    ]);
    expect(rows).toHaveLength(1);
    expect((await api('GET', `/social-accounts/${rows[0].id}`)).body.data).toMatchObject({ connectionMethod: 'facebook_login' });
    expect((await api('GET', `/social-accounts/${connectionId}`)).body.data).toMatchObject({ connectionMethod: 'instagram_login' });
  });

  it('refuses a way Instagram does not offer (400 on method) and a method for a network with one way', async () => {
    const unknown = await api('POST', '/social-accounts/connect', { provider: 'instagram', method: 'basic_display' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'method', code: 'enum' })]);
    expect(unknown.body.error.details[0].message).toContain('facebook_login, instagram_login');
    const elsewhere = await api('POST', '/social-accounts/connect', { provider: 'mastodon', method: 'instagram_login' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.details).toEqual([expect.objectContaining({ field: 'method', code: 'notOffered' })]);
  });
});

describe('an installation with Instagram Login only', () => {
  it('connects with Instagram Login by default and answers 409 PROVIDER_NOT_CONFIGURED, naming Facebook’s settings, for facebook_login', async () => {
    const only = await startTestService(instagramLoginEnv());
    try {
      const owner = await createWorkspace(only.services);
      const onlyApi = apiFor(only.url, owner.ownerKey);
      const refused = await onlyApi('POST', '/social-accounts/connect', { provider: 'instagram', method: 'facebook_login' });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
      expect(refused.body.error.message).toContain('FACEBOOK_CLIENT_ID and FACEBOOK_CLIENT_SECRET');
      const started = await onlyApi('POST', '/social-accounts/connect', { provider: 'instagram' });
      expect(started.status).toBe(201);
      const authorization = await new OAuthBrowser(only.url, publicBaseUrl).start(started.body.data.authorizationUrl);
      expect(authorization.origin + authorization.pathname).toBe(`${meta.instagramUrl}/oauth/authorize`);
    } finally {
      await only.stop();
    }
  });
});

describe('publishing with Instagram Login', () => {
  it('publishes an image with alt text, a carousel, a reel and a story at graph.instagram.com with the account’s token, each once', async () => {
    const [photo, png, reelClip, clip] = await Promise.all([
      uploadMedia(await image('jpeg', 1080, 1080), 'loaf.jpg', 'image/jpeg', 'A sourdough loaf'),
      uploadMedia(await image('png', 1080, 1080), 'tray.png', 'image/png', 'Croissants on a tray'),
      uploadMedia(await video(360, 640, 3), 'kneading.mp4', 'video/mp4'),
      uploadMedia(await video(320, 320, 3), 'oven.mp4', 'video/mp4'),
    ]);
    const calls = meta.requests.length;
    const [single, carousel, reel, story] = await Promise.all([
      publish('Fresh bread', [photo], { settings: { firstComment: 'Open until 6 pm' } }),
      publish('This morning', [photo, png, clip]),
      publish('How we knead', [reelClip], { placement: 'reel', settings: { shareToFeed: false } }),
      publish('Today only', [png], { placement: 'story' }),
    ]);
    for (const target of [single, carousel, reel, story]) {
      expect(target, JSON.stringify(target)).toMatchObject({ status: 'published', attempts: 1 });
      expect(target.remoteUrl).toBe(meta.igMedia.get(target.remoteId)!.permalink);
      expect(meta.igMedia.get(target.remoteId)!.user).toBe(userId());
    }
    expect(containerOf(single.remoteId).params).toMatchObject({ caption: 'Fresh bread', alt_text: 'A sourdough loaf' });
    // The PNG went as its JPEG rendition: Instagram takes JPEG only.
    const items = containerOf(carousel.remoteId)
      .params.children!.split(',')
      .map((id) => meta.containers.get(id)!);
    expect(items.map((item) => item.params.is_carousel_item)).toEqual(['true', 'true', 'true']);
    expect(items[1]!.params).toMatchObject({ alt_text: 'Croissants on a tray' });
    expect(items[1]!.media!.contentType).toBe('image/jpeg');
    expect(items[2]!.params).toMatchObject({ media_type: 'VIDEO' });
    expect(containerOf(reel.remoteId).params).toMatchObject({ media_type: 'REELS', share_to_feed: 'false', caption: 'How we knead' });
    expect(containerOf(story.remoteId).params).toMatchObject({ media_type: 'STORIES' });
    // The first comment, by the account, on the published image.
    expect(single.firstComment).toMatchObject({ remoteUrl: single.remoteUrl });
    expect(meta.comments.get(single.firstComment.remoteId)).toMatchObject({ on: single.remoteId, from: userId(), message: 'Open until 6 pm' });
    // Every call of these publishes went to graph.instagram.com, none to graph.facebook.com, with the account's own token.
    const made = meta.requests.slice(calls);
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((request) => request.path.startsWith(`/instagram/${meta.version}/`))).toBe(true);
    const token = (await storedTokens()).accessToken;
    expect(made.every((request) => request.authorization === `Bearer ${token}`)).toBe(true);
    expect(meta.earlyPublishes).toBe(0);
  }, 90_000);

  it('refuses, when the post is saved, what Instagram’s rules do not take: a caption alone, two files in a story', async () => {
    const [photo, other] = await Promise.all([
      uploadMedia(await image('jpeg', 1080, 1080), 'one.jpg', 'image/jpeg'),
      uploadMedia(await image('jpeg', 1080, 1350), 'two.jpg', 'image/jpeg'),
    ]);
    const alone = await api('POST', '/posts', postBody('Just words', []));
    expect(alone.status).toBe(422);
    expect(alone.body.error).toMatchObject({ code: 'PROVIDER_VALIDATION_FAILED' });
    expect(alone.body.error.details).toContainEqual(expect.objectContaining({ field: 'targets[0].mediaIds' }));
    const twoInStory = await api('POST', '/posts', postBody('Two', [photo, other], { placement: 'story' }));
    expect(twoInStory.status).toBe(422);
    expect(twoInStory.body.error.details.some((detail: { field: string }) => detail.field.startsWith('targets[0]'))).toBe(true);
  });
});

describe('Instagram Login refusing and throttling', () => {
  it('waits as long as Meta’s usage header says when graph.instagram.com throttles (code 4), then publishes once', async () => {
    const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'busy.jpg', 'image/jpeg');
    const before = meta.igMedia.size;
    meta.throttle = { code: 4, minutes: 2, calls: 1 };
    const asked = Date.now();
    const id = await create('Throttled', [photo]);
    const target = await targetWhen(id, (candidate) => Boolean(candidate?.waitingUntil) && candidate.error);
    expect(target).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(Date.parse(target.waitingUntil) - asked).toBeGreaterThanOrEqual(120_000 - 1_000);
    expect(Date.parse(target.waitingUntil) - asked).toBeLessThan(125_000);
    // The wait's end brought forward (as the clock would): the job tries again and posts once.
    await service.services.db.pool.query(
      `UPDATE pgboss.job SET start_after = now() WHERE name = 'publish-target' AND state = 'created' AND data->>'targetId' = $1`,
      [target.id],
    );
    const published = (await waitForPost(api, id, ['published', 'failed'], 30_000)).targets[0];
    expect(published).toMatchObject({ status: 'published', attempts: 2 });
    expect(meta.igMedia.size).toBe(before + 1);
  });

  it('refreshes the long-lived token with ig_refresh_token when it comes due, and publishes with the new one', async () => {
    const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'later.jpg', 'image/jpeg');
    const before = await storedTokens();
    // Day 50: the refresh job finds the token due (it is over 24 hours old, as Instagram requires).
    meta.instagramClockAheadMs = 50 * dayMs;
    await service.services.db.pool.query("UPDATE social_account SET token_expires_at = now() + interval '1 minute' WHERE id = $1", [connectionId]);
    expect(await service.services.tokens.refreshExpiring()).toBe(1);
    const refresh = meta.requests.findLast((request) => request.path === '/instagram/refresh_access_token')!;
    expect(refresh.params).toEqual({ grant_type: 'ig_refresh_token', access_token: before.accessToken });
    const after = await storedTokens();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.extra).toEqual({ method: 'instagram_login' });
    expect(Date.parse(after.expiresAt!) - Date.now()).toBeGreaterThan(49 * dayMs);
    // Day 61: the first token has expired, the refreshed one publishes.
    meta.instagramClockAheadMs = 61 * dayMs;
    expect(await publish('Still baking', [photo])).toMatchObject({ status: 'published' });
  }, 60_000);

  it('needs the account reconnected when Meta refuses its token (190), after one refused refresh', async () => {
    const photo = await uploadMedia(await image('jpeg', 1080, 1080), 'gone.jpg', 'image/jpeg');
    meta.expireAllTokens();
    const refreshes = meta.requests.filter((request) => request.path === '/instagram/refresh_access_token').length;
    const target = await publish('After a password change', [photo]);
    expect(target).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect(target.error.message).toContain('Session has expired');
    expect(meta.requests.filter((request) => request.path === '/instagram/refresh_access_token')).toHaveLength(refreshes + 1);
    expect((await api('GET', `/social-accounts/${connectionId}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT', needsReconnect: true });
  });
});
