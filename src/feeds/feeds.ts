// Feeds: an RSS 2.0 or Atom feed whose new items become posts for some accounts, as drafts or in a queue's next
// slot (src/feeds/poller.ts polls them). Created, listed, read, changed and deleted by the workspace's people.
import { invalidRequest, notFound, type ErrorDetail } from '../errors/appError.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { isUuid } from '../ids.ts';
import { lockOwnedRow } from '../db/locks.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import type { Feed, Prisma } from '../db/generated/prisma/client.ts';
import { inputLimits, itemsWithin, refuseUnlessEmpty, textWithin } from '../limits.ts';
import { checkDestination, RefusedDestination } from '../outbound/guard.ts';
import { rulesForAccount } from '../providers/catalog.ts';
import { defaultTemplate, templateDetails } from './template.ts';

export const feedModes = ['draft', 'queue'] as const;
export type FeedMode = (typeof feedModes)[number];
/** `new` until the first poll, `failing` while the last poll failed. */
export const feedStatuses = ['new', 'active', 'failing'] as const;

export interface FeedInput {
  url: string;
  connectionIds: string[];
  placement?: string | null;
  mode: FeedMode;
  queueId?: string | null;
  template?: string;
}

export interface FeedSettings {
  /** Hosts a feed may name even when private, and over http (WEBHOOK_ALLOWED_HOSTS, as media imports). */
  allowedHosts: ReadonlySet<string>;
}

export function presentFeed(feed: Feed) {
  return {
    id: feed.id,
    url: feed.url,
    connectionIds: feed.connectionIds,
    placement: feed.placement,
    mode: feed.mode as FeedMode,
    queueId: feed.queueId,
    template: feed.template,
    status: feed.errorCode ? ('failing' as const) : feed.firstPolledAt ? ('active' as const) : ('new' as const),
    lastPolledAt: feed.lastPolledAt?.toISOString() ?? null,
    nextPollAt: feed.nextPollAt.toISOString(),
    lastError: feed.errorCode ? { code: feed.errorCode, message: feed.errorMessage ?? '', at: feed.errorAt!.toISOString() } : null,
    consecutiveFailures: feed.consecutiveFailures,
    createdAt: feed.createdAt.toISOString(),
    updatedAt: feed.updatedAt.toISOString(),
  };
}

/** The input limits and the form of the fields, before anything is looked up: 400 with details. */
function checkFeedInput(input: Partial<FeedInput>): void {
  const limits = inputLimits.feed;
  refuseUnlessEmpty([
    ...textWithin('url', input.url, limits.url, 1),
    ...itemsWithin('connectionIds', input.connectionIds, limits.connectionIds, 1),
    ...textWithin('placement', input.placement, inputLimits.post.placement, 1),
    ...(input.mode === undefined || (feedModes as readonly string[]).includes(input.mode)
      ? []
      : [{ field: 'mode', code: 'enum', messageKey: 'detail.enum' as const, params: { allowed: feedModes.join(', ') } }]),
    ...textWithin('template', input.template, limits.template, 1),
    ...templateDetails(input.template),
  ]);
}

async function checkedUrl(url: string, settings: FeedSettings): Promise<string> {
  try {
    return (await checkDestination(url, settings.allowedHosts)).url.toString();
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    const messageKey = error.code === 'httpsRequired' ? 'detail.feedUrl.httpsRequired' : (`detail.mediaUrl.${error.code}` as const);
    throw invalidRequest([{ field: 'url', code: error.code, messageKey, params: error.params }]);
  }
}

/** The accounts are the workspace's, the placement (when named) is one each account's network has, the queue fits the mode. */
async function checkReferences(tx: Transaction, actor: Actor, feed: Pick<FeedInput, 'connectionIds' | 'placement' | 'mode' | 'queueId'>): Promise<void> {
  const ids = [...new Set(feed.connectionIds)];
  const accounts = await tx.socialAccount.findMany({ where: { workspaceId: actor.workspaceId, id: { in: ids.filter(isUuid) } } });
  const details: ErrorDetail[] = [];
  if (accounts.length !== ids.length) details.push({ field: 'connectionIds', code: 'unknownAccount', messageKey: 'detail.unknownAccount' });
  if (feed.placement) {
    for (const account of accounts) {
      const allowed = rulesForAccount(account)?.placements.map((placement) => placement.name) ?? [];
      if (!allowed.includes(feed.placement)) {
        details.push({
          field: 'placement',
          code: 'unknownPlacement',
          messageKey: 'detail.unknownPlacement',
          params: { provider: account.provider, placement: feed.placement, allowed: allowed.join(', ') },
        });
      }
    }
  }
  if (feed.mode === 'queue' && !feed.queueId) details.push({ field: 'queueId', code: 'required', messageKey: 'detail.queueRequired' });
  if (feed.mode === 'draft' && feed.queueId) details.push({ field: 'queueId', code: 'queueWithoutQueueMode', messageKey: 'detail.queueWithoutQueueMode' });
  if (feed.mode === 'queue' && feed.queueId) {
    const found = isUuid(feed.queueId) && (await tx.queue.count({ where: { id: feed.queueId, workspaceId: actor.workspaceId } }));
    if (!found) details.push({ field: 'queueId', code: 'unknownQueue', messageKey: 'detail.unknownQueue' });
  }
  refuseUnlessEmpty(details);
}

