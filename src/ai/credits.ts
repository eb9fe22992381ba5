// AI credits per workspace and calendar month (UTC), and the cap on AI requests in flight per workspace. Both live
// in PostgreSQL (functions ai_reserve, ai_settle, ai_release), so every server process counts the same:
// an action first reserves its cost and an in-flight place, then settles (charged) on success or releases
// (given back) on any failure, each a statement of its own committed durably, so a database crash never loses a
// charge of an answered call. A process that dies mid-action leaves a reservation that lapses at its expiry.
import { withPoolTransaction, type Database } from '../db/database.ts';
import { viaClient, type Outbox } from '../events/outbox.ts';
import { aiAtInFlightCap, aiLimitReached } from './failures.ts';

export const aiCosts = { caption: 1, translate: 1, hashtags: 1, altText: 2, image: 10 } as const;
export type AiAction = keyof typeof aiCosts;

export interface Reservation {
  id: string;
  cost: number;
  /** Credits left once this one is charged. */
  remaining: number;
}

export interface ReservationLimits {
  maxInFlight: number;
  /** How long the reservation holds without being settled or released (the action's longest possible run). */
  ttlMs: number;
}

/** The first instant of the calendar month (UTC) after `now`: when credits are renewed. */
export function nextPeriodStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** 429 AI_BUSY when the workspace has `maxInFlight` actions under way, 402 AI_LIMIT_REACHED when short of credits. */
export async function reserveCredits(db: Database, workspaceId: string, action: AiAction, limits: ReservationLimits): Promise<Reservation> {
  const cost = aiCosts[action];
  const { rows } = await db.pool.query<{ outcome: 'reserved' | 'busy' | 'limit'; request_id: string | null; remaining: number }>(
    'SELECT outcome, request_id, remaining FROM ai_reserve($1::uuid, $2, $3, $4, $5)',
    [workspaceId, action, cost, limits.maxInFlight, limits.ttlMs],
  );
  const { outcome, request_id: id, remaining } = rows[0]!;
  if (outcome === 'busy') throw aiAtInFlightCap(limits.maxInFlight);
  if (outcome === 'limit') throw aiLimitReached(cost, remaining, nextPeriodStart());
  return { id: id!, cost, remaining };
}

/** Charges the reservation (one statement), then sends ai.credits_low if this charge is the one (see recordLowCredits). */
export async function settleCredits(db: Database, outbox: Outbox, reservation: Reservation): Promise<void> {
  const { rows } = await db.pool.query<{ low_alert: boolean; remaining: number; monthly: number; workspace: string; credit_period: Date }>(
    'SELECT low_alert, remaining, monthly, workspace, credit_period FROM ai_settle($1::uuid)',
    [reservation.id],
  );
  const charged = rows[0]!;
  if (charged.low_alert) {
    await recordLowCredits(db, outbox, {
      workspaceId: charged.workspace,
      remaining: charged.remaining,
      monthly: charged.monthly,
      period: charged.credit_period,
    });
  }
}

/**
 * The first charge of a month that leaves less than 10 % emits ai.credits_low: marking the month's alert as sent
 * and recording the event happen together, once.
 */
export async function recordLowCredits(
  db: Database,
  outbox: Outbox,
  charged: { workspaceId: string; remaining: number; monthly: number; period: Date },
): Promise<void> {
  await withPoolTransaction(db.pool, async (client) => {
    const marked = await client.query('UPDATE workspace SET ai_credits_low_period = $2 WHERE id = $1 AND ai_credits_low_period IS DISTINCT FROM $2', [
      charged.workspaceId,
      charged.period,
    ]);
    // Another charge of the same moment sent it.
    if (!marked.rowCount) return;
    await outbox.recordAll(viaClient(client), [
      {
        workspaceId: charged.workspaceId,
        type: 'ai.credits_low',
        data: { remaining: charged.remaining, monthly: charged.monthly, threshold: charged.monthly / 10, resetsAt: nextPeriodStart().toISOString() },
      },
    ]);
  });
}

export async function releaseCredits(db: Database, reservation: Reservation): Promise<void> {
  await db.pool.query('SELECT ai_release($1::uuid)', [reservation.id]);
}

export interface ChargedCall<T> {
  result: T;
  creditsUsed: number;
  creditsRemaining: number;
}

/**
 * Runs `work` under a reservation: charged when it succeeds, given back when it throws (whatever the error).
 * Answers what the action cost and what is left.
 */
export async function withCredits<T>(
  db: Database,
  outbox: Outbox,
  workspaceId: string,
  action: AiAction,
  limits: ReservationLimits,
  work: () => Promise<T>,
): Promise<ChargedCall<T>> {
  const reservation = await reserveCredits(db, workspaceId, action, limits);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await releaseCredits(db, reservation);
    throw error;
  }
  await settleCredits(db, outbox, reservation);
  return { result, creditsUsed: reservation.cost, creditsRemaining: reservation.remaining };
}

export interface CreditStatus {
  remaining: number;
  monthly: number;
  resetsAt: string;
}

/** What is left this month: a workspace whose last action was in an earlier month has its full monthly credits. */
export async function creditStatus(db: Database, workspaceId: string): Promise<CreditStatus> {
  const { rows } = await db.pool.query<{ remaining: number; monthly: number }>(
    `SELECT CASE WHEN ai_credits_period IS DISTINCT FROM date_trunc('month', now(), 'UTC') THEN ai_credits_monthly ELSE ai_credits_remaining END AS remaining,
       ai_credits_monthly AS monthly
     FROM workspace WHERE id = $1::uuid`,
    [workspaceId],
  );
  const { remaining, monthly } = rows[0] ?? { remaining: 0, monthly: 0 };
  return { remaining, monthly, resetsAt: nextPeriodStart().toISOString() };
}
