// MCP with OAuth, driven by the MCP SDK's own client auth against the running service: discovery (RFC 9728, RFC
// 8414), dynamic client registration (RFC 7591), the code flow with PKCE S256 and `resource` (RFC 8707), the person's
// consent through the dashboard's calls, then /mcp with the token acting as a key of that person would; Deny; a
// read-only grant refused a write; refresh with rotation and reuse detection; disconnecting an app.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UnauthorizedError, auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestService, type TestService } from '../support/service.ts';
import { forgetExpiredAppGrants } from '../../src/access/connectedApps.ts';
import { digestSecret } from '../../src/access/secrets.ts';
import { addPerson, type TestWorkspace } from '../support/fixtures.ts';
import { call, refusalOf, succeed, toolNames } from '../support/mcp.ts';
import {
  connectedClient,
  decide,
  decideMutation,
  graph,
  mcpStatus,
  oauthTransport,
  openAuthorization,
  ownerPassword as password,
  RecordingClientProvider,
  signIn,
  startOAuthService,
  type Person,
} from '../support/mcpOAuth.ts';

let service: TestService;
let base: string;
let workspace: TestWorkspace;
let owner: Person;

beforeAll(async () => {
  let email: string;
  ({ service, base, workspace, email } = await startOAuthService());
  owner = await signIn(base, email, password, workspace.workspaceId);
});
afterAll(() => service?.stop());

/** The SDK client's first try: 401, then registration and the authorization URL it sends the person's browser to. */
async function startSignIn(provider: RecordingClientProvider): Promise<URL> {
  await expect(connectedClient(base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: 'none' });
  const opened = await openAuthorization(provider.authorizationUrl!);
  expect(opened.status).toBe(302);
  expect(opened.location?.origin + opened.location!.pathname).toBe(`${base}/apps/authorize`);
  return opened.location!;
}

/** The whole sign-in, allowed with `grant` by `person`: the client then holds tokens. */
async function signedInClient(grant: { preset?: 'PUBLISHING' | 'READ_ONLY'; scopes?: string[] }, person = owner, provider = new RecordingClientProvider()) {
  const consent = await startSignIn(provider);
  const back = await decide(base, person, consent, { allow: true, ...grant });
  const transport = oauthTransport(base, provider);
  await transport.finishAuth(back.searchParams.get('code')!);
  return { provider, client: await connectedClient(base, provider) };
}

