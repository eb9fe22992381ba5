// The jobs that publish targets, a batch at a time. A target reaches its network at most once: the attempt is
// committed (status `publishing`, attempts + 1) before the network is called, and any later attempt first asks
// the network whether the earlier one got through (`findPublished`, keyed by the target id) before posting
// again. Claiming and recording are set-based statements per batch, so the database work per target stays small.
import type pg from 'pg';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { ProviderError, type ProviderTokens, type PublishMedia, type PublishedItem } from '../providers/adapter.ts';
import { viaClient, type NewEvent, type Outbox } from '../events/outbox.ts';
import { renderMessage } from '../errors/messages.ts';
import { publishRetryLimit, queueNames, type PgBoss } from '../jobs/boss.ts';
import { settledStatus } from './states.ts';
import { checkTarget } from './validation.ts';
import type { UrlSigner } from '../crypto/urlSigner.ts';
import { factsOf } from '../media/facts.ts';
import { presentMedia } from '../media/library.ts';
import { storageKeys, type MediaStorage } from '../media/storage.ts';
import type { Media } from '../db/generated/prisma/client.ts';
import type { PublishTargetJob } from './runs.ts';

interface Deps {
  db: Database;
  adapters: ProviderAdapters;
  secrets: SecretBox;
  logger: Logger;
  signer: UrlSigner;
  storage: MediaStorage;
  publicBaseUrl: string;
  outbox: Outbox;
}

export interface PublishJob {
  id: string;
  data: PublishTargetJob;
  retryCount: number;
  signal: AbortSignal;
}

interface ClaimedTarget {
  job: PublishJob;
  targetId: string;
  postId: string;
  workspaceId: string;
  connectionId: string;
  provider: string;
  username: string;
  remoteId: string | null;
  encryptedTokens: string | null;
  placement: string;
  caption: string;
  media: Media[];
  /** An earlier attempt started and may have reached the network. */
  attemptedBefore: boolean;
}

interface Failure {
  code: string;
  message: string;
}

type Outcome = { target: ClaimedTarget; item: PublishedItem } | { target: ClaimedTarget; failure: Failure; retry: boolean };

interface ClaimRow {
  target_id: string;
  target_status: string;
  attempts: number;
  placement: string;
  override_caption: string | null;
  connection_id: string;
  post_id: string;
  workspace_id: string;
  post_status: string;
  publish_run_id: string | null;
  caption: string;
  media_ids: string[];
  provider: string;
  account_status: string;
  username: string;
  remote_id: string | null;
  encrypted_tokens: string | null;
}

async function withPoolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function targetEvent(target: ClaimedTarget, type: 'target.published' | 'target.failed', data: Record<string, unknown>): NewEvent {
  return {
    workspaceId: target.workspaceId,
    type,
    data: { postId: target.postId, targetId: target.targetId, connectionId: target.connectionId, provider: target.provider, ...data },
  };
}

