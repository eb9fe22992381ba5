// Credits and in-flight places for the AI calls a person waits for (captions, translations, hashtags, alt text),
// leased by this process from PostgreSQL per workspace (function ai_lease, one ai_request row per process and
// workspace), so that a busy workspace's calls do not wait on the database twice each:
// - a process serving a workspace fewer than `steadyCallsPerSecond` calls holds exactly what its calls under way
//   need: a call renews the lease as it starts (credits and a place) and as it ends (charged or given back), which
//   is what a reservation per call did;
// - past that pace, each renewal also asks for spare: twice the credits taken in the last second, and as many
//   places again as are busy, each granted up to an eighth of what is free. Calls then start and end on what the
//   process holds; the charges are written by the renewal of the next second (and when the process stops). Places
//   are still given back as each call ends whenever the cap left no spare;
// - one renewal at a time per workspace: calls that arrive meanwhile wait for it.
// Counting is exact within a process. Across processes the leases together never hold more credits or places than
// there are, so nobody is served past a limit; a workspace may be refused a little early on one process while
// another holds spare, for at most a second.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Outbox } from '../events/outbox.ts';
import { aiCosts, nextPeriodStart, periodStart, recordLowCredits, type AiAction, type ReservationLimits } from './credits.ts';
import { aiAtInFlightCap, aiLimitReached } from './failures.ts';

const steadyCallsPerSecond = 50;
const flushMs = 1000;

interface Lease {
  readonly id: string;
  readonly workspaceId: string;
  /** What the database holds for this process: credits (charged or not) and in-flight places. */
  credits: number;
  places: number;
  busyCredits: number;
  busyPlaces: number;
  /** Charged since the last renewal, per action: still among `credits` until a renewal writes them. */
  spent: Map<AiAction, number>;
  /** Charges a renewal under way is writing. */
  charging: number;
  /** Calls started, and the credits they took, in this second and the one before: the pace. */
  calls: number;
  taken: number;
  lastCalls: number;
  lastTaken: number;
  /** The last renewal granted places beyond the calls' own: a place is then kept when a call ends. */
  spare: boolean;
  /** The workspace's credits left after the last renewal (every lease's holding excluded), and the month's. */
  remaining: number;
  monthly: number;
  /** This month's ai.credits_low has been sent. */
  alerted: boolean;
  period: number;
  renewal: Promise<void> | null;
  renewals: number;
  queuedSettle: Promise<void> | null;
}

type Need = { credits: number; places: number } | null;

export interface LeasedCall<T> {
  result: T;
  creditsUsed: number;
  creditsRemaining: number;
}

export class AiLeases {
  readonly #db: Database;
  readonly #outbox: Outbox;
  readonly #limits: () => ReservationLimits;
  readonly #leases = new Map<string, Lease>();
  readonly #flusher: NodeJS.Timeout;

  constructor(db: Database, outbox: Outbox, limits: () => ReservationLimits) {
    this.#db = db;
    this.#outbox = outbox;
    this.#limits = limits;
    this.#flusher = setInterval(() => this.#flushAll(), flushMs).unref();
  }

  /**
   * Runs `work` on the action's credits and an in-flight place: charged when it succeeds, given back when it
   * throws. 429 AI_BUSY past the in-flight cap, 402 AI_LIMIT_REACHED when short of credits, before any work.
   */
  async run<T>(workspaceId: string, action: AiAction, work: () => Promise<T>): Promise<LeasedCall<T>> {
    const cost = aiCosts[action];
    const lease = await this.#admit(workspaceId, cost);
    let succeeded = false;
    try {
      const result = await work();
      succeeded = true;
      return { result, creditsUsed: cost, creditsRemaining: await this.#finish(lease, action, cost, true) };
    } finally {
      if (!succeeded) await this.#finish(lease, action, cost, false);
    }
  }

  /**
   * Reads the workspace's credits with `read`, given what this process holds for its next calls this month (not
   * spent, so still the workspace's). Read again if a renewal moved credits between the database and the lease meanwhile.
   */
  async withUnspent<T>(workspaceId: string, read: (unspent: number) => Promise<T>): Promise<T> {
    for (;;) {
      const lease = this.#leases.get(workspaceId);
      if (lease?.renewal) {
        await lease.renewal;
        continue;
      }
      const renewals = lease?.renewals;
      const result = await read(lease && lease.period === periodStart().getTime() ? unspentOf(lease) : 0);
      if (this.#leases.get(workspaceId) === lease && lease?.renewals === renewals && !lease?.renewal) return result;
    }
  }

  /** Writes every charge and gives back everything held (when the process stops). */
  async stop(): Promise<void> {
    clearInterval(this.#flusher);
    for (const lease of this.#leases.values()) {
      lease.lastCalls = lease.calls = 0;
      await this.#settle(lease);
    }
  }

  async #admit(workspaceId: string, cost: number): Promise<Lease> {
    for (;;) {
      const lease = this.#leaseOf(workspaceId);
      if (lease.renewal) {
        await lease.renewal;
        continue;
      }
      if (lease.places > lease.busyPlaces && unspentOf(lease) >= cost) {
        lease.busyPlaces++;
        lease.busyCredits += cost;
        return paced(lease, cost);
      }
      const outcome = await this.#renew(lease, { credits: cost, places: 1 });
      if (outcome === 'granted') return paced(lease, cost);
      if (outcome === 'busy') throw aiAtInFlightCap(this.#limits().maxInFlight);
      throw aiLimitReached(cost, lease.remaining + unspentOf(lease), nextPeriodStart());
    }
  }

  /** Ends a call: its place is free, its credits charged or given back. Answers the credits left. */
  async #finish(lease: Lease, action: AiAction, cost: number, succeeded: boolean): Promise<number> {
    lease.busyPlaces--;
    lease.busyCredits -= cost;
    if (succeeded) addCharges(lease, [[action, cost]]);
    const lowCreditsDue = succeeded && !lease.alerted && (lease.remaining + unspentOf(lease)) * 10 < lease.monthly;
    if (!lease.spare || lowCreditsDue) await this.#settle(lease);
    return lease.remaining + unspentOf(lease);
  }

  #leaseOf(workspaceId: string): Lease {
    let lease = this.#leases.get(workspaceId);
    if (!lease) {
      lease = {
        id: randomUUID(),
        workspaceId,
        credits: 0,
        places: 0,
        busyCredits: 0,
        busyPlaces: 0,
        spent: new Map(),
        charging: 0,
        calls: 0,
        taken: 0,
        lastCalls: 0,
        lastTaken: 0,
        spare: false,
        remaining: 0,
        monthly: 0,
        alerted: false,
        period: periodStart().getTime(),
        renewal: null,
        renewals: 0,
        queuedSettle: null,
      };
      this.#leases.set(workspaceId, lease);
    }
    return lease;
  }

  /** A renewal with no call waiting, after the one under way if any; calls ending meanwhile share it. */
  #settle(lease: Lease): Promise<void> {
    if (lease.queuedSettle) return lease.queuedSettle;
    // Started on the next microtask, so that it is queued before it can run.
    const queued: Promise<void> = Promise.resolve().then(async () => {
      while (lease.renewal) await lease.renewal;
      lease.queuedSettle = null;
      await this.#renew(lease, null);
    });
    lease.queuedSettle = queued;
    return queued;
  }

