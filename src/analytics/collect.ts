// Reading metrics. A published target appears in analytics at once, with zeros on the day it was published;
// its network's figures are then read (through its adapter) on a decaying schedule: minutes after publishing,
// then less and less often while a post's figures settle. Each reading stores what the target gained since the
// days already stored as the reading day's row.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { viaPool, type SqlRunner } from '../events/outbox.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import { metricColumns, metricNames, zeroMetrics, type Metrics } from './metrics.ts';

const minute = 60;
const hour = 60 * minute;
const day = 24 * hour;
/** When each target's figures are read, in seconds after it was published. */
export const readingSchedule = [2 * minute, hour, 6 * hour, day, 3 * day, 7 * day, 30 * day] as const;

export interface ReadMetricsJob {
  targetId: string;
  /** Which reading of `readingSchedule` this is. */
  reading: number;
}

interface PublishedTarget {
  id: string;
  post_id: string;
  workspace_id: string;
  connection_id: string;
  provider: string;
  username: string;
  account_remote_id: string | null;
  encrypted_tokens: string | null;
  remote_id: string;
  published_at: Date;
}

type ReadingDeps = { db: Database; adapters: ProviderAdapters; secrets: SecretBox; logger: Logger };

/** Schedules readings; jobs are queued through the caller's SQL, so they commit with its transaction. */
export class MetricReadings {
  readonly #boss: PgBoss;

  constructor(boss: PgBoss) {
    this.#boss = boss;
  }

  /** In the transaction that records targets published: their zero row for the publishing day and their first reading. */
  async startFor(sql: SqlRunner, targetIds: string[]): Promise<void> {
    if (!targetIds.length) return;
    // The zero row's collected_at is the publishing time, which the first reading is scheduled from.
    const targets = await sql.query<{ id: string; published_at: Date }>(
      `INSERT INTO target_metric_day (target_id, day, workspace_id, post_id, connection_id, provider, collected_at)
       SELECT t.id, (t.published_at AT TIME ZONE 'UTC')::date, p.workspace_id, t.post_id, t.connection_id, a.provider, t.published_at
       FROM post_target t JOIN post p ON p.id = t.post_id JOIN social_account a ON a.id = t.connection_id
       WHERE t.id = ANY($1::uuid[]) AND t.published_at IS NOT NULL
       ON CONFLICT (target_id, day) DO NOTHING
       RETURNING target_id AS id, collected_at AS published_at`,
      [targetIds],
    );
    await this.schedule(
      sql,
      targets.map((target) => ({ targetId: target.id, publishedAt: target.published_at, reading: 0 })),
    );
  }

  /** Queues each given reading at its time after publishing (at once when that time has passed). */
  async schedule(sql: SqlRunner, readings: { targetId: string; publishedAt: Date; reading: number }[]): Promise<void> {
    const due = readings.filter(({ reading }) => reading < readingSchedule.length);
    if (!due.length) return;
    await this.#boss.insert(
      queueNames.readMetrics,
      due.map(({ targetId, publishedAt, reading }) => ({
        data: { targetId, reading } satisfies ReadMetricsJob,
        startAfter: new Date(publishedAt.getTime() + readingSchedule[reading]! * 1000),
        // The queue keeps one waiting job per key: a reading retried after it queued the next one queues no twin.
        singletonKey: `${targetId}/${reading}`,
      })),
      { db: { executeSql: async (text: string, values: unknown[] = []) => ({ rows: await sql.query(text, values) }) } },
    );
  }
}

/**
 * Reads the given targets' figures from their networks and stores them; returns the targets read, with when
 * they were published. A target its network cannot be asked about now is logged and left to its next reading.
 */
