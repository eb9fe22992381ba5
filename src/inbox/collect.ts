// Collecting the inbox: every minute a tick queues a poll for each active account of a network with an inbox that
// has posts published in the last INBOX_LOOKBACK_DAYS and was not polled in the last INBOX_POLL_SECONDS (one waiting
// poll per account: the queue's singleton key). A poll reads what is new since its cursor (the network's last seen
// id or time), stores each comment once (by the account and the network's id), and leaves out the account's own
// replies. Each poll is charged to the network's read limit (kit/quotas.ts), filling at most pollSharePercent of
// any window, so publishing always finds room; a poll without room waits for the next interval.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { TokenKeeper } from '../accounts/tokens.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { chargeInbox } from './quotaCharge.ts';
import { shownUrl } from '../outbound/guard.ts';
import { ProviderError } from '../providers/adapter.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import { pollSharePercent, type InboxCursor, type WatchedPost } from '../providers/inbox.ts';
import type { InboxAdapters } from './networks.ts';

export interface CollectionDeps {
  db: Database;
  secrets: SecretBox;
  tokens: TokenKeeper;
  adapters: ProviderAdapters;
  inboxes: InboxAdapters;
  logger: Logger;
  settings: { lookbackDays: number; pollSeconds: number };
  /** Hosts a network's links may name over http (NETWORK_ALLOWED_HOSTS): other links must be public https. */
  linkHosts: ReadonlySet<string>;
}

export interface PollInboxJob {
  connectionId: string;
}

export type PollResult = { status: 'polled'; collected: number; calls: number } | { status: 'skipped'; reason: string };

/** The accounts whose poll is due at `now`. */
export async function duePolls(deps: Pick<CollectionDeps, 'db' | 'inboxes' | 'settings'>, now: Date): Promise<string[]> {
  const { rows } = await deps.db.pool.query<{ id: string }>(
    `SELECT a.id FROM social_account a LEFT JOIN inbox_poll p ON p.connection_id = a.id
     WHERE a.status = 'ACTIVE' AND a.provider = ANY($1::text[])
       AND (p.polled_at IS NULL OR p.polled_at <= $2::timestamptz - make_interval(secs => $3::int))
       AND EXISTS (SELECT 1 FROM post_target t WHERE t.connection_id = a.id AND t.status = 'published' AND t.remote_id IS NOT NULL
                   AND t.published_at >= $2::timestamptz - make_interval(days => $4::int))`,
    [[...deps.inboxes.keys()], now, deps.settings.pollSeconds, deps.settings.lookbackDays],
  );
  return rows.map((row) => row.id);
}

interface AccountToPoll {
  id: string;
  workspace_id: string;
  provider: string;
  username: string;
  remote_id: string | null;
  encrypted_tokens: string | null;
  cursor: InboxCursor | null;
  posts: { targetId: string; postId: string; remoteId: string; publishedAt: string }[];
}

