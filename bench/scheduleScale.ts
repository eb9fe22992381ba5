// Section `schedule-scale`: what a million scheduled targets cost. Scheduled posts (1–5 targets each, due over the
// next 30 days) are stored as scheduling stores them (posts, targets and their publish jobs), first 10^3 targets,
// then 10^6: load time and database size, then at each size the posts list (`GET /v1/posts?status=scheduled`), the
// calendar's month query (GraphQL `posts(from, to)`), rescheduling and deleting one post, and finally 1,000 posts
// due in one second among the million (the `publishing` section's burst).
import { loadavg } from 'node:os';
import pg from 'pg';
import { queueNames } from '../src/jobs/boss.ts';
import { publishJobs } from '../src/posts/runs.ts';
import type { Services } from '../src/runtime.ts';
import { dueBurst, sandboxAccounts } from './publishing.ts';
import { benchRuntime, benchWorkspace, figuresLine, measure, startChildServer, type Bench } from './support.ts';

const sizes = (process.env.BENCH_SCALE_TARGETS ?? '1000,1000000').split(',').map(Number);
const accounts = 10;
const postsPerChunk = 5_000;
const jobsPerInsert = 10_000;

export async function scheduleScale(bench: Bench): Promise<void> {
  const env = { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000' };
  const runtime = await benchRuntime(env);
  const server = await startChildServer('bin/server.ts', env);
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    const { services } = runtime;
    const { workspaceId, apiKey } = await benchWorkspace(services, 'scale');
    const connectionIds = await sandboxAccounts(services, workspaceId, accounts, 'scale');
    const { rows: owner } = await db.query<{ user_id: string }>('SELECT user_id FROM membership WHERE workspace_id = $1 LIMIT 1', [workspaceId]);
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const figures: Record<string, number>[] = [];
    let stored = 0;
    for (const size of sizes) {
      const started = performance.now();
      while (stored < size) {
        stored += await storeScheduled(db, services, { workspaceId, userId: owner[0]!.user_id, connectionIds, upTo: size - stored });
        process.stdout.write(`\rstored ${stored} scheduled targets`);
      }
      const { rows: size_ } = await db.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
      console.log(
        `\n${stored} scheduled targets: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s, database ${(Number(size_[0]!.bytes) / 2 ** 20).toFixed(0)} MiB; load average ${loadavg()[0]!.toFixed(2)}`,
      );
      await db.query('ANALYZE');
      const list = await measure(`${server.url}/v1/posts?status=scheduled&limit=50`, headers);
      console.log(figuresLine('  GET /v1/posts?status=scheduled (first page of 50)', list));
      const monthStart = new Date(Date.now() + 10 * 86_400_000);
      const month = await measure(`${server.url}/graphql`, headers, {
        method: 'POST',
        body: JSON.stringify({
          query: 'query ($from: DateTime!, $to: DateTime!) { posts(from: $from, to: $to, first: 100) { edges { node { id status scheduledAt } } } }',
          variables: { from: monthStart.toISOString(), to: new Date(monthStart.getTime() + 30 * 86_400_000).toISOString() },
        }),
      });
      console.log(figuresLine('  GraphQL posts(from, to) over a month (first 100)', month));
      const reschedule = await oneByOne(db, workspaceId, (id) =>
        fetch(`${server.url}/v1/posts/${id}/schedule`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ scheduledAt: new Date(Date.now() + 40 * 86_400_000).toISOString(), timezone: 'UTC' }),
        }),
      );
      const remove = await oneByOne(db, workspaceId, (id) => fetch(`${server.url}/v1/posts/${id}`, { method: 'DELETE', headers }));
      console.log(`  reschedule one post: p50=${reschedule.p50} ms p99=${reschedule.p99} ms; delete one post: p50=${remove.p50} ms p99=${remove.p99} ms`);
      figures.push({ list: list.p99, month: month.p99, reschedule: reschedule.p99, remove: remove.p99 });
    }
    if (figures.length > 1) {
      const [small, large] = [figures[0]!, figures.at(-1)!];
      const ratio = (key: string) => `${key} ${(large[key]! / small[key]!).toFixed(2)}`;
      console.log(`p99 at ${sizes.at(-1)} stored / at ${sizes[0]} (target within 1.10): ${['list', 'month', 'reschedule', 'remove'].map(ratio).join(', ')}`);
    }
    await dueBurst(bench, services, 'scale-burst', server.pid);
  } finally {
    await db.end();
    await server.stop();
    await runtime.stop();
  }
}

