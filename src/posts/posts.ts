// Posts: created once as a draft, targeting one or more accounts and placements; read, listed, changed under
// optimistic concurrency (`version`), deleted.
import { randomUUID } from 'node:crypto';
import { AppError, invalidRequest, notFound, type ErrorDetail } from '../errors/appError.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { isUuid } from '../ids.ts';
import { lockOwnedRow } from '../db/locks.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import { instantDetails } from '../time.ts';
import type { Outbox } from '../events/outbox.ts';
import type { PgBoss } from '../jobs/boss.ts';
import { enqueueRun } from './runs.ts';
import { Prisma, type Media, type Post, type PostTarget, type SocialAccount } from '../db/generated/prisma/client.ts';
import { factsOf, mediaOf } from '../media/facts.ts';
import { assertTransition, postStatuses } from './states.ts';
import { approvalRequiredIn, voidedBy } from './review.ts';
import { checkTarget, violationDetails } from './validation.ts';
import { assessPost, type PostContent } from './assessment.ts';
import { inputLimits, itemsWithin, refuseUnlessEmpty, textWithin } from '../limits.ts';
import { maxThreadParts } from '../providers/rules.ts';
import { storedThread, threadContent, threadMediaIds, threadOf, threadOfJson, threadParts, type ThreadPartInput } from './threads.ts';

export interface TargetInput {
  connectionId: string;
  placement: string;
  override?: TargetOverride | null;
  /** The network's options (GET /providers `settings`). */
  settings?: Record<string, unknown> | null;
}

/** What a target publishes instead of the post's: a caption, a thread ([] drops the post's). */
export interface TargetOverride {
  caption?: string;
  thread?: ThreadPartInput[];
}

export interface PostContentInput {
  caption?: string;
  mediaIds?: string[];
  thread?: ThreadPartInput[];
}

export interface PostInput {
  content: PostContentInput;
  targets: TargetInput[];
  campaign?: string | null;
}

export type PostWithTargets = Post & { targets: (PostTarget & { account: SocialAccount })[] };
/** A post with its media files, in the order of `mediaIds`, and the files its threads name. */
export type PostDetail = PostWithTargets & { media: Media[]; threadMedia: Media[] };

export async function withMedia(client: Pick<Transaction, 'media'>, post: PostWithTargets): Promise<PostDetail> {
  const [media, threadMedia] = await Promise.all([mediaOf(client, post.workspaceId, post.mediaIds), mediaOf(client, post.workspaceId, threadMediaOf(post))]);
  return { ...post, media, threadMedia };
}

/** The files the threads of a post name: the post's thread and its targets' own. */
export function threadMediaOf(post: PostWithTargets): string[] {
  return threadMediaIds([threadOf(post, { overrideThread: null }), ...post.targets.map((target) => threadOf(post, target))]);
}

export const withTargets = { targets: { include: { account: true }, orderBy: { position: 'asc' } } } as const satisfies Prisma.PostInclude;

/** A stored target against its network's rules, with the post's content and media as they are now. */
export function checkPostTarget(post: PostDetail, target: PostDetail['targets'][number]) {
  return checkTarget({
    provider: target.account.provider,
    accountStatus: target.account.status,
    accountRules: target.account.rules,
    settings: target.settings as Record<string, unknown>,
    placement: target.placement,
    caption: captionOf(post, target),
    media: post.media.map(factsOf),
    thread: threadContent(threadOf(post, target), target.overrideThread !== null, new Map(post.threadMedia.map((media) => [media.id, media]))),
  });
}

/** A stored target's override as clients send and see it: null when it replaces nothing. */
export function overrideOf(target: Pick<PostTarget, 'overrideCaption' | 'overrideThread'>): TargetOverride | null {
  const thread = threadOfJson(target.overrideThread);
  if (target.overrideCaption === null && thread === null) return null;
  return { ...(target.overrideCaption === null ? {} : { caption: target.overrideCaption }), ...(thread === null ? {} : { thread }) };
}

/** The caption a target publishes: its override, else the post's. */
export function captionOf(post: Pick<Post, 'caption'>, target: Pick<PostTarget, 'overrideCaption'>): string {
  return target.overrideCaption ?? post.caption;
}

