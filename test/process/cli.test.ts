// The operator CLI as installed (`sps`: bin/sps.js running the compiled output in dist/), as a process: with --json
// each command prints one JSON object on stdout, errors without --json go to stderr, and the exit code says how it
// went (0 done, 1 refused, 2 wrong usage). What each command does is test/http/operatorCommands.test.ts's, in-process.
import { beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../support/database.ts';
import { runCli } from '../support/processes.ts';

let env: Record<string, string>;

beforeAll(async () => {
  env = { DATABASE_URL: await createTestDatabase(), ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') };
});

const sps = (...args: string[]) => runCli(args, env);

// Each command is a process that starts the runtime (pool, migrations check): seconds each on a busy machine.
describe('sps', { timeout: 120_000 }, () => {
  it('prints one JSON object and exits with 0 when done, and 1 when refused, in the database it is given', async () => {
    const setup = await sps('setup', '--workspace', 'Acme', '--email', 'owner@acme.test', '--password', 'owner password', '--json');
    expect(setup).toMatchObject({ code: 0, stderr: '' });
    expect(setup.stdout.trim().split('\n')).toHaveLength(1);
    const { workspaceId, userId, apiKey } = JSON.parse(setup.stdout);
    expect(apiKey).toMatch(/^sps_/);
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('SELECT name FROM workspace WHERE id = $1', [workspaceId]);
    await db.end();
    expect(rows).toEqual([{ name: 'Acme' }]);

    const lastOwner = await sps('users', 'set-role', '--workspace', workspaceId, '--user', userId, '--role', 'viewer', '--json');
    expect(lastOwner.code).toBe(1);
    expect(JSON.parse(lastOwner.stdout).error.code).toBe('CONFLICT');
  });

  it('without --json, says why on stderr', async () => {
    const text = await sps('setup', '--workspace', 'Invalid', '--email', 'owner@acme.test', '--password', '12345');
    expect(text).toMatchObject({ code: 1, stdout: '' });
    expect(text.stderr.trim()).toBe('--password: Must be at least 12 characters long.');
  });

  it('answers wrong usage with exit code 2 and the reason', async () => {
    const missing = await sps('keys', 'create', '--workspace', 'not-an-id');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--workspace must be an id (UUID), got "not-an-id"');
    const unknown = await sps('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });
});