export async function readMetrics(deps: ReadingDeps, targetIds: string[], now = new Date()): Promise<{ id: string; publishedAt: Date }[]> {
  const { db, adapters, secrets, logger } = deps;
  const { rows: targets } = await db.pool.query<PublishedTarget>(
    `SELECT t.id, t.post_id, p.workspace_id, t.connection_id, a.provider, a.username, a.remote_id AS account_remote_id, a.encrypted_tokens,
            t.remote_id, t.published_at
     FROM post_target t JOIN post p ON p.id = t.post_id JOIN social_account a ON a.id = t.connection_id
     WHERE t.id = ANY($1::uuid[]) AND t.status = 'published' AND t.remote_id IS NOT NULL`,
    [targetIds],
  );
  const totals = await Promise.all(
    targets.map(async (target) => {
      const adapter = adapters.get(target.provider);
      if (!adapter) return null;
      try {
        const tokens = target.encrypted_tokens ? JSON.parse(secrets.open(target.encrypted_tokens)) : null;
        const account = { id: target.connection_id, provider: target.provider, username: target.username, remoteId: target.account_remote_id, tokens };
        return { target, metrics: { ...zeroMetrics(), ...(await adapter.metrics(account, target.remote_id)) } };
      } catch (error) {
        logger.error({ err: error, targetId: target.id }, 'reading metrics failed; the next reading tries again');
        return null;
      }
    }),
  );
  const read = totals.filter((entry) => entry !== null);
  if (read.length) await storeReadings(db, now, read);
  return targets.map((target) => ({ id: target.id, publishedAt: target.published_at }));
}

/** The reading day's row = the network's total minus what earlier days already hold (never below zero). */
async function storeReadings(db: Database, now: Date, read: { target: PublishedTarget; metrics: Metrics }[]) {
  const columns = metricNames.map((name) => metricColumns[name]);
  const values = metricNames.map((name) => read.map(({ metrics }) => Math.max(0, Math.round(metrics[name]))));
  await db.pool.query(
    `WITH totals AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], ${columns.map((_, i) => `$${i + 8}::int[]`).join(', ')})
         AS t(target_id, post_id, workspace_id, connection_id, provider, ${columns.join(', ')})
     ), earlier AS (
       SELECT target_id, ${columns.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM target_metric_day
       WHERE target_id = ANY($1::uuid[]) AND day < $6::date GROUP BY target_id
     )
     INSERT INTO target_metric_day (target_id, day, post_id, workspace_id, connection_id, provider, ${columns.join(', ')}, collected_at)
     SELECT t.target_id, $6::date, t.post_id, t.workspace_id, t.connection_id, t.provider,
            ${columns.map((c) => `greatest(0, t.${c} - coalesce(e.${c}, 0))`).join(', ')}, $7
     FROM totals t LEFT JOIN earlier e ON e.target_id = t.target_id
     ON CONFLICT (target_id, day) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}, collected_at = excluded.collected_at`,
    [
      read.map(({ target }) => target.id),
      read.map(({ target }) => target.post_id),
      read.map(({ target }) => target.workspace_id),
      read.map(({ target }) => target.connection_id),
      read.map(({ target }) => target.provider),
      now.toISOString().slice(0, 10),
      now,
      ...values,
    ],
  );
}

/** Takes the readings that are due, a batch at a time, and queues each target's next one. */
export async function startMetricReadings(boss: PgBoss, readings: MetricReadings, deps: ReadingDeps): Promise<void> {
  await boss.work<ReadMetricsJob>(queueNames.readMetrics, { batchSize: 50 }, async (jobs) => {
    const read = await readMetrics(
      deps,
      jobs.map((job) => job.data.targetId),
    );
    const publishedAt = new Map(read.map((target) => [target.id, target.publishedAt]));
    await readings.schedule(
      viaPool(deps.db.pool),
      jobs.flatMap(({ data }) =>
        publishedAt.has(data.targetId) ? [{ targetId: data.targetId, publishedAt: publishedAt.get(data.targetId)!, reading: data.reading + 1 }] : [],
      ),
    );
  });
}
