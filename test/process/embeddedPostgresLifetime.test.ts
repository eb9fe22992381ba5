// The embedded PostgreSQL does not outlive the server that started it. Killed with kill -9, the server cannot stop
// it, and the postmaster runs in a session of its own: the server's watchdog stops it. When the watchdog was killed
// too (kill -9 of the whole process group), the next start stops the orphan instead of joining it, so that the next
// clean stop really stops the database.
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, embeddedPostmasterPid, scratchDataDir, startServerProcess, type ServerProcess } from '../support/processes.ts';

const servers: ServerProcess[] = [];
const postmasters: number[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  // What a failed test leaves running: the clusters are in process groups of their own.
  for (const pid of postmasters) if (alive(pid)) process.kill(pid, 'SIGINT');
});

/** A server on the embedded database of `dataDir` (not DATABASE_URL: these tests are about that database). */
async function startOn(dataDir: string, options: { detached?: boolean } = {}): Promise<{ server: ServerProcess; postmaster: number }> {
  const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' }, options);
  servers.push(server);
  const postmaster = embeddedPostmasterPid(dataDir);
  postmasters.push(postmaster);
  return { server, postmaster };
}

async function endsWithin(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; alive(pid) && waited < ms; waited += 100) await sleep(100);
  return !alive(pid);
}

async function stopCleanly(server: ServerProcess, postmaster: number, dataDir: string) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  expect(await endsWithin(postmaster, 5_000), 'a clean stop left PostgreSQL running').toBe(true);
  expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(dataDir);
}

describe('the embedded database', { timeout: 180_000 }, () => {
  it('stops within seconds when its server is killed with kill -9, and a later start and clean stop leave none running', async () => {
    const dataDir = scratchDataDir();
    const first = await startOn(dataDir);
    first.server.child.kill('SIGKILL');
    await first.server.exited;
    expect(await endsWithin(first.postmaster, 5_000), "the killed server's PostgreSQL still runs").toBe(true);

    const second = await startOn(dataDir);
    expect(second.postmaster).not.toBe(first.postmaster);
    await stopCleanly(second.server, second.postmaster, dataDir);
  });

  it('left running by a server killed with its whole process group, is stopped by the next start, not joined', async () => {
    const dataDir = scratchDataDir();
    const first = await startOn(dataDir, { detached: true });
    process.kill(-first.server.child.pid!, 'SIGKILL');
    await first.server.exited;
    // Nothing of the server's is left to stop it.
    await sleep(1000);
    expect(alive(first.postmaster)).toBe(true);

    const second = await startOn(dataDir);
    expect(alive(first.postmaster), 'the next start joined the orphaned PostgreSQL').toBe(false);
    expect(second.postmaster).not.toBe(first.postmaster);
    await stopCleanly(second.server, second.postmaster, dataDir);
  });
});
