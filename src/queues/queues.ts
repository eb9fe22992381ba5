// Posting queues: weekly slots in a time zone, optionally for some accounts only. Queuing a post schedules it at
// the queue's next free slot (a slot holds one post). Deleting a queue, or taking slots out of it, leaves the posts
// already placed scheduled at their times, and the answer says how many.
import { AppError, invalidRequest, notFound, type ErrorDetail } from '../errors/appError.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { isUuid } from '../ids.ts';
import { lockOwnedRow } from '../db/locks.ts';
import { canonicalTimeZone } from '../time.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import type { Outbox } from '../events/outbox.ts';
import type { PgBoss } from '../jobs/boss.ts';
import type { Prisma, Queue } from '../db/generated/prisma/client.ts';
import { assertMayPublish } from '../posts/review.ts';
import { lockPost, withMedia, withTargets, type PostDetail, type PostWithTargets } from '../posts/posts.ts';
import { scheduleLocked } from '../posts/publishing.ts';
import { isSlot, nextFreeSlot, normalizeSlots, weekdays, type Slot } from './slots.ts';
import { inputLimits, itemsWithin, refuseUnlessEmpty, textWithin } from '../limits.ts';

export interface QueueInput {
  name: string;
  timezone: string;
  slots: Slot[];
  connectionIds?: string[];
}

export const slotsOf = (queue: Queue) => queue.slots as unknown as Slot[];

export function presentQueue(queue: Queue) {
  return {
    id: queue.id,
    name: queue.name,
    timezone: queue.timezone,
    slots: slotsOf(queue),
    connectionIds: queue.connectionIds,
    createdAt: queue.createdAt.toISOString(),
    updatedAt: queue.updatedAt.toISOString(),
  };
}

async function checkAccounts(tx: Transaction, actor: Actor, connectionIds: string[]): Promise<void> {
  const found = await tx.socialAccount.count({ where: { workspaceId: actor.workspaceId, id: { in: connectionIds.filter(isUuid) } } });
  if (found !== new Set(connectionIds).size) {
    throw invalidRequest([{ field: 'connectionIds', code: 'unknownAccount', messageKey: 'detail.unknownAccount' }]);
  }
}

const slotTime = /^([01]\d|2[0-3]):[0-5]\d$/;

function slotDetails(slots: readonly Slot[]): ErrorDetail[] {
  return slots.flatMap((slot, index): ErrorDetail[] => [
    ...(weekdays.includes(slot.day)
      ? []
      : [{ field: `slots[${index}].day`, code: 'enum', messageKey: 'detail.enum' as const, params: { allowed: weekdays.join(', ') } }]),
    ...(slotTime.test(slot.time) ? [] : [{ field: `slots[${index}].time`, code: 'pattern', messageKey: 'detail.pattern' as const }]),
  ]);
}

/** The input limits (src/limits.ts) and the form of the slots: 400 with details. */
function checkQueueInput(input: Partial<QueueInput>): void {
  const limits = inputLimits.queue;
  const slotCount = itemsWithin('slots', input.slots, limits.slots, 1);
  refuseUnlessEmpty([
    ...textWithin('name', input.name, limits.name, 1),
    ...textWithin('timezone', input.timezone, limits.timezone, 1),
    // Each slot is looked at only when their number is within the limit.
    ...(slotCount.length || !input.slots ? slotCount : slotDetails(input.slots)),
    ...itemsWithin('connectionIds', input.connectionIds, limits.connectionIds),
  ]);
}

function checkedTimezone(timezone: string): string {
  const canonical = canonicalTimeZone(timezone);
  if (!canonical) throw invalidRequest([{ field: 'timezone', code: 'unknownTimezone', messageKey: 'detail.unknownTimezone', params: { timezone } }]);
  return canonical;
}

export async function createQueue(db: Database, actor: Actor, input: QueueInput): Promise<Queue> {
  authorize(actor, 'createQueue');
  checkQueueInput(input);
  const timezone = checkedTimezone(input.timezone);
  return db.prisma.$transaction(async (tx) => {
    await checkAccounts(tx, actor, input.connectionIds ?? []);
    return tx.queue.create({
      data: {
        workspaceId: actor.workspaceId,
        name: input.name,
        timezone,
        slots: normalizeSlots(input.slots) as unknown as Prisma.InputJsonValue,
        connectionIds: [...new Set(input.connectionIds ?? [])],
      },
    });
  });
}

export const queuePosition = (queue: Queue) => ({ at: queue.createdAt.toISOString(), id: queue.id });

