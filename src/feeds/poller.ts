// Polling feeds in the background: a pg-boss schedule each minute polls the feeds that are due (each claimed by one
// worker); a poll fetches the feed (src/feeds/fetch.ts), records every item not seen before, once per feed and key
// (a unique index and `ON CONFLICT DO NOTHING`, so restarts and concurrent workers agree), and turns the new ones
// into posts through the posts' own operations. The first poll of a feed only records what is already there. A
// failing poll keeps its reason on the feed and backs off: the poll interval doubled per failure in a row, at
// most a day, and never sooner than the host's Retry-After.
import { Prisma, type Feed, type SocialAccount } from '../db/generated/prisma/client.ts';
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { requirePlan } from '../access/actor.ts';
import { isRole } from '../access/scopes.ts';
import { AppError } from '../errors/appError.ts';
import { renderMessage } from '../errors/messages.ts';
import type { Outbox } from '../events/outbox.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import type { Logger } from '../logger.ts';
import { createPostIn } from '../posts/posts.ts';
import { queuePostIn } from '../queues/queues.ts';
import { rulesForAccount } from '../providers/catalog.ts';
import { FeedFailure, fetchFeed, type FetchSettings } from './fetch.ts';
import { feedEntries, UnreadableFeed, type FeedEntry } from './items.ts';
import { renderTemplate } from './template.ts';

export interface PollSettings {
  /** FEEDS_POLL_SECONDS: how often each feed is fetched. */
  pollSeconds: number;
  fetch: FetchSettings;
}

export interface PollOutcome {
  /** Items seen for the first time by this poll. */
  recorded: number;
  /** Posts made from them (none on a feed's first poll). */
  posted: number;
  notModified: boolean;
  error: { code: string; message: string } | null;
}

const longestBackoffSeconds = 24 * 3600;
/** Feeds one worker claims at a time, and polls side by side. */
const claimBatch = 20;
const pollsSideBySide = 4;

/** Seconds until the next poll after `failures` failures in a row: the interval doubled per failure, at most a day. */
export function backoffSeconds(pollSeconds: number, failures: number, retryAfterSeconds: number | null = null): number {
  return Math.max(Math.min(pollSeconds * 2 ** Math.min(failures, 20), longestBackoffSeconds), retryAfterSeconds ?? 0);
}

const inSeconds = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

export class FeedPoller {
  readonly #db: Database;
  readonly #boss: PgBoss;
  readonly #outbox: Outbox;
  readonly #logger: Logger;
  readonly #settings: PollSettings;

  constructor(deps: { db: Database; boss: PgBoss; outbox: Outbox; logger: Logger; settings: PollSettings }) {
    this.#db = deps.db;
    this.#boss = deps.boss;
    this.#outbox = deps.outbox;
    this.#logger = deps.logger;
    this.#settings = deps.settings;
  }

