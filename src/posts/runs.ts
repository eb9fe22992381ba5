// A publish run: the jobs that publish a post's targets, one per target, enqueued in the caller's transaction.
// The run's id is stored on the post; jobs of an older run find another id and do nothing, which is how
// rescheduling, publishing now, changing the targets of a scheduled post or deleting it cancel earlier jobs.
import type { Transaction } from '../db/database.ts';
import { inTransaction, queueNames, type PgBoss } from '../jobs/boss.ts';

export interface PublishTargetJob {
  postId: string;
  targetId: string;
  runId: string;
}

export async function enqueueRun(tx: Transaction, boss: PgBoss, postId: string, targetIds: string[], runId: string, startAfter?: Date | null): Promise<void> {
  await boss.insert(
    queueNames.publishTarget,
    targetIds.map((targetId) => ({ data: { postId, targetId, runId } satisfies PublishTargetJob, ...(startAfter ? { startAfter } : {}) })),
    { db: inTransaction(tx) },
  );
}
