// Publishing: publish now, schedule, retry. Each starts a publish *run* (a fresh id stored on the post) and
// enqueues one job per target in the same transaction; jobs of an older run find a different id and do nothing,
// which is how rescheduling and deleting cancel what was queued before.
import { randomUUID } from 'node:crypto';
import { AppError, invalidRequest, notFound, type ErrorDetail } from '../errors/appError.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Outbox } from '../events/outbox.ts';
import type { PgBoss } from '../jobs/boss.ts';
import { enqueueRun } from './runs.ts';
import { isUuid } from '../ids.ts';
import { canonicalTimeZone, instantDetails } from '../time.ts';
import { assertTransition } from './states.ts';
import { assertMayPublish } from './review.ts';
import { checkPostTarget, lockPost, withMedia, withTargets, type PostDetail } from './posts.ts';
import { violationDetails } from './validation.ts';
import { Prisma } from '../db/generated/prisma/client.ts';

/** A target about to be attempted again: no error, no wait, its quotas not yet charged. */
const freshAttempt = { status: 'pending', errorCode: null, errorMessage: null, quotaCharged: false, waitingUntil: null, waitingReason: null };

/**
 * Re-checks the targets (all, or those given) against their networks' rules; 422 PROVIDER_VALIDATION_FAILED when any
 * breaks one. Details name each target by its place in the post.
 */
export function assertPublishable(post: PostDetail, targets = post.targets): void {
  const details: ErrorDetail[] = targets.flatMap((target) => violationDetails(post.targets.indexOf(target), checkPostTarget(post, target)));
  if (details.length) throw new AppError('PROVIDER_VALIDATION_FAILED', 'providerValidationFailed', { count: details.length }, { details });
}

export async function publishPost(db: Database, boss: PgBoss, actor: Actor, id: string): Promise<PostDetail> {
  authorize(actor, 'publishPost');
  return db.prisma.$transaction(async (tx) => {
    const post = await withMedia(tx, await lockPost(tx, actor, id));
    await assertMayPublish(tx, actor, post, 'publish');
    assertPublishable(post);
    const runId = randomUUID();
    await tx.postTarget.updateMany({ where: { postId: id }, data: { ...freshAttempt, checkpoint: Prisma.DbNull } });
    await tx.post.update({ where: { id }, data: { status: 'publishing', publishRunId: runId, version: { increment: 1 } } });
    await enqueueRun(
      tx,
      boss,
      post.id,
      post.targets.map((target) => target.id),
      runId,
    );
    return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id }, include: withTargets }));
  });
}

/** Publishes at `scheduledAt` (UTC, in the future); `timezone` (IANA) records the author's zone. */
export async function schedulePost(
  db: Database,
  boss: PgBoss,
  outbox: Outbox,
  actor: Actor,
  id: string,
  input: { scheduledAt: Date; timezone: string },
): Promise<PostDetail> {
  authorize(actor, 'schedulePost');
  const { details, timezone } = checkScheduleTime(input);
  if (details.length) throw invalidRequest(details);
  return db.prisma.$transaction(async (tx) => {
    const post = await withMedia(tx, await lockPost(tx, actor, id));
    await assertMayPublish(tx, actor, post, 'schedule');
    return scheduleLocked(tx, boss, outbox, actor, post, { scheduledAt: input.scheduledAt, timezone: timezone!, queueId: null });
  });
}

/** A time to schedule at: a real instant in the future, and a known IANA zone (returned in its canonical name). */
export function checkScheduleTime(input: { scheduledAt: Date; timezone: string }): { details: ErrorDetail[]; timezone: string | null } {
  const details: ErrorDetail[] = instantDetails({ scheduledAt: input.scheduledAt });
  if (!details.length && input.scheduledAt.getTime() <= Date.now()) details.push({ field: 'scheduledAt', code: 'past', messageKey: 'detail.pastTime' });
  const timezone = canonicalTimeZone(input.timezone);
  if (!timezone) details.push({ field: 'timezone', code: 'unknownTimezone', messageKey: 'detail.unknownTimezone', params: { timezone: input.timezone } });
  return { details, timezone };
}

/** Schedules a post already locked in `tx` (by schedule, or by queue once it has picked the slot). */
export async function scheduleLocked(
  tx: Transaction,
  boss: PgBoss,
  outbox: Outbox,
  actor: Actor,
  post: PostDetail,
  input: { scheduledAt: Date; timezone: string; queueId: string | null },
): Promise<PostDetail> {
  assertPublishable(post);
  const runId = randomUUID();
  await tx.post.update({
    where: { id: post.id },
    data: {
      status: 'scheduled',
      scheduledAt: input.scheduledAt,
      timezone: input.timezone,
      queueId: input.queueId,
      publishRunId: runId,
      version: { increment: 1 },
    },
  });
  await enqueueRun(
    tx,
    boss,
    post.id,
    post.targets.map((target) => target.id),
    runId,
    input.scheduledAt,
  );
  await outbox.record(tx, actor.workspaceId, 'post.scheduled', {
    postId: post.id,
    scheduledAt: input.scheduledAt.toISOString(),
    timezone: input.timezone,
    queueId: input.queueId,
  });
  return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id: post.id }, include: withTargets }));
}

/** Publishes the targets not yet published (failed, or added since): the one named, or all of them. */
export async function retryPost(db: Database, boss: PgBoss, actor: Actor, id: string, targetId?: string): Promise<PostDetail> {
  authorize(actor, 'retryPost');
  return db.prisma.$transaction(async (tx) => {
    const post = await withMedia(tx, await lockPost(tx, actor, id));
    assertTransition(post.status, 'retry');
    const retryable = post.targets.filter((target) => target.status === 'failed' || target.status === 'pending');
    const chosen = targetId === undefined ? retryable : retryable.filter((target) => target.id === targetId);
    if (targetId !== undefined && !chosen.length) {
      if (!isUuid(targetId) || !post.targets.some((target) => target.id === targetId)) throw notFound('target');
      throw new AppError('INVALID_STATE_TRANSITION', 'targetNotFailed', { targetId });
    }
    if (!chosen.length) throw new AppError('INVALID_STATE_TRANSITION', 'nothingToRetry');
    assertPublishable(post, chosen);
    const runId = randomUUID();
    const ids = chosen.map((target) => target.id);
    // A retry keeps the checkpoint: it resumes where the failed attempt stopped (a thread at its first part not posted).
    await tx.postTarget.updateMany({ where: { id: { in: ids } }, data: freshAttempt });
    await tx.post.update({ where: { id }, data: { status: 'publishing', publishRunId: runId, version: { increment: 1 } } });
    await enqueueRun(tx, boss, post.id, ids, runId);
    return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id }, include: withTargets }));
  });
}