async function tokenRequest(body: Record<string, string>) {
  const response = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('discovery and registration', () => {
  it('answers /mcp without a credential 401 naming the protected resource metadata, which names this service as its authorization server', async () => {
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect((await response.json()).error.code).toBe('UNAUTHENTICATED');
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      expect(await (await fetch(`${base}${path}`)).json()).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    }
    expect(await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });

  it('offers no OAuth where PUBLIC_BASE_URL is plain http to another host: 401 says Bearer alone', async () => {
    const plain = await startTestService({ PUBLIC_BASE_URL: 'http://publisher.example' }, service.databaseUrl);
    try {
      const response = await fetch(`${plain.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await fetch(`${plain.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('registers only https or loopback redirect URIs, as a public client without a secret', async () => {
    const register = (body: unknown) =>
      fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const plainHttp = await register({ redirect_uris: ['http://claude.example/callback'], client_name: 'Nope' });
    expect(plainHttp.status).toBe(400);
    expect(await plainHttp.json()).toMatchObject({ error: 'invalid_client_metadata' });
    const asked = await register({
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      client_name: 'Claude',
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(asked.status).toBe(201);
    const registered = await asked.json();
    expect(registered).toMatchObject({ client_name: 'Claude', token_endpoint_auth_method: 'none', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
    expect(registered.client_secret).toBeUndefined();
    expect((await register({ redirect_uris: ['http://localhost:6274/oauth/callback'] })).status).toBe(201);
  });
});

describe('signing in', () => {
  it('runs the SDK client through consent to tokens: tools/list answers the 24 tools and a tool call acts in the workspace', async () => {
    const provider = new RecordingClientProvider();
    const consent = await startSignIn(provider);
    const requested = provider.authorizationUrl!;
    expect(requested.searchParams.get('code_challenge_method')).toBe('S256');
    expect(requested.searchParams.get('resource')).toBe(`${base}/mcp`);

    const shown = await graph(base, owner, 'query($id: ID!) { appAuthorization(id: $id) { clientName redirectHost } }', {
      id: consent.searchParams.get('request'),
    });
    expect(shown.data?.appAuthorization).toEqual({ clientName: 'Claude (test)', redirectHost: '127.0.0.1:33418' });
    const back = await decide(base, owner, consent, { allow: true, preset: 'PUBLISHING' });
    expect(back.origin + back.pathname).toBe(provider.redirectUrl);
    expect(back.searchParams.get('state')).toBe(requested.searchParams.get('state'));
    expect(back.searchParams.get('iss')).toBe(base);
    await oauthTransport(base, provider).finishAuth(back.searchParams.get('code')!);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: expect.stringContaining('posts:write') });

    const client = await connectedClient(base, provider);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...toolNames].sort());
      const accounts = (await succeed(client, 'list_social_accounts')).accounts;
      expect(accounts).toHaveLength(1);
      const draft = await succeed(client, 'create_post', { caption: 'From a connected app', targets: [{ connectionId: accounts[0].id, placement: 'feed' }] });
      expect(draft.post.status).toBe('draft');
    } finally {
      await client.close();
    }
    // As a key's: one request of the person's rate limit and a row of the request log, each POST.
    const apps = await graph(base, owner, '{ connectedApps { clientName redirectHost scopes lastUsedAt } }');
    expect(apps.data?.connectedApps).toContainEqual(
      expect.objectContaining({ clientName: 'Claude (test)', redirectHost: '127.0.0.1:33418', lastUsedAt: expect.any(String) }),
    );
    await vi.waitFor(async () => {
      const { rowCount } = await service.services.db.pool.query("SELECT 1 FROM request_log WHERE user_id = $1 AND route = '/mcp'", [workspace.ownerId]);
      expect(rowCount).toBeGreaterThan(0);
    });
  });

  it('sends Deny back as access_denied with the state, and the request cannot be decided again', async () => {
    const provider = new RecordingClientProvider();
    const consent = await startSignIn(provider);
    const back = await decide(base, owner, consent, { allow: false });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(provider.authorizationUrl!.searchParams.get('state'));
    expect(back.searchParams.get('code')).toBeNull();
    const again = await graph(base, owner, decideMutation, { id: consent.searchParams.get('request'), allow: true, preset: 'PUBLISHING' });
    expect(again.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });

  it('refuses a write to a read-only grant with 403 naming the scope, as for a key', async () => {
    const { client } = await signedInClient({ preset: 'READ_ONLY' });
    try {
      const [account] = (await succeed(client, 'list_social_accounts')).accounts;
      const refusal = refusalOf(await call(client, 'create_post', { caption: 'no', targets: [{ connectionId: account.id, placement: 'feed' }] }));
      expect(refusal.code).toBe('FORBIDDEN');
      expect(refusal.message).toContain('posts:write');
    } finally {
      await client.close();
    }
  });

  it('grants no more than the person’s role: a viewer cannot allow publishing', async () => {
    const viewer = await addPerson(service.services, workspace.workspaceId, 'viewer', password);
    const person = await signIn(base, viewer.email, password, workspace.workspaceId);
    const consent = await startSignIn(new RecordingClientProvider());
    const refused = await graph(base, person, decideMutation, { id: consent.searchParams.get('request'), allow: true, preset: 'PUBLISHING' });
    expect(refused.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const allowed = await decide(base, person, consent, { allow: true, preset: 'READ_ONLY' });
    expect(allowed.searchParams.get('code')).toBeTruthy();
  });

  it('exchanges a code once, only with its PKCE verifier and for this resource', async () => {
    const provider = new RecordingClientProvider();
    const consent = await startSignIn(provider);
    const code = (await decide(base, owner, consent, { allow: true, preset: 'READ_ONLY' })).searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, client_id: provider.client!.client_id, redirect_uri: provider.redirectUrl };
    expect(await tokenRequest({ ...exchange, code_verifier: 'x'.repeat(43) })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await tokenRequest({ ...exchange, code_verifier: provider.verifier, resource: 'https://elsewhere.example/mcp' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_target' },
    });
    const first = await tokenRequest({ ...exchange, code_verifier: provider.verifier, resource: `${base}/mcp` });
    expect(first.status).toBe(200);
    // A code presented again: refused, and the app it created is revoked (its tokens may be in other hands).
    expect(await tokenRequest({ ...exchange, code_verifier: provider.verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(base, first.body.access_token!)).toBe(401);
  });

  it('refuses an authorization request without S256', async () => {
    const provider = new RecordingClientProvider();
    await startSignIn(provider);
    const plain = new URL(provider.authorizationUrl!);
    plain.searchParams.set('code_challenge_method', 'plain');
    const opened = await openAuthorization(plain);
    expect(opened.location?.origin + opened.location!.pathname).toBe(provider.redirectUrl);
    expect(opened.location?.searchParams.get('error')).toBe('invalid_request');
  });
});

describe('tokens', () => {
  it('rotates refresh tokens; a spent one presented again revokes the whole family', async () => {
    const { provider, client } = await signedInClient({ preset: 'PUBLISHING' });
    await client.close();
    const first = provider.saved!;
    // The SDK's auth() refreshes when it holds a refresh token.
    expect(await auth(provider, { serverUrl: `${base}/mcp` })).toBe('AUTHORIZED');
    const second = provider.saved!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(await mcpStatus(base, second.access_token)).toBe(200);

    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.client!.client_id });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(base, second.access_token)).toBe(401);
    const afterRevocation = await tokenRequest({ grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: provider.client!.client_id });
    expect(afterRevocation).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('takes an access token on /mcp only: /v1 answers it 401', async () => {
    const { provider, client } = await signedInClient({ preset: 'READ_ONLY' });
    await client.close();
    const response = await fetch(`${base}/v1/posts`, { headers: { authorization: `Bearer ${provider.saved!.access_token}` } });
    expect(response.status).toBe(401);
  });

  it('refuses an access token past its hour', async () => {
    const provider = new RecordingClientProvider();
    const back = await decide(base, owner, await startSignIn(provider), { allow: true, preset: 'READ_ONLY' });
    await oauthTransport(base, provider).finishAuth(back.searchParams.get('code')!);
    // The hour passed (its row's expiry moved back, before any use of the token).
    await service.services.db.pool.query(
      "UPDATE connected_app_token SET expires_at = now() - interval '1 second' WHERE hash = encode(sha256($1::bytea), 'hex')",
      [provider.saved!.access_token],
    );
    expect(await mcpStatus(base, provider.saved!.access_token)).toBe(401);
    // Housekeeping forgets it (and every request, code and token past its expiry); its refresh token stays.
    expect(await forgetExpiredAppGrants(service.services.db)).toBeGreaterThan(0);
    const { rows } = await service.services.db.pool.query('SELECT kind FROM connected_app_token WHERE hash = ANY($1)', [
      [provider.saved!.access_token, provider.saved!.refresh_token!].map(digestSecret),
    ]);
    expect(rows).toEqual([{ kind: 'refresh' }]);
  });

  it('disconnecting an app in the dashboard refuses its token at once', async () => {
    const { provider, client } = await signedInClient({ preset: 'PUBLISHING' });
    try {
      await succeed(client, 'list_posts');
      const apps = (await graph(base, owner, '{ connectedApps { id } }')).data!.connectedApps as { id: string }[];
      const app = await service.services.db.prisma.connectedApp.findFirstOrThrow({
        where: { tokens: { some: { kind: 'access' } } },
        orderBy: { createdAt: 'desc' },
      });
      expect(apps.map((listed) => listed.id)).toContain(app.id);
      const left = await graph(base, owner, 'mutation($id: ID!) { disconnectApp(id: $id) { id } }', { id: app.id });
      expect(left.data?.disconnectApp.map((listed: { id: string }) => listed.id)).not.toContain(app.id);
      expect(await mcpStatus(base, provider.saved!.access_token)).toBe(401);
      const refreshed = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: provider.saved!.refresh_token!,
        client_id: provider.client!.client_id,
      });
      expect(refreshed.status).toBe(400);
    } finally {
      await client.close();
    }
  });

  it('stores codes and tokens hashed only', async () => {
    const { provider, client } = await signedInClient({ preset: 'READ_ONLY' });
    await client.close();
    const { rows } = await service.services.db.pool.query(
      "SELECT string_agg(hash, ' ') AS hashes FROM connected_app_token UNION ALL SELECT string_agg(coalesce(code_hash, ''), ' ') FROM oauth_app_request",
    );
    const stored = rows.map((row) => row.hashes).join(' ');
    expect(stored).not.toContain(provider.saved!.access_token);
    expect(stored).not.toContain(provider.saved!.refresh_token);
  });
});
