// Requests per person and workspace in one-minute windows, counted in PostgreSQL so that every server process
// and every key and session of that person share the count. Each process leases a share of what is left
// (rate_limit_lease, see the migration) and spends it locally, so a request rarely waits on the database and
// the leases together never exceed the limit: exact within one process, and across processes a person may be
// refused a few requests early near the limit, never late.
import type pg from 'pg';

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

interface Lease {
  windowEndsAt: number;
  /** Requests leased to this process and not yet spent. */
  tokens: number;
  /** Requests of the window spent or leased by all processes, as of the last lease. */
  used: number;
}

export class RateLimiter {
  readonly #pool: pg.Pool;
  readonly #limit: number;
  readonly #leases = new Map<string, Lease>();
  /** One lease request at a time per person, so a burst waits for one round trip instead of making many. */
  readonly #pending = new Map<string, Promise<Lease>>();

  constructor(pool: pg.Pool, limit: number) {
    this.#pool = pool;
    this.#limit = limit;
  }

  /** Counts one request of `subject` (workspace and person) and says whether it is over the limit. */
  async take(subject: string): Promise<RateLimitState> {
    let lease = this.#current(subject);
    while (!lease || lease.tokens === 0) {
      const fresh = await this.#renew(subject);
      if (fresh.tokens === 0) return this.#state(fresh, true);
      lease = this.#current(subject);
    }
    lease.tokens--;
    return this.#state(lease, false);
  }

  #current(subject: string): Lease | undefined {
    const lease = this.#leases.get(subject);
    return lease && lease.windowEndsAt > Date.now() ? lease : undefined;
  }

  #state(lease: Lease, exceeded: boolean): RateLimitState {
    return {
      limit: this.#limit,
      remaining: Math.max(0, this.#limit - lease.used + lease.tokens),
      resetSeconds: Math.max(1, Math.ceil((lease.windowEndsAt - Date.now()) / 1000)),
      exceeded,
    };
  }

  #renew(subject: string): Promise<Lease> {
    const pending = this.#pending.get(subject);
    if (pending) return pending;
    const renewal = (async () => {
      try {
        const { rows } = await this.#pool.query<{ granted: number; used: number; window_ends_at: Date }>(
          'SELECT granted, used, window_ends_at FROM rate_limit_lease($1, $2)',
          [subject, this.#limit],
        );
        const row = rows[0]!;
        const previous = this.#current(subject);
        const lease = { windowEndsAt: row.window_ends_at.getTime(), tokens: (previous?.tokens ?? 0) + row.granted, used: row.used };
        this.#leases.set(subject, lease);
        this.#forgetEndedWindows();
        return lease;
      } finally {
        this.#pending.delete(subject);
      }
    })();
    this.#pending.set(subject, renewal);
    return renewal;
  }

  #forgetEndedWindows() {
    if (this.#leases.size < 10_000) return;
    const now = Date.now();
    for (const [subject, lease] of this.#leases) if (lease.windowEndsAt <= now) this.#leases.delete(subject);
  }
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), as the contract specifies them. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${state.limit};w=60`,
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
  };
  if (state.exceeded) headers['Retry-After'] = String(state.resetSeconds);
  return headers;
}
