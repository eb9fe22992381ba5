// Connecting social accounts: the OAuth 2.0 flow end to end with Mastodon's connector against the Mastodon stand-in
// (authorization, callback, account), single-use states, no duplicates on reconnect, nothing written on failures,
// disconnecting with revocation at the network, the sandbox through POST /social-accounts, scopes and roles, the
// providers' `configured` flag, refused redirect targets, and the binding of an authorization to the one browser that
// opened its start link, and X's tokens refreshed (rotating) and revoked against a stand-in of an OAuth 2.0 network
// (connecting X and publishing there: xPublish.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { addPerson, bearer, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { OAuthNetwork } from '../support/oauthNetwork.ts';
import { OAuthBrowser, type CallbackAnswer } from '../support/oauthBrowser.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setUserRole } from '../../src/workspaces/workspaces.ts';
import { bindingCookie } from '../../rest/oauthCallback.ts';
import { createHash } from 'node:crypto';
import type { OAuthConnector } from '../../src/providers/adapter.ts';
import { authorizationRequest, exchangeCode } from '../../src/providers/oauth2.ts';

const publicBaseUrl = 'https://sps.example.test';
const appOrigin = 'https://app.example.test';
const xCallback = `${publicBaseUrl}/oauth/callback/x`;
const mastodonCallback = `${publicBaseUrl}/oauth/callback/mastodon`;

let network: OAuthNetwork;
let instance: MastodonStandIn;
let service: TestService;
let acme: TestWorkspace;
let api: Api;
/** The person's browser, unless a test says whose. */
let person: OAuthBrowser;
const browser = () => new OAuthBrowser(service.url, publicBaseUrl);

beforeAll(async () => {
  network = await new OAuthNetwork([xCallback]).start();
  instance = await MastodonStandIn.start();
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    REDIRECT_ALLOWED_ORIGINS: appOrigin,
    X_CLIENT_ID: network.clientId,
    X_CLIENT_SECRET: network.clientSecret,
    X_API_BASE_URL: network.url,
    X_AUTH_BASE_URL: `${network.url}/i`,
    NETWORK_TIMEOUT_MS: '1000',
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
  });
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
  person = browser();
});
afterAll(async () => {
  await service.stop();
  await network.stop();
  await instance.stop();
});

/** What starting a connection at the Mastodon stand-in takes. */
const atInstance = () => ({ provider: 'mastodon', instanceUrl: instance.url });

