// Collecting metrics: a scheduled job asks each network (through its adapter) for the totals of every target
// published in the last 90 days, and stores what each gained since the days already stored, as today's row.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import { metricColumns, metricNames, type Metrics } from './metrics.ts';

export const collectedDays = 90;
const batch = 200;

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
}

/** Collects every recently published target's metrics; returns how many targets were refreshed. */
export async function collectMetrics(deps: { db: Database; adapters: ProviderAdapters; secrets: SecretBox; logger: Logger }, now = new Date()): Promise<number> {
  const { db, adapters, secrets, logger } = deps;
  const today = now.toISOString().slice(0, 10);
  let after = '00000000-0000-0000-0000-000000000000';
  let refreshed = 0;
  for (;;) {
    const { rows: targets } = await db.pool.query<PublishedTarget>(
      `SELECT t.id, t.post_id, p.workspace_id, t.connection_id, a.provider, a.username, a.remote_id AS account_remote_id, a.encrypted_tokens, t.remote_id
       FROM post_target t JOIN post p ON p.id = t.post_id JOIN social_account a ON a.id = t.connection_id
       WHERE t.status = 'published' AND t.remote_id IS NOT NULL AND t.published_at > $1::timestamptz - make_interval(days => $2) AND t.id > $3
       ORDER BY t.id LIMIT $4`,
      [now, collectedDays, after, batch],
    );
    if (!targets.length) return refreshed;
    after = targets.at(-1)!.id;
    const totals = await Promise.all(
      targets.map(async (target) => {
        const adapter = adapters.get(target.provider);
        if (!adapter) return null;
        try {
          const tokens = target.encrypted_tokens ? JSON.parse(secrets.open(target.encrypted_tokens)) : null;
          const account = { id: target.connection_id, provider: target.provider, username: target.username, remoteId: target.account_remote_id, tokens };
          return { target, metrics: await adapter.metrics(account, target.remote_id) };
        } catch (error) {
          logger.error({ err: error, targetId: target.id }, 'collecting metrics failed; the next run tries again');
          return null;
        }
      }),
    );
    const collected = totals.filter((entry) => entry !== null);
    if (collected.length) await storeToday(db, today, now, collected.map(({ target, metrics }) => ({ target, metrics: { ...Object.fromEntries(metricNames.map((n) => [n, 0])), ...metrics } as Metrics })));
    refreshed += collected.length;
  }
}

/** Today's row = the network's total minus what earlier days already hold (never below zero). */
async function storeToday(db: Database, today: string, now: Date, collected: { target: PublishedTarget; metrics: Metrics }[]) {
  const columns = metricNames.map((name) => metricColumns[name]);
  const values = metricNames.map((name) => collected.map(({ metrics }) => Math.max(0, Math.round(metrics[name]))));
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
      collected.map(({ target }) => target.id),
      collected.map(({ target }) => target.post_id),
      collected.map(({ target }) => target.workspace_id),
      collected.map(({ target }) => target.connection_id),
      collected.map(({ target }) => target.provider),
      today,
      now,
      ...values,
    ],
  );
}

/** Hourly, in every worker process (pg-boss runs each scheduled job once). */
export async function startMetricsCollection(boss: PgBoss, deps: Parameters<typeof collectMetrics>[0]): Promise<void> {
  await boss.schedule(queueNames.collectMetrics, '17 * * * *');
  await boss.work(queueNames.collectMetrics, async () => {
    const refreshed = await collectMetrics(deps);
    deps.logger.info({ refreshed }, 'metrics collected');
  });
}
