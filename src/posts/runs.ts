// A publish run: the jobs that publish a post's targets, one per target, enqueued in the caller's transaction.
// The run's id is stored on the post; jobs of an older run find another id and do nothing, which is how
// rescheduling, publishing now, changing the targets of a scheduled post or deleting it cancel earlier jobs.
import type { Transaction } from '../db/database.ts';
import { inTransaction, queueNames, type PgBoss } from '../jobs/boss.ts';

export interface PublishTargetJob {
  postId: string;
  targetId: string;
  runId: string;
  /** A scheduled post's due time (ISO 8601): the job is taken a little before it and waits for it (pickupLeadMs). */
  dueAt?: string;
}

/**
 * Jobs of a scheduled post become available this long before its due time: a worker finds them within its polling
 * interval (0.5 s) and holds them until the due time, so the post leaves on time rather than up to a poll later.
 */
export const pickupLeadMs = 1000;

export async function enqueueRun(tx: Transaction, boss: PgBoss, postId: string, targetIds: string[], runId: string, dueAt?: Date | null): Promise<void> {
  await boss.insert(queueNames.publishTarget, publishJobs(postId, targetIds, runId, dueAt), { db: inTransaction(tx) });
}

/** The jobs of a run: one per target, available `pickupLeadMs` before the due time of a scheduled post. */
export function publishJobs(postId: string, targetIds: string[], runId: string, dueAt?: Date | null) {
  const timing = dueAt ? { startAfter: new Date(dueAt.getTime() - pickupLeadMs) } : {};
  return targetIds.map((targetId) => ({
    data: { postId, targetId, runId, ...(dueAt ? { dueAt: dueAt.toISOString() } : {}) } satisfies PublishTargetJob,
    ...timing,
  }));
}