/** Loads the post of the actor's workspace, locked for the rest of the transaction. */
export async function lockPost(tx: Transaction, actor: Actor, id: string): Promise<PostWithTargets> {
  if (!(await lockOwnedRow(tx, 'post', actor.workspaceId, id))) throw notFound('post');
  return tx.post.findUniqueOrThrow({ where: { id }, include: withTargets });
}

/**
 * Checks the targets of a post about to be written (assessPost): every account is the workspace's, no target twice,
 * the media exist and are ready, and the content fits each network's rules. Throws 422 with details.
 */
async function resolveTargets(tx: Transaction, actor: Actor, content: PostContent, targets: TargetInput[]) {
  // Shared locks: a file cannot be deleted while a post that uses it is being written.
  const mediaIds = [...content.mediaIds, ...threadMediaIds([content.thread, ...targets.map((target) => threadParts(target.override?.thread))])];
  if (mediaIds.length) {
    await tx.$queryRaw`SELECT id FROM media WHERE workspace_id = ${actor.workspaceId}::uuid AND id = ANY(${mediaIds.filter(isUuid)}::uuid[]) FOR SHARE`;
  }
  const assessment = await assessPost(tx, actor, content, targets);
  const domainDetails = [...assessment.targets.flatMap((entry) => entry.problems), ...assessment.mediaProblems];
  if (domainDetails.length) throw new AppError('VALIDATION_FAILED', 'validationFailed', { count: domainDetails.length }, { details: domainDetails });
  const providerDetails = assessment.targets.flatMap((entry, index) => violationDetails(index, entry.violations));
  if (providerDetails.length) {
    throw new AppError('PROVIDER_VALIDATION_FAILED', 'providerValidationFailed', { count: providerDetails.length }, { details: providerDetails });
  }
  return assessment.targets.map((entry) => entry.target);
}

/** The input limits of a post's content, targets and campaign (src/limits.ts): 400 with details. */
export function checkPostLimits(content: PostInput['content'] | undefined, targets: TargetInput[] | undefined, campaign: string | null | undefined): void {
  const limits = inputLimits.post;
  refuseUnlessEmpty([
    ...textWithin('content.caption', content?.caption, limits.caption),
    ...itemsWithin('content.mediaIds', content?.mediaIds, limits.mediaIds),
    ...threadWithin('content.thread', content?.thread),
    ...itemsWithin('targets', targets, limits.targets, 1),
    ...(targets ?? []).flatMap((target, index) => [
      ...textWithin(`targets[${index}].placement`, target.placement, limits.placement, 1),
      ...textWithin(`targets[${index}].override.caption`, target.override?.caption, limits.caption),
      ...threadWithin(`targets[${index}].override.thread`, target.override?.thread),
    ]),
    ...textWithin('campaign', campaign, limits.campaign),
  ]);
}

/** A thread's input limits: at most 25 parts, each within a post's caption and media limits. */
function threadWithin(field: string, thread: readonly ThreadPartInput[] | undefined): ErrorDetail[] {
  const limits = inputLimits.post;
  return [
    ...itemsWithin(field, thread, maxThreadParts),
    ...(thread ?? []).flatMap((part, index) => [
      ...textWithin(`${field}[${index}].caption`, part.caption, limits.caption),
      ...itemsWithin(`${field}[${index}].mediaIds`, part.mediaIds, limits.mediaIds),
    ]),
  ];
}

function targetRows(postId: string, targets: TargetInput[]) {
  return targets.map((target, position) => ({
    settings: (target.settings ?? {}) as Prisma.InputJsonObject,
    id: randomUUID(),
    postId,
    connectionId: target.connectionId,
    placement: target.placement,
    position,
    overrideCaption: target.override?.caption ?? null,
    overrideThread: target.override?.thread === undefined ? Prisma.DbNull : storedThread(threadParts(target.override.thread)),
  }));
}

export async function createPost(db: Database, actor: Actor, input: PostInput): Promise<PostDetail> {
  return db.prisma.$transaction((tx) => createPostIn(tx, actor, input));
}

/**
 * Creates the draft within `tx`, checked as createPost checks it: the CSV import writes many in one transaction, and
 * a feed item becomes a post and is marked posted in one.
 */
