// Leaky buckets held in PostgreSQL (the rate_limit_take function), shared by every server process: the request
// rate limit and the sign-in guard both count in them.
import type pg from 'pg';

/** A bucket's size and drain: up to `limit` units at once, draining at `limit` units per `periodMs`. */
export interface BucketPolicy {
  limit: number;
  periodMs: number;
}

export interface TakeRequest {
  subject: string;
  /** Who takes: only the last to change a bucket may give units back. */
  holder: string;
  /** Units taken before and not spent. */
  giveBack: number;
  /** Nothing is granted unless this many units are available. */
  need: number;
  /** Granted when available, capped at an eighth of what is left (never below `need`). */
  want: number;
  /** The time to count at (a test's clock); by default the database's, read once the bucket is locked. */
  at?: Date;
}

export interface BucketReading {
  granted: number;
  /** Whole units still available after the grant. */
  available: number;
  /** Units counted and not yet drained, the grant included. */
  level: number;
}

/**
 * Gives back what the holder did not spend, then takes, in one step under the row lock. A bucket filled under a
 * higher limit counts as full under a lower one (rate_limit_take cuts its level), never as over full.
 */
export async function takeFromBucket(pool: pg.Pool, policy: BucketPolicy, request: TakeRequest): Promise<BucketReading> {
  const { rows } = await pool.query<{ granted: number; available: number; bucket_level: number }>(
    'SELECT granted, available, bucket_level FROM rate_limit_take($1, $2, $3, $4, $5, $6, $7, $8)',
    [request.subject, policy.limit, policy.periodMs, request.holder, request.giveBack, request.need, request.want, request.at ?? null],
  );
  const row = rows[0]!;
  return { granted: row.granted, available: row.available, level: row.bucket_level };
}

export async function emptyBucket(pool: pg.Pool, subject: string): Promise<void> {
  await pool.query('DELETE FROM rate_limit_bucket WHERE subject = $1', [subject]);
}

/** Buckets whose last request is over an hour old have drained (the slowest, sign-in's, drains in an hour). */
export async function deleteDrainedBuckets(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query(`DELETE FROM rate_limit_bucket WHERE at < now() - interval '1 hour'`);
  return rowCount ?? 0;
}

/** Whole seconds until a bucket at `level` has drained to `target` units (0 when it is there already). */
export function secondsUntilLevel(policy: BucketPolicy, level: number, target: number): number {
  const excess = level - target;
  return excess <= 1e-9 ? 0 : Math.ceil((excess * policy.periodMs) / policy.limit / 1000);
}
