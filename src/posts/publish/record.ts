// Recording outcomes, a batch at a time in one transaction: the targets' rows, their events, the follow-up jobs (a
// status check, a retry at the network's time, the wait for a quota's window), and the final state of posts whose
// targets are all final. Then each outcome is logged once, for operators.
import type pg from 'pg';
import { withPoolTransaction, type Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { viaClient, type NewEvent, type Outbox } from '../../events/outbox.ts';
import { queueNames, type PgBoss } from '../../jobs/boss.ts';
import { settledStatus } from '../states.ts';
import type { MetricReadings } from '../../analytics/collect.ts';
import { postedParts as checkpointParts } from '../../providers/kit/thread.ts';
import { publishDelaySeconds } from '../../metrics/registry.ts';
import type { CheckTargetJob, ClaimedTarget } from './claim.ts';
import { recordedItem, type Outcome, type RecordedItem } from './outcome.ts';

export interface RecordDeps {
  db: Database;
  boss: PgBoss;
  outbox: Outbox;
  metricReadings: MetricReadings;
  logger: Logger;
  /** Where a permalink may be over http. */
  permalinkHosts: ReadonlySet<string>;
}

function targetEvent(target: ClaimedTarget, type: 'target.published' | 'target.failed', data: Record<string, unknown>): NewEvent {
  return {
    workspaceId: target.workspaceId,
    type,
    data: { postId: target.postId, targetId: target.targetId, connectionId: target.connectionId, provider: target.provider, ...data },
  };
}

/**
 * Every recorded outcome, once, for operators: published or waiting for the network (info), failed and to be
 * retried (warn), failed for good (error), with the network's reason and code. Never the request or the tokens.
 */
function logOutcome(logger: Logger, outcome: Outcome): void {
  const { target } = outcome;
  const fields = { workspaceId: target.workspaceId, postId: target.postId, targetId: target.targetId, provider: target.provider, attempt: target.attempts };
  if (outcome.kind === 'published') logger.info({ ...fields, remoteId: outcome.item.remoteId }, 'target published');
  else if (outcome.kind === 'processing') logger.info({ ...fields, checkAfter: outcome.checkAfter }, 'target waiting for the network');
  else if (outcome.kind === 'waiting') logger.info({ ...fields, until: outcome.until, reason: outcome.reason }, 'target waiting for a quota');
  else {
    const failure = { ...fields, code: outcome.failure.code, reason: outcome.failure.message, retry: outcome.retry };
    if (outcome.retry === 'never') logger.error(failure, 'target failed');
    else logger.warn({ ...failure, retryAt: outcome.retryAt }, 'target failed, to be retried');
  }
}

/** A thread's parts as stored on the target (post_target.parts): null for a target without a thread. */
function storedParts(parts: readonly RecordedItem[] | undefined): string | null {
  return parts ? JSON.stringify(parts.map(({ remoteId, remoteUrl }) => ({ remoteId, remoteUrl }))) : null;
}

/** A first comment as stored on the target (post_target.first_comment) and shown in events. */
function storedFirstComment(comment: RecordedItem['firstComment']) {
  return comment ? { remoteId: comment.item?.remoteId ?? null, remoteUrl: comment.item?.remoteUrl ?? null, error: comment.error } : null;
}

/** Records outcomes, their events and follow-up jobs, and the final state of posts whose targets are all final. */
export async function recordOutcomes(deps: RecordDeps, outcomes: Outcome[]): Promise<void> {
  if (!outcomes.length) return;
  await withPoolTransaction(deps.db.pool, async (client) => {
    const postIds = [...new Set(outcomes.map((outcome) => outcome.target.postId))].sort();
    await client.query('SELECT id FROM post WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [postIds]);
    const published = outcomes.filter((outcome) => outcome.kind === 'published');
    const processing = outcomes.filter((outcome) => outcome.kind === 'processing');
    const failures = outcomes.filter((outcome) => outcome.kind === 'failed');
    const waiting = outcomes.filter((outcome) => outcome.kind === 'waiting');
    const final = failures.filter((outcome) => outcome.retry === 'never');
    const events: NewEvent[] = [];
    if (published.length) {
      const { rows: delays } = await client.query<{ delay_seconds: number | null }>(
        `UPDATE post_target t SET status = 'published', remote_id = u.remote_id, remote_url = u.remote_url, published_at = u.published_at,
                parts = u.parts::jsonb, first_comment = u.first_comment::jsonb,
                processing_handle = NULL, error_code = u.warning_code, error_message = u.warning_message, waiting_until = NULL, waiting_reason = NULL
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[])
              AS u(id, remote_id, remote_url, published_at, parts, first_comment, warning_code, warning_message), post p
         WHERE t.id = u.id AND p.id = t.post_id
         RETURNING extract(epoch FROM u.published_at - p.scheduled_at)::float8 AS delay_seconds`,
        [
          published.map((o) => o.target.targetId),
          published.map((o) => o.item.remoteId),
          published.map((o) => o.item.remoteUrl),
          published.map((o) => o.at),
          published.map((o) => storedParts(o.item.parts)),
          published.map((o) => JSON.stringify(storedFirstComment(o.item.firstComment))),
          // What the network refused of a published post (a thumbnail) stays as the target's error.
          published.map((o) => o.item.warning?.code ?? null),
          published.map((o) => o.item.warning?.message ?? null),
        ],
      );
      for (const { delay_seconds } of delays) if (delay_seconds !== null) publishDelaySeconds.observe(Math.max(0, delay_seconds));
      for (const { target, item } of published) {
        events.push(
          targetEvent(target, 'target.published', {
            remoteId: item.remoteId,
            remoteUrl: item.remoteUrl,
            parts: JSON.parse(storedParts(item.parts) ?? '[]'),
            firstComment: storedFirstComment(item.firstComment),
          }),
        );
      }
      // Analytics show the targets at once (zeros), and their first reading comes minutes after.
      await deps.metricReadings.startFor(
        viaClient(client),
        published.map((o) => o.target.targetId),
      );
    }
    if (processing.length) {
      await client.query(
        `UPDATE post_target t SET processing_handle = u.handle, error_code = NULL, error_message = NULL, waiting_until = NULL, waiting_reason = NULL
         FROM unnest($1::uuid[], $2::text[]) AS u(id, handle) WHERE t.id = u.id`,
        [processing.map((o) => o.target.targetId), processing.map((o) => o.handle)],
      );
      await enqueue(
        deps,
        client,
        queueNames.checkTarget,
        processing.map((o) => ({ data: checkJob(o.target, o.handle), startAfter: o.checkAfter })),
      );
    }
    if (failures.length) {
      // A failure that will be retried keeps the target `publishing`, with the reason visible meanwhile, and when
      // the network said when to come back, that time as `waiting_until`.
      await client.query(
        `UPDATE post_target t SET status = CASE WHEN u.final THEN 'failed' ELSE t.status END, error_code = u.code, error_message = u.message,
                processing_handle = CASE WHEN u.final THEN NULL ELSE t.processing_handle END,
                waiting_until = u.retry_at, waiting_reason = CASE WHEN u.retry_at IS NULL THEN NULL ELSE u.message END,
                parts = COALESCE(u.parts::jsonb, t.parts)
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bool[], $5::timestamptz[], $6::text[]) AS u(id, code, message, final, retry_at, parts) WHERE t.id = u.id`,
        [
          failures.map((o) => o.target.targetId),
          failures.map((o) => o.failure.code),
          failures.map((o) => o.failure.message),
          failures.map((o) => o.retry === 'never'),
          failures.map((o) => (o.retry === 'later' ? o.retryAt! : null)),
          failures.map((o) => storedParts(postedParts(deps, o.target))),
        ],
      );
      for (const { target, failure } of final) {
        events.push(targetEvent(target, 'target.failed', { error: failure, parts: JSON.parse(storedParts(postedParts(deps, target)) ?? '[]') }));
      }
      for (const mode of ['publish', 'check'] as const) {
        const later = failures.filter((o) => o.retry === 'later' && o.target.mode === mode);
        await enqueue(
          deps,
          client,
          mode === 'publish' ? queueNames.publishTarget : queueNames.checkTarget,
          later.map((o) => ({ data: o.target.job.data, startAfter: o.retryAt! })),
        );
      }
    }
    if (waiting.length) {
      await client.query(
        `UPDATE post_target t SET waiting_until = u.until, waiting_reason = u.reason
         FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS u(id, until, reason) WHERE t.id = u.id`,
        [waiting.map((o) => o.target.targetId), waiting.map((o) => o.until), waiting.map((o) => o.reason)],
      );
      await enqueue(
        deps,
        client,
        queueNames.publishTarget,
        waiting.map((o) => ({ data: o.target.job.data, startAfter: o.until })),
      );
    }
    events.push(...(await settle(client, postIds)));
    await deps.outbox.recordAll(viaClient(client), events);
  });
  for (const outcome of outcomes) logOutcome(deps.logger, outcome);
}

/** The parts of a thread its attempts posted so far (kit/thread.ts steps), kept and listed when a later part fails. */
function postedParts(deps: RecordDeps, target: ClaimedTarget): RecordedItem[] | undefined {
  const posted = checkpointParts(target.saved.checkpoint);
  return posted.length ? posted.map((part) => recordedItem(part, deps.permalinkHosts)) : undefined;
}

function checkJob(target: ClaimedTarget, handle: string): CheckTargetJob {
  const since = target.mode === 'check' ? (target.job.data as CheckTargetJob).since : new Date().toISOString();
  return { postId: target.postId, targetId: target.targetId, runId: target.job.data.runId, handle, since };
}

async function enqueue(deps: RecordDeps, client: pg.PoolClient, queue: string, jobs: { data: object; startAfter: Date }[]): Promise<void> {
  if (!jobs.length) return;
  await deps.boss.insert(queue, jobs, {
    db: { executeSql: async (text: string, values: unknown[] = []) => ({ rows: (await client.query(text, values)).rows }) },
  });
}

/** Posts whose targets are all final become published, partially_published or failed. */
async function settle(client: pg.PoolClient, postIds: string[]): Promise<NewEvent[]> {
  const { rows } = await client.query<{
    post_id: string;
    workspace_id: string;
    status: string;
    targets: { targetId: string; connectionId: string; status: string; remoteUrl: string | null; publishedAt: string | null }[];
  }>(
    `SELECT p.id AS post_id, p.workspace_id, p.status,
            json_agg(json_build_object('targetId', t.id, 'connectionId', t.connection_id, 'status', t.status, 'remoteUrl', t.remote_url, 'publishedAt', t.published_at,
                                       'parts', COALESCE(t.parts, '[]'::jsonb), 'firstComment', t.first_comment) ORDER BY t.position) AS targets
     FROM post p JOIN post_target t ON t.post_id = p.id WHERE p.id = ANY($1::uuid[]) GROUP BY p.id`,
    [postIds],
  );
  const settled = rows.flatMap((row) => {
    const status = row.status === 'publishing' ? settledStatus(row.targets) : null;
    return status ? [{ row, status }] : [];
  });
  if (!settled.length) return [];
  await client.query(
    `UPDATE post p SET status = u.status, version = p.version + 1, updated_at = now(),
            published_at = (SELECT max(published_at) FROM post_target WHERE post_id = p.id)
     FROM unnest($1::uuid[], $2::text[]) AS u(id, status) WHERE p.id = u.id`,
    [settled.map(({ row }) => row.post_id), settled.map(({ status }) => status)],
  );
  return settled.map(({ row, status }) => ({
    workspaceId: row.workspace_id,
    type: `post.${status}`,
    data: { postId: row.post_id, status, targets: row.targets.map(({ publishedAt: _publishedAt, ...target }) => target) },
  }));
}