  /**
   * Polls every feed due at `now`. Each is claimed first (its next poll moved a whole interval on, under a row lock
   * other workers skip), so two workers never take the same feed in one round. Returns how many were polled.
   */
  async pollDue(now = new Date()): Promise<number> {
    let polled = 0;
    for (;;) {
      const claimed = await this.#db.prisma.$queryRaw<{ id: string }[]>`
        UPDATE feed SET next_poll_at = ${inSeconds(now, this.#settings.pollSeconds)}
        WHERE id IN (SELECT id FROM feed WHERE next_poll_at <= ${now} ORDER BY next_poll_at LIMIT ${claimBatch} FOR UPDATE SKIP LOCKED)
        RETURNING id`;
      if (!claimed.length) return polled;
      for (let start = 0; start < claimed.length; start += pollsSideBySide) {
        await Promise.all(claimed.slice(start, start + pollsSideBySide).map(({ id }) => this.poll(id, now)));
      }
      polled += claimed.length;
    }
  }

  /** One poll of the feed, whenever it is due; null when the feed is gone. */
  async poll(feedId: string, now = new Date()): Promise<PollOutcome | null> {
    const feed = await this.#db.prisma.feed.findUnique({ where: { id: feedId } });
    if (!feed) return null;
    try {
      const actor = await this.#actorOf(feed, now);
      const answer = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.lastModified }, this.#settings.fetch, now);
      const recorded = answer.kind === 'feed' ? await this.#record(feed, readEntries(answer.text)) : 0;
      await this.#db.prisma.feed.update({
        where: { id: feed.id },
        data: {
          lastPolledAt: now,
          firstPolledAt: feed.firstPolledAt ?? now,
          ...(answer.kind === 'feed' ? answer.validators : {}),
          nextPollAt: inSeconds(now, this.#settings.pollSeconds),
          consecutiveFailures: 0,
          errorCode: null,
          errorMessage: null,
          errorAt: null,
        },
      });
      const posted = await this.#postPending(feed, actor);
      return { recorded, posted, notModified: answer.kind === 'notModified', error: null };
    } catch (error) {
      if (!(error instanceof FeedFailure)) throw error;
      const failures = feed.consecutiveFailures + 1;
      await this.#db.prisma.feed.update({
        where: { id: feed.id },
        data: {
          lastPolledAt: now,
          consecutiveFailures: failures,
          errorCode: error.code,
          errorMessage: error.message,
          errorAt: now,
          nextPollAt: inSeconds(now, backoffSeconds(this.#settings.pollSeconds, failures, error.retryAfterSeconds)),
        },
      });
      this.#logger.info({ feedId: feed.id, code: error.code, failures }, 'feed poll failed');
      return { recorded: 0, posted: 0, notModified: false, error: { code: error.code, message: error.message } };
    }
  }

  /**
   * The feed acts as the person who added it, with their role now: posts:read and posts:write within what the role
   * allows, while a plan is in force. Someone no longer in the workspace leaves the feed failing until it is changed.
   */
  async #actorOf(feed: Feed, now: Date): Promise<Actor> {
    const membership = await this.#db.prisma.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: feed.workspaceId, userId: feed.createdById } },
      include: { workspace: true },
    });
    if (!membership || !isRole(membership.role)) {
      throw new FeedFailure('creatorGone', 'The person who added this feed is no longer a member of the workspace: add the feed again as a member.');
    }
    const plan = { plan: membership.workspace.plan, planExpiresAt: membership.workspace.planExpiresAt };
    try {
      requirePlan(plan, undefined, now);
    } catch {
      throw new FeedFailure('noPlan', 'The workspace has no plan in force: new items are not turned into posts.');
    }
    return {
      workspaceId: feed.workspaceId,
      userId: feed.createdById,
      role: membership.role,
      apiKeyId: null,
      grantedScopes: new Set(['posts:read', 'posts:write']),
      plan,
    };
  }

  /** Records the entries not seen before (pending posts, or only recorded on the first poll); how many were new. */
  async #record(feed: Feed, entries: FeedEntry[]): Promise<number> {
    if (!entries.length) return 0;
    const status = feed.firstPolledAt ? 'pending' : 'recorded';
    const rows = entries.map(
      (entry, position) => Prisma.sql`(gen_random_uuid(), ${feed.id}::uuid, ${entry.key}, ${entry.title}, ${entry.link}, ${position}, ${status})`,
    );
    return this.#db.prisma.$executeRaw`
      INSERT INTO feed_item (id, feed_id, key, title, link, position, status)
      VALUES ${Prisma.join(rows)}
      ON CONFLICT (feed_id, key) DO NOTHING`;
  }

  /**
   * Turns the feed's pending items into posts, oldest first, each in one transaction with the item marked posted
   * (locked so that a concurrent poll skips it). An item the posts' rules refuse is marked failed with the reason.
   */
  async #postPending(feed: Feed, actor: Actor): Promise<number> {
    let posted = 0;
    for (;;) {
      const outcome = await this.#db.prisma
        .$transaction(async (tx) => {
          const [item] = await tx.$queryRaw<{ id: string; title: string; link: string | null; key: string }[]>`
            SELECT id, title, link, key FROM feed_item WHERE feed_id = ${feed.id}::uuid AND status = 'pending'
            ORDER BY created_at, position DESC LIMIT 1 FOR UPDATE SKIP LOCKED`;
          if (!item) return null;
          const current = await tx.feed.findUnique({ where: { id: feed.id } });
          if (!current) return null;
          const post = await this.#postOf(tx, actor, current, item);
          await tx.feedItem.update({ where: { id: item.id }, data: { status: 'posted', postId: post.id } });
          return { itemId: item.id };
        })
        .catch(async (error: unknown) => {
          if (!(error instanceof ItemRefused)) throw error;
          // Marked in a transaction of its own, the refused one having been rolled back; unless another poll got there first.
          await this.#db.prisma.feedItem.updateMany({
            where: { id: error.itemId, status: 'pending' },
            data: { status: 'failed', errorCode: error.code, errorMessage: renderMessage('en', error.messageKey, error.params) },
          });
          return { itemId: error.itemId, failed: true };
        });
      if (!outcome) return posted;
      if (!('failed' in outcome)) posted++;
    }
  }

  async #postOf(tx: Prisma.TransactionClient, actor: Actor, feed: Feed, item: FeedEntry & { id: string }) {
    try {
      const accounts = await tx.socialAccount.findMany({ where: { workspaceId: feed.workspaceId, id: { in: feed.connectionIds } } });
      // An account gone since leaves no placement: the post's own check then names the target.
      const placementFor = (id: string) => feed.placement ?? firstPlacement(accounts.find((account) => account.id === id)) ?? '';
      const draft = await createPostIn(tx, actor, {
        content: { caption: renderTemplate(feed.template, item) },
        targets: feed.connectionIds.map((connectionId) => ({ connectionId, placement: placementFor(connectionId) })),
      });
      if (feed.mode !== 'queue' || !feed.queueId) return draft;
      authorize(actor, 'queuePost');
      return await queuePostIn(tx, this.#boss, this.#outbox, actor, draft, feed.queueId);
    } catch (error) {
      if (error instanceof AppError) throw new ItemRefused(item.id, error);
      throw error;
    }
  }
}

/** A post the rules refused for one item (the AppError as its cause). */
class ItemRefused extends AppError {
  constructor(
    readonly itemId: string,
    cause: AppError,
  ) {
    super(cause.code, cause.messageKey, cause.params, { details: cause.details, cause });
  }
}

/** A network's first placement in GET /providers: a feed's default. */
const firstPlacement = (account: SocialAccount | undefined) => (account ? rulesForAccount(account)?.placements[0]?.name : undefined);

function readEntries(text: string): FeedEntry[] {
  try {
    return feedEntries(text);
  } catch (error) {
    if (error instanceof UnreadableFeed) throw new FeedFailure('unreadable', error.message);
    throw error;
  }
}

/** The minute's schedule that polls due feeds, one run at a time across the workers. */
export async function startFeedPolling(boss: PgBoss, poller: FeedPoller): Promise<void> {
  await boss.schedule(queueNames.pollFeeds, '* * * * *');
  await boss.work(queueNames.pollFeeds, { batchSize: 1 }, async () => {
    await poller.pollDue();
  });
}
