// The inbox as people use it: the comments collected on the workspace's published posts (./collect.ts), newest
// first, marked open or done, and answered (./replies.ts posts each answer once, as the account).
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Database } from '../db/database.ts';
import type { InboxItem, InboxReply, Prisma } from '../db/generated/prisma/client.ts';
import { AppError, invalidRequest, notFound, storedError } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { inTransaction, queueNames, type PgBoss } from '../jobs/boss.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import { checkReplyText } from '../posts/validation.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';

export const inboxStatuses = ['open', 'done'] as const;
export type InboxStatus = (typeof inboxStatuses)[number];
export const inboxKinds = ['comment', 'reply', 'mention'] as const;
export const inboxReplyStatuses = ['pending', 'publishing', 'published', 'failed'] as const;

export type InboxItemWithReplies = InboxItem & { replies: InboxReply[] };

export interface InboxFilters {
  status?: string;
  connectionId?: string;
  provider?: string;
  postId?: string;
}

export interface PostInboxReplyJob {
  replyId: string;
}

const withReplies = { replies: { orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }] } };

function uuidFilter(field: string, value: string | undefined): void {
  if (value !== undefined && !isUuid(value)) throw invalidRequest([{ field, code: 'format', messageKey: 'detail.format', params: { format: 'uuid' } }]);
}

export async function listInbox(db: Database, actor: Actor, filters: InboxFilters, request: PageRequest): Promise<Page<InboxItemWithReplies>> {
  authorize(actor, 'listInbox');
  if (filters.status !== undefined && !(inboxStatuses as readonly string[]).includes(filters.status))
    throw invalidRequest([{ field: 'status', code: 'enum', messageKey: 'detail.enum', params: { allowed: inboxStatuses.join(', ') } }]);
  uuidFilter('connectionId', filters.connectionId);
  uuidFilter('postId', filters.postId);
  const limit = pageSize(request);
  const where: Prisma.InboxItemWhereInput = {
    workspaceId: actor.workspaceId,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.connectionId ? { connectionId: filters.connectionId } : {}),
    ...(filters.provider ? { provider: filters.provider } : {}),
    ...(filters.postId ? { postId: filters.postId } : {}),
    AND: [newestFirstAfter<Prisma.InboxItemWhereInput>('createdAt', decodeCursor(request.cursor, isUuid))],
  };
  const rows = await db.prisma.inboxItem.findMany({ where, include: withReplies, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return toPage(rows, limit, (item) => ({ at: item.createdAt.toISOString(), id: item.id }));
}

/** The open comments of each of the posts, newest first, at most `limit` each (a post's `openComments`, get_post's too). */
export async function openCommentsOf(db: Database, actor: Actor, postIds: readonly string[], limit = 25): Promise<Map<string, InboxItemWithReplies[]>> {
  authorize(actor, 'listInbox');
  const ids = postIds.filter(isUuid);
  const ranked = await db.pool.query<{ id: string }>(
    `SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY post_id ORDER BY created_at DESC, id DESC) AS n
                     FROM inbox_item WHERE workspace_id = $1 AND post_id = ANY($2::uuid[]) AND status = 'open') ranked WHERE n <= $3`,
    [actor.workspaceId, ids, limit],
  );
  const items = await db.prisma.inboxItem.findMany({
    where: { id: { in: ranked.rows.map((row) => row.id) } },
    include: withReplies,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const byPost = new Map<string, InboxItemWithReplies[]>(ids.map((id) => [id, []]));
  for (const item of items) byPost.get(item.postId)?.push(item);
  return byPost;
}

/** How many items are open in the workspace (the dashboard's unread count). */
export async function openInboxCount(db: Database, actor: Actor): Promise<number> {
  authorize(actor, 'listInbox');
  return db.prisma.inboxItem.count({ where: { workspaceId: actor.workspaceId, status: 'open' } });
}

async function itemOf(db: Database, actor: Actor, id: string): Promise<InboxItemWithReplies> {
  const item = isUuid(id) ? await db.prisma.inboxItem.findFirst({ where: { id, workspaceId: actor.workspaceId }, include: withReplies }) : null;
  if (!item) throw notFound('inboxItem');
  return item;
}

export async function updateInboxItem(db: Database, actor: Actor, id: string, changes: { status: InboxStatus }): Promise<InboxItemWithReplies> {
  authorize(actor, 'updateInboxItem');
  const item = await itemOf(db, actor, id);
  return db.prisma.inboxItem.update({ where: { id: item.id }, data: { status: changes.status }, include: withReplies });
}

/**
 * Checks the answer against the network's rules for the post it answers (422 PROVIDER_VALIDATION_FAILED), then
 * stores it `pending` with its job, in one transaction: the job posts it once (./replies.ts).
 */
export async function replyToInboxItem(db: Database, boss: PgBoss, actor: Actor, id: string, input: { text: string }): Promise<InboxReply> {
  authorize(actor, 'replyToInboxItem');
  refuseUnlessEmpty(textWithin('text', input.text, inputLimits.post.caption));
  const item = await itemOf(db, actor, id);
  const target = await db.prisma.postTarget.findUniqueOrThrow({ where: { id: item.targetId }, include: { account: true } });
  if (target.account.status !== 'ACTIVE') throw new AppError('INVALID_STATE_TRANSITION', 'inboxAccountInactive');
  const violations = checkReplyText({ provider: item.provider, accountRules: target.account.rules, placement: target.placement }, input.text);
  if (violations.length) {
    const details = violations.map((violation) => ({
      field: violation.field,
      code: violation.rule,
      messageKey: violation.messageKey,
      params: violation.params,
    }));
    throw new AppError('PROVIDER_VALIDATION_FAILED', 'providerValidationFailed', { count: details.length }, { details });
  }
  return db.prisma.$transaction(async (tx) => {
    const reply = await tx.inboxReply.create({ data: { itemId: item.id, userId: actor.userId, text: input.text } });
    await boss.insert(queueNames.postInboxReply, [{ data: { replyId: reply.id } satisfies PostInboxReplyJob }], { db: inTransaction(tx) });
    return reply;
  });
}

export function presentInboxReply(reply: InboxReply) {
  return {
    id: reply.id,
    text: reply.text,
    status: reply.status,
    createdAt: reply.createdAt.toISOString(),
    publishedAt: reply.publishedAt?.toISOString() ?? null,
    remoteId: reply.remoteId,
    remoteUrl: reply.remoteUrl,
    userId: reply.userId,
    error: storedError(reply),
  };
}

export function presentInboxItem(item: InboxItemWithReplies) {
  return {
    id: item.id,
    connectionId: item.connectionId,
    provider: item.provider,
    postId: item.postId,
    targetId: item.targetId,
    kind: item.kind,
    author: { displayName: item.authorName, username: item.authorUsername, avatarUrl: item.authorAvatarUrl },
    text: item.text,
    createdAt: item.createdAt.toISOString(),
    collectedAt: item.collectedAt.toISOString(),
    remoteId: item.remoteId,
    remoteUrl: item.remoteUrl,
    status: item.status,
    replies: item.replies.map(presentInboxReply),
  };
}
