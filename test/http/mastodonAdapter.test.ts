// The Mastodon adapter against the Mastodon stand-in (test/support/mastodon.ts), with its app registrations in a
// real database: connecting, the instance's limits, publishing with media and alt text, async media processing,
// the Idempotency-Key, and how each of the instance's refusals reaches the worker.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/crypto/secretBox.ts';
import { connectDatabase, type Database } from '../../src/db/database.ts';
import { ProviderError, type ConnectedAccount, type PublishMedia, type PublishRequest } from '../../src/providers/adapter.ts';
import { mastodonHttp } from '../../src/providers/mastodon/api.ts';
import { MastodonAdapter } from '../../src/providers/mastodon/adapter.ts';
import { mastodonRules } from '../../src/providers/mastodon/network.ts';
import { freePort } from '../../src/net.ts';
import { createTestDatabase } from '../support/database.ts';
import { idempotencyWindowMs, MastodonStandIn } from '../support/mastodon.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';

const redirectUri = 'https://publisher.example/oauth/callback/mastodon';
let db: Database;
let instance: MastodonStandIn;
let adapter: MastodonAdapter;

beforeAll(async () => {
  db = connectDatabase(await createTestDatabase(), { max: 4 });
  instance = await MastodonStandIn.start({ limits: { maxCharacters: 120, maxMediaAttachments: 2, descriptionLimit: 50 }, processingPolls: 1 });
  adapter = new MastodonAdapter({
    db,
    secrets: new SecretBox(randomBytes(32)),
    publicBaseUrl: 'https://publisher.example',
    http: mastodonHttp({ allowedHosts: new Set(['127.0.0.1']), retryDelayMs: 10 }),
    mediaCheckAfterMs: 1000,
  });
});

afterAll(async () => {
  await instance?.stop();
  await db?.close();
});

function accountWith(accessToken: string, extra: Record<string, string> = {}): ConnectedAccount {
  return { id: 'account-1', provider: 'mastodon', username: 'alice', remoteId: null, tokens: { accessToken, extra: { instanceUrl: instance.url, ...extra } } };
}

function image(altText: string | null = null, mimeType = 'image/png'): PublishMedia {
  const bytes = randomBytes(256);
  return {
    id: 'media-1',
    kind: 'image',
    mimeType,
    size: bytes.length,
    width: 10,
    height: 10,
    durationMs: null,
    altText,
    url: 'https://publisher.example/m/1',
    jpegUrl: 'https://publisher.example/m/1',
    open: async () => Readable.from([bytes]),
  };
}

function video(): PublishMedia {
  return { ...image(), id: 'media-2', kind: 'video', mimeType: 'video/mp4', durationMs: 3000 };
}

function publishRequest(account: ConnectedAccount, overrides: Partial<PublishRequest> = {}): PublishRequest {
  return {
    account,
    placement: 'feed',
    caption: 'Hello from the tests',
    media: [],
    thread: [],
    firstComment: null,
    settings: {},
    idempotencyKey: crypto.randomUUID(),
    checkpoint: keptCheckpoint(),
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const connector = () => {
  if (adapter.connector.method !== 'oauth2') throw new Error('Mastodon connects through OAuth');
  return adapter.connector;
};

/** What the shared OAuth flow does with `prepare`'s answer: the authorization at the instance, then the code exchange. */
async function authorizeAtInstance(): Promise<string> {
  const { client, server } = await connector().prepare({ redirectUri, instanceUrl: instance.url });
  const authorize = new URL(server.authorizationEndpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: server.scopes.join(' '),
    state: 's',
  }).toString();
  const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
  const token = await fetch(server.tokenEndpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri }),
  });
  return ((await token.json()) as { access_token: string }).access_token;
}

