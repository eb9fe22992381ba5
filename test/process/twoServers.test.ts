// Two server processes on one database share each person's rate limit: never more than the limit passes
// between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

const limit = 4;
let databaseUrl: string;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: String(limit), ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
  servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
});
afterAll(async () => {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
});

async function ownerKey(email: string): Promise<string> {
  const setup = await runCli(['setup', '--workspace', email, '--email', email, '--json'], { DATABASE_URL: databaseUrl });
  return JSON.parse(setup.stdout).apiKey;
}

const call = (server: ServerProcess, apiKey: string) =>
  fetch(`${server.url}/v1/social-accounts`, { headers: { authorization: `Bearer ${apiKey}` } }).then((response) => response.status);

describe('two server processes', () => {
  it('hold one rate limit between them', async () => {
    const apiKey = await ownerKey('two@example.test');
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const statuses = [];
    for (const server of [a, b, a, b, a, b]) statuses.push(await call(server, apiKey));
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('never pass more than the limit together under concurrent requests', async () => {
    const apiKey = await ownerKey('concurrent@example.test');
    const statuses = await Promise.all(servers.flatMap((server) => Array.from({ length: 16 }, () => call(server, apiKey))));
    const passed = statuses.filter((status) => status === 200).length;
    expect(passed).toBeLessThanOrEqual(limit);
    expect(passed).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
  });
});
