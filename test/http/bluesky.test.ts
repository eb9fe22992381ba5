// Bluesky against a real PDS (test/support/pds.ts): connecting with app passwords, publishing with facets, images,
// video and link cards, never twice for one target, sessions refreshed, errors as the worker needs them. Every
// published record is read back from the PDS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { BlueskyAdapter } from '../../src/providers/bluesky/adapter.ts';
import { ProviderError, type ConnectedAccount, type PublishRequest } from '../../src/providers/adapter.ts';
import { checkTarget } from '../../src/posts/validation.ts';
import { startPds, type PdsAccount, type TestPds } from '../support/pds.ts';
import { image, video } from '../support/mediaFiles.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { publishMedia } from '../support/publishMedia.ts';
import { startFlood } from '../support/endless.ts';

let pds: TestPds;
let alice: PdsAccount;
let bob: PdsAccount;
let account: ConnectedAccount;
let pages: Server;
let pagesUrl: string;
// The PDS is at localhost, the pages linked from posts at 127.0.0.1.
const adapter = new BlueskyAdapter({ allowedHosts: new Set(['localhost', '127.0.0.1']) });

beforeAll(async () => {
  pds = await startPds();
  [alice, bob] = await Promise.all([pds.createAccount('alice'), pds.createAccount('bob')]);
  const { identity, tokens } = await adapter.connector.connect({ identifier: alice.handle, appPassword: alice.appPassword, service: pds.url });
  account = { id: randomUUID(), provider: 'bluesky', username: identity.username, remoteId: identity.remoteId, tokens };
  pages = createServer((request, response) => {
    if (request.url === '/article') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<html><head><title>Fallback</title><meta property="og:title" content="Café &amp; Co&#8217;s opening">' +
          '<meta name="description" content="Plain description"><meta property="og:description" content="Fresh coffee from 8 am"></head><body></body></html>',
      );
    } else if (request.url === '/moved') {
      response.writeHead(301, { location: '/article' }).end();
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await new Promise((resolve) => pages?.close(resolve));
  await pds?.close();
});

function requestFor(caption: string, extra: Partial<PublishRequest> = {}): PublishRequest {
  return {
    account,
    placement: 'feed',
    caption,
    media: [],
    thread: [],
    firstComment: null,
    settings: {},
    idempotencyKey: randomUUID(),
    checkpoint: keptCheckpoint(),
    signal: new AbortController().signal,
    ...extra,
  };
}

async function recordOf(remoteId: string) {
  const [, , repo, collection, rkey] = remoteId.split('/');
  const { data } = await alice.agent.com.atproto.repo.getRecord({ repo: repo!, collection: collection!, rkey: rkey! });
  return data.value as Record<string, any>;
}

async function publish(request: PublishRequest) {
  const outcome = await adapter.publish(request);
  if (outcome.status !== 'published') throw new Error('expected a published outcome');
  return outcome.item;
}

const byteOffset = (text: string, part: string) => {
  const start = Buffer.byteLength(text.slice(0, text.indexOf(part)));
  return { byteStart: start, byteEnd: start + Buffer.byteLength(part) };
};

async function postCount(): Promise<number> {
  const { data } = await alice.agent.com.atproto.repo.listRecords({ repo: alice.did, collection: 'app.bsky.feed.post', limit: 100 });
  return data.records.length;
}

describe('connecting a Bluesky account', () => {
  it('signs in with an app password and keeps the session, the DID and the PDS as the tokens', () => {
    expect(account.remoteId).toBe(alice.did);
    expect(account.username).toBe('alice.test');
    expect(account.tokens).toMatchObject({ extra: { did: alice.did, handle: 'alice.test', pdsUrl: pds.url, service: pds.url } });
    expect(account.tokens!.accessToken).toMatch(/^ey/);
    expect(account.tokens!.refreshToken).toMatch(/^ey/);
    expect(Date.parse(account.tokens!.expiresAt!)).toBeGreaterThan(Date.now());
  });

  it('refuses a wrong app password with the PDS reason', async () => {
    const refusal = await adapter.connector.connect({ identifier: alice.handle, appPassword: 'aaaa-bbbb-cccc-dddd', service: pds.url }).catch((error) => error);
    expect(refusal).toBeInstanceOf(ProviderError);
    expect(refusal).toMatchObject({ code: 'CREDENTIALS_REJECTED', transient: false, message: 'Invalid identifier or password' });
  });

  it('refuses the account password: only app passwords are kept', async () => {
    const refusal = await adapter.connector.connect({ identifier: alice.handle, appPassword: alice.password, service: pds.url }).catch((error) => error);
    expect(refusal).toMatchObject({ code: 'CREDENTIALS_REJECTED' });
    expect(refusal.message).toContain('app password');
  });

  it('says the PDS is unavailable when nothing answers at the service URL', async () => {
    const refusal = await adapter.connector
      .connect({ identifier: alice.handle, appPassword: alice.appPassword, service: 'http://127.0.0.1:9' })
      .catch((error) => error);
    expect(refusal).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
  });

  it('refuses a service answering without end once its answer passes NETWORK_ANSWER_MAX_BYTES, reading no more', async () => {
    const flood = await startFlood();
    try {
      const service = flood.url;
      const refusal = await adapter.connector.connect({ identifier: alice.handle, appPassword: alice.appPassword, service }).catch((error) => error);
      expect(refusal).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: false });
      expect(refusal.message).toContain('Bluesky answered with more than 4,194,304 bytes');
      const sent = await flood.sentWhenClosed();
      expect(sent).toBeGreaterThan(4 * 1024 * 1024);
      expect(sent).toBeLessThan(12 * 1024 * 1024 * flood.answered);
    } finally {
      await flood.stop();
    }
  });
});