export async function createPostIn(tx: Transaction, actor: Actor, input: PostInput): Promise<PostDetail> {
  authorize(actor, 'createPost');
  checkPostLimits(input.content, input.targets, input.campaign);
  const content = { caption: input.content.caption ?? '', mediaIds: input.content.mediaIds ?? [], thread: threadParts(input.content.thread) };
  const resolved = await resolveTargets(tx, actor, content, input.targets);
  const id = randomUUID();
  await tx.post.create({
    data: {
      id,
      workspaceId: actor.workspaceId,
      createdById: actor.userId,
      caption: content.caption,
      mediaIds: content.mediaIds,
      thread: storedThread(content.thread),
      campaign: input.campaign ?? null,
    },
  });
  await tx.postTarget.createMany({ data: targetRows(id, resolved) });
  return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id }, include: withTargets }));
}

/** A stored post's targets as createPost and updatePost take them. */
function targetInputsOf(post: PostWithTargets): TargetInput[] {
  return post.targets.map((target) => ({
    connectionId: target.connectionId,
    placement: target.placement,
    override: overrideOf(target),
    settings: target.settings as Record<string, unknown>,
  }));
}

/** A new draft with the content, targets and campaign of post `id`, whatever that post's state; checked as any new post. */
export async function duplicatePost(db: Database, actor: Actor, id: string): Promise<PostDetail> {
  const original = await getPost(db, actor, id);
  return createPost(db, actor, {
    content: { caption: original.caption, mediaIds: original.mediaIds },
    targets: targetInputsOf(original),
    campaign: original.campaign,
  });
}

export async function getPost(db: Database, actor: Actor, id: string): Promise<PostDetail> {
  authorize(actor, 'getPost');
  const post = isUuid(id) ? await db.prisma.post.findFirst({ where: { id, workspaceId: actor.workspaceId }, include: withTargets }) : null;
  if (!post) throw notFound('post');
  return withMedia(db.prisma, post);
}

export interface PostFilters {
  status?: string[];
  from?: Date;
  to?: Date;
  connectionId?: string;
  provider?: string;
  campaign?: string;
}

export const postPosition = (post: Post) => ({ at: post.createdAt.toISOString(), id: post.id });