export async function listQueues(db: Database, actor: Actor, request: PageRequest): Promise<Page<Queue>> {
  authorize(actor, 'listQueues');
  const limit = pageSize(request);
  const rows = await db.prisma.queue.findMany({
    where: { workspaceId: actor.workspaceId, ...newestFirstAfter<Prisma.QueueWhereInput>('createdAt', decodeCursor(request.cursor, isUuid)) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, queuePosition);
}

async function lockQueue(tx: Transaction, actor: Actor, id: string): Promise<Queue> {
  if (!(await lockOwnedRow(tx, 'queue', actor.workspaceId, id))) throw notFound('queue');
  return tx.queue.findUniqueOrThrow({ where: { id } });
}

/** Posts of the queue (or queues) still to be published. */
const upcoming = (queueId: string | { in: string[] }) => ({ queueId, status: 'scheduled', scheduledAt: { gt: new Date() } });

/** The posts each queue has still to publish, soonest first, for many queues in one query. */
export async function upcomingPostsOfQueues(db: Database, actor: Actor, queueIds: readonly string[]): Promise<Map<string, PostWithTargets[]>> {
  authorize(actor, 'listPosts');
  const posts = await db.prisma.post.findMany({
    where: { workspaceId: actor.workspaceId, ...upcoming({ in: queueIds.filter(isUuid) }) },
    include: withTargets,
    orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }],
  });
  return new Map(queueIds.map((id) => [id, posts.filter((post) => post.queueId === id)]));
}

/** Changes the queue; posts whose slot is gone stay scheduled at their time (`keptScheduledPosts` counts them). */
export async function updateQueue(db: Database, actor: Actor, id: string, changes: Partial<QueueInput>) {
  authorize(actor, 'updateQueue');
  checkQueueInput(changes);
  const timezone = changes.timezone === undefined ? undefined : checkedTimezone(changes.timezone);
  return db.prisma.$transaction(async (tx) => {
    const queue = await lockQueue(tx, actor, id);
    if (changes.connectionIds) await checkAccounts(tx, actor, changes.connectionIds);
    const updated = await tx.queue.update({
      where: { id: queue.id },
      data: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(timezone !== undefined ? { timezone } : {}),
        ...(changes.slots !== undefined ? { slots: normalizeSlots(changes.slots) as unknown as Prisma.InputJsonValue } : {}),
        ...(changes.connectionIds !== undefined ? { connectionIds: [...new Set(changes.connectionIds)] } : {}),
      },
    });
    const placed = await tx.post.findMany({ where: upcoming(queue.id), select: { scheduledAt: true } });
    const keptScheduledPosts = placed.filter((post) => !isSlot(updated.timezone, slotsOf(updated), post.scheduledAt!)).length;
    return { queue: updated, keptScheduledPosts };
  });
}

/** Deletes the queue; its posts stay scheduled at their times (`keptScheduledPosts` counts them). */
export async function deleteQueue(db: Database, actor: Actor, id: string): Promise<{ keptScheduledPosts: number }> {
  authorize(actor, 'deleteQueue');
  return db.prisma.$transaction(async (tx) => {
    const queue = await lockQueue(tx, actor, id);
    const keptScheduledPosts = await tx.post.count({ where: upcoming(queue.id) });
    await tx.queue.delete({ where: { id: queue.id } });
    return { keptScheduledPosts };
  });
}

/** Schedules the post at the queue's next free slot, in the queue's time zone. */
export async function queuePost(db: Database, boss: PgBoss, outbox: Outbox, actor: Actor, postId: string, queueId: string): Promise<PostDetail> {
  authorize(actor, 'queuePost');
  return db.prisma.$transaction(async (tx) => queuePostIn(tx, boss, outbox, actor, await withMedia(tx, await lockPost(tx, actor, postId)), queueId));
}

/** queuePost inside the caller's transaction (authorized for `queuePost`), for a post it holds locked or has just created: the state machine and review, then the slot. */
export async function queuePostIn(tx: Transaction, boss: PgBoss, outbox: Outbox, actor: Actor, post: PostDetail, queueId: string): Promise<PostDetail> {
  await assertMayPublish(tx, actor, post, 'queue');
  return queueLocked(tx, boss, outbox, actor, post, queueId);
}

/** Queues a post already locked in `tx` (by queuePost, or by the CSV import right after creating it). */
export async function queueLocked(tx: Transaction, boss: PgBoss, outbox: Outbox, actor: Actor, post: PostDetail, queueId: string): Promise<PostDetail> {
  // The queue's lock makes two posts queued at once take two slots.
  const queue = await lockQueue(tx, actor, queueId);
  const outside = outsideQueue(queue, post.targets);
  if (outside.length) throw new AppError('VALIDATION_FAILED', 'validationFailed', { count: outside.length }, { details: outside });
  const taken = await tx.post.findMany({ where: { ...upcoming(queue.id), id: { not: post.id } }, select: { scheduledAt: true } });
  const slot = nextFreeSlot(queue.timezone, slotsOf(queue), new Set(taken.map((p) => p.scheduledAt!.getTime())), new Date());
  if (!slot) throw new AppError('CONFLICT', 'queueFull');
  return scheduleLocked(tx, boss, outbox, actor, post, { scheduledAt: slot, timezone: queue.timezone, queueId: queue.id });
}

/** The targets whose accounts a queue limited to some accounts does not take. */
export function outsideQueue(queue: Pick<Queue, 'connectionIds'>, targets: readonly { connectionId: string }[]): ErrorDetail[] {
  if (!queue.connectionIds.length) return [];
  return targets.flatMap((target, index) =>
    queue.connectionIds.includes(target.connectionId)
      ? []
      : [{ field: `targets[${index}].connectionId`, code: 'notInQueue', messageKey: 'detail.notInQueue' as const }],
  );
}