/** Polls one account's posts for new comments at `now`; the answer says what it cost. */
export async function pollInbox(deps: CollectionDeps, connectionId: string, now: Date, signal = new AbortController().signal): Promise<PollResult> {
  const { rows } = await deps.db.pool.query<AccountToPoll>(
    `SELECT a.id, a.workspace_id, a.provider, a.username, a.remote_id, a.encrypted_tokens, p.cursor,
            coalesce((SELECT json_agg(json_build_object('targetId', t.id, 'postId', t.post_id, 'remoteId', t.remote_id, 'publishedAt', t.published_at)
                               ORDER BY t.published_at DESC)
                      FROM post_target t WHERE t.connection_id = a.id AND t.status = 'published' AND t.remote_id IS NOT NULL
                        AND t.published_at >= $2::timestamptz - make_interval(days => $3::int)), '[]') AS posts
     FROM social_account a LEFT JOIN inbox_poll p ON p.connection_id = a.id
     WHERE a.id = $1 AND a.status = 'ACTIVE'`,
    [connectionId, now, deps.settings.lookbackDays],
  );
  const account = rows[0];
  const inbox = account && deps.inboxes.get(account.provider);
  if (!account || !inbox) return { status: 'skipped', reason: 'no active account of a network with an inbox' };
  if (!account.posts.length) return { status: 'skipped', reason: 'no posts published in the lookback' };
  const unavailable = inbox.unavailableFor?.({ remoteId: account.remote_id });
  if (unavailable) {
    await markPolled(deps.db, account.id, account.cursor ?? {}, now);
    return { status: 'skipped', reason: unavailable };
  }
  const posts: WatchedPost[] = account.posts.map((post) => ({ targetId: post.targetId, remoteId: post.remoteId, publishedAt: new Date(post.publishedAt) }));
  const charged = { provider: account.provider, connectionId: account.id, workspaceId: account.workspace_id };
  const wait = await chargeInbox(deps.db, charged, inbox.readQuota ? [inbox.readQuota] : [], { cost: () => posts.length, ceilingPercent: pollSharePercent });
  if (wait) {
    await markPolled(deps.db, account.id, account.cursor ?? {}, now);
    return { status: 'skipped', reason: wait.reason };
  }
  const refreshable = deps.adapters.get(account.provider)?.refresh !== undefined;
  const page = await deps.tokens
    .callWithTokens({ id: account.id, encryptedTokens: account.encrypted_tokens }, refreshable, (tokens) =>
      inbox.listComments({
        account: { id: account.id, provider: account.provider, username: account.username, remoteId: account.remote_id, tokens },
        posts,
        since: account.cursor ?? {},
        signal,
      }),
    )
    .catch((error: unknown) => {
      // A network that refuses or fails is asked again at the next interval, not at every tick in between.
      if (!(error instanceof ProviderError)) throw error;
      return error;
    });
  if (page instanceof ProviderError) {
    await markPolled(deps.db, account.id, account.cursor ?? {}, now);
    return { status: 'skipped', reason: page.message };
  }
  // Charged one call a post before it, a poll that paged pays for its further calls once made (refused only past
  // the whole window, which the next poll then waits out).
  if (inbox.readQuota && page.calls > posts.length) await chargeInbox(deps.db, charged, [inbox.readQuota], { cost: () => page.calls - posts.length });
  const byRemoteId = new Map(account.posts.map((post) => [post.remoteId, post]));
  const comments = page.comments.filter((comment) => byRemoteId.has(comment.postRemoteId));
  const column = <T>(value: (comment: (typeof comments)[number]) => T) => comments.map(value);
  const { rowCount } = await deps.db.pool.query(
    `WITH polled AS (
       INSERT INTO inbox_poll (connection_id, cursor, polled_at) VALUES ($1, $4::jsonb, $5)
       ON CONFLICT (connection_id) DO UPDATE SET cursor = excluded.cursor, polled_at = excluded.polled_at)
     INSERT INTO inbox_item (id, workspace_id, connection_id, provider, target_id, post_id, kind, remote_id, remote_url, parent_remote_id, reference,
                             author_name, author_username, author_avatar_url, text, created_at)
     SELECT gen_random_uuid(), $2, $1, $3, c.*
     FROM unnest($6::uuid[], $7::uuid[], $8::text[], $9::text[], $10::text[], $11::text[], $12::jsonb[], $13::text[], $14::text[], $15::text[],
                 $16::text[], $17::timestamptz[])
       AS c(target_id, post_id, kind, remote_id, remote_url, parent_remote_id, reference, author_name, author_username, author_avatar_url, text, created_at)
     -- The account's own answers, posted from here, are never items (networks list them among the replies).
     WHERE NOT EXISTS (SELECT 1 FROM inbox_reply r JOIN inbox_item i ON i.id = r.item_id WHERE i.connection_id = $1 AND r.remote_id = c.remote_id)
     ON CONFLICT (connection_id, remote_id) DO NOTHING`,
    [
      account.id,
      account.workspace_id,
      account.provider,
      JSON.stringify(page.cursor),
      now,
      column((comment) => byRemoteId.get(comment.postRemoteId)!.targetId),
      column((comment) => byRemoteId.get(comment.postRemoteId)!.postId),
      column((comment) => comment.kind),
      column((comment) => comment.remoteId),
      column((comment) => shownUrl(comment.remoteUrl, deps.linkHosts)),
      column((comment) => comment.parentRemoteId),
      column((comment) => JSON.stringify(comment.reference ?? {})),
      column((comment) => comment.author.displayName),
      column((comment) => comment.author.username),
      column((comment) => shownUrl(comment.author.avatarUrl, deps.linkHosts)),
      column((comment) => comment.text),
      column((comment) => comment.createdAt),
    ],
  );
  return { status: 'polled', collected: rowCount ?? 0, calls: page.calls };
}

async function markPolled(db: Database, connectionId: string, cursor: InboxCursor, now: Date): Promise<void> {
  await db.pool.query(
    `INSERT INTO inbox_poll (connection_id, cursor, polled_at) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (connection_id) DO UPDATE SET polled_at = excluded.polled_at`,
    [connectionId, JSON.stringify(cursor), now],
  );
}

/** Queues the polls that are due (one waiting poll per account). */
export async function queueDuePolls(boss: PgBoss, deps: Pick<CollectionDeps, 'db' | 'inboxes' | 'settings'>, now = new Date()): Promise<number> {
  const due = await duePolls(deps, now);
  if (due.length)
    await boss.insert(
      queueNames.pollInbox,
      due.map((connectionId) => ({ data: { connectionId } satisfies PollInboxJob, singletonKey: connectionId })),
    );
  return due.length;
}

export async function startInboxCollection(boss: PgBoss, deps: CollectionDeps): Promise<void> {
  await boss.schedule(queueNames.inboxTick, '* * * * *');
  await boss.work(queueNames.inboxTick, { batchSize: 1 }, async () => {
    await queueDuePolls(boss, deps);
  });
  await boss.work<PollInboxJob>(queueNames.pollInbox, { batchSize: 1, localConcurrency: 2 }, async ([job]) => {
    const result = await pollInbox(deps, job!.data.connectionId, new Date(), job!.signal);
    if (result.status === 'skipped') deps.logger.debug({ connectionId: job!.data.connectionId, reason: result.reason }, 'inbox poll skipped');
  });
}