describe('publishing a post', () => {
  it('writes the text with link, mention and hashtag facets at UTF-8 byte offsets', async () => {
    const link = `${pagesUrl}/article`;
    const caption = `Grüße 👋🏽 an @bob.test und @nobody.test! Neu: ${link} #Café`;
    const item = await publish(requestFor(caption, { settings: { langs: ['de'], contentLabels: [] } }));
    const record = await recordOf(item.remoteId);
    expect(record.text).toBe(caption);
    expect(record.langs).toEqual(['de']);
    const features = record.facets.map((facet: any) => ({ ...facet.index, feature: facet.features[0] }));
    expect(features).toEqual([
      { ...byteOffset(caption, '@bob.test'), feature: { $type: 'app.bsky.richtext.facet#mention', did: bob.did } },
      { ...byteOffset(caption, link), feature: { $type: 'app.bsky.richtext.facet#link', uri: link } },
      { ...byteOffset(caption, '#Café'), feature: { $type: 'app.bsky.richtext.facet#tag', tag: 'Café' } },
    ]);
    // A handle that does not resolve stays plain text.
    expect(JSON.stringify(record.facets)).not.toContain('nobody');
  });

  it('answers with the record as the remote id and its bsky.app address', async () => {
    const item = await publish(requestFor('Hello from the service'));
    const rkey = item.remoteId.split('/').pop();
    expect(item.remoteId).toMatch(new RegExp(`^at://${alice.did}/app\\.bsky\\.feed\\.post/[2-7a-z]{13}$`));
    expect(item.remoteUrl).toBe(`https://bsky.app/profile/alice.test/post/${rkey}`);
    expect((await recordOf(item.remoteId)).createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('puts the content warnings chosen in the settings on the post as self-labels', async () => {
    const item = await publish(requestFor('Battle scene from the film', { settings: { langs: [], contentLabels: ['graphic-media'] } }));
    expect((await recordOf(item.remoteId)).labels).toEqual({ $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'graphic-media' }] });
  });

  it('attaches 4 images with their alt text and aspect ratios', async () => {
    const sizes = [
      [640, 480],
      [480, 640],
      [800, 800],
      [1200, 300],
    ] as const;
    const media = await Promise.all(
      sizes.map(async ([width, height], index) =>
        publishMedia(await image('png', width, height), { kind: 'image', mimeType: 'image/png', width, height, altText: `Picture ${index + 1}` }),
      ),
    );
    const record = await recordOf((await publish(requestFor('Four pictures', { media }))).remoteId);
    expect(record.embed.$type).toBe('app.bsky.embed.images');
    expect(record.embed.images.map((entry: any) => ({ alt: entry.alt, aspectRatio: entry.aspectRatio, mimeType: entry.image.mimeType }))).toEqual(
      sizes.map(([width, height], index) => ({ alt: `Picture ${index + 1}`, aspectRatio: { width, height }, mimeType: 'image/png' })),
    );
  });

  it('re-encodes an image over the blob limit to fit under it, keeping its shape', async () => {
    const noisy = await sharp(randomBytes(1200 * 900 * 3), { raw: { width: 1200, height: 900, channels: 3 } })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(1_000_000);
    const media = [publishMedia(noisy, { kind: 'image', mimeType: 'image/png', width: 1200, height: 900, altText: 'Static' })];
    const record = await recordOf((await publish(requestFor('A heavy picture', { media }))).remoteId);
    const [entry] = record.embed.images;
    expect(entry.image.mimeType).toBe('image/jpeg');
    expect(entry.image.size).toBeLessThanOrEqual(1_000_000);
    expect(entry.aspectRatio.width / entry.aspectRatio.height).toBeCloseTo(1200 / 900, 2);
    expect(entry.alt).toBe('Static');
  });

  it('uploads a video to the PDS and embeds it with its alt text and aspect ratio', async () => {
    const clip = await video(320, 240, 1);
    const media = [publishMedia(clip, { kind: 'video', mimeType: 'video/mp4', width: 320, height: 240, durationMs: 1000, altText: 'A test pattern' })];
    const record = await recordOf((await publish(requestFor('A short clip', { media }))).remoteId);
    expect(record.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'A test pattern',
      aspectRatio: { width: 320, height: 240 },
      video: { mimeType: 'video/mp4', size: clip.length },
    });
  });

  it('adds a link card with the page title and description when a post has a link and no media', async () => {
    const record = await recordOf((await publish(requestFor(`We open today: ${pagesUrl}/moved`))).remoteId);
    expect(record.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: `${pagesUrl}/moved`, title: 'Café & Co’s opening', description: 'Fresh coffee from 8 am' },
    });
  });

  it('still adds a card, with the URL only, when the page cannot be read', async () => {
    const record = await recordOf((await publish(requestFor(`Gone: ${pagesUrl}/missing`))).remoteId);
    expect(record.embed.external).toEqual({ uri: `${pagesUrl}/missing`, title: `${pagesUrl}/missing`, description: '' });
  });

  it('does not fetch pages on private addresses the operator has not allowed', async () => {
    const guarded = new BlueskyAdapter({ allowedHosts: new Set(['localhost']) });
    const outcome = await guarded.publish(requestFor(`Internal: ${pagesUrl}/article`));
    if (outcome.status !== 'published') throw new Error('expected a published outcome');
    expect((await recordOf(outcome.item.remoteId)).embed.external).toEqual({ uri: `${pagesUrl}/article`, title: `${pagesUrl}/article`, description: '' });
  });

  it('does not reach a PDS on a private address the operator has not allowed, whatever its DNS answers later', async () => {
    const guarded = new BlueskyAdapter({ allowedHosts: new Set() });
    const refusal = await guarded.publish(requestFor('Hello')).catch((error) => error);
    expect(refusal).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: false });
    expect(refusal.message).toMatch(
      /^Bluesky: The host localhost resolves to (127\.0\.0\.1|::1), which is not a public address\. The operator can allow the host in NETWORK_ALLOWED_HOSTS\.$/,
    );
  });

  it('passes the PDS refusal of content on as PROVIDER_REJECTED with its reason', async () => {
    // Our own check refuses this earlier (next test); the PDS applies the same lexicon limit.
    const refusal = await adapter.publish(requestFor('x'.repeat(301))).catch((error) => error);
    expect(refusal).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false });
    expect(refusal.message).toContain('grapheme');
  });
});

