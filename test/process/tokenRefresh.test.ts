// Two processes refreshing one account's expiring tokens at once, against a real Bluesky PDS (which rotates
// refresh tokens): one refresh happens, the other process finds the new tokens, and the account stays ACTIVE with
// tokens that work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { AtpAgent } from '@atproto/api';
import { createTestDatabase } from '../support/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { startPds, type TestPds } from '../support/pds.ts';
import { apiFor } from '../support/posts.ts';
import { SecretBox } from '../../src/crypto/secretBox.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';

const encryptionKey = Buffer.alloc(32, 7).toString('base64');
let env: Record<string, string>;
let pds: TestPds;
let server: ServerProcess;
let db: pg.Client;
let connectionId: string;

const storedTokens = async (): Promise<{ status: string; tokens: ProviderTokens }> => {
  const { rows } = await db.query('SELECT status, encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return { status: rows[0].status, tokens: JSON.parse(new SecretBox(Buffer.from(encryptionKey, 'base64')).open(rows[0].encrypted_tokens)) };
};

beforeAll(async () => {
  pds = await startPds();
  const databaseUrl = await createTestDatabase();
  env = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: encryptionKey, NETWORK_ALLOWED_HOSTS: '127.0.0.1,localhost', RATE_LIMIT_PER_MINUTE: '100000' };
  const setup = JSON.parse((await runCli(['setup', '--workspace', 'Refresh', '--email', 'refresh@example.test', '--json'], env)).stdout);
  server = await startServerProcess(env);
  const alice = await pds.createAccount('alice');
  const connected = await apiFor(server.url, setup.apiKey)('POST', '/social-accounts', {
    provider: 'bluesky',
    identifier: alice.handle,
    appPassword: alice.appPassword,
    service: pds.url,
  });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  connectionId = connected.body.data.id;
  // The server's own refresh job (every 5 minutes) must not refresh the account before the two processes do.
  server.child.kill('SIGTERM');
  await server.exited;
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
}, 240_000);
afterAll(async () => {
  await db?.end();
  server?.child.kill('SIGKILL');
  await pds?.close();
});

describe('refreshing one account from two processes at once', () => {
  it('refreshes once; the other process takes the new tokens; the account stays ACTIVE and its tokens work', async () => {
    // The access token expires in a minute: due for the refresh the background job makes 15 minutes ahead.
    await db.query("UPDATE social_account SET token_expires_at = now() + interval '1 minute' WHERE id = $1", [connectionId]);
    const before = await storedTokens();
    const results = await Promise.all([1, 2].map(() => runCli(['accounts', 'refresh', '--connection', connectionId, '--json'], env)));
    const statuses = results.map((result) => JSON.parse(result.stdout).status).sort();
    expect(statuses).toEqual(['current', 'refreshed']);

    const after = await storedTokens();
    expect(after.status).toBe('ACTIVE');
    expect(after.tokens.refreshToken).not.toBe(before.tokens.refreshToken);
    // The stored session is the live one at the PDS: it answers for the account.
    const agent = new AtpAgent({ service: pds.url });
    await agent.resumeSession({
      accessJwt: after.tokens.accessToken,
      refreshJwt: after.tokens.refreshToken!,
      did: after.tokens.extra!.did!,
      handle: 'alice.test',
      active: true,
    });
    expect((await agent.com.atproto.server.getSession()).data.did).toBe(after.tokens.extra!.did);
  }, 240_000);
});
