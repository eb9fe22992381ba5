// The operator CLI end to end, as installed (`sps`: bin/sps.js running the compiled output in dist/): each command
// with --json prints one JSON object, and its effects show in the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../support/database.ts';
import { runNode, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { requireCurrentBuild } from '../support/compiledOutput.ts';

const encryptionKey = Buffer.alloc(32, 3).toString('base64');
let env: Record<string, string>;
let server: ServerProcess;

beforeAll(async () => {
  requireCurrentBuild();
  const databaseUrl = await createTestDatabase();
  env = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: encryptionKey };
  server = await startServerProcess(env);
});
afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
});

const runCli = (args: string[], env: Record<string, string>) => runNode(['bin/sps.js', ...args], env);

async function cli(...args: string[]) {
  const result = await runCli([...args, '--json'], env);
  return { code: result.code, json: JSON.parse(result.stdout.trim() || '{}') as Record<string, any>, stderr: result.stderr };
}

const api = (apiKey: string, path = '/v1/social-accounts') => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });

// Each command is a process that starts the runtime (pool, migrations check): seconds each on a busy machine.
describe('operator CLI', { timeout: 300_000 }, () => {
  it('sets up a workspace, people, keys, accounts and plans', async () => {
    const setup = await cli('setup', '--workspace', 'Acme', '--email', 'owner@acme.test', '--password', 'owner password');
    expect(setup.code).toBe(0);
    expect(setup.json).toEqual({ workspaceId: expect.any(String), userId: expect.any(String), apiKey: expect.stringMatching(/^sps_/) });
    const { workspaceId, userId: ownerId, apiKey: ownerKey } = setup.json;

    const admin = await cli('users', 'add', '--workspace', workspaceId, '--email', 'admin@acme.test', '--role', 'admin');
    expect(admin.json).toEqual({ userId: expect.any(String) });
    const readOnly = await cli('keys', 'create', '--workspace', workspaceId, '--user', admin.json.userId, '--preset', 'read-only');
    expect(readOnly.json).toEqual({ keyId: expect.any(String), apiKey: expect.stringMatching(/^sps_/) });

    const connected = await cli(
      'accounts',
      'connect',
      '--workspace',
      workspaceId,
      '--provider',
      'sandbox',
      '--username',
      'acme',
      '--display-name',
      'Acme Sandbox',
    );
    const mastodon = await cli(
      'accounts',
      'connect',
      '--workspace',
      workspaceId,
      '--provider',
      'mastodon',
      '--username',
      'acme@mastodon.example',
      '--access-token',
      'secret-provider-token-123',
      '--instance-url',
      'https://mastodon.example',
    );
    expect(mastodon.code).toBe(0);
    // A network not published to yet: no account of it is stored, whatever tokens the operator has.
    const linkedin = await cli(
      'accounts',
      'connect',
      '--workspace',
      workspaceId,
      '--provider',
      'linkedin',
      '--username',
      'acme',
      '--access-token',
      'linkedin-token',
    );
    expect(linkedin.code).toBe(1);
    expect(linkedin.json.error).toMatchObject({ code: 'PROVIDER_NOT_AVAILABLE', message: 'Publishing to LinkedIn is not available on this installation yet.' });
    const listed = await (await api(readOnly.json.apiKey)).json();
    expect(listed.data.map((a: { id: string }) => a.id).sort()).toEqual([connected.json.connectionId, mastodon.json.connectionId].sort());
    expect(JSON.stringify(listed)).not.toContain('secret-provider-token-123');

    // Provider tokens are encrypted at rest.
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [mastodon.json.connectionId]);
    await db.end();
    expect(rows[0].encrypted_tokens).toMatch(/^v1\./);
    expect(rows[0].encrypted_tokens).not.toContain('secret-provider-token-123');

    const keys = await cli('keys', 'list', '--workspace', workspaceId);
    expect(keys.json.keys).toHaveLength(2);
    expect(JSON.stringify(keys.json)).not.toContain(readOnly.json.apiKey);

    expect((await cli('keys', 'revoke', '--key', readOnly.json.keyId)).code).toBe(0);
    expect((await api(readOnly.json.apiKey)).status).toBe(401);

    expect((await cli('accounts', 'revoke', '--connection', connected.json.connectionId)).code).toBe(0);
    const revoked = await (await api(ownerKey, `/v1/social-accounts/${connected.json.connectionId}`)).json();
    expect(revoked.data).toMatchObject({ status: 'REVOKED', needsReconnect: true });

    expect((await cli('plans', 'set', '--workspace', workspaceId, '--plan', 'pro', '--expired')).code).toBe(0);
    expect((await api(ownerKey)).status).toBe(402);
    expect((await cli('plans', 'set', '--workspace', workspaceId, '--plan', 'business', '--ai-credits', '100')).code).toBe(0);
    expect((await api(ownerKey)).status).toBe(200);

    const lastOwner = await cli('users', 'set-role', '--workspace', workspaceId, '--user', ownerId, '--role', 'viewer');
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.json.error.code).toBe('CONFLICT');
  });

  it('refuses keys for editors, and on a plan without API access, with clear errors', async () => {
    const setup = await cli('setup', '--workspace', 'Free', '--email', 'free@acme.test', '--plan', 'free');
    expect(setup.json.apiKey).toBeNull();
    const refusedPlan = await cli('keys', 'create', '--workspace', setup.json.workspaceId, '--user', setup.json.userId);
    expect(refusedPlan.code).toBe(1);
    expect(refusedPlan.json.error).toEqual({ code: 'ENTITLEMENT_EXCEEDED', message: 'The free plan does not include API access.' });

    await cli('plans', 'set', '--workspace', setup.json.workspaceId, '--plan', 'pro');
    const editor = await cli('users', 'add', '--workspace', setup.json.workspaceId, '--email', 'editor@acme.test', '--role', 'editor');
    const refusedRole = await cli('keys', 'create', '--workspace', setup.json.workspaceId, '--user', editor.json.userId);
    expect(refusedRole.json.error).toEqual({ code: 'FORBIDDEN', message: 'The editor role does not allow createApiKey.' });
  });

  it('refuses an invalid email and a short password with the domain rules, and creates nothing', async () => {
    const setup = await cli('setup', '--workspace', 'Invalid', '--email', 'not-an-email', '--password', 'short');
    expect(setup.code).toBe(1);
    expect(setup.json.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [
        { field: 'email', code: 'format', message: 'Must be a valid email.' },
        { field: 'password', code: 'minLength', message: 'Must be at least 12 characters long.' },
      ],
    });
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query("SELECT count(*)::int AS n FROM workspace WHERE name = 'Invalid'");
    await db.end();
    expect(rows[0].n).toBe(0);

    const text = await runCli(['setup', '--workspace', 'Invalid', '--email', 'owner@acme.test', '--password', '12345'], env);
    expect(text.code).toBe(1);
    expect(text.stderr.trim()).toBe('--password: Must be at least 12 characters long.');

    const workspace = (await cli('setup', '--workspace', 'Valid', '--email', 'valid@acme.test')).json.workspaceId;
    const added = await cli('users', 'add', '--workspace', workspace, '--email', 'viewer@@acme', '--role', 'viewer');
    expect(added.code).toBe(1);
    expect(added.json.error.details).toEqual([{ field: 'email', code: 'format', message: 'Must be a valid email.' }]);
  });

  it('answers wrong usage with exit code 2 and the reason', async () => {
    const missing = await runCli(['keys', 'create', '--workspace', 'not-an-id'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--workspace must be an id (UUID), got "not-an-id"');
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const scopes = await runCli(
      ['keys', 'create', '--workspace', crypto.randomUUID(), '--user', crypto.randomUUID(), '--scopes', 'posts:read,everything', '--json'],
      env,
    );
    expect(scopes.code).toBe(1);
    expect(JSON.parse(scopes.stdout).error.code).toBe('INVALID_REQUEST');
  });
});
