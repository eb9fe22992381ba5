// The jobs that publish targets, a batch at a time. A target reaches its network at most once: the attempt is
// committed (status `publishing`, attempts + 1) before the network is called, every attempt gets the checkpoint
// the earlier ones saved (src/providers/kit/steps.ts: what they finished at the network is not done again), and
// where the adapter looks up earlier attempts (`findPublished`) it is asked before posting again. Claiming is one set-based statement per batch; each outcome is recorded the moment the network answers
// (outcomes that finish together share a transaction), so a slow network never holds back the others.
//
// A publish is charged to its network's quotas when claimed (src/providers/kit/quotas.ts); one that would exceed a
// quota waits for the quota's next window (`waitingUntil`, `waitingReason` on the target), as one the network
// rate-limited waits for the reset the network gave, or where it gave none, for a back-off growing with each attempt.
//
// A network that accepts a post and processes it later answers `processing`: the target stays `publishing` with
// the network's handle, no worker waits, and a status-check job asks the network again after the delay it gave.
// A network's rate-limit answer (or any failure that says when to come back) is retried after that time by a new
// job; other transient failures by pg-boss's own retries with backoff. A refused access token is refreshed once
// (TokenKeeper.callWithTokens) and the call made again; tokens the network no longer accepts fail the target with
// ACCOUNT_NEEDS_RECONNECT and are not retried.
import type pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { withPoolTransaction, type Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderTokens,
  type PublishMedia,
  type PublishOutcome,
  type PublishRequest,
  type PublishedItem,
} from '../providers/adapter.ts';
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
import { allowedHostsFrom, shownUrl } from '../outbound/guard.ts';
import type { MetricReadings } from '../analytics/collect.ts';
import { chargeQuotas, publishCost, quotaExceededBy, quotasFor, workspaceLimit, type Quota } from '../providers/kit/quotas.ts';
import { mediaSettings } from '../providers/kit/settingsMedia.ts';
import { throttleBackoffMs } from '../providers/kit/backoff.ts';
import type { CheckpointState } from '../providers/kit/steps.ts';
import { postedParts } from '../providers/kit/thread.ts';
import { threadContent, threadMediaIds, type ThreadPart } from './threads.ts';
import type { TokenKeeper } from '../accounts/tokens.ts';
import { BatchedWrites } from './batchedWrites.ts';
import { publishDelaySeconds } from '../metrics/registry.ts';

interface Deps {
  db: Database;
  boss: PgBoss;
  adapters: ProviderAdapters;
  tokens: TokenKeeper;
  logger: Logger;
  signer: UrlSigner;
  storage: MediaStorage;
  publicBaseUrl: string;
  outbox: Outbox;
  metricReadings: MetricReadings;
  /** NETWORK_ALLOWED_HOSTS: hosts a network's permalinks may name over http. */
  networkAllowedHosts: ReadonlySet<string>;
  /** STATUS_CHECK_MAX_MS: the longest wait before asking a network again about a post it is processing. */
  statusCheckMaxMs?: number;
}

/** A status check of a target the network is still processing. */
export interface CheckTargetJob extends PublishTargetJob {
  handle: string;
  /** When the network accepted the post (ISO 8601); checks stop after `processingLimitMs`. */
  since: string;
}

export interface PublishJob<Data extends PublishTargetJob = PublishTargetJob> {
  id: string;
  data: Data;
  retryCount: number;
  signal: AbortSignal;
}

type Mode = 'publish' | 'check';

/** How long a network may keep a post in processing before the target fails. */
export const processingLimitMs = 24 * 3600_000;
/** Attempts after which a target the network keeps rate-limiting fails instead of waiting again. */
export const rateLimitedAttemptLimit = 10;
/**
 * Outcomes are recorded together when they arrive within 100 ms, or as soon as 50 are waiting. Networks answer one
 * post at a time, a few milliseconds apart: without waiting, every target would cost a transaction of its own.
 * Measured: PostgreSQL's CPU during `bench bluesky` 0.5 → 0.15 core with it; throughput unchanged (docs/architecture.md).
 */
const recordGathering = { waitMs: 100, enough: 50 };

