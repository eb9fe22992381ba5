// Several machines' worth of processes on one PostgreSQL and one S3 store: 2 API processes (SPS_ROLE=api) and 2
// workers (SPS_ROLE=worker). 2,000 posts are published or scheduled and 100 images uploaded and processed while
// webhooks go to 3 endpoints; meanwhile one worker is killed (SIGKILL) and started again, and one API process is
// restarted. In the end every target is published exactly once, every file is ready, every event reached every
// endpoint, and no job is left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { apiFor, inSeconds, type Api } from '../support/posts.ts';
import { Receiver } from '../support/receiver.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import { image } from '../support/mediaFiles.ts';

const postCount = 2000;
const mediaCount = 100;
const events = ['target.published', 'media.ready'];

let env: Record<string, string>;
let s3: TestS3;
let db: pg.Client;
let apiKey: string;
let connectionIds: string[];
const receivers = [new Receiver(), new Receiver(), new Receiver()];
const running: ServerProcess[] = [];
/** The API processes serving now; calls go round them. */
let apis: ServerProcess[] = [];
let workers: ServerProcess[] = [];

async function start(role: 'api' | 'worker') {
  const server = await startServerProcess({ ...env, SPS_ROLE: role });
  running.push(server);
  return server;
}

let turn = 0;
const inFlight = new Map<ServerProcess, number>();
/** Runs `call` against the next API process in the rotation, counted as in flight there meanwhile. */
async function onAnyApi<T>(call: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = apis[turn++ % apis.length]!;
  inFlight.set(server, (inFlight.get(server) ?? 0) + 1);
  try {
    return await call(server);
  } finally {
    inFlight.set(server, inFlight.get(server)! - 1);
  }
}
/**
 * Calls as a well-behaved client does: every write carries an Idempotency-Key, and a 503 (a passing database failure,
 * documented with Retry-After) is sent again after that wait with the same key, which the 503 released.
 */
const api: Api = async (method, path, body, headers = {}) => {
  const keyed = method === 'GET' ? headers : { 'Idempotency-Key': randomUUID(), ...headers };
  for (let attempt = 1; ; attempt++) {
    const answer = await onAnyApi((server) => apiFor(server.url, apiKey)(method, path, body, keyed));
    if (answer.status !== 503 || attempt === 5) return answer;
    await sleep(1000); // the Retry-After a passing database failure answers with
  }
};