describe('the 300-grapheme limit', () => {
  const check = (caption: string) => checkTarget({ provider: 'bluesky', accountStatus: 'ACTIVE', placement: 'feed', caption, media: [] });

  it('refuses a caption over 300 graphemes before anything reaches Bluesky', () => {
    expect(check('a'.repeat(301))).toEqual([expect.objectContaining({ rule: 'caption.maxLength', params: { length: 301, limit: 300, unit: 'graphemes' } })]);
  });

  it('counts an emoji made of several code points as one grapheme, as Bluesky does', async () => {
    const family = '👨‍👩‍👧‍👦'.repeat(100);
    expect(check(family)).toEqual([]);
    const item = await publish(requestFor(family));
    expect((await recordOf(item.remoteId)).text).toBe(family);
  });
});

describe('never a second post for one target', () => {
  it('finds nothing before the first attempt, and the post after it', async () => {
    const request = requestFor('Found again');
    expect(await adapter.findPublished(request)).toBeNull();
    const item = await publish(request);
    expect(await adapter.findPublished(request)).toEqual(item);
  });

  it('writes one record when an attempt is repeated after it reached the PDS', async () => {
    const request = requestFor('Only once, whatever happens');
    const before = await postCount();
    const first = await publish(request);
    // A worker that died before recording the first answer tries again, with a later caption edit even.
    const again = await publish({ ...request, caption: 'Only once, whatever happens (edited)' });
    expect(again).toEqual(first);
    expect(await postCount()).toBe(before + 1);
    expect((await recordOf(first.remoteId)).text).toBe('Only once, whatever happens');
  });
});