interface ClaimedTarget {
  job: PublishJob;
  mode: Mode;
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
  settings: Record<string, unknown>;
  media: Media[];
  /** The parts after the first post (the target's override, else the post's), with their files. */
  thread: { caption: string; mediaIds: string[]; media: Media[] }[];
  /** The ready files of the workspace the target's settings name (a thumbnail), by setting. */
  settingsMedia: Record<string, Media>;
  /** The checkpoint as the attempts saved it so far: where a call made again resumes, what a failed thread had posted. */
  saved: { checkpoint: CheckpointState | null };
  attempts: number;
  /** An earlier attempt started and may have reached the network. */
  attemptedBefore: boolean;
}

interface Failure {
  code: string;
  message: string;
}

type Outcome =
  /** `at`: when the network answered (outcomes are recorded a little later, together). */
  | { target: ClaimedTarget; kind: 'published'; item: RecordedItem; at: Date }
  | { target: ClaimedTarget; kind: 'processing'; handle: string; checkAfter: Date }
  /** Not attempted: a quota of the network is used up until `until`. */
  | { target: ClaimedTarget; kind: 'waiting'; until: Date; reason: string }
  /** `job`: pg-boss retries the job with backoff; `later`: a new job at `retryAt`; `never`: the target fails. */
  | { target: ClaimedTarget; kind: 'failed'; failure: Failure; retry: 'job' | 'later' | 'never'; retryAt?: Date };

interface ClaimRow {
  target_id: string;
  target_status: string;
  attempts: number;
  placement: string;
  override_caption: string | null;
  override_thread: ThreadPart[] | null;
  settings: Record<string, unknown>;
  processing_handle: string | null;
  checkpoint: CheckpointState | null;
  quota_charged: boolean;
  connection_id: string;
  post_id: string;
  workspace_id: string;
  post_status: string;
  publish_run_id: string | null;
  caption: string;
  media_ids: string[];
  thread: ThreadPart[];
  provider: string;
  account_status: string;
  account_rules: unknown;
  username: string;
  remote_id: string | null;
  encrypted_tokens: string | null;
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

/** Why an account cannot publish at all; the target fails with this code, without retries. */
const accountRefusals: Record<string, Failure> = {
  REVOKED: { code: 'ACCOUNT_DISCONNECTED', message: 'The account was disconnected from this workspace.' },
  NEEDS_RECONNECT: { code: 'ACCOUNT_NEEDS_RECONNECT', message: 'The network no longer accepts the account’s tokens: reconnect the account.' },
};

const failed = (target: ClaimedTarget, failure: Failure): Outcome => ({ target, kind: 'failed', failure, retry: 'never' });

/** The replies a target's publish makes: its thread's parts after the first post, and its first comment. */
const repliesOf = (target: ClaimedTarget) => target.thread.length + (typeof target.settings.firstComment === 'string' ? 1 : 0);

/** A published item as recorded and served: without a permalink where the network's would not pass `shownUrl`. */
interface RecordedItem {
  remoteId: string;
  remoteUrl: string | null;
  parts?: RecordedItem[];
  firstComment?: { item: RecordedItem | null; error: Failure | null };
  warning?: Failure;
}

/** A thread's parts as stored on the target (post_target.parts): null for a target without a thread. */
function storedParts(parts: readonly RecordedItem[] | undefined): string | null {
  return parts ? JSON.stringify(parts.map(({ remoteId, remoteUrl }) => ({ remoteId, remoteUrl }))) : null;
}

/** A first comment as stored on the target (post_target.first_comment) and shown in events. */
function storedFirstComment(comment: RecordedItem['firstComment']) {
  return comment ? { remoteId: comment.item?.remoteId ?? null, remoteUrl: comment.item?.remoteUrl ?? null, error: comment.error } : null;
}

export class TargetPublisher {
  readonly #deps: Deps;
  readonly #recording: BatchedWrites<Outcome>;
  /** Where a permalink may be over http: the allowed hosts, and this service's own (the sandbox's items). */
  readonly #permalinkHosts: ReadonlySet<string>;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#permalinkHosts = new Set([...deps.networkAllowedHosts, ...allowedHostsFrom(new URL(deps.publicBaseUrl).hostname)]);
    this.#recording = new BatchedWrites((outcomes) => this.#record(outcomes), recordGathering);
  }