export class TargetPublisher {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** Publishes a batch of jobs; a job answered `failed` is retried by pg-boss later, with backoff. */
  async run(jobs: PublishJob[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    const { claimed, refused } = await this.#claim(jobs);
    const outcomes = [...refused, ...(await Promise.all(claimed.map((target) => this.#publish(target))))];
    await this.#record(outcomes);
    const retried = new Set(outcomes.filter((outcome) => 'retry' in outcome && outcome.retry).map((outcome) => outcome.target.job.id));
    return jobs.map((job) => ({ id: job.id, status: retried.has(job.id) ? 'failed' : 'completed' }));
  }

  /** Locks the batch's posts and targets, drops stale or finished jobs, and records the attempts about to start. */
  async #claim(jobs: PublishJob[]): Promise<{ claimed: ClaimedTarget[]; refused: Outcome[] }> {
    const byTarget = new Map(jobs.map((job) => [job.data.targetId, job]));
    return withPoolTransaction(this.#deps.db.pool, async (client) => {
      const { rows } = await client.query<ClaimRow>(
        `SELECT t.id AS target_id, t.status AS target_status, t.attempts, t.placement, t.override_caption, t.connection_id,
                p.id AS post_id, p.workspace_id, p.status AS post_status, p.publish_run_id, p.caption, p.media_ids,
                a.provider, a.status AS account_status, a.username, a.remote_id, a.encrypted_tokens
         FROM post_target t JOIN post p ON p.id = t.post_id JOIN social_account a ON a.id = t.connection_id
         WHERE t.id = ANY($1::uuid[]) ORDER BY p.id, t.id FOR UPDATE OF p, t`,
        [[...byTarget.keys()]],
      );
      const live = rows.filter((row) => {
        const job = byTarget.get(row.target_id)!;
        return (
          row.publish_run_id === job.data.runId &&
          (row.target_status === 'pending' || row.target_status === 'publishing') &&
          (row.post_status === 'scheduled' || row.post_status === 'publishing')
        );
      });
      // When a scheduled post's time comes, its first job moves it to publishing.
      const mediaIds = [...new Set(live.flatMap((row) => row.media_ids))];
      const mediaRows = mediaIds.length ? (await this.#deps.db.prisma.media.findMany({ where: { id: { in: mediaIds } } })) : [];
      const mediaById = new Map(mediaRows.map((media) => [media.id, media]));
      const due = [...new Set(live.filter((row) => row.post_status === 'scheduled').map((row) => row.post_id))];
      if (due.length) await client.query(`UPDATE post SET status = 'publishing', version = version + 1, updated_at = now() WHERE id = ANY($1::uuid[])`, [due]);

      const claimed: ClaimedTarget[] = [];
      const refused: Outcome[] = [];
      for (const row of live) {
        const target: ClaimedTarget = {
          job: byTarget.get(row.target_id)!,
          targetId: row.target_id,
          postId: row.post_id,
          workspaceId: row.workspace_id,
          connectionId: row.connection_id,
          provider: row.provider,
          username: row.username,
          remoteId: row.remote_id,
          encryptedTokens: row.encrypted_tokens,
          placement: row.placement,
          caption: row.override_caption ?? row.caption,
          media: row.media_ids.flatMap((id) => mediaById.get(id) ?? []),
          attemptedBefore: row.attempts > 0,
        };
        // The rules are checked again when the time comes: an account may have been revoked since scheduling.
        const missing = target.media.length !== row.media_ids.length || target.media.some((media) => media.status !== 'ready');
        const violations = checkTarget({ provider: row.provider, accountStatus: row.account_status, placement: row.placement, caption: target.caption, media: target.media.map(factsOf) });
        if (missing) violations.push({ rule: 'media.ready', field: 'mediaIds', messageKey: 'detail.mediaNotReady', params: { status: 'missing' } });
        if (violations.length) {
          const message = violations.map((violation) => renderMessage('en', violation.messageKey, violation.params)).join(' ');
          refused.push({ target, failure: { code: 'PROVIDER_VALIDATION_FAILED', message }, retry: false });
        } else {
          claimed.push(target);
        }
      }
      if (claimed.length) {
        await client.query(`UPDATE post_target SET status = 'publishing', attempts = attempts + 1 WHERE id = ANY($1::uuid[])`, [claimed.map((t) => t.targetId)]);
      }
      return { claimed, refused };
    });
  }

  async #publish(target: ClaimedTarget): Promise<Outcome> {
    try {
      const adapter = this.#deps.adapters.get(target.provider);
      if (!adapter) throw new ProviderError('PROVIDER_NOT_AVAILABLE', `Publishing to ${target.provider} is not available on this installation yet.`, false);
      const tokens: ProviderTokens | null = target.encryptedTokens ? JSON.parse(this.#deps.secrets.open(target.encryptedTokens)) : null;
      const request = {
        account: { id: target.connectionId, provider: target.provider, username: target.username, remoteId: target.remoteId, tokens },
        placement: target.placement,
        caption: target.caption,
        // Networks fetch the files from signed URLs of this service.
        media: target.media.map((media) => {
          const view = presentMedia(media, this.#deps.signer, this.#deps.publicBaseUrl);
          return { ...view, mimeType: view.mimeType ?? 'application/octet-stream', url: view.url ?? '', kind: (view.type ?? 'image') as PublishMedia['kind'], open: async () => this.#deps.storage.read(storageKeys.original(media.id)) };
        }),
        settings: {},
        idempotencyKey: target.targetId,
        signal: target.job.signal,
      };
      const earlier = target.attemptedBefore ? await adapter.findPublished(request) : null;
      if (earlier) return { target, item: earlier };
      const outcome = await adapter.publish(request);
      if (outcome.status !== 'published') throw new Error('asynchronous completion is not wired into the worker yet');
      return { target, item: outcome.item };
    } catch (error) {
      if (!(error instanceof ProviderError)) this.#deps.logger.error({ err: error, targetId: target.targetId }, 'publish attempt failed');
      const failure = error instanceof ProviderError ? { code: error.code, message: error.message } : { code: 'PUBLISH_ERROR', message: 'The network could not be reached.' };
      const transient = !(error instanceof ProviderError) || error.transient;
      return { target, failure, retry: transient && target.job.retryCount < publishRetryLimit };
    }
  }

  /** Records every outcome of the batch, its events, and the final state of posts whose targets are all final. */
  async #record(outcomes: Outcome[]): Promise<void> {
    if (!outcomes.length) return;
    await withPoolTransaction(this.#deps.db.pool, async (client) => {
      const postIds = [...new Set(outcomes.map((outcome) => outcome.target.postId))].sort();
      await client.query('SELECT id FROM post WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [postIds]);
      const published = outcomes.filter((outcome): outcome is Extract<Outcome, { item: PublishedItem }> => 'item' in outcome);
      const failures = outcomes.filter((outcome): outcome is Extract<Outcome, { failure: Failure }> => 'failure' in outcome);
      const final = failures.filter((outcome) => !outcome.retry);
      const events: NewEvent[] = [];
      if (published.length) {
        await client.query(
          `UPDATE post_target t SET status = 'published', remote_id = u.remote_id, remote_url = u.remote_url, published_at = now(),
                  error_code = NULL, error_message = NULL
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, remote_id, remote_url) WHERE t.id = u.id`,
          [published.map((o) => o.target.targetId), published.map((o) => o.item.remoteId), published.map((o) => o.item.remoteUrl)],
        );
        for (const { target, item } of published) events.push(targetEvent(target, 'target.published', { remoteId: item.remoteId, remoteUrl: item.remoteUrl }));
      }
      if (failures.length) {
        // A failure that will be retried keeps the target `publishing`, with the reason visible meanwhile.
        await client.query(
          `UPDATE post_target t SET status = CASE WHEN u.final THEN 'failed' ELSE t.status END, error_code = u.code, error_message = u.message
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bool[]) AS u(id, code, message, final) WHERE t.id = u.id`,
          [failures.map((o) => o.target.targetId), failures.map((o) => o.failure.code), failures.map((o) => o.failure.message), failures.map((o) => !o.retry)],
        );
        for (const { target, failure } of final) events.push(targetEvent(target, 'target.failed', { error: failure }));
      }
      events.push(...(await this.#settle(client, postIds)));
      await this.#deps.outbox.recordAll(viaClient(client), events);
    });
  }

  /** Posts whose targets are all final become published, partially_published or failed. */
  async #settle(client: pg.PoolClient, postIds: string[]): Promise<NewEvent[]> {
    const { rows } = await client.query<{ post_id: string; workspace_id: string; status: string; targets: { targetId: string; connectionId: string; status: string; remoteUrl: string | null; publishedAt: string | null }[] }>(
      `SELECT p.id AS post_id, p.workspace_id, p.status,
              json_agg(json_build_object('targetId', t.id, 'connectionId', t.connection_id, 'status', t.status, 'remoteUrl', t.remote_url, 'publishedAt', t.published_at) ORDER BY t.position) AS targets
       FROM post p JOIN post_target t ON t.post_id = p.id WHERE p.id = ANY($1::uuid[]) GROUP BY p.id`,
      [postIds],
    );
    const events: NewEvent[] = [];
    for (const row of rows) {
      const status = row.status === 'publishing' ? settledStatus(row.targets) : null;
      if (!status) continue;
      await client.query(
        `UPDATE post SET status = $2, version = version + 1, updated_at = now(),
                published_at = (SELECT max(published_at) FROM post_target WHERE post_id = $1) WHERE id = $1`,
        [row.post_id, status],
      );
      events.push({
        workspaceId: row.workspace_id,
        type: `post.${status}`,
        data: { postId: row.post_id, status, targets: row.targets.map(({ publishedAt: _publishedAt, ...target }) => target) },
      });
    }
    return events;
  }
}

export async function startPublishWorkers(boss: PgBoss, publisher: TargetPublisher, concurrency: number): Promise<void> {
  await boss.work<PublishTargetJob>(
    queueNames.publishTarget,
    {
      batchSize: 50,
      localConcurrency: concurrency,
      includeMetadata: true,
      perJobResults: true,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
      burstWhenBatchFull: true,
    },
    (jobs) => publisher.run(jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, signal: job.signal }))),
  );
}
