// A network's quotas as data (YouTube's 10,000 units a day with 1,600 per upload, Threads' 250 posts a day, X's posts
// per day by tier), kept in PostgreSQL so every process charges the same counters. A publish is charged before it
// starts, to every quota of its network at once or to none; one that would exceed a quota waits for the window
// that has room instead of failing (the target shows `waitingUntil` and `waitingReason`).
//
// Windows are fixed (aligned to the Unix epoch, so a day's window is a UTC day), not sliding: a network that
// counts over a moving 24 hours ("250 posts per 24 hours") is kept by the fixed day as well, since no fixed window
// ever holds more than the limit.
import type pg from 'pg';

export interface Quota {
  /** As the network documents it: shown in the waiting target's reason. */
  name: string;
  /** Counted per connected account, or for the operator's whole app at the network. */
  scope: 'account' | 'app';
  windowSeconds: number;
  limit: number;
  /** Units one publish costs (1 post; YouTube's upload 1,600 units). */
  costPerPublish: number;
}

export interface QuotaWait {
  until: Date;
  reason: string;
}

/**
 * Charges one publish by `accountId` to each quota, in the caller's transaction: null when every quota had room
 * (all charged), else when the first full one has room again (nothing charged).
 */
export async function chargeQuotas(client: pg.ClientBase, network: string, quotas: readonly Quota[], accountId: string): Promise<QuotaWait | null> {
  if (!quotas.length) return null;
  await client.query('SAVEPOINT quota_charge');
  for (const quota of quotas) {
    const { rows } = await client.query<{ window_start: Date }>(
      `WITH w AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / $4::int) * $4::int) AS start)
       INSERT INTO network_quota_usage AS u (network, quota, scope, window_start, used)
       SELECT $1, $2, $3, w.start, $5::int FROM w WHERE $5::int <= $6::int
       ON CONFLICT (network, quota, scope, window_start) DO UPDATE SET used = u.used + EXCLUDED.used WHERE u.used + EXCLUDED.used <= $6::int
       RETURNING u.window_start`,
      [network, quota.name, quota.scope === 'app' ? 'app' : accountId, quota.windowSeconds, quota.costPerPublish, quota.limit],
    );
    if (!rows.length) {
      await client.query('ROLLBACK TO SAVEPOINT quota_charge');
      const { rows: window } = await client.query<{ end: Date }>('SELECT to_timestamp((floor(extract(epoch FROM now()) / $1::int) + 1) * $1::int) AS end', [
        quota.windowSeconds,
      ]);
      return { until: window[0]!.end, reason: `Quota used up: ${quota.name}; the target goes out when its next window opens.` };
    }
  }
  await client.query('RELEASE SAVEPOINT quota_charge');
  return null;
}

/** Forgets windows that ended long ago (housekeeping): no quota counts over more than a month. */
export async function forgetPastQuotaWindows(db: pg.Pool | pg.ClientBase): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM network_quota_usage WHERE window_start < now() - interval '32 days'`);
  return rowCount ?? 0;
}
