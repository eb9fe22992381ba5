// The rate limit of review links' page and its two actions: every request takes a unit from the link's bucket
// and from the client address's (signInGuard.ts counts addresses the same way), in PostgreSQL like every bucket,
// so neither one link nor one address can hammer the page or guess tokens faster than this.
import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { AppError } from '../errors/appError.ts';
import { secondsUntilLevel, takeFromBucket, type BucketPolicy } from './bucket.ts';
import { addressKey } from './signInGuard.ts';

const minuteMs = 60_000;
/** Requests a minute to one link: a client reads, decides, and reads again. */
export const perLink: BucketPolicy = { limit: 20, periodMs: minuteMs };
/** Requests a minute from one address, to any links (an agency's client reviews a month of posts). */
export const perAddress: BucketPolicy = { limit: 60, periodMs: minuteMs };

/** Takes a unit from both buckets; 429 RATE_LIMITED with the wait when either is empty. */
export async function admitReviewLinkRequest(pool: pg.Pool, token: string, clientAddress: string | undefined): Promise<void> {
  const holder = randomUUID();
  const buckets: [string, BucketPolicy][] = [
    [`review-link:link:${createHash('sha256').update(token).digest('base64url')}`, perLink],
    [`review-link:address:${addressKey(clientAddress)}`, perAddress],
  ];
  for (const [subject, policy] of buckets) {
    const reading = await takeFromBucket(pool, policy, { subject, holder, giveBack: 0, need: 1, want: 1 });
    if (!reading.granted) {
      const seconds = Math.max(1, secondsUntilLevel(policy, reading.level, policy.limit - 1));
      throw new AppError('RATE_LIMITED', 'rateLimited', { limit: policy.limit, seconds }, { headers: { 'Retry-After': String(seconds) } });
    }
  }
}