describe('connecting a Mastodon account', () => {
  it('registers one app per instance, keeps it and reuses it', async () => {
    const registrations = () => instance.requests.filter((request) => request.path === '/api/v1/apps').length;
    const before = registrations();
    const first = await connector().prepare({ redirectUri, instanceUrl: `${instance.url}/some/page` });
    const second = await connector().prepare({ redirectUri, instanceUrl: instance.url });
    expect(registrations()).toBe(before + 1);
    expect(second.client).toEqual(first.client);
    expect(instance.apps.get(first.client.clientId)).toMatchObject({
      name: 'Social Publishing Service',
      redirectUris: [redirectUri],
      scopes: ['read:accounts', 'read:statuses', 'write:media', 'write:statuses'],
    });
    const stored = await db.prisma.mastodonApp.findFirstOrThrow({ where: { instanceUrl: instance.url } });
    expect(stored.encryptedClientSecret).not.toContain(first.client.clientSecret!);
  });

  it('uses PKCE on instances that announce it (4.3+), and the documented paths on older ones, which take the redirect URI only as a string', async () => {
    const { server } = await connector().prepare({ redirectUri, instanceUrl: instance.url });
    expect(server).toMatchObject({
      authorizationEndpoint: `${instance.url}/oauth/authorize`,
      tokenEndpoint: `${instance.url}/oauth/token`,
      revocationEndpoint: `${instance.url}/oauth/revoke`,
      pkce: true,
    });
    const older = await MastodonStandIn.start({ pkce: false });
    try {
      const prepared = await connector().prepare({ redirectUri, instanceUrl: older.url });
      expect(prepared.server).toMatchObject({ authorizationEndpoint: `${older.url}/oauth/authorize`, tokenEndpoint: `${older.url}/oauth/token`, pkce: false });
      expect(older.apps.get(prepared.client.clientId)?.redirectUris).toEqual([redirectUri]);
    } finally {
      await older.stop();
    }
  });

  it('names the account by its full address and keeps the instance and app with the tokens', async () => {
    const accessToken = await authorizeAtInstance();
    const [connected] = await connector().identities({ accessToken }, { redirectUri, instanceUrl: instance.url });
    const host = new URL(instance.url).host;
    expect(connected!.identity).toEqual({
      remoteId: `${instance.signedIn.id}@${host}`,
      username: `alice@${host}`,
      displayName: 'Alice',
      avatarUrl: expect.stringContaining(instance.url),
    });
    expect(connected!.tokens).toMatchObject({ accessToken, extra: { instanceUrl: instance.url, clientId: expect.any(String) } });
  });

  it('requires an instance', async () => {
    await expect(connector().prepare({ redirectUri })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'instanceUrl', code: 'required' }],
    });
  });

  it('revokes the tokens at the instance with the app that obtained them', async () => {
    const accessToken = await authorizeAtInstance();
    const [connected] = await connector().identities({ accessToken }, { redirectUri, instanceUrl: instance.url });
    await adapter.revoke({ ...accountWith(accessToken), tokens: connected!.tokens });
    expect(instance.isRevoked(accessToken)).toBe(true);
  });
});

describe("the instance's limits", () => {
  it("checks posts against the instance's own limits", async () => {
    const rules = await adapter.rulesFor(accountWith(instance.issueToken()));
    expect(rules.placements[0]!.caption.maxLength).toBe(120);
    expect(rules.placements[0]!.media.max).toBe(2);
    expect(rules.altText).toEqual({ maxLength: 50 });
    expect(rules.image).toMatchObject({ maxBytes: 16 * 1024 * 1024, formats: ['jpeg', 'png', 'webp'] });
    expect(rules.video).toMatchObject({ maxBytes: 99 * 1024 * 1024, formats: ['mp4', 'mov', 'webm'] });
    expect(rules.notes[0]).toBe('This instance allows 120 characters; each link counts as 23.');
  });

  it('reads them once per instance while they are fresh', async () => {
    const reads = () => instance.requests.filter((request) => request.path === '/api/v2/instance').length;
    await adapter.rulesFor(accountWith(instance.issueToken()));
    const before = reads();
    await Promise.all([adapter.rulesFor(accountWith('a')), adapter.rulesFor(accountWith('b'))]);
    expect(reads()).toBe(before);
  });

  it('falls back to the defaults when the instance cannot be read', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const rules = await adapter.rulesFor({ ...accountWith('x'), tokens: { accessToken: 'x', extra: { instanceUrl: nowhere } } });
    expect(rules).toBe(mastodonRules);
  });
});