/**
 * Up to `upTo` targets (at most a chunk's worth) of scheduled posts with 1–5 targets each, due within the next 30
 * days, written as scheduling writes them: the post, its targets and one publish job per target. Returns how many.
 */
async function storeScheduled(
  db: pg.Client,
  services: Services,
  options: { workspaceId: string; userId: string; connectionIds: string[]; upTo: number },
): Promise<number> {
  await db.query('BEGIN');
  const { rows } = await db.query<{ post_id: string; run_id: string; scheduled_at: Date; target_ids: string[] }>(
    `WITH post AS (
       INSERT INTO post (id, workspace_id, created_by_id, caption, status, scheduled_at, timezone, publish_run_id)
       SELECT gen_random_uuid(), $1, $2, 'Scheduled post ' || n, 'scheduled',
              date_trunc('minute', now() + interval '1 hour' + random() * interval '30 days'), 'UTC', gen_random_uuid()
       FROM generate_series(1, $3::int) n
       RETURNING id, publish_run_id, scheduled_at),
     sized AS (SELECT post.*, 1 + floor(random() * 5)::int AS targets FROM post),
     target AS (
       INSERT INTO post_target (id, post_id, connection_id, placement, position)
       SELECT gen_random_uuid(), sized.id, ($4::uuid[])[1 + k], 'feed', k
       FROM sized, generate_series(0, sized.targets - 1) k
       RETURNING id, post_id)
     SELECT sized.id AS post_id, sized.publish_run_id AS run_id, sized.scheduled_at, array_agg(target.id) AS target_ids
     FROM sized JOIN target ON target.post_id = sized.id GROUP BY sized.id, sized.publish_run_id, sized.scheduled_at`,
    [options.workspaceId, options.userId, Math.max(1, Math.min(postsPerChunk, Math.ceil(options.upTo / 3))), options.connectionIds],
  );
  const jobs = rows.flatMap((row) => publishJobs(row.post_id, row.target_ids, row.run_id, row.scheduled_at));
  const executeSql = async (text: string, values: unknown[] = []) => ({ rows: (await db.query(text, values)).rows });
  for (let i = 0; i < jobs.length; i += jobsPerInsert) {
    await services.boss.insert(queueNames.publishTarget, jobs.slice(i, i + jobsPerInsert), { db: { executeSql } });
  }
  await db.query('COMMIT');
  return jobs.length;
}

/** 50 scheduled posts picked at random, each sent through `call` one at a time: the latencies' p50 and p99. */
async function oneByOne(db: pg.Client, workspaceId: string, call: (postId: string) => Promise<Response>) {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM post TABLESAMPLE SYSTEM (1) WHERE workspace_id = $1 AND status = 'scheduled' LIMIT 50`, [
    workspaceId,
  ]);
  const ids = rows.length
    ? rows
    : (await db.query<{ id: string }>(`SELECT id FROM post WHERE workspace_id = $1 AND status = 'scheduled' LIMIT 50`, [workspaceId])).rows;
  const latencies: number[] = [];
  for (const { id } of ids) {
    const started = performance.now();
    const response = await call(id);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.ceil(share * latencies.length) - 1)]!.toFixed(1);
  return { p50: Number(at(0.5)), p99: Number(at(0.99)) };
}