/** Runs `work` for 0..count-1, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs / 1000} s: ${what}`);
    await sleep(500);
  }
}

const count = async (sql: string, values: unknown[] = []) => Number((await db.query(sql, values)).rows[0].count);

beforeAll(async () => {
  s3 = await startTestS3();
  env = {
    DATABASE_URL: await createTestDatabase(),
    ENCRYPTION_KEY: Buffer.alloc(32, 11).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '10000000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
    LOG_LEVEL: 'warn',
    ...s3.env,
  };
  // The workspace is set up while the processes start: neither waits for the other.
  const [setup] = await Promise.all([
    runCli(['setup', '--workspace', 'Soak', '--email', 'soak@example.test', '--json'], env).then(({ stdout }) => JSON.parse(stdout)),
    Promise.all([start('api'), start('api')]).then((started) => (apis = started)),
    Promise.all([start('worker'), start('worker')]).then((started) => (workers = started)),
    ...receivers.map((receiver) => receiver.start()),
  ]);
  apiKey = setup.apiKey;
  connectionIds = await Promise.all(
    ['soak-a', 'soak-b'].map(async (username) => {
      const connected = await api('POST', '/social-accounts', { provider: 'sandbox', username });
      expect(connected.status).toBe(201);
      return connected.body.data.id as string;
    }),
  );
  db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
}, 180_000);
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(running.map((server) => server.exited));
  for (const receiver of receivers) await receiver.stop();
  await db?.end();
  await s3?.stop();
});

describe('2 API processes and 2 workers on one database and one bucket', () => {
  it('publish every target once, process every file and deliver every event, through a killed worker and a restarted API', { timeout: 420_000 }, async () => {
    for (const receiver of receivers) {
      const endpoint = (await api('POST', '/webhooks', { url: receiver.url, events })).body.data;
      receiver.secrets = [endpoint.secret];
    }

    const chaos: Promise<void>[] = [];
    let workerReturned!: () => void;
    const workerBack = new Promise<void>((resolve) => (workerReturned = resolve));
    const postIds: string[] = [];
    const sendingPosts = inParallel(postCount, 12, async (index) => {
      // A quarter of the way in, a worker dies without a chance to clean up and comes back; half-way, an API
      // process leaves the rotation (as a load balancer drains it), stops gracefully, and a new one takes its place.
      if (index === postCount / 4) {
        chaos.push(
          (async () => {
            const victim = workers[0]!;
            victim.child.kill('SIGKILL');
            await victim.exited;
            workers = [await start('worker'), workers[1]!];
            workerReturned();
          })(),
        );
      }
      if (index === postCount / 2) {
        chaos.push(
          (async () => {
            const [leaving, staying] = apis as [ServerProcess, ServerProcess];
            apis = [staying];
            await until('the leaving API process drained', async () => !inFlight.get(leaving), 30_000);
            leaving.child.kill('SIGTERM');
            expect(await leaving.exited).toBe(0);
            apis = [staying, await start('api')];
          })(),
        );
      }
      const created = await api('POST', '/posts', {
        content: { caption: `Soak ${index}` },
        targets: [{ connectionId: connectionIds[index % 2], placement: 'feed' }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      postIds.push(created.body.data.id);
      const answer =
        index % 2
          ? await api('POST', `/posts/${created.body.data.id}/schedule`, { scheduledAt: inSeconds(15), timezone: 'Europe/Berlin' })
          : await api('POST', `/posts/${created.body.data.id}/publish`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(index % 2 ? 200 : 202);
    });

    const mediaIds: string[] = [];
    // The files go up beside the remaining posts, once the killed worker is back.
    const sendingMedia = workerBack.then(() =>
      inParallel(mediaCount, 4, async (index) => {
        const png = await image('png', 40 + index, 30);
        const started = (await api('POST', '/media/uploads', { filename: `soak-${index}.png`, contentType: 'image/png', size: png.length })).body.data;
        // With S3 storage the file goes straight to the bucket (a presigned PUT), not through an API process.
        const put = await fetch(started.uploadUrl, { method: 'PUT', headers: started.headers, body: new Uint8Array(png) });
        expect(put.status).toBe(200);
        expect((await api('POST', `/media/uploads/${started.id}/complete`)).status).toBe(202);
        mediaIds.push(started.id);
      }),
    );
    await Promise.all([sendingPosts, sendingMedia]);
    await Promise.all(chaos);

    await until(
      'every post published',
      async () => (await count(`SELECT count(*) FROM post WHERE status = 'published' AND id = ANY($1::uuid[])`, [postIds])) === postCount,
      180_000,
    );
    await until(
      'every file ready',
      async () => (await count(`SELECT count(*) FROM media WHERE status = 'ready' AND id = ANY($1::uuid[])`, [mediaIds])) === mediaCount,
      60_000,
    );
    const eventIds = new Set((await db.query<{ id: string }>('SELECT id FROM outbox_event WHERE type = ANY($1)', [events])).rows.map((row) => row.id));
    expect(eventIds.size).toBe(postCount + mediaCount);
    await until(
      'every event at every endpoint',
      async () => receivers.every((receiver) => new Set(receiver.received.map((r) => r.envelope.id)).size === eventIds.size),
      120_000,
    );

    // Exactly once at the network: one sandbox item per target, none twice.
    const items = await db.query<{ key: string; n: string }>(
      `SELECT i.idempotency_key AS key, count(*) AS n FROM sandbox_item i JOIN post_target t ON t.id::text = i.idempotency_key WHERE t.post_id = ANY($1::uuid[]) GROUP BY i.idempotency_key`,
      [postIds],
    );
    expect(items.rows).toHaveLength(postCount);
    expect(items.rows.filter((row) => Number(row.n) !== 1)).toEqual([]);
    for (const receiver of receivers) {
      expect(new Set(receiver.received.map((r) => r.envelope.id))).toEqual(eventIds);
      expect(receiver.received.every((r) => r.verifiedBy.ours.length === 1)).toBe(true);
    }
    // No job lost or left failed: nothing waits, runs or failed in the queues the work went through.
    const left = await db.query<{ name: string; state: string; n: string }>(
      `SELECT name, state, count(*) AS n FROM pgboss.job WHERE name IN ('publish-target', 'process-media', 'webhook-drain') AND state IN ('created', 'retry', 'active', 'failed') GROUP BY name, state`,
    );
    expect(left.rows).toEqual([]);
  });
});