/** Opens the start link, then follows the network's redirect back to our callback, as the person's browser would. */
async function authorizeAtNetwork(authorizationUrl: string, by = person): Promise<string> {
  const response = await fetch(await by.start(authorizationUrl), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(mastodonCallback);
  return `${service.url}${back.pathname}${back.search}`;
}

const callback = (url: string, by = person) => by.callback(url, { 'accept-language': 'de' });

async function connectMastodon(redirectUri?: string, client: Api = api) {
  const started = await client('POST', '/social-accounts/connect', { ...atInstance(), ...(redirectUri ? { redirectUri } : {}) });
  expect(started.status).toBe(201);
  return callback(await authorizeAtNetwork(started.body.data.authorizationUrl));
}

const accountRows = (workspaceId: string) =>
  service.services.db.pool
    .query('SELECT id, status, encrypted_tokens FROM social_account WHERE workspace_id = $1 ORDER BY connected_at', [workspaceId])
    .then((r) => r.rows);
const events = (workspaceId: string, type: string) =>
  service.services.db.pool
    .query(`SELECT data FROM outbox_event WHERE workspace_id = $1 AND type = $2 ORDER BY sequence`, [workspaceId, type])
    .then((r) => r.rows.map((row) => row.data));

describe('GET /providers', () => {
  it('says per network whether accounts can be connected, and how', async () => {
    const { body } = await api('GET', '/providers');
    const byName = Object.fromEntries(body.data.map((entry: any) => [entry.provider, entry]));
    expect(byName.mastodon).toMatchObject({ configured: true, connection: { method: 'oauth2', fields: [] } });
    expect(byName.x).toMatchObject({ configured: true, connection: { method: 'oauth2', fields: [] }, publishing: true });
    expect(byName.sandbox).toMatchObject({ configured: true, connection: { method: 'local', fields: [] } });
    expect(byName.bluesky.connection).toEqual({
      method: 'credentials',
      fields: [
        expect.objectContaining({ name: 'identifier', secret: false, required: true }),
        expect.objectContaining({ name: 'appPassword', secret: true, required: true }),
        expect.objectContaining({ name: 'service', format: 'url', required: false }),
      ],
    });
    expect(byName.linkedin).toMatchObject({ configured: false, connection: null });
  });
});

describe('POST /social-accounts/connect', () => {
  it('answers a start link that leads to an authorization URL with PKCE S256, the app, the callback and the scopes', async () => {
    const { status, body } = await api('POST', '/social-accounts/connect', atInstance());
    expect(status).toBe(201);
    expect(body.data.authorizationUrl).toBe(`${publicBaseUrl}/oauth/start/mastodon?state=${body.data.state}`);
    const url = await browser().start(body.data.authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${instance.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: [...instance.apps.values()].at(-1)!.clientId,
      redirect_uri: mastodonCallback,
      state: body.data.state,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['read:accounts', 'write:statuses']));
    const minutes = (Date.parse(body.data.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    const stored = await service.services.db.pool.query('SELECT state_hash, encrypted_code_verifier FROM oauth_authorization WHERE workspace_id = $1', [
      acme.workspaceId,
    ]);
    expect(JSON.stringify(stored.rows)).not.toContain(body.data.state);
  });

  it('sends networks connected otherwise to POST /social-accounts (400 with details)', async () => {
    const { status, body } = await api('POST', '/social-accounts/connect', { provider: 'sandbox' });
    expect(status).toBe(400);
    expect(body.error.details).toEqual([expect.objectContaining({ field: 'provider', code: 'connectElsewhere' })]);
  });

  it('refuses redirect targets outside the allowed origins (no open redirect)', async () => {
    for (const redirectUri of [
      'https://evil.example/steal',
      'javascript:alert(1)',
      '//evil.example/x',
      `${appOrigin}.evil.example/`,
      'https://user:pw@app.example.test/',
    ]) {
      const { status, body } = await api('POST', '/social-accounts/connect', { ...atInstance(), redirectUri });
      expect(status, redirectUri).toBe(400);
      expect(body.error.details).toEqual([expect.objectContaining({ field: 'redirectUri', code: 'notAllowed' })]);
    }
    for (const redirectUri of [`${appOrigin}/accounts?tab=x`, `${publicBaseUrl}/settings`]) {
      expect((await api('POST', '/social-accounts/connect', { ...atInstance(), redirectUri })).status, redirectUri).toBe(201);
    }
  });

  it('needs the accounts:write scope, in neither preset, and the owner or admin role', async () => {
    const publishing = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'publishing' });
    const refused = await apiFor(service.url, publishing.apiKey)('POST', '/social-accounts/connect', atInstance());
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('API key needs the accounts:write scope for startAccountConnection.');
    // A key made by an admin who is an editor now: editors may not connect or disconnect accounts.
    const editor = await addPerson(service.services, acme.workspaceId, 'admin');
    const editorKey = await keyFor(service.services, acme.workspaceId, editor.userId, { scopes: ['accounts:read', 'accounts:write'] });
    await setUserRole(service.services.db, { workspaceId: acme.workspaceId, userId: editor.userId, role: 'editor' });
    for (const [method, path, body] of [
      ['POST', '/social-accounts/connect', atInstance()],
      ['POST', '/social-accounts', { provider: 'sandbox', username: 'editor-made' }],
    ] as const) {
      const answer = await apiFor(service.url, editorKey.apiKey)(method, path, body);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('FORBIDDEN');
    }
    const admin = await addPerson(service.services, acme.workspaceId, 'admin');
    const adminKey = await keyFor(service.services, acme.workspaceId, admin.userId, { scopes: ['accounts:write'] });
    expect((await apiFor(service.url, adminKey.apiKey)('POST', '/social-accounts/connect', atInstance())).status).toBe(201);
  });
});

describe('the OAuth callback', () => {
  it('connects the account the network authorized, with sealed tokens, and sends the person back', async () => {
    const before = await events(acme.workspaceId, 'connection.connected');
    const { status, location } = await connectMastodon(`${appOrigin}/accounts`);
    expect(status).toBe(302);
    expect(location!.origin + location!.pathname).toBe(`${appOrigin}/accounts`);
    const connectionId = location!.searchParams.get('connectionId')!;
    const { body } = await api('GET', `/social-accounts/${connectionId}`);
    const username = `alice@${new URL(instance.url).host}`;
    expect(body.data).toMatchObject({ provider: 'mastodon', username, displayName: 'Alice', status: 'ACTIVE', needsReconnect: false });
    // The code was exchanged (the stand-in checks the PKCE verifier against the challenge).
    expect(instance.requests.filter((request) => request.path === '/oauth/token')).not.toEqual([]);
    const [row] = (await accountRows(acme.workspaceId)).filter((account) => account.id === connectionId);
    expect(row.encrypted_tokens).toMatch(/^v1\./);
    const meCall = instance.requests.filter((request) => request.path === '/api/v1/accounts/verify_credentials').at(-1)!;
    expect(meCall.headers.authorization).toMatch(/^Bearer /);
    expect(row.encrypted_tokens).not.toContain(meCall.headers.authorization!.slice('Bearer '.length));
    expect((await events(acme.workspaceId, 'connection.connected')).slice(before.length)).toEqual([
      expect.objectContaining({ connectionId, provider: 'mastodon', username, reconnected: false }),
    ]);
  });

  it('takes each state once: the same callback again is refused and writes nothing', async () => {
    const started = await api('POST', '/social-accounts/connect', atInstance());
    const callbackUrl = await authorizeAtNetwork(started.body.data.authorizationUrl);
    expect((await callback(callbackUrl)).status).toBe(302);
    const accounts = await accountRows(acme.workspaceId);
    const replay = await callback(callbackUrl);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: [expect.objectContaining({ field: 'state' })] });
    expect(replay.body.error.message).toMatch(/neu beginnen/);
    expect(await accountRows(acme.workspaceId)).toEqual(accounts);
    const unknown = await callback(`${service.url}/oauth/callback/mastodon?code=abc&state=never-issued`);
    expect(unknown.status).toBe(400);
    expect((await callback(`${service.url}/oauth/callback/mastodon?code=abc`)).status).toBe(400);
  });

  it('reconnecting the same remote account keeps one account with the same id, ACTIVE again after a disconnect', async () => {
    const first = (await connectMastodon()).location!.searchParams.get('connectionId');
    const again = await connectMastodon();
    expect(again.location!.origin + again.location!.pathname).toBe(`${publicBaseUrl}/accounts`);
    expect(again.location!.searchParams.get('connectionId')).toBe(first);
    expect((await api('DELETE', `/social-accounts/${first}`)).body.data.status).toBe('REVOKED');
    const back = await connectMastodon();
    expect(back.location!.searchParams.get('connectionId')).toBe(first);
    expect((await api('GET', `/social-accounts/${first}`)).body.data).toMatchObject({ status: 'ACTIVE', needsReconnect: false });
    const mastodonAccounts = (await api('GET', '/social-accounts?limit=100')).body.data.filter((account: any) => account.provider === 'mastodon');
    expect(mastodonAccounts).toHaveLength(1);
    expect((await events(acme.workspaceId, 'connection.connected')).at(-1)).toMatchObject({ connectionId: first, reconnected: true });
  });

  it('a refusal at the network sends the person back with error=access_denied and connects nothing', async () => {
    const accounts = await accountRows(acme.workspaceId);
    const connected = await events(acme.workspaceId, 'connection.connected');
    instance.denyAuthorization = true;
    try {
      const { status, location } = await connectMastodon(`${appOrigin}/accounts`);
      expect(status).toBe(302);
      expect(location!.origin + location!.pathname).toBe(`${appOrigin}/accounts`);
      expect(location!.searchParams.get('error')).toBe('access_denied');
      expect(location!.searchParams.get('error_description')).toContain('Mastodon');
      expect(location!.searchParams.has('connectionId')).toBe(false);
    } finally {
      instance.denyAuthorization = false;
    }
    expect(await accountRows(acme.workspaceId)).toEqual(accounts);
    expect(await events(acme.workspaceId, 'connection.connected')).toEqual(connected);
  });

  it('an expired state, a refused code and a failing network connect nothing, and say which', async () => {
    const accounts = await accountRows(acme.workspaceId);
    const started = await api('POST', '/social-accounts/connect', { ...atInstance(), redirectUri: `${appOrigin}/a` });
    const late = await authorizeAtNetwork(started.body.data.authorizationUrl);
    await service.services.db.pool.query(`UPDATE oauth_authorization SET expires_at = now() - interval '1 second' WHERE workspace_id = $1`, [acme.workspaceId]);
    expect((await callback(late)).location!.searchParams.get('error')).toBe('expired_state');

    const fresh = await api('POST', '/social-accounts/connect', { ...atInstance(), redirectUri: `${appOrigin}/a` });
    const forged = new URL(await authorizeAtNetwork(fresh.body.data.authorizationUrl));
    forged.searchParams.set('code', 'forged-code');
    const refused = await callback(forged.href);
    expect(refused.location!.searchParams.get('error')).toBe('invalid_grant');
    expect(refused.location!.searchParams.get('error_description')).toContain('invalid_grant');

    const attempt = await api('POST', '/social-accounts/connect', { ...atInstance(), redirectUri: `${appOrigin}/a` });
    const url = await authorizeAtNetwork(attempt.body.data.authorizationUrl);
    instance.failNext(1, 503, undefined, '/oauth/token');
    expect((await callback(url)).location!.searchParams.get('error')).toBe('provider_unavailable');
    expect(await accountRows(acme.workspaceId)).toEqual(accounts);
  });

  it('is bound to the workspace and person that started it', async () => {
    const globex = await createWorkspace(service.services);
    const globexApi = apiFor(service.url, globex.ownerKey);
    const started = await globexApi('POST', '/social-accounts/connect', atInstance());
    const url = await authorizeAtNetwork(started.body.data.authorizationUrl);
    // The state does not open another network's callback (and stays usable for its own).
    expect((await callback(url.replace('/oauth/callback/mastodon', '/oauth/callback/sandbox'))).status).toBe(400);
    const connectionId = (await callback(url)).location!.searchParams.get('connectionId');
    expect((await globexApi('GET', `/social-accounts/${connectionId}`)).status).toBe(200);
    expect((await api('GET', `/social-accounts/${connectionId}`)).status).toBe(404);

    const admin = await addPerson(service.services, globex.workspaceId, 'admin');
    const adminApi = apiFor(service.url, (await keyFor(service.services, globex.workspaceId, admin.userId, { scopes: ['accounts:write'] })).apiKey);
    const pending = await adminApi('POST', '/social-accounts/connect', atInstance());
    const pendingUrl = await authorizeAtNetwork(pending.body.data.authorizationUrl);
    await setUserRole(service.services.db, { workspaceId: globex.workspaceId, userId: admin.userId, role: 'editor' });
    expect((await callback(pendingUrl)).location!.searchParams.get('error')).toBe('forbidden');
  });
});