  /** One ai_lease statement. A granted `need` is taken for the caller before anyone else can. */
  async #renew(lease: Lease, need: Need): Promise<'granted' | 'busy' | 'limit'> {
    let finished!: () => void;
    lease.renewal = new Promise<void>((resolve) => (finished = resolve));
    lease.renewals++;
    const charges = lease.spent;
    lease.spent = new Map();
    lease.charging = sumOf(charges);
    const steady = Math.max(lease.calls, lease.lastCalls) >= steadyCallsPerSecond;
    const { maxInFlight, ttlMs } = this.#limits();
    try {
      const { rows } = await this.#db.pool.query<{
        outcome: 'granted' | 'busy' | 'limit';
        credits: number;
        places: number;
        remaining: number;
        monthly: number;
        low_alert: boolean;
        alerted: boolean;
        credit_period: Date;
      }>('SELECT * FROM ai_lease($1::uuid, $2::uuid, $3::text[], $4::int[], $5, $6, $7, $8, $9, $10, $11, $12)', [
        lease.id,
        lease.workspaceId,
        [...charges.keys()],
        [...charges.values()],
        lease.busyCredits,
        lease.busyPlaces,
        need?.credits ?? 0,
        need?.places ?? 0,
        steady ? 2 * Math.max(lease.taken, lease.lastTaken) : 0,
        steady ? lease.busyPlaces + (need?.places ?? 0) : 0,
        maxInFlight,
        ttlMs,
      ]);
      const granted = rows[0]!;
      lease.charging = 0;
      lease.credits = granted.credits;
      lease.places = granted.places;
      lease.remaining = granted.remaining;
      lease.monthly = granted.monthly;
      lease.alerted = granted.alerted || granted.low_alert;
      lease.period = granted.credit_period.getTime();
      lease.spare = granted.places > lease.busyPlaces + (need?.places ?? 0);
      if (granted.outcome === 'granted' && need) {
        lease.busyCredits += need.credits;
        lease.busyPlaces += need.places;
      }
      if (granted.low_alert) {
        await recordLowCredits(this.#db, this.#outbox, { workspaceId: lease.workspaceId, remaining: granted.remaining + unspentOf(lease), monthly: granted.monthly, period: granted.credit_period });
      }
      return granted.outcome;
    } catch (error) {
      // Nothing was written: the charges wait for the next renewal.
      addCharges(lease, charges);
      lease.charging = 0;
      throw error;
    } finally {
      lease.renewal = null;
      finished();
    }
  }

  /** Each second: a lease with charges or spare writes and resizes them; one holding nothing is dropped. */
  #flushAll(): void {
    for (const lease of this.#leases.values()) {
      lease.lastCalls = lease.calls;
      lease.lastTaken = lease.taken;
      lease.calls = lease.taken = 0;
      const holdsMore = lease.credits > lease.busyCredits || lease.places > lease.busyPlaces;
      if (lease.spent.size || holdsMore) void this.#settle(lease).catch(() => {});
      else if (!lease.busyPlaces && !lease.renewal && !lease.queuedSettle) this.#leases.delete(lease.workspaceId);
    }
  }
}

/** Counts an admitted call towards the pace. */
function paced(lease: Lease, cost: number): Lease {
  lease.calls++;
  lease.taken += cost;
  return lease;
}

function addCharges(lease: Lease, charges: Iterable<[AiAction, number]>): void {
  for (const [action, cost] of charges) lease.spent.set(action, (lease.spent.get(action) ?? 0) + cost);
}

function sumOf(charges: Map<AiAction, number>): number {
  let sum = 0;
  for (const cost of charges.values()) sum += cost;
  return sum;
}

/** Credits held and neither taken by a call under way nor charged. */
function unspentOf(lease: Lease): number {
  return lease.credits - lease.busyCredits - sumOf(lease.spent) - lease.charging;
}