describe('publishing to Mastodon', () => {
  it('posts the caption with images and their alt text, the settings, and the target id as Idempotency-Key', async () => {
    const request = publishRequest(accountWith(instance.issueToken()), {
      caption: 'Look at this',
      media: [image('A red square'), image(null, 'image/jpeg')],
      settings: { visibility: 'unlisted', spoilerText: 'Squares' },
    });
    const outcome = await adapter.publish(request);
    expect(outcome).toMatchObject({
      status: 'published',
      item: { remoteId: expect.any(String), remoteUrl: expect.stringContaining(`${instance.url}/@alice/`) },
    });
    const remoteId = outcome.status === 'published' ? outcome.item.remoteId : '';
    const status = instance.statuses.get(remoteId)!;
    expect(status).toMatchObject({ text: 'Look at this', visibility: 'unlisted', spoilerText: 'Squares', idempotencyKey: request.idempotencyKey });
    expect(status.mediaIds.map((id) => instance.media.get(id)!.description)).toEqual(['A red square', null]);
  });

  it('posts public without a content warning by default', async () => {
    const outcome = await adapter.publish(publishRequest(accountWith(instance.issueToken())));
    const remoteId = outcome.status === 'published' ? outcome.item.remoteId : '';
    expect(instance.statuses.get(remoteId)).toMatchObject({ visibility: 'public', spoilerText: '' });
  });

  it('waits for media the instance is still processing, then resumes and posts without uploading again', async () => {
    const request = publishRequest(accountWith(instance.issueToken()), { media: [video()] });
    const outcome = await adapter.publish(request);
    expect(outcome).toMatchObject({ status: 'processing', checkAfterMs: 1000 });
    const posted = instance.statuses.size;
    const uploads = instance.media.size;
    // The status check resumes the publish from its checkpoint: the first look finds the file still processing
    // (206); the next finds it ready and posts. Nothing is uploaded again.
    expect(await adapter.publish(request)).toMatchObject({ status: 'processing' });
    expect(instance.statuses.size).toBe(posted);
    const done = await adapter.publish(request);
    expect(done).toMatchObject({ status: 'published' });
    expect(instance.media.size).toBe(uploads);
    const remoteId = done.status === 'published' ? done.item.remoteId : '';
    const uploaded = request.checkpoint.saved?.done['media:0'] as { id: string };
    expect(instance.statuses.get(remoteId)!.mediaIds).toEqual([uploaded.id]);
  });

  it('creates one status however often an attempt is repeated with the same key', async () => {
    const account = accountWith(instance.issueToken());
    const request = publishRequest(account);
    const before = instance.statusesOf().length;
    const first = await adapter.publish(request);
    const again = await adapter.publish(request);
    expect(again).toEqual(first);
    expect(instance.statusesOf().length).toBe(before + 1);
    expect(adapter.duplicates).toBe('idempotency-key');
  });

  it("is protected by the key only within Mastodon's 1-hour window (the documented limit)", async () => {
    const request = publishRequest(accountWith(instance.issueToken()));
    const first = await adapter.publish(request);
    // A recorded status is never sent again; one an attempt sent without recording its answer only the key can tell.
    expect(await adapter.publish(request)).toEqual(first);
    const interrupted = () => ({ ...request, checkpoint: keptCheckpoint({ done: {}, started: 'status' }) });
    expect(await adapter.publish(interrupted())).toEqual(first);
    instance.clockOffsetMs = idempotencyWindowMs;
    try {
      expect(await adapter.publish(interrupted())).not.toEqual(first);
    } finally {
      instance.clockOffsetMs = 0;
    }
  });

  it('re-sends a post after a transient failure without duplicating it', async () => {
    const request = publishRequest(accountWith(instance.issueToken()));
    const before = instance.statusesOf().length;
    instance.failNext(1, 503, { error: 'Service Unavailable' }, '/api/v1/statuses');
    expect(await adapter.publish(request)).toMatchObject({ status: 'published' });
    expect(instance.statusesOf().length).toBe(before + 1);
  });

  it("fails content the instance refuses with PROVIDER_REJECTED and the instance's reason", async () => {
    const tooLong = await providerError(adapter.publish(publishRequest(accountWith(instance.issueToken()), { caption: 'x'.repeat(121) })));
    expect(tooLong).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false, message: 'Validation failed: Text character limit of 120 exceeded' });
    const badFile = await providerError(adapter.publish(publishRequest(accountWith(instance.issueToken()), { media: [image(null, 'image/tiff')] })));
    expect(badFile).toMatchObject({ code: 'PROVIDER_REJECTED', message: 'Validation failed: File content type is invalid, File is invalid' });
  });

  it('reports a token revoked at the instance as refused, so the account needs reconnecting', async () => {
    const token = instance.issueToken();
    instance.revokeToken(token);
    const error = await providerError(adapter.publish(publishRequest(accountWith(token))));
    expect(error).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', tokenRejected: true, transient: false, message: 'The access token is invalid' });
  });

  it("reports the instance's rate limit with the wait until its reset, and publishes once it has passed", async () => {
    const request = publishRequest(accountWith(instance.issueToken()));
    instance.rateLimitNext(1, 300);
    const error = await providerError(adapter.publish(request));
    expect(error).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true, message: 'Too many requests' });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs));
    expect(await adapter.publish(request)).toMatchObject({ status: 'published' });
  });

  it("treats an answer that is not Mastodon's (no status id) as a transient failure", async () => {
    instance.failNext(1, 200, { message: 'maintenance page' }, '/api/v1/statuses');
    const error = await providerError(adapter.publish(publishRequest(accountWith(instance.issueToken()))));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true, message: "Mastodon answered without the status's id." });
  });

  it('needs the account to be connected', async () => {
    const error = await providerError(adapter.publish(publishRequest({ ...accountWith('x'), tokens: null })));
    expect(error).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false });
  });

  it('refuses an instance whose address is not public when publishing too, by address and by name (the SSRF guard)', async () => {
    const guarded = new MastodonAdapter({
      db,
      secrets: new SecretBox(randomBytes(32)),
      publicBaseUrl: 'https://publisher.example',
      http: mastodonHttp({ allowedHosts: new Set(), retryDelayMs: 10 }),
    });
    const seen = instance.requests.length;
    const byAddress = await providerError(guarded.publish(publishRequest(accountWith(instance.issueToken()))));
    expect(byAddress).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      transient: false,
      message: 'Mastodon: The host 127.0.0.1 resolves to 127.0.0.1, which is not a public address. The operator can allow the host in NETWORK_ALLOWED_HOSTS.',
    });
    const byName = accountWith(instance.issueToken(), { instanceUrl: instance.url.replace('127.0.0.1', 'localhost') });
    const error = await providerError(guarded.publish(publishRequest(byName)));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: false });
    expect(error.message).toMatch(
      /^Mastodon: The host localhost resolves to (127\.0\.0\.1|::1), which is not a public address\. The operator can allow the host in NETWORK_ALLOWED_HOSTS\.$/,
    );
    expect(instance.requests.length).toBe(seen);
  });
});