describe('an authorization is bound to the one browser that opened its start link', () => {
  async function start(client: Api = api) {
    const started = await client('POST', '/social-accounts/connect', { ...atInstance(), redirectUri: `${appOrigin}/accounts` });
    expect(started.status).toBe(201);
    return started.body.data as { authorizationUrl: string; state: string };
  }
  function refusedAsUnbound(answer: CallbackAnswer) {
    expect(answer.status).toBe(302);
    expect(answer.location!.origin + answer.location!.pathname).toBe(`${appOrigin}/accounts`);
    expect(answer.location!.searchParams.get('error')).toBe('invalid_request');
    expect(answer.location!.searchParams.get('error_description')).toMatch(/in einem anderen Browser begonnen/);
    expect(answer.location!.searchParams.has('connectionId')).toBe(false);
  }

  it("an API caller sends the person's browser to the start link, which gives it the binding cookie, and it connects there", async () => {
    const globex = await createWorkspace(service.services);
    const own = browser();
    const { authorizationUrl, state } = await start(apiFor(service.url, globex.ownerKey));
    const callbackUrl = await authorizeAtNetwork(authorizationUrl, own);
    const cookie = own.cookie(bindingCookie, '/oauth/callback/mastodon')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'lax', secure: true, value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect((cookie.expires!.getTime() - Date.now()) / 60_000).toBeGreaterThan(9);
    const [row] = (await service.services.db.pool.query('SELECT * FROM oauth_authorization WHERE workspace_id = $1', [globex.workspaceId])).rows;
    expect(row.binding_hash).toBe(createHash('sha256').update(cookie.value!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(state);
    expect(JSON.stringify(row)).not.toContain(cookie.value);
    const { location } = await callback(callbackUrl, own);
    expect(location!.origin + location!.pathname).toBe(`${appOrigin}/accounts`);
    expect((await accountRows(globex.workspaceId)).map((account) => account.id)).toEqual([location!.searchParams.get('connectionId')]);
  });

  it('a callback without the cookie is refused, uses the state up, and connects nothing', async () => {
    const accounts = await accountRows(acme.workspaceId);
    const connected = await events(acme.workspaceId, 'connection.connected');
    const starter = browser();
    const callbackUrl = await authorizeAtNetwork((await start()).authorizationUrl, starter);
    refusedAsUnbound(await callback(callbackUrl, browser()));
    expect(await accountRows(acme.workspaceId)).toEqual(accounts);
    expect(await events(acme.workspaceId, 'connection.connected')).toEqual(connected);
    expect((await callback(callbackUrl, starter)).status).toBe(400);
  });

  it("a callback in a browser holding another authorization's cookie is refused, and that one still completes", async () => {
    // The attacker starts in their workspace and gets the victim's browser to the callback; the victim is connecting too.
    const attacker = await createWorkspace(service.services);
    const victim = browser();
    const victimsOwn = await authorizeAtNetwork((await start()).authorizationUrl, victim);
    const attackers = await authorizeAtNetwork((await start(apiFor(service.url, attacker.ownerKey))).authorizationUrl, browser());
    refusedAsUnbound(await callback(attackers, victim));
    expect(await accountRows(attacker.workspaceId)).toEqual([]);
    expect((await callback(victimsOwn, victim)).location!.searchParams.get('connectionId')).toBeTruthy();
  });

  it('the start link opens once: another browser opening it gets 400, and the network is never named to the caller', async () => {
    const { authorizationUrl } = await start();
    expect(new URL(authorizationUrl).origin).toBe(publicBaseUrl);
    const first = browser();
    const atNetwork = await first.start(authorizationUrl);
    expect(atNetwork.origin).toBe(instance.url);
    const again = await browser().visit(authorizationUrl);
    expect(again.status).toBe(400);
    expect((await again.json()).error).toMatchObject({ code: 'INVALID_REQUEST', details: [expect.objectContaining({ field: 'state', code: 'unknown' })] });
    expect((await first.visit(authorizationUrl)).status).toBe(400);
    expect((await browser().visit(`${publicBaseUrl}/oauth/start/mastodon?state=never-issued`)).status).toBe(400);

    const late = await start();
    await service.services.db.pool.query(`UPDATE oauth_authorization SET expires_at = now() - interval '1 second' WHERE workspace_id = $1`, [acme.workspaceId]);
    const expired = await browser().visit(late.authorizationUrl);
    expect(expired.status).toBe(302);
    expect(new URL(expired.headers.get('location')!).searchParams.get('error')).toBe('expired_state');
  });
});

describe('DELETE /social-accounts/{id}', () => {
  it('revokes the tokens at the network, erases them, keeps the account listed, and emits connection.revoked once', async () => {
    const globex = await createWorkspace(service.services);
    const globexApi = apiFor(service.url, globex.ownerKey);
    const connectionId = (await connectMastodon(undefined, globexApi)).location!.searchParams.get('connectionId')!;
    const token = instance.requests
      .filter((request) => request.path === '/api/v1/accounts/verify_credentials')
      .at(-1)!
      .headers.authorization!.slice('Bearer '.length);
    expect(instance.isRevoked(token)).toBe(false);

    expect((await api('DELETE', `/social-accounts/${connectionId}`)).status).toBe(404);
    const publishing = await keyFor(service.services, globex.workspaceId, globex.ownerId, { preset: 'publishing' });
    expect((await apiFor(service.url, publishing.apiKey)('DELETE', `/social-accounts/${connectionId}`)).status).toBe(403);

    const earlier = instance.requests.length;
    const { status, body } = await globexApi('DELETE', `/social-accounts/${connectionId}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: connectionId, status: 'REVOKED', needsReconnect: true });
    expect(instance.isRevoked(token)).toBe(true);
    expect(instance.requests.slice(earlier).filter((request) => request.path === '/oauth/revoke')).toHaveLength(1);
    expect(await accountRows(globex.workspaceId)).toEqual([expect.objectContaining({ id: connectionId, status: 'REVOKED', encrypted_tokens: null })]);
    expect((await globexApi('DELETE', `/social-accounts/${connectionId}`)).body.data.status).toBe('REVOKED');
    expect(await events(globex.workspaceId, 'connection.revoked')).toEqual([expect.objectContaining({ connectionId, provider: 'mastodon' })]);
    expect((await globexApi('GET', '/social-accounts')).body.data).toEqual([expect.objectContaining({ id: connectionId })]);
  });
});

describe('POST /social-accounts', () => {
  it('connects a sandbox account, and the same username again is the same account', async () => {
    const created = await api('POST', '/social-accounts', { provider: 'sandbox', username: 'shop', displayName: 'The Shop' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ provider: 'sandbox', username: 'shop', displayName: 'The Shop', status: 'ACTIVE' });
    const again = await api('POST', '/social-accounts', { provider: 'sandbox', username: 'shop' });
    expect(again.body.data.id).toBe(created.body.data.id);
  });

  it('refuses what is missing, OAuth networks, and keys without accounts:write', async () => {
    const missing = await api('POST', '/social-accounts', { provider: 'sandbox' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'username', code: 'required' })]);
    const oauth = await api('POST', '/social-accounts', { provider: 'mastodon', username: 'someone' });
    expect(oauth.status).toBe(400);
    expect(oauth.body.error.details[0].message).toContain('POST /v1/social-accounts/connect');
    const unknown = await api('POST', '/social-accounts', { provider: 'myspace', username: 'tom' });
    expect(unknown.status).toBe(400);
    const publishing = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'publishing' });
    expect((await apiFor(service.url, publishing.apiKey)('POST', '/social-accounts', { provider: 'sandbox', username: 'nope' })).status).toBe(403);
  });
});

describe('GraphQL', () => {
  async function graph(query: string, variables: Record<string, unknown>, apiKey = acme.ownerKey) {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(apiKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ query, variables }),
    });
    return response.json() as Promise<any>;
  }

  it('connects, starts an authorization and disconnects with the same rules', async () => {
    const added = await graph('mutation($u: String) { addSocialAccount(provider: SANDBOX, username: $u) { id status } }', { u: 'graph-shop' });
    const id = added.data.addSocialAccount.id;
    expect(added.data.addSocialAccount.status).toBe('ACTIVE');
    const started = await graph(
      'mutation($i: String) { startAccountConnection(provider: MASTODON, instanceUrl: $i, redirectUri: "https://evil.example/") { state } }',
      { i: instance.url },
    );
    expect(started.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    const ok = await graph('mutation($i: String) { startAccountConnection(provider: MASTODON, instanceUrl: $i) { authorizationUrl state expiresAt } }', {
      i: instance.url,
    });
    expect(new URL(await browser().start(ok.data.startAccountConnection.authorizationUrl)).pathname).toBe('/oauth/authorize');
    const publishing = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'publishing' });
    const refused = await graph('mutation($id: ID!) { disconnectSocialAccount(id: $id) { status } }', { id }, publishing.apiKey);
    expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
    const gone = await graph('mutation($id: ID!) { disconnectSocialAccount(id: $id) { status needsReconnect } }', { id });
    expect(gone.data.disconnectSocialAccount).toEqual({ status: 'REVOKED', needsReconnect: true });
    const providers = await graph('{ providers { provider configured connection { method fields { name } } } }', {});
    expect(providers.data.providers).toEqual(
      expect.arrayContaining([
        { provider: 'X', configured: true, connection: { method: 'oauth2', fields: [] } },
        {
          provider: 'BLUESKY',
          configured: true,
          connection: { method: 'credentials', fields: [{ name: 'identifier' }, { name: 'appPassword' }, { name: 'service' }] },
        },
        { provider: 'LINKEDIN', configured: false, connection: null },
      ]),
    );
  });
});

describe('networks at a URL the person names', () => {
  let instance: MastodonStandIn;
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    instance = await MastodonStandIn.start();
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await instance.stop();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('Mastodon: registers the app at the instance, and the person authorizes and is connected there', async () => {
    const started = await api('POST', '/social-accounts/connect', {
      provider: 'mastodon',
      instanceUrl: `${instance.url}/about`,
      redirectUri: `${appOrigin}/accounts`,
    });
    expect(started.status).toBe(201);
    const authorizationUrl = await person.start(started.body.data.authorizationUrl);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${instance.url}/oauth/authorize`);
    expect([...instance.apps.values()].map((app) => app.redirectUris)).toEqual([[`${publicBaseUrl}/oauth/callback/mastodon`]]);
    const atInstance = await fetch(authorizationUrl, { redirect: 'manual' });
    const back = new URL(atInstance.headers.get('location')!);
    const { location } = await callback(`${service.url}${back.pathname}${back.search}`);
    const connectionId = location!.searchParams.get('connectionId');
    const host = new URL(instance.url).host;
    expect((await api('GET', `/social-accounts/${connectionId}`)).body.data).toMatchObject({
      provider: 'mastodon',
      username: `alice@${host}`,
      status: 'ACTIVE',
    });
  });

  it('refuses instance and PDS URLs the SSRF guard refuses, with details, before calling them', async () => {
    const cases: [string, Record<string, string>, string, string][] = [
      ['/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'https://10.1.2.3' }, 'instanceUrl', 'privateAddress'],
      ['/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'https://169.254.169.254/latest' }, 'instanceUrl', 'privateAddress'],
      ['/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'http://mastodon.example' }, 'instanceUrl', 'httpsRequired'],
      ['/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'not a url' }, 'instanceUrl', 'invalidUrl'],
      [
        '/social-accounts',
        { provider: 'bluesky', identifier: 'a.test', appPassword: 'abcd-efgh-ijkl-mnop', service: 'https://[::1]:2583' },
        'service',
        'privateAddress',
      ],
    ];
    for (const [path, body, field, code] of cases) {
      const answer = await api('POST', path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.details).toEqual([expect.objectContaining({ field, code })]);
    }
    expect((await api('POST', '/social-accounts/connect', { provider: 'mastodon' })).body.error.details).toEqual([
      expect.objectContaining({ field: 'instanceUrl', code: 'required' }),
    ]);
  });

  it('a network that fails or does not answer while connecting is 503 PROVIDER_UNAVAILABLE, and nothing is connected', async () => {
    const accounts = await accountRows(acme.workspaceId);
    for (const service of ['http://127.0.0.1:9', silentUrl]) {
      const answer = await api('POST', '/social-accounts', { provider: 'bluesky', identifier: 'a.test', appPassword: 'abcd-efgh-ijkl-mnop', service });
      expect(answer.status, service).toBe(503);
      expect(answer.body.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(answer.body.error.message).toContain('Bluesky');
    }
    const unreachable = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: silentUrl });
    expect(unreachable.status).toBe(503);
    expect(await accountRows(acme.workspaceId)).toEqual(accounts);
  });
});

describe("X's tokens", () => {
  it('refresh with rotation (the old refresh token is then refused: needs reconnecting) and revoke at the network', async () => {
    const x = service.services.connections.links.get('x')!;
    // Tokens as X's authorization gives them, through X's connector and the shared code exchange.
    const app = await (x.connector as OAuthConnector).prepare({ redirectUri: xCallback });
    const { url, codeVerifier } = await authorizationRequest(app, 'earlier-state');
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    const tokens = await exchangeCode(app, 'X', back.searchParams, codeVerifier, 1000);
    const account = { id: 'connected', provider: 'x', username: network.user.username, remoteId: network.user.id, tokens };
    expect(account.tokens).toMatchObject({ refreshToken: expect.any(String), scope: expect.stringContaining('offline.access') });
    const refreshed = await x.refresh!(account);
    expect(refreshed.refreshToken).not.toBe(account.tokens!.refreshToken);
    expect(network.accepts(refreshed.accessToken)).toBe(true);
    expect(Date.parse(refreshed.expiresAt!) - Date.now()).toBeGreaterThan(7000_000);
    await expect(x.refresh!(account)).rejects.toMatchObject({
      code: 'ACCOUNT_NEEDS_RECONNECT',
      transient: false,
      tokenRejected: true,
      oauthError: 'invalid_grant',
    });
    await x.revoke!({ ...account, tokens: refreshed });
    expect(network.accepts(refreshed.accessToken)).toBe(false);
    await expect(x.refresh!({ ...account, tokens: refreshed })).rejects.toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT' });
  });
});
