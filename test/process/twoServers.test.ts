// Two server processes on one database share each person's rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { startOfFreshWindow } from '../support/rateWindow.ts';

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

describe('two server processes', () => {
  it('hold one rate limit between them', async () => {
    const setup = await runCli(['setup', '--workspace', 'Two', '--email', 'two@example.test', '--json'], { DATABASE_URL: databaseUrl });
    const { apiKey } = JSON.parse(setup.stdout);
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const call = (server: ServerProcess) => fetch(`${server.url}/v1/social-accounts`, { headers: { authorization: `Bearer ${apiKey}` } });
    await startOfFreshWindow(15);
    const statuses = [];
    for (const server of [a, b, a, b, a, b]) statuses.push((await call(server)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