/** Newest first. `from`/`to` bound the post's time: when it was (or is to be) published, else created. */
export async function listPosts(db: Database, actor: Actor, filters: PostFilters, request: PageRequest): Promise<Page<PostWithTargets>> {
  authorize(actor, 'listPosts');
  const where: Prisma.PostWhereInput = {
    ...postsWhere(actor, filters),
    AND: [newestFirstAfter<Prisma.PostWhereInput>('createdAt', decodeCursor(request.cursor, isUuid))],
  };
  const limit = pageSize(request);
  const rows = await db.prisma.post.findMany({ where, include: withTargets, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  return toPage(rows, limit, postPosition);
}

/** The workspace's posts the filters of GET /posts select (400 with details for a filter that is not one). */
export function postsWhere(actor: Actor, filters: PostFilters): Prisma.PostWhereInput {
  refuseUnlessEmpty(textWithin('campaign', filters.campaign, inputLimits.post.campaign));
  const unknown = (filters.status ?? []).filter((status) => !(postStatuses as readonly string[]).includes(status));
  if (unknown.length) throw invalidRequest([{ field: 'status', code: 'enum', messageKey: 'detail.enum', params: { allowed: postStatuses.join(', ') } }]);
  if (filters.connectionId !== undefined && !isUuid(filters.connectionId)) {
    throw invalidRequest([{ field: 'connectionId', code: 'format', messageKey: 'detail.format', params: { format: 'uuid' } }]);
  }
  const outOfRange = instantDetails({ from: filters.from, to: filters.to });
  if (outOfRange.length) throw invalidRequest(outOfRange);
  const timeRange = filters.from || filters.to ? { gte: filters.from, lt: filters.to } : undefined;
  return {
    workspaceId: actor.workspaceId,
    ...(filters.status?.length ? { status: { in: filters.status } } : {}),
    ...(filters.campaign !== undefined ? { campaign: filters.campaign } : {}),
    ...(filters.connectionId || filters.provider
      ? {
          targets: {
            some: {
              ...(filters.connectionId ? { connectionId: filters.connectionId } : {}),
              ...(filters.provider ? { account: { provider: filters.provider } } : {}),
            },
          },
        }
      : {}),
    ...(timeRange
      ? { OR: [{ publishedAt: timeRange }, { publishedAt: null, scheduledAt: timeRange }, { publishedAt: null, scheduledAt: null, createdAt: timeRange }] }
      : {}),
  };
}

export interface PostChanges {
  version: number;
  content?: PostContentInput;
  targets?: TargetInput[];
  campaign?: string | null;
}

/**
 * Applies the changes only if the post is still at `version`; 409 CONCURRENT_MODIFICATION otherwise. New targets of
 * a scheduled post get their jobs (a new run at the same time).
 */
export async function updatePost(db: Database, boss: PgBoss, actor: Actor, id: string, changes: PostChanges): Promise<PostDetail> {
  authorize(actor, 'updatePost');
  checkPostLimits(changes.content, changes.targets, changes.campaign);
  return db.prisma.$transaction(async (tx) => {
    const post = await lockPost(tx, actor, id);
    if (post.version !== changes.version) {
      throw new AppError('CONCURRENT_MODIFICATION', 'concurrentModification', { expected: changes.version, actual: post.version });
    }
    assertTransition(post.status, 'update');
    const before = { caption: post.caption, mediaIds: post.mediaIds, thread: threadOf(post, { overrideThread: null }) };
    const content = {
      caption: changes.content?.caption ?? before.caption,
      mediaIds: changes.content?.mediaIds ?? before.mediaIds,
      thread: changes.content?.thread ? threadParts(changes.content.thread) : before.thread,
    };
    const targets = changes.targets ?? targetInputsOf(post);
    const resolved = await resolveTargets(tx, actor, content, targets);
    const changed =
      stableJson(content) !== stableJson(before) ||
      (changes.targets !== undefined && stableJson(targetsOf(resolved)) !== stableJson(targetsOf(targetInputsOf(post))));
    const voided = changed ? voidedBy(post, await approvalRequiredIn(tx, actor.workspaceId)) : null;
    const { count } = await tx.post.updateMany({
      where: { id, version: changes.version },
      data: {
        caption: content.caption,
        mediaIds: content.mediaIds,
        thread: storedThread(content.thread),
        ...(changes.campaign !== undefined ? { campaign: changes.campaign } : {}),
        ...voided,
        version: { increment: 1 },
      },
    });
    if (count !== 1) throw new AppError('CONCURRENT_MODIFICATION', 'concurrentModification', { expected: changes.version, actual: post.version });
    if (changes.targets) {
      await tx.postTarget.deleteMany({ where: { postId: id } });
      const rows = targetRows(id, resolved);
      await tx.postTarget.createMany({ data: rows });
      if (post.status === 'scheduled' && voided?.status !== 'draft') {
        const runId = randomUUID();
        await tx.post.update({ where: { id }, data: { publishRunId: runId } });
        await enqueueRun(
          tx,
          boss,
          id,
          rows.map((row) => row.id),
          runId,
          post.scheduledAt,
        );
      }
    }
    return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id }, include: withTargets }));
  });
}

/** What a target publishes, to tell whether a PATCH changed it. */
function targetsOf(targets: TargetInput[]) {
  return targets.map((target) => ({
    connectionId: target.connectionId,
    placement: target.placement,
    caption: target.override?.caption ?? null,
    thread: target.override?.thread === undefined ? null : threadParts(target.override.thread),
    settings: target.settings ?? {},
  }));
}

/** JSON with object keys sorted: the same value gives the same text whatever order PostgreSQL's jsonb kept. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}

export async function deletePost(db: Database, outbox: Outbox, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'deletePost');
  await db.prisma.$transaction(async (tx) => {
    const post = await lockPost(tx, actor, id);
    assertTransition(post.status, 'delete');
    await tx.post.delete({ where: { id } });
    await outbox.record(tx, actor.workspaceId, 'post.deleted', { postId: id, status: post.status });
  });
}