export async function createFeed(db: Database, settings: FeedSettings, actor: Actor, input: FeedInput): Promise<Feed> {
  authorize(actor, 'createFeed');
  checkFeedInput(input);
  const url = await checkedUrl(input.url, settings);
  return db.prisma.$transaction(async (tx) => {
    await checkReferences(tx, actor, input);
    return tx.feed.create({
      data: {
        workspaceId: actor.workspaceId,
        createdById: actor.userId,
        url,
        connectionIds: [...new Set(input.connectionIds)],
        placement: input.placement ?? null,
        mode: input.mode,
        queueId: input.queueId ?? null,
        template: input.template ?? defaultTemplate,
      },
    });
  });
}

export const feedPosition = (feed: Feed) => ({ at: feed.createdAt.toISOString(), id: feed.id });

export async function listFeeds(db: Database, actor: Actor, request: PageRequest): Promise<Page<Feed>> {
  authorize(actor, 'listFeeds');
  const limit = pageSize(request);
  const rows = await db.prisma.feed.findMany({
    where: { workspaceId: actor.workspaceId, ...newestFirstAfter<Prisma.FeedWhereInput>('createdAt', decodeCursor(request.cursor, isUuid)) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, feedPosition);
}

export async function getFeed(db: Database, actor: Actor, id: string): Promise<Feed> {
  authorize(actor, 'getFeed');
  const feed = isUuid(id) ? await db.prisma.feed.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!feed) throw notFound('feed');
  return feed;
}

async function lockFeed(tx: Transaction, actor: Actor, id: string): Promise<Feed> {
  if (!(await lockOwnedRow(tx, 'feed', actor.workspaceId, id))) throw notFound('feed');
  return tx.feed.findUniqueOrThrow({ where: { id } });
}

/**
 * Changes the feed. A new URL starts it afresh: its next poll only records what is there (and the validators and
 * the error of the old URL are dropped). A change clears a failing feed's backoff: it is polled at the next tick.
 */
export async function updateFeed(db: Database, settings: FeedSettings, actor: Actor, id: string, changes: Partial<FeedInput>): Promise<Feed> {
  authorize(actor, 'updateFeed');
  checkFeedInput(changes);
  const url = changes.url === undefined ? undefined : await checkedUrl(changes.url, settings);
  return db.prisma.$transaction(async (tx) => {
    const feed = await lockFeed(tx, actor, id);
    const mode = changes.mode ?? (feed.mode as FeedMode);
    const merged = {
      connectionIds: changes.connectionIds ?? feed.connectionIds,
      placement: changes.placement === undefined ? feed.placement : changes.placement,
      mode,
      // A feed turned into drafts drops its queue; one turned to a queue must name one.
      queueId: changes.queueId !== undefined ? changes.queueId : mode === 'draft' && changes.mode ? null : feed.queueId,
    };
    await checkReferences(tx, actor, merged);
    const newUrl = url !== undefined && url !== feed.url;
    return tx.feed.update({
      where: { id: feed.id },
      data: {
        ...merged,
        connectionIds: [...new Set(merged.connectionIds)],
        ...(changes.template !== undefined ? { template: changes.template } : {}),
        ...(newUrl ? { url, etag: null, lastModified: null, firstPolledAt: null } : {}),
        errorCode: null,
        errorMessage: null,
        errorAt: null,
        consecutiveFailures: 0,
        nextPollAt: new Date(),
      },
    });
  });
}

export async function deleteFeed(db: Database, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'deleteFeed');
  await db.prisma.$transaction(async (tx) => {
    const feed = await lockFeed(tx, actor, id);
    await tx.feed.delete({ where: { id: feed.id } });
  });
}
