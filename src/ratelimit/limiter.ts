// Requests per person and workspace, counted in a leaky bucket in PostgreSQL (bucket.ts) so that every server
// process and every key and session of that person share one allowance: up to the limit at once, given back
// continuously at the limit per minute (no window edge at which a second allowance appears at once).
//
// A process takes *leases* of requests and spends them locally, so a request rarely waits on the database:
// - a lease is twice what the previous one served (at least the request's weight), so a busy person's process
//   asks about once a second and an idle one holds a request or two;
// - a lease is spendable for one second; what is left goes back with the next lease (see rate_limit_take: exactly,
//   unless another process changed the bucket meanwhile, in which case it stays spent), so processes together
//   never pass more than the bucket grants;
// - one lease request at a time per person: concurrent requests wait for it, and a request is refused only when
//   what this process holds plus what the database had left is less than its weight, which makes the count
//   exact within one process. Across processes a person may be refused a little early, never late.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { secondsUntilLevel, takeFromBucket, type BucketPolicy } from './bucket.ts';

export interface RateLimitState {
  limit: number;
  /** Whole requests that would pass now. */
  remaining: number;
  /** Seconds until the whole allowance is back. */
  resetSeconds: number;
  /** When refused: seconds until the refused request would pass. */
  retryAfterSeconds: number;
  exceeded: boolean;
}

interface Lease {
  /** Requests granted to this process and not spent yet; spendable until `expiresAt`. */
  tokens: number;
  spent: number;
  expiresAt: number;
  /** As the database reported at `readAt`: the bucket's level (this lease included) and the requests left. */
  level: number;
  available: number;
  readAt: number;
}

const leaseMs = 1000;
const maxLeases = 10_000;

export class RateLimiter {
  readonly #pool: pg.Pool;
  readonly #policy: BucketPolicy;
  /** This process, as the bucket's holder. */
  readonly #holder = randomUUID();
  readonly #leases = new Map<string, Lease>();
  readonly #renewals = new Map<string, Promise<void>>();

  /** A test's clock (epoch ms), for leases and the bucket alike; by default the system's and the database's. */
  readonly #clock: (() => number) | undefined;

  constructor(pool: pg.Pool, limitPerMinute: number, clock?: () => number) {
    this.#pool = pool;
    this.#policy = { limit: limitPerMinute, periodMs: 60_000 };
    this.#clock = clock;
  }

  #now(): number {
    return this.#clock?.() ?? Date.now();
  }

  /**
   * Counts a request of `subject` (workspace and person) that weighs `weight` requests, and says whether it
   * passes. A weight above the limit counts as the limit: such a request needs the whole allowance.
   */
  async take(subject: string, weight = 1): Promise<RateLimitState> {
    if (!Number.isInteger(weight) || weight < 1) throw new RangeError(`a request weighs a whole number of at least 1, not ${weight}`);
    const cost = Math.min(weight, this.#policy.limit);
    let renewed = false;
    for (;;) {
      const lease = this.#leases.get(subject);
      const now = this.#now();
      if (lease && lease.expiresAt > now) {
        if (lease.tokens >= cost) {
          lease.tokens -= cost;
          lease.spent += cost;
          return this.#state(lease, now, cost, false);
        }
        if (renewed && lease.tokens + lease.available < cost) return this.#state(lease, now, cost, true);
      }
      await this.#renew(subject, cost);
      renewed = true;
    }
  }

  #state(lease: Lease, now: number, cost: number, exceeded: boolean): RateLimitState {
    const { limit, periodMs } = this.#policy;
    const drained = Math.max(0, lease.level - ((now - lease.readAt) * limit) / periodMs);
    // What this process holds is still there for it to spend.
    const used = Math.max(0, drained - lease.tokens);
    return {
      limit,
      remaining: Math.min(limit, Math.floor(limit - used + 1e-9)),
      resetSeconds: secondsUntilLevel(this.#policy, used, 0),
      retryAfterSeconds: exceeded ? Math.max(1, secondsUntilLevel(this.#policy, used, limit - cost)) : 0,
      exceeded,
    };
  }

  #renew(subject: string, need: number): Promise<void> {
    const pending = this.#renewals.get(subject);
    if (pending) return pending;
    const renewal = this.#lease(subject, need).finally(() => this.#renewals.delete(subject));
    this.#renewals.set(subject, renewal);
    return renewal;
  }

  async #lease(subject: string, need: number): Promise<void> {
    const previous = this.#leases.get(subject);
    const giveBack = previous?.tokens ?? 0;
    if (previous) previous.tokens = 0;
    const want = Math.max(need, 2 * (previous?.spent ?? 0));
    const reading = await takeFromBucket(this.#pool, this.#policy, {
      subject,
      holder: this.#holder,
      giveBack,
      need,
      want,
      ...(this.#clock ? { at: new Date(this.#clock()) } : {}),
    }).catch((error: unknown) => {
      // Nothing was given back: the statement failed as a whole.
      if (previous) previous.tokens = giveBack;
      throw error;
    });
    const now = this.#now();
    if (this.#leases.size >= maxLeases) this.#forgetExpired(now);
    this.#leases.set(subject, { tokens: reading.granted, spent: 0, expiresAt: now + leaseMs, level: reading.level, available: reading.available, readAt: now });
  }

  /** Expired leases are only kept to give back what is left; dropping them leaves those requests spent. */
  #forgetExpired(now: number) {
    for (const [subject, lease] of this.#leases) if (lease.expiresAt <= now) this.#leases.delete(subject);
  }
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), as the contract specifies them. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${state.limit};w=60`,
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
  };
  if (state.exceeded) headers['Retry-After'] = String(state.retryAfterSeconds);
  return headers;
}