describe('sessions and token errors', () => {
  it('refreshes the session: new tokens that publish, the old refresh token spent', async () => {
    const tokens = await adapter.refresh({ ...account });
    expect(tokens.accessToken).not.toBe(account.tokens!.accessToken);
    expect(tokens.refreshToken).not.toBe(account.tokens!.refreshToken);
    expect(tokens.extra).toEqual(account.tokens!.extra);
    const refreshed = { ...account, tokens };
    const item = await publish({ ...requestFor('After a refresh'), account: refreshed });
    expect((await recordOf(item.remoteId)).text).toBe('After a refresh');
    account = refreshed;
  });

  it('reports a refused access token as tokenRejected, so the worker refreshes once', async () => {
    const broken = { ...account, tokens: { ...account.tokens!, accessToken: `${account.tokens!.accessToken}x` } };
    const refusal = await adapter.publish({ ...requestFor('With a bad token'), account: broken }).catch((error) => error);
    expect(refusal).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', tokenRejected: true, transient: false });
  });

  it('reports a revoked session as needing a reconnect when refreshing', async () => {
    const { tokens } = await adapter.connector.connect({ identifier: bob.handle, appPassword: bob.appPassword, service: pds.url });
    const bobAccount = { id: randomUUID(), provider: 'bluesky', username: bob.handle, remoteId: bob.did, tokens };
    await adapter.revoke(bobAccount);
    const refusal = await adapter.refresh(bobAccount).catch((error) => error);
    expect(refusal).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false });
  });
});

describe('metrics', () => {
  it('reads zeros where no AppView counts likes, replies, reposts and quotes, once the post is found', async () => {
    const item = await publish(requestFor('Count me'));
    expect(await adapter.metrics(account, item.remoteId)).toEqual({ likes: 0, comments: 0, shares: 0 });
  });
});