describe('Mastodon metrics', () => {
  it("reads a status's favourites, reblogs and replies", async () => {
    const account = accountWith(instance.issueToken());
    const outcome = await adapter.publish(publishRequest(account));
    const remoteId = outcome.status === 'published' ? outcome.item.remoteId : '';
    Object.assign(instance.statuses.get(remoteId)!, { favourites: 12, reblogs: 3, replies: 5 });
    expect(await adapter.metrics(account, remoteId)).toEqual({ likes: 12, shares: 3, comments: 5 });
  });
});

describe('threads and first comments on Mastodon', () => {
  const part = (caption: string, media: PublishMedia[] = []) => ({ caption, media });

  it('posts each part once as a reply to the part before (in_reply_to_id), then the first comment to the last part', async () => {
    const request = publishRequest(accountWith(instance.issueToken()), {
      caption: 'Thread 1/3',
      thread: [part('Thread 2/3', [image('A red square')]), part('Thread 3/3')],
      firstComment: 'Links below',
    });
    const outcome = await adapter.publish(request);
    if (outcome.status !== 'published') throw new Error('not published');
    const { parts = [], firstComment } = outcome.item;
    const statuses = parts.map((item) => instance.statuses.get(item.remoteId)!);
    expect(statuses.map((status) => [status.text, status.inReplyToId])).toEqual([
      ['Thread 1/3', null],
      ['Thread 2/3', parts[0]!.remoteId],
      ['Thread 3/3', parts[1]!.remoteId],
    ]);
    expect(statuses[1]!.mediaIds.map((id) => instance.media.get(id)!.description)).toEqual(['A red square']);
    expect(outcome.item.remoteId).toBe(parts[0]!.remoteId);
    expect(instance.statuses.get(firstComment!.item!.remoteId)).toMatchObject({ text: 'Links below', inReplyToId: parts[2]!.remoteId });
    // Published again from its checkpoint (a status check, a crash after the last call): nothing is posted twice.
    const count = instance.statuses.size;
    expect(await adapter.publish(request)).toEqual(outcome);
    expect(instance.statuses.size).toBe(count);
  });

  it('keeps the parts posted when a later part is refused, and a retry resumes at that part', async () => {
    const checkpoint = keptCheckpoint();
    const account = accountWith(instance.issueToken());
    const tooLong = 'x'.repeat(121);
    const first = publishRequest(account, { caption: 'Resume 1/3', thread: [part('Resume 2/3'), part(tooLong)], checkpoint });
    const refusal = await providerError(adapter.publish(first));
    expect(refusal).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false });
    const posted = instance.statusesOf().filter((status) => status.text.startsWith('Resume'));
    expect(posted.map((status) => status.text)).toEqual(['Resume 1/3', 'Resume 2/3']);
    // The retry (after the part was shortened) posts the third part only, as a reply to the second.
    const retried = await adapter.publish({ ...first, thread: [part('Resume 2/3'), part('Resume 3/3')] });
    if (retried.status !== 'published') throw new Error('not published');
    const texts = instance.statusesOf().filter((status) => status.text.startsWith('Resume'));
    expect(texts.map((status) => status.text)).toEqual(['Resume 1/3', 'Resume 2/3', 'Resume 3/3']);
    expect(retried.item.parts!.map((item) => item.remoteId)).toEqual(texts.map((status) => status.id));
    expect(texts[2]!.inReplyToId).toBe(texts[1]!.id);
  });

  it('leaves the post published with the refusal of its first comment', async () => {
    const outcome = await adapter.publish(publishRequest(accountWith(instance.issueToken()), { caption: 'Commented', firstComment: 'y'.repeat(121) }));
    expect(outcome).toMatchObject({
      status: 'published',
      item: { firstComment: { item: null, error: { code: 'PROVIDER_REJECTED', message: expect.stringContaining('character limit') } } },
    });
  });
});
