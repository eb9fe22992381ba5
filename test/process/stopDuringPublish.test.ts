// Stopping the server while a publish is in flight, on its embedded PostgreSQL: Ctrl-C in a terminal (SIGINT to
// the whole process group) and SIGTERM from a process manager. Either way the publish finishes, the process exits
// 0 with nothing unhandled, and after a restart the post is published exactly once.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, runCli, scratchDataDir, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';

const running: ServerProcess[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) continue;
    server.child.kill('SIGKILL');
    await server.exited;
  }
  // A test that failed half-way leaves its cluster running: it is in a process group of its own.
  for (const dataDir of dataDirs.splice(0)) {
    if (!existsSync(join(dataDir, 'postgres', 'postmaster.pid'))) continue;
    const { pid } = embeddedCluster(dataDir);
    if (alive(pid)) process.kill(pid, 'SIGINT');
  }
});

/** The embedded cluster of a data folder, read the way the server finds it: postmaster.pid and the password file. */
function embeddedCluster(dataDir: string) {
  const [pid, , , port] = readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
  return { pid: Number(pid), url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/social` };
}

async function sandboxItemsOf(dataDir: string, targetId: string): Promise<number> {
  const client = new pg.Client({ connectionString: embeddedCluster(dataDir).url });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) FROM sandbox_item WHERE idempotency_key = $1', [targetId])).rows[0].count);
  } finally {
    await client.end();
  }
}

async function startDetached(env: Record<string, string>) {
  const server = await startServerProcess(env, { detached: true });
  running.push(server);
  return server;
}

async function stopWhilePublishing(stop: (server: ServerProcess) => void) {
  const dataDir = scratchDataDir();
  dataDirs.push(dataDir);
  // The embedded database, not DATABASE_URL: it is what a terminal's Ctrl-C reached.
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', RATE_LIMIT_PER_MINUTE: '100000' };
  const server = await startDetached(env);
  const setup = JSON.parse((await runCli(['setup', '--workspace', 'Stop', '--email', 'stop@example.test', '--json'], env)).stdout);
  const connected = await runCli(['accounts', 'connect', '--workspace', setup.workspaceId, '--provider', 'sandbox', '--username', 'stop', '--json'], env);
  const connectionId = JSON.parse(connected.stdout).connectionId;
  const api = apiFor(server.url, setup.apiKey);

  // [sandbox:slow] holds the network call for 3 s after the network created the item.
  const post = (await api('POST', '/posts', { content: { caption: 'Stopped mid-publish [sandbox:slow]' }, targets: [{ connectionId, placement: 'feed' }] }))
    .body.data;
  const targetId: string = post.targets[0].id;
  expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
  for (let i = 0; i < 100 && (await sandboxItemsOf(dataDir, targetId)) === 0; i++) await sleep(50);
  expect(await sandboxItemsOf(dataDir, targetId)).toBe(1);

  const postgres = embeddedCluster(dataDir).pid;
  stop(server);
  expect(await server.exited).toBe(0);
  expect(server.output()).not.toMatch(/unhandled|uncaught/i);
  expect(server.output()).toMatch(/"msg":"stopped"/);
  // The database stopped last, with the server, and not before it.
  expect(alive(postgres)).toBe(false);

  const restarted = await startDetached(env);
  const published = await waitForPost(apiFor(restarted.url, setup.apiKey), post.id, ['published'], 1_000);
  expect(published.targets[0]).toMatchObject({ status: 'published', attempts: 1 });
  expect(await sandboxItemsOf(dataDir, targetId)).toBe(1);
  restarted.child.kill('SIGTERM');
  expect(await restarted.exited).toBe(0);
}

// Two servers and two CLI runs per test: slow on a busy machine.
describe('stopping while a publish is in flight', { timeout: 180_000 }, () => {
  it('Ctrl-C (SIGINT to the whole process group) lets the publish finish and exits 0', async () => {
    await stopWhilePublishing((server) => process.kill(-server.child.pid!, 'SIGINT'));
  });

  it('SIGTERM lets the publish finish and exits 0', async () => {
    await stopWhilePublishing((server) => server.child.kill('SIGTERM'));
  });
});
