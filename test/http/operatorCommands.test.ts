// The operator CLI's commands (bin/operatorCommands.ts) in-process: what each argument list does, seen through the
// API, and what it answers. test/process/cli.test.ts runs the real `sps` process for what only a process shows
// (its stdout, stderr and exit code).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { readInvocation } from '../../bin/operatorCommands.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => (service = await startTestService({ ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') })));
afterAll(() => service.stop());

/** Runs `sps <args>` on the service's runtime. */
async function sps(...args: string[]) {
  const invocation = readInvocation(args);
  return 'exitCode' in invocation ? invocation : invocation.run(service.services);
}

async function cli(...args: string[]) {
  const { exitCode, stdout, stderr } = await sps(...args, '--json');
  return { code: exitCode, json: JSON.parse(stdout.trim() || '{}') as Record<string, any>, stderr };
}

const api = (apiKey: string, path = '/v1/social-accounts') => fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });

async function query(sql: string, values: unknown[] = []) {
  const db = new pg.Client({ connectionString: service.databaseUrl });
  await db.connect();
  try {
    return (await db.query(sql, values)).rows;
  } finally {
    await db.end();
  }
}

describe('operator commands', () => {
  it('set up a workspace, people, keys, accounts and plans', async () => {
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
    const listed = await (await api(readOnly.json.apiKey)).json();
    expect(listed.data.map((a: { id: string }) => a.id).sort()).toEqual([connected.json.connectionId, mastodon.json.connectionId].sort());
    expect(listed.data.find((a: { id: string }) => a.id === connected.json.connectionId)).toMatchObject({ displayName: 'Acme Sandbox' });
    expect(JSON.stringify(listed)).not.toContain('secret-provider-token-123');

    // Provider tokens are encrypted at rest.
    const [{ encrypted_tokens }] = await query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [mastodon.json.connectionId]);
    expect(encrypted_tokens).toMatch(/^v1\./);
    expect(encrypted_tokens).not.toContain('secret-provider-token-123');

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

  it('refuse keys for editors, and on a plan without API access, with clear errors', async () => {
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

  it('refuse an invalid email and a short password with the domain rules, and create nothing', async () => {
    const setup = await cli('setup', '--workspace', 'Invalid', '--email', 'not-an-email', '--password', 'short');
    expect(setup.code).toBe(1);
    expect(setup.json.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [
        { field: 'email', code: 'format', message: 'Must be a valid email.' },
        { field: 'password', code: 'minLength', message: 'Must be at least 12 characters long.' },
      ],
    });
    expect(await query("SELECT count(*)::int AS n FROM workspace WHERE name = 'Invalid'")).toEqual([{ n: 0 }]);

    // Without --json, each detail names the option it is about.
    const text = await sps('setup', '--workspace', 'Invalid', '--email', 'owner@acme.test', '--password', '12345');
    expect(text).toEqual({ exitCode: 1, stdout: '', stderr: '--password: Must be at least 12 characters long.' });

    const workspace = (await cli('setup', '--workspace', 'Valid', '--email', 'valid@acme.test')).json.workspaceId;
    const added = await cli('users', 'add', '--workspace', workspace, '--email', 'viewer@@acme', '--role', 'viewer');
    expect(added.code).toBe(1);
    expect(added.json.error.details).toEqual([{ field: 'email', code: 'format', message: 'Must be a valid email.' }]);
  });

  it('answer wrong usage with exit code 2 and the reason', async () => {
    const missing = await sps('keys', 'create', '--workspace', 'not-an-id');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--workspace must be an id (UUID), got "not-an-id"');
    const unknown = await sps('frobnicate');
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const option = await sps('keys', 'list', '--frobnicate');
    expect(option.exitCode).toBe(2);
    expect(option.stderr).toContain("Unknown option '--frobnicate'");
    const scopes = await cli('keys', 'create', '--workspace', crypto.randomUUID(), '--user', crypto.randomUUID(), '--scopes', 'posts:read,everything');
    expect(scopes.code).toBe(1);
    expect(scopes.json.error.code).toBe('INVALID_REQUEST');
  });
});