describe('through the API', () => {
  let service: TestService;
  let api: Api;
  let carol: PdsAccount;

  beforeAll(async () => {
    carol = await pds.createAccount('carol');
    service = await startTestService({ NETWORK_ALLOWED_HOSTS: 'localhost,127.0.0.1' });
    const workspace = await createWorkspace(service.services);
    const { apiKey } = await keyFor(service.services, workspace.workspaceId, workspace.ownerId, {
      scopes: ['posts:read', 'posts:write', 'accounts:read', 'accounts:write'],
    });
    api = apiFor(service.url, apiKey);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('refuses a wrong app password with 422 details on appPassword, and keeps nothing', async () => {
    const answer = await api('POST', '/social-accounts', {
      provider: 'bluesky',
      identifier: carol.handle,
      appPassword: 'wxyz-wxyz-wxyz-wxyz',
      service: pds.url,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'appPassword' })] });
    expect((await api('GET', '/social-accounts')).body.data).toEqual([]);
  });

  it('connects with an app password and publishes a post the PDS then holds, facets and link card included', async () => {
    const connected = await api('POST', '/social-accounts', {
      provider: 'bluesky',
      identifier: carol.handle,
      appPassword: carol.appPassword,
      service: pds.url,
    });
    expect(connected.status).toBe(201);
    expect(connected.body.data).toMatchObject({ provider: 'bluesky', username: 'carol.test', status: 'ACTIVE' });
    const caption = `Hi @alice.test, read ${pagesUrl}/article #news`;
    const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: connected.body.data.id, placement: 'feed' }] });
    expect(created.status).toBe(201);
    expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
    const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    expect(post.status).toBe('published');
    const [target] = post.targets;
    const rkey = target.remoteUrl.split('/').pop();
    expect(target.remoteUrl).toBe(`https://bsky.app/profile/carol.test/post/${rkey}`);
    const { data } = await carol.agent.com.atproto.repo.getRecord({ repo: carol.did, collection: 'app.bsky.feed.post', rkey });
    const record = data.value as Record<string, any>;
    expect(record.text).toBe(caption);
    expect(record.facets.map((facet: any) => facet.features[0].$type)).toEqual([
      'app.bsky.richtext.facet#mention',
      'app.bsky.richtext.facet#link',
      'app.bsky.richtext.facet#tag',
    ]);
    expect(record.embed.external.title).toBe('Café & Co’s opening');
  });

  it('refuses a post over 300 graphemes for a Bluesky account before it is saved', async () => {
    const [account] = (await api('GET', '/social-accounts')).body.data;
    const answer = await api('POST', '/posts', { content: { caption: 'é'.repeat(301) }, targets: [{ connectionId: account.id, placement: 'feed' }] });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([expect.objectContaining({ field: 'targets[0].caption', code: 'caption.maxLength' })]);
  });
});

describe('a PDS that rate-limits', () => {
  let limited: TestPds;
  let frank: PdsAccount;

  beforeAll(async () => {
    limited = await startPds({ rateLimits: true });
    frank = await limited.createAccount('frank');
  }, 180_000);
  afterAll(async () => {
    await limited?.close();
  });

  it('is RATE_LIMITED_BY_PROVIDER, to be retried when its RateLimit-Reset says', async () => {
    // The PDS allows 30 sign-ins per identifier in 5 minutes.
    const attempts = await Promise.all(
      Array.from({ length: 31 }, () =>
        adapter.connector.connect({ identifier: frank.handle, appPassword: 'wrong-wrong-wrong-wrong', service: limited.url }).catch((error) => error),
      ),
    );
    const limitedAnswer = attempts.find((error) => error.code === 'RATE_LIMITED_BY_PROVIDER');
    expect(limitedAnswer).toMatchObject({ transient: true });
    expect(limitedAnswer.retryAfterMs).toBeGreaterThan(0);
    expect(limitedAnswer.retryAfterMs).toBeLessThanOrEqual(5 * 60_000);
  });
});
