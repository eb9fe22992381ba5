// The Mastodon stand-in (test/support/mastodon.ts) driven by `masto`, the reference client library tested against
// real Mastodon: if the stand-in's answers drifted from Mastodon's shapes, masto would fail to read them.
import { createHash, randomBytes } from 'node:crypto';
import { createOAuthAPIClient, createRestAPIClient } from 'masto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MastodonStandIn } from '../support/mastodon.ts';

let instance: MastodonStandIn;
const redirectUri = 'https://publisher.example/oauth/callback/mastodon';

beforeAll(async () => {
  instance = await MastodonStandIn.start({ limits: { maxCharacters: 120 } });
});

afterAll(async () => {
  await instance.stop();
});

/** An app, an authorization with PKCE at /oauth/authorize, and the code exchanged through masto's OAuth client. */
async function authorizedClient() {
  const app = await createRestAPIClient({ url: instance.url }).v1.apps.create({
    clientName: 'Publisher',
    redirectUris: redirectUri,
    scopes: 'read write',
    website: 'https://publisher.example',
  });
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/oauth/authorize', instance.url);
  const query = {
    response_type: 'code',
    client_id: app.clientId!,
    redirect_uri: redirectUri,
    scope: 'read write',
    state: 'xyz',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(query)) authorize.searchParams.set(name, value);
  const answer = await fetch(authorize, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('xyz');
  const oauth = createOAuthAPIClient({ url: instance.url });
  const params = {
    grantType: 'authorization_code' as const,
    clientId: app.clientId!,
    clientSecret: app.clientSecret!,
    redirectUri,
    code: back.searchParams.get('code')!,
  };
  // masto's types predate PKCE (Mastodon 4.3); it sends any further parameter as given, snake_cased (code_verifier).
  const token = await oauth.token.create({ ...params, codeVerifier: verifier } as typeof params);
  return { app, token, oauth, client: createRestAPIClient({ url: instance.url, accessToken: token.accessToken, mediaTimeout: 10_000 }) };
}

describe('the Mastodon stand-in, through masto', () => {
  it('registers an app, authorizes with PKCE, and identifies the account', async () => {
    const { app, token, client } = await authorizedClient();
    expect(app).toMatchObject({ name: 'Publisher', redirectUris: [redirectUri] });
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: 'read write' });
    const me = await client.v1.accounts.verifyCredentials();
    expect(me).toMatchObject({ id: instance.signedIn.id, username: 'alice', displayName: 'Alice' });
  });

  it('refuses a code exchanged without the PKCE verifier it was issued for', async () => {
    const app = await createRestAPIClient({ url: instance.url }).v1.apps.create({ clientName: 'Publisher', redirectUris: redirectUri, scopes: 'read' });
    const authorize = new URL('/oauth/authorize', instance.url);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId!,
      redirect_uri: redirectUri,
      code_challenge: 'abc',
      code_challenge_method: 'S256',
    }).toString();
    const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const exchange = createOAuthAPIClient({ url: instance.url }).token.create({
      grantType: 'authorization_code',
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri,
      code,
    });
    await expect(exchange).rejects.toMatchObject({ statusCode: 400 });
  });

  it('serves the instance limits', async () => {
    const server = await createRestAPIClient({ url: instance.url }).v2.instance.fetch();
    expect(server.configuration.statuses).toMatchObject({ maxCharacters: 120, maxMediaAttachments: 4, charactersReservedPerUrl: 23 });
    expect(server.configuration.mediaAttachments).toMatchObject({
      imageSizeLimit: 16 * 1024 * 1024,
      supportedMimeTypes: expect.arrayContaining(['image/png', 'video/mp4']),
    });
  });

  it('takes media (a video is processed in the background), then a status with them, once per Idempotency-Key', async () => {
    const { client } = await authorizedClient();
    const image = await client.v2.media.create({ file: new Blob([randomBytes(64)], { type: 'image/png' }), description: 'A red square' });
    expect(image).toMatchObject({ type: 'image', description: 'A red square', url: expect.stringContaining(image.id) });
    // masto polls GET /api/v1/media/:id until the url appears, as Mastodon's own clients do.
    const video = await client.v2.media.create({ file: new Blob([randomBytes(64)], { type: 'video/mp4' }) });
    expect(video.url).toContain(video.id);
    const post = (key: string) =>
      client.v1.statuses.create(
        { status: 'Hello https://example.com/a/very/long/link/that/counts/as/twenty-three', mediaIds: [image.id], visibility: 'unlisted', spoilerText: 'cw' },
        { requestInit: { headers: { 'Idempotency-Key': key } } },
      );
    const first = await post('target-1');
    expect(first).toMatchObject({ visibility: 'unlisted', spoilerText: 'cw', mediaAttachments: [{ id: image.id }], favouritesCount: 0 });
    expect((await post('target-1')).id).toBe(first.id);
    expect((await post('target-2')).id).not.toBe(first.id);
    expect(await client.v1.statuses.$select(first.id).fetch()).toMatchObject({ id: first.id, url: first.url, reblogsCount: 0, repliesCount: 0 });
  });

  it("answers Mastodon's errors: too long (422), unknown status (404), revoked token (401)", async () => {
    const { app, token, oauth, client } = await authorizedClient();
    await expect(client.v1.statuses.create({ status: 'x'.repeat(121) })).rejects.toMatchObject({
      statusCode: 422,
      message: 'Validation failed: Text character limit of 120 exceeded',
    });
    await expect(client.v1.statuses.$select('1').fetch()).rejects.toMatchObject({ statusCode: 404, message: 'Record not found' });
    await oauth.revoke({ clientId: app.clientId!, clientSecret: app.clientSecret!, token: token.accessToken });
    await expect(client.v1.accounts.verifyCredentials()).rejects.toMatchObject({ statusCode: 401, message: 'The access token is invalid' });
  });

  it('answers 429 with the rate-limit headers while limited', async () => {
    const { client } = await authorizedClient();
    instance.rateLimitNext(1, 60_000);
    await expect(client.v1.accounts.verifyCredentials()).rejects.toMatchObject({ statusCode: 429, message: 'Too many requests' });
    const answer = await fetch(`${instance.url}/api/v2/instance`);
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeLessThan(300);
    expect(Date.parse(answer.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now());
  });
});