  /**
   * Publishes a batch of jobs, each group of jobs taken ahead of its due time once that time comes (nothing is
   * claimed before: the post stays scheduled, and can still be changed, until then). A job answered `failed` is
   * retried by pg-boss later, with backoff.
   */
  async run(jobs: PublishJob[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    const byDueTime = new Map<number, PublishJob[]>();
    for (const job of jobs) {
      const dueAt = job.data.dueAt ? Date.parse(job.data.dueAt) : 0;
      const group = byDueTime.get(dueAt);
      if (group) group.push(job);
      else byDueTime.set(dueAt, [job]);
    }
    const results = await Promise.all(
      [...byDueTime].map(async ([dueAt, group]) => {
        if (dueAt > Date.now()) await sleep(dueAt - Date.now());
        return this.#process('publish', group);
      }),
    );
    return results.flat();
  }

  /** Asks the network where the processing of accepted posts stands, and records what it says. */
  check(jobs: PublishJob<CheckTargetJob>[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    return this.#process('check', jobs);
  }

  async #process(mode: Mode, jobs: PublishJob[]): Promise<{ id: string; status: 'completed' | 'failed' }[]> {
    const { claimed, refused } = await this.#claim(mode, jobs);
    const outcomes = [...refused];
    await Promise.all([
      ...refused.map((outcome) => this.#recording.add(outcome)),
      ...claimed.map(async (target) => {
        const outcome = await this.#attempt(target);
        outcomes.push(outcome);
        await this.#recording.add(outcome);
      }),
    ]);
    const retried = new Set(outcomes.filter((outcome) => outcome.kind === 'failed' && outcome.retry === 'job').map((outcome) => outcome.target.job.id));
    return jobs.map((job) => ({ id: job.id, status: retried.has(job.id) ? 'failed' : 'completed' }));
  }

  /** Locks the batch's posts and targets, drops stale or finished jobs, and records the attempts about to start. */
  async #claim(mode: Mode, jobs: PublishJob[]): Promise<{ claimed: ClaimedTarget[]; refused: Outcome[] }> {
    const byTarget = new Map(jobs.map((job) => [job.data.targetId, job]));
    return withPoolTransaction(this.#deps.db.pool, async (client) => {
      const { rows } = await client.query<ClaimRow>(
        `SELECT t.id AS target_id, t.status AS target_status, t.attempts, t.placement, t.override_caption, t.override_thread, t.settings, t.processing_handle,
                t.checkpoint, t.quota_charged, t.connection_id, p.id AS post_id, p.workspace_id, p.status AS post_status, p.publish_run_id, p.caption, p.media_ids, p.thread,
                a.provider, a.status AS account_status, a.rules AS account_rules, a.username, a.remote_id, a.encrypted_tokens
         FROM post_target t JOIN post p ON p.id = t.post_id JOIN social_account a ON a.id = t.connection_id
         WHERE t.id = ANY($1::uuid[]) ORDER BY p.id, t.id FOR UPDATE OF p, t`,
        [[...byTarget.keys()]],
      );
      const live = rows.filter((row) => {
        const job = byTarget.get(row.target_id)!;
        const handle = (job.data as Partial<CheckTargetJob>).handle;
        return (
          row.publish_run_id === job.data.runId &&
          (row.target_status === 'pending' || row.target_status === 'publishing') &&
          (row.post_status === 'scheduled' || row.post_status === 'publishing') &&
          // A target the network is processing belongs to its status check, not to another publish.
          (mode === 'publish' ? row.processing_handle === null : row.processing_handle === handle)
        );
      });
      const threadOfRow = (row: ClaimRow) => row.override_thread ?? row.thread;
      const mediaIds = [
        ...new Set(live.flatMap((row) => [...row.media_ids, ...threadMediaIds([threadOfRow(row)]), ...mediaSettings(row.settings).map(([, id]) => id)])),
      ];
      const mediaRows = mediaIds.length ? await this.#deps.db.prisma.media.findMany({ where: { id: { in: mediaIds } } }) : [];
      const mediaById = new Map(mediaRows.map((media) => [media.id, media]));
      // When a scheduled post's time comes, its first job moves it to publishing.
      const due = [...new Set(live.filter((row) => row.post_status === 'scheduled').map((row) => row.post_id))];
      if (due.length) await client.query(`UPDATE post SET status = 'publishing', version = version + 1, updated_at = now() WHERE id = ANY($1::uuid[])`, [due]);

      const claimed: ClaimedTarget[] = [];
      const refused: Outcome[] = [];
      for (const row of live) {
        const target: ClaimedTarget = {
          job: byTarget.get(row.target_id)!,
          mode,
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
          settings: row.settings,
          media: row.media_ids.flatMap((id) => mediaById.get(id) ?? []),
          thread: threadOfRow(row).map((part) => ({ ...part, media: part.mediaIds.flatMap((id) => mediaById.get(id) ?? []) })),
          settingsMedia: Object.fromEntries(
            mediaSettings(row.settings).flatMap(([setting, id]) => {
              const media = mediaById.get(id);
              return media?.workspaceId === row.workspace_id && media.status === 'ready' ? [[setting, media]] : [];
            }),
          ),
          saved: { checkpoint: row.checkpoint },
          attempts: row.attempts + (mode === 'publish' ? 1 : 0),
          attemptedBefore: row.attempts > 0,
        };
        const publish =
          mode === 'publish' ? { quotas: quotasFor(this.#deps.adapters.get(row.provider)?.quotas ?? [], row.placement), replies: repliesOf(target) } : null;
        const refusal = publish ? this.#refusalOf(row, target, publish) : null;
        const wait =
          publish && !refusal && !row.quota_charged
            ? await chargeQuotas(client, row.provider, publish.quotas, row.connection_id, publish.replies, row.workspace_id)
            : null;
        if (refusal) refused.push(failed(target, refusal));
        else if (wait) refused.push({ target: { ...target, attempts: row.attempts }, kind: 'waiting', ...wait });
        else claimed.push(target);
      }
      const attempted = claimed.filter((target) => target.mode === 'publish').map((target) => target.targetId);
      if (attempted.length) {
        await client.query(
          `UPDATE post_target SET status = 'publishing', attempts = attempts + 1, quota_charged = true, waiting_until = NULL, waiting_reason = NULL
           WHERE id = ANY($1::uuid[])`,
          [attempted],
        );
      }
      return { claimed, refused };
    });
  }

  /**
   * The rules are checked again when the time comes: an account may have been disconnected since scheduling.
   * `publish`: the network's quotas and what the target's replies add to its cost.
   */
  #refusalOf(row: ClaimRow, target: ClaimedTarget, publish: { quotas: readonly Quota[]; replies: number }): Failure | null {
    const accountRefusal = accountRefusals[row.account_status];
    if (accountRefusal) return accountRefusal;
    if (!this.#deps.adapters.has(row.provider)) {
      return { code: 'PROVIDER_NOT_AVAILABLE', message: `${row.provider} is no longer configured on this installation (its app's settings were removed).` };
    }
    // A publish costing more than a whole window of a quota allows would wait for ever.
    const exceeded = quotaExceededBy(publish.quotas, publish.replies);
    if (exceeded) {
      const cost = publishCost(exceeded, publish.replies);
      return {
        code: 'PROVIDER_VALIDATION_FAILED',
        message: `The post and its replies cost ${cost} of ${exceeded.name}, more than its ${workspaceLimit(exceeded)}.`,
      };
    }
    const violations = checkTarget({
      provider: row.provider,
      accountStatus: row.account_status,
      accountRules: row.account_rules,
      placement: row.placement,
      caption: target.caption,
      media: target.media.map(factsOf),
      thread: threadContent(
        target.thread,
        row.override_thread !== null,
        new Map(target.thread.flatMap((part) => part.media.map((media) => [media.id, media]))),
      ),
      settings: row.settings,
    });
    const missing = (files: Media[], ids: string[]) => files.length !== ids.length || files.some((media) => media.status !== 'ready');
    if (missing(target.media, row.media_ids)) {
      violations.push({ rule: 'media.ready', field: 'mediaIds', messageKey: 'detail.mediaNotReady', params: { status: 'missing' } });
    }
    for (const [index, part] of target.thread.entries()) {
      if (!missing(part.media, part.mediaIds)) continue;
      violations.push({ rule: 'media.ready', field: `thread[${index}].mediaIds`, messageKey: 'detail.mediaNotReady', params: { status: 'missing' } });
    }
    for (const [setting] of mediaSettings(row.settings).filter(([setting]) => !target.settingsMedia[setting])) {
      violations.push({ rule: 'media.ready', field: `settings.${setting}`, messageKey: 'detail.mediaNotReady', params: { status: 'missing' } });
    }
    if (!violations.length) return null;
    return {
      code: 'PROVIDER_VALIDATION_FAILED',
      message: violations.map((violation) => renderMessage('en', violation.messageKey, violation.params)).join(' '),
    };
  }

  #request(target: ClaimedTarget, tokens: ProviderTokens | null): PublishRequest {
    return {
      account: { id: target.connectionId, provider: target.provider, username: target.username, remoteId: target.remoteId, tokens },
      placement: target.placement,
      caption: target.caption,
      media: target.media.map((media) => this.#publishMedia(media)),
      thread: target.thread.map((part) => ({ caption: part.caption, media: part.media.map((media) => this.#publishMedia(media)) })),
      firstComment: typeof target.settings.firstComment === 'string' ? target.settings.firstComment : null,
      settings: target.settings,
      settingsMedia: Object.fromEntries(Object.entries(target.settingsMedia).map(([setting, media]) => [setting, this.#publishMedia(media)])),
      idempotencyKey: target.targetId,
      checkpoint: {
        saved: target.saved.checkpoint ?? undefined,
        // Committed at once, outside any batch: the next call to the network may be the last thing this process does.
        save: async (state) => {
          await this.#deps.db.pool.query('UPDATE post_target SET checkpoint = $2 WHERE id = $1', [target.targetId, JSON.stringify(state)]);
          target.saved.checkpoint = state;
        },
      },
      signal: target.job.signal,
    };
  }

  #publishMedia(media: Media): PublishMedia {
    const { signer, publicBaseUrl, storage } = this.#deps;
    const view = presentMedia(media, signer, publicBaseUrl);
    return {
      id: media.id,
      kind: (view.type ?? 'image') as PublishMedia['kind'],
      mimeType: view.mimeType ?? 'application/octet-stream',
      size: view.size,
      width: view.width,
      height: view.height,
      durationMs: view.durationMs,
      altText: view.altText,
      // Networks that fetch media themselves get signed URLs of this service.
      url: view.url ?? '',
      open: async (range) => storage.read(storageKeys.original(media.id), range),
    };
  }

  async #attempt(target: ClaimedTarget): Promise<Outcome> {
    const adapter = this.#deps.adapters.get(target.provider)!;
    const account = { id: target.connectionId, encryptedTokens: target.encryptedTokens };
    try {
      return await this.#deps.tokens.callWithTokens(account, adapter.refresh !== undefined, (tokens) =>
        this.#call(adapter, target, this.#request(target, tokens)),
      );
    } catch (error) {
      return this.#failureOf(target, error);
    }
  }

  async #call(adapter: ProviderAdapter, target: ClaimedTarget, request: PublishRequest): Promise<Outcome> {
    let outcome: PublishOutcome;
    if (target.mode === 'check') {
      const { handle } = target.job.data as CheckTargetJob;
      outcome = adapter.checkStatus ? await adapter.checkStatus(request, handle) : await adapter.publish(request);
    } else {
      // Finding the first post says nothing of a thread's parts or a first comment: those resume in `publish`.
      const lookUp = adapter.findPublished && !request.thread.length && request.firstComment === null;
      const earlier = target.attemptedBefore && lookUp ? await adapter.findPublished!(request) : null;
      outcome = earlier ? { status: 'published', item: earlier } : await adapter.publish(request);
    }
    if (outcome.status === 'published') return { target, kind: 'published', item: this.#recorded(outcome.item), at: new Date() };
    const since = target.mode === 'check' ? new Date((target.job.data as CheckTargetJob).since) : new Date();
    if (Date.now() - since.getTime() > processingLimitMs) {
      return failed(target, {
        code: 'PROVIDER_UNAVAILABLE',
        message: `The network did not finish processing the post within ${processingLimitMs / 3600_000} hours.`,
      });
    }
    const checkAfterMs = Math.min(outcome.checkAfterMs, this.#deps.statusCheckMaxMs ?? Number.POSITIVE_INFINITY);
    return { target, kind: 'processing', handle: outcome.handle, checkAfter: new Date(Date.now() + checkAfterMs) };
  }

  /**
   * The one place a network's permalink enters the service: every transport and webhook serves what is recorded, so
   * a `javascript:` or otherwise unusable "permalink" is dropped here. The item was published all the same.
   */
  #recorded(item: PublishedItem): RecordedItem {
    const recorded: RecordedItem = { ...item, remoteUrl: this.#permalink(item.remoteUrl) };
    if (item.parts) recorded.parts = item.parts.map((part) => this.#recorded(part));
    const comment = item.firstComment?.item;
    if (comment) recorded.firstComment = { ...item.firstComment!, item: this.#recorded(comment) };
    return recorded;
  }

  #permalink(url: string): string | null {
    return shownUrl(url, this.#permalinkHosts);
  }

  #failureOf(target: ClaimedTarget, error: unknown): Outcome {
    if (!(error instanceof ProviderError)) {
      this.#deps.logger.error({ err: error, targetId: target.targetId }, 'publish attempt failed');
      error = new ProviderError('PROVIDER_UNAVAILABLE', 'The network could not be reached.', true);
    }
    const { code, message, transient } = error as ProviderError;
    const failure = { code, message };
    const throttledQuietly = code === 'RATE_LIMITED_BY_PROVIDER' && (error as ProviderError).retryAfterMs === undefined;
    const retryAfterMs = throttledQuietly ? throttleBackoffMs(target.attempts) : (error as ProviderError).retryAfterMs;
    if (!transient) return failed(target, failure);
    if (retryAfterMs !== undefined) {
      return target.attempts < rateLimitedAttemptLimit
        ? { target, kind: 'failed', failure, retry: 'later', retryAt: new Date(Date.now() + retryAfterMs) }
        : failed(target, failure);
    }
    return target.job.retryCount < publishRetryLimit ? { target, kind: 'failed', failure, retry: 'job' } : failed(target, failure);
  }

  /** Records outcomes, their events and follow-up jobs, and the final state of posts whose targets are all final. */
  async #record(outcomes: Outcome[]): Promise<void> {
    if (!outcomes.length) return;
    await withPoolTransaction(this.#deps.db.pool, async (client) => {
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
        await this.#deps.metricReadings.startFor(
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
        await this.#enqueue(
          client,
          queueNames.checkTarget,
          processing.map((o) => ({ data: this.#checkJob(o.target, o.handle), startAfter: o.checkAfter })),
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
            failures.map((o) => storedParts(this.#postedParts(o.target))),
          ],
        );
        for (const { target, failure } of final) {
          events.push(targetEvent(target, 'target.failed', { error: failure, parts: JSON.parse(storedParts(this.#postedParts(target)) ?? '[]') }));
        }
        for (const mode of ['publish', 'check'] as const) {
          const later = failures.filter((o) => o.retry === 'later' && o.target.mode === mode);
          await this.#enqueue(
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
        await this.#enqueue(
          client,
          queueNames.publishTarget,
          waiting.map((o) => ({ data: o.target.job.data, startAfter: o.until })),
        );
      }
      events.push(...(await this.#settle(client, postIds)));
      await this.#deps.outbox.recordAll(viaClient(client), events);
    });
    for (const outcome of outcomes) logOutcome(this.#deps.logger, outcome);
  }

  /** The parts of a thread its attempts posted so far (kit/thread.ts steps), kept and listed when a later part fails. */
  #postedParts(target: ClaimedTarget): RecordedItem[] | undefined {
    const posted = postedParts(target.saved.checkpoint);
    return posted.length ? posted.map((part) => this.#recorded(part)) : undefined;
  }

  #checkJob(target: ClaimedTarget, handle: string): CheckTargetJob {
    const since = target.mode === 'check' ? (target.job.data as CheckTargetJob).since : new Date().toISOString();
    return { postId: target.postId, targetId: target.targetId, runId: target.job.data.runId, handle, since };
  }

  async #enqueue(client: pg.PoolClient, queue: string, jobs: { data: object; startAfter: Date }[]): Promise<void> {
    if (!jobs.length) return;
    await this.#deps.boss.insert(queue, jobs, {
      db: { executeSql: async (text: string, values: unknown[] = []) => ({ rows: (await client.query(text, values)).rows }) },
    });
  }

  /** Posts whose targets are all final become published, partially_published or failed. */
  async #settle(client: pg.PoolClient, postIds: string[]): Promise<NewEvent[]> {
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
}

export async function startPublishWorkers(boss: PgBoss, publisher: TargetPublisher, concurrency: number): Promise<void> {
  const fetching = {
    batchSize: 50,
    localConcurrency: concurrency,
    includeMetadata: true,
    perJobResults: true,
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 0.5,
    burstWhenBatchFull: true,
  } as const;
  await boss.work<PublishTargetJob>(queueNames.publishTarget, fetching, (jobs) =>
    publisher.run(jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, signal: job.signal }))),
  );
  await boss.work<CheckTargetJob>(queueNames.checkTarget, fetching, (jobs) =>
    publisher.check(jobs.map((job) => ({ id: job.id, data: job.data, retryCount: job.retryCount, signal: job.signal }))),
  );
}
