// Section `publishing`: 1,000 posts scheduled for the same second on the sandbox network. Prints the delay from
// each target's scheduled time to its publication (p50, p99, max) and the targets published per second, with the
// publishing done by the real server process (bin/server.ts) and its pg-boss workers.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { createPost } from '../src/posts/posts.ts';
import { schedulePost } from '../src/posts/publishing.ts';
import type { Services } from '../src/runtime.ts';
import { benchRuntime, benchWorkspace, cpuMs, startChildServer, type Bench } from './support.ts';

const posts = 1000;
const accounts = 10;
const sample = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

export async function publishing(bench: Bench): Promise<void> {
  const env = { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000' };
  const runtime = await benchRuntime(env);
  const server = await startChildServer('bin/server.ts', env);
  try {
    console.log(`publisher: ${server.url}`);
    await dueBurst(bench, runtime.services, 'publish', server.pid);
  } finally {
    await server.stop();
    await runtime.stop();
  }
}

/**
 * 1,000 posts of a workspace of their own (one sandbox target each) scheduled for the same second, published by the
 * server already running (process `serverPid`); prints the delays from the due time to publication, the rate, and
 * where the time went per target: CPU used by the server and by PostgreSQL, and the statements run where counted.
 */
export async function dueBurst(bench: Bench, services: Services, label: string, serverPid: number): Promise<void> {
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    const { apiKey } = await benchWorkspace(services, label);
    const { actor } = await services.callers.resolve({ kind: 'apiKey', token: apiKey! });
    const connectionIds = await sandboxAccounts(services, actor.workspaceId, accounts, label);
    const ids: string[] = [];
    await inBatches([...Array(posts).keys()], 20, async (i) => {
      const post = await createPost(services.db, actor, {
        content: { caption: `Bench post ${i}` },
        targets: [{ connectionId: connectionIds[i % accounts]!, placement: 'feed' }],
      });
      ids.push(post.id);
    });
    // The lead time comes from this machine's measured scheduling speed (a fixed one ran out on a loaded machine):
    // a sample is scheduled an hour ahead, then all posts (the sample rescheduled) for twice the time that rate needs, + 3 s.
    const schedule = (scheduledAt: Date) => (id: string) =>
      schedulePost(services.db, services.boss, services.outbox, actor, id, { scheduledAt, timezone: 'UTC' });
    const sampleStarted = performance.now();
    await inBatches(ids.slice(0, sample), 20, schedule(new Date(Date.now() + 3_600_000)));
    const perPostMs = (performance.now() - sampleStarted) / sample;
    const leadSeconds = Math.ceil((2 * perPostMs * posts) / 1000) + 3;
    console.log(
      `scheduling: ${perPostMs.toFixed(1)} ms a post (sample of ${sample}), lead ${leadSeconds} s; load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
    const scheduledAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + leadSeconds * 1000);
    await inBatches(ids, 20, schedule(scheduledAt));
    const lead = (scheduledAt.getTime() - Date.now()) / 1000;
    if (lead < 1) console.log('WARNING: scheduling took longer than the lead time; delays include it');
    console.log(`${posts} posts (1 target each, ${accounts} sandbox accounts) scheduled for ${scheduledAt.toISOString()}, ${lead.toFixed(1)} s ahead`);

    // Costs are counted from the moment workers may take the jobs (a second before the due time).
    await sleep(Math.max(0, scheduledAt.getTime() - 1000 - Date.now()));
    const before = await costSoFar(db, serverPid);
    const deadline = scheduledAt.getTime() + 120_000;
    let done = 0;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ done: string }>(
        `SELECT count(*) AS done FROM post_target t JOIN post p ON p.id = t.post_id WHERE p.workspace_id = $1 AND t.status IN ('published', 'failed')`,
        [actor.workspaceId],
      );
      done = Number(rows[0]!.done);
      if (done >= posts) break;
      await sleep(200);
    }
    const after = await costSoFar(db, serverPid);
    const { rows } = await db.query<{ published_at: Date; status: string }>(
      `SELECT t.published_at, t.status FROM post_target t JOIN post p ON p.id = t.post_id WHERE p.workspace_id = $1`,
      [actor.workspaceId],
    );
    const published = rows.filter((row) => row.status === 'published');
    const delays = published.map((row) => row.published_at.getTime() - scheduledAt.getTime()).sort((a, b) => a - b);
    const first = delays[0] ?? 0;
    const last = delays.at(-1) ?? 0;
    console.log(`published ${published.length}/${posts}${published.length < posts ? ` (WARNING: ${posts - published.length} not published)` : ''}`);
    console.log(
      `delay from scheduled time to published: first=${first} ms  p50=${percentile(delays, 50)} ms  p99=${percentile(delays, 99)} ms  max=${last} ms  (target p99 <= 1000 ms)`,
    );
    const rate = published.length / Math.max(0.001, (last - first) / 1000);
    console.log(`throughput: ${rate.toFixed(0)} targets/s between the first and the last publication (target >= 2000)`);
    let databaseCpuMs = 0;
    for (const [pid, used] of after.databaseCpuMs) databaseCpuMs += used - (before.databaseCpuMs.get(pid) ?? 0);
    const perTarget = (total: number) => (total / posts).toFixed(2);
    const statements =
      before.statements === null || after.statements === null
        ? 'statements not counted (they are with a DATABASE_URL whose server preloads pg_stat_statements and has it created)'
        : `${perTarget(after.statements - before.statements)} statements (1 of them the sandbox network's own insert, and this bench's polling)`;
    console.log(
      `per target: CPU ${perTarget(after.serverCpuMs - before.serverCpuMs)} ms in the server and ${perTarget(databaseCpuMs)} ms in PostgreSQL; ${statements}`,
    );
  } finally {
    await db.end();
  }
}

/**
 * The server process's CPU time, the CPU time of each of PostgreSQL's processes (a backend that exits between two
 * readings takes its share with it), and the statements run, where the database server counts them
 * (pg_stat_statements preloaded and created in the database; else null).
 */
async function costSoFar(db: pg.Client, serverPid: number) {
  const { rows } = await db.query<{ pids: number[] }>('SELECT array_agg(pid) AS pids FROM pg_stat_activity');
  const databaseCpuMs = new Map<number, number>();
  for (const pid of rows[0]!.pids) databaseCpuMs.set(pid, await cpuMs(pid));
  const statements = await db.query<{ calls: string }>('SELECT sum(calls) AS calls FROM pg_stat_statements').then(
    (result) => Number(result.rows[0]!.calls),
    () => null,
  );
  return { serverCpuMs: await cpuMs(serverPid), databaseCpuMs, statements };
}

/** `count` sandbox accounts connected to the workspace. */
export async function sandboxAccounts(services: Services, workspaceId: string, count: number, label: string): Promise<string[]> {
  const connectionIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const { connectionId } = await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
      workspaceId,
      provider: 'sandbox',
      username: `${label}-${i}`,
    });
    connectionIds.push(connectionId);
  }
  return connectionIds;
}
