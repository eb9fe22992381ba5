// Connecting a Mastodon account end to end, and publishing to it: POST /v1/social-accounts/connect, its start link
// opened in the person's browser, the authorization at the instance (the Mastodon stand-in), GET /oauth/callback/mastodon, the account, a post
// published through the worker, and disconnecting.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';

let service: TestService;
let instance: MastodonStandIn;
let workspace: TestWorkspace;
let api: Api;

beforeAll(async () => {
  // A video is ready at the first look after its upload (which answers 202: processing).
  instance = await MastodonStandIn.start({ limits: { maxCharacters: 100 }, processingPolls: 0 });
  // The stand-in listens on 127.0.0.1 over http: the operator allows that host for people's network URLs.
  service = await startTestService({ NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
});

afterAll(async () => {
  await service?.stop();
  await instance?.stop();
});

const browser = () => new OAuthBrowser(service.url, service.services.config.publicBaseUrl);

/** Starts a connection, lets the instance authorize it, and follows the callback: the service's final redirect. */
async function connect(): Promise<URL> {
  const started = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: instance.url });
  expect(started.status).toBe(201);
  const person = browser();
  const authorization = await person.start(started.body.data.authorizationUrl);
  expect(authorization.origin + authorization.pathname).toBe(`${instance.url}/oauth/authorize`);
  const atInstance = await fetch(authorization, { redirect: 'manual' });
  expect(atInstance.status).toBe(302);
  const callback = await person.callback(atInstance.headers.get('location')!);
  expect(callback.status).toBe(302);
  return callback.location!;
}

describe('connecting a Mastodon account', () => {
  it('registers the app at the instance, authorizes with PKCE and connects the account', async () => {
    const started = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: instance.url });
    const authorization = await browser().start(started.body.data.authorizationUrl);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('scope')).toBe('read:accounts read:statuses write:media write:statuses');
    expect(instance.apps.get(authorization.searchParams.get('client_id')!)).toBeDefined();

    const back = await connect();
    const connectionId = back.searchParams.get('connectionId');
    expect(connectionId).toBeTruthy();
    const account = await api('GET', `/social-accounts/${connectionId}`);
    expect(account.body.data).toMatchObject({
      provider: 'mastodon',
      username: `alice@${new URL(instance.url).host}`,
      displayName: 'Alice',
      status: 'ACTIVE',
      needsReconnect: false,
    });
  });

  it('restores the same account when it is connected again', async () => {
    const first = (await connect()).searchParams.get('connectionId');
    const second = (await connect()).searchParams.get('connectionId');
    expect(second).toBe(first);
  });

  it('connects nothing when the person refuses at the instance', async () => {
    const before = await api('GET', '/social-accounts');
    instance.denyAuthorization = true;
    try {
      const back = await connect();
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('connectionId')).toBeNull();
    } finally {
      instance.denyAuthorization = false;
    }
    expect((await api('GET', '/social-accounts')).body.data).toHaveLength(before.body.data.length);
  });
});

describe('publishing to a connected Mastodon account', () => {
  it('publishes the post as a status with the target id as Idempotency-Key', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    const created = await api('POST', '/posts', {
      content: { caption: 'Hello, fediverse', mediaIds: [] },
      targets: [{ connectionId, placement: 'feed', settings: { visibility: 'unlisted' } }],
    });
    expect(created.status).toBe(201);
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    const [target] = post.targets;
    expect(target).toMatchObject({ status: 'published', remoteUrl: expect.stringContaining(`${instance.url}/@alice/`) });
    const status = instance.statuses.get(target.remoteId)!;
    expect(status).toMatchObject({ text: 'Hello, fediverse', visibility: 'unlisted', idempotencyKey: target.id });
  });
});

/** The access token of the account connected last, as the instance saw it when we asked who it was. */
function lastConnectedToken(): string {
  const identified = [...instance.requests].reverse().find((request) => request.path === '/api/v1/accounts/verify_credentials')!;
  return /^Bearer (.+)$/.exec(String(identified.headers.authorization))![1]!;
}

async function publishedTarget(connectionId: string | null, caption: string) {
  const created = await api('POST', '/posts', { content: { caption, mediaIds: [] }, targets: [{ connectionId, placement: 'feed' }] });
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

describe("the instance's refusals, through the worker", () => {
  it('retries after the rate limit resets and posts once', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    const before = instance.statuses.size;
    instance.rateLimitNext(1, 1000);
    const target = await publishedTarget(connectionId, 'Patience');
    expect(target).toMatchObject({ status: 'published' });
    expect(instance.statuses.size).toBe(before + 1);
  });

  it('fails a target the instance refuses with PROVIDER_REJECTED and its reason, without retrying', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    instance.failNext(1, 422, { error: 'Validation failed: Text contains a forbidden word' }, '/api/v1/statuses');
    const target = await publishedTarget(connectionId, 'Forbidden');
    expect(target).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_REJECTED', message: 'Validation failed: Text contains a forbidden word' } });
  });

  it('marks the account for reconnecting when the instance no longer accepts its token', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    instance.revokeToken(lastConnectedToken());
    const target = await publishedTarget(connectionId, 'Anyone there?');
    expect(target).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    const account = await api('GET', `/social-accounts/${connectionId}`);
    expect(account.body.data).toMatchObject({ status: 'NEEDS_RECONNECT', needsReconnect: true });
  });
});

/** An uploaded media file of the workspace, ready. */
async function uploadVideo(): Promise<string> {
  const bytes = await video(320, 240, 1);
  const started = await api('POST', '/media/uploads', { filename: 'clip.mp4', contentType: 'video/mp4', size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(service.services.config.publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

describe('publishing media the instance processes in the background', () => {
  it('keeps the target publishing until the instance has processed the video, then posts it with its alt text', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    const mediaId = await uploadVideo();
    expect((await api('PUT', `/media/${mediaId}/alt-text`, { altText: 'A test pattern' })).status).toBe(200);
    const created = await api('POST', '/posts', { content: { caption: 'A clip', mediaIds: [mediaId] }, targets: [{ connectionId, placement: 'feed' }] });
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    const status = instance.statuses.get(post.targets[0].remoteId)!;
    expect(status).toMatchObject({ text: 'A clip', visibility: 'public', idempotencyKey: post.targets[0].id });
    expect(status.mediaIds.map((id) => instance.media.get(id))).toEqual([
      expect.objectContaining({ type: 'video', description: 'A test pattern', ready: true }),
    ]);
    // The upload answered 202, and the status was posted only after a look at the processed file.
    const paths = instance.requests.map((request) => `${request.method} ${request.path}`);
    expect(paths.lastIndexOf(`GET /api/v1/media/${status.mediaIds[0]}`)).toBeGreaterThan(paths.lastIndexOf('POST /api/v2/media'));
  });
});

describe('disconnecting a Mastodon account', () => {
  it('revokes its token at the instance', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    const token = lastConnectedToken();
    const removed = await api('DELETE', `/social-accounts/${connectionId}`);
    expect(removed.status).toBeLessThan(300);
    expect(instance.isRevoked(token)).toBe(true);
  });
});
