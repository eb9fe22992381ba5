// Claiming a batch's due targets, in one transaction: the posts and targets locked, stale or finished jobs dropped,
// the rules checked again, the network's quotas charged (src/providers/kit/quotas.ts) or the wait for their next
// window decided, and the attempts about to start committed (status `publishing`, attempts + 1) before any network
// is called.
import { withPoolTransaction, type Database } from '../../db/database.ts';
import type { ProviderAdapters } from '../../providers/registry.ts';
import { renderMessage } from '../../errors/messages.ts';
import { checkTarget } from '../validation.ts';
import { publishedCaption } from '../../links/shortLinks.ts';
import { factsOf } from '../../media/facts.ts';
import type { Media } from '../../db/generated/prisma/client.ts';
import type { PublishTargetJob } from '../runs.ts';
import { chargeQuotas, publishCost, quotaExceededBy, quotasFor, workspaceLimit, type Quota } from '../../providers/kit/quotas.ts';
import { mediaSettings } from '../../providers/kit/settingsMedia.ts';
import type { CheckpointState } from '../../providers/kit/steps.ts';
import { threadContent, threadMediaIds, type ThreadPart } from '../threads.ts';
import { failed, type Failure, type Outcome } from './outcome.ts';

export interface ClaimDeps {
  db: Database;
  adapters: ProviderAdapters;
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

export type Mode = 'publish' | 'check';

export interface ClaimedTarget {
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
  /** Once claimed: as published, with the `links` setting applied (src/links). */
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

/** Why an account cannot publish at all; the target fails with this code, without retries. */
const accountRefusals: Record<string, Failure> = {
  REVOKED: { code: 'ACCOUNT_DISCONNECTED', message: 'The account was disconnected from this workspace.' },
  NEEDS_RECONNECT: { code: 'ACCOUNT_NEEDS_RECONNECT', message: 'The network no longer accepts the account’s tokens: reconnect the account.' },
};

/** The replies a target's publish makes: its thread's parts after the first post, and its first comment. */
const repliesOf = (target: ClaimedTarget) => target.thread.length + (typeof target.settings.firstComment === 'string' ? 1 : 0);

/** Locks the batch's posts and targets, drops stale or finished jobs, and records the attempts about to start. */
export async function claimTargets(deps: ClaimDeps, mode: Mode, jobs: PublishJob[]): Promise<{ claimed: ClaimedTarget[]; refused: Outcome[] }> {
  const byTarget = new Map(jobs.map((job) => [job.data.targetId, job]));
  return withPoolTransaction(deps.db.pool, async (client) => {
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
    const mediaRows = mediaIds.length ? await deps.db.prisma.media.findMany({ where: { id: { in: mediaIds } } }) : [];
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
        mode === 'publish' ? { quotas: quotasFor(deps.adapters.get(row.provider)?.quotas ?? [], row.placement), replies: repliesOf(target) } : null;
      const refusal = publish ? refusalOf(deps, row, target, publish) : null;
      const wait =
        publish && !refusal && !row.quota_charged
          ? await chargeQuotas(client, row.provider, publish.quotas, row.connection_id, publish.replies, row.workspace_id)
          : null;
      if (refusal) refused.push(failed(target, refusal));
      else if (wait) refused.push({ target: { ...target, attempts: row.attempts }, kind: 'waiting', ...wait });
      else claimed.push({ ...target, caption: await publishedCaption(client, target, target.caption, row.settings) });
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
function refusalOf(deps: ClaimDeps, row: ClaimRow, target: ClaimedTarget, publish: { quotas: readonly Quota[]; replies: number }): Failure | null {
  const accountRefusal = accountRefusals[row.account_status];
  if (accountRefusal) return accountRefusal;
  if (!deps.adapters.has(row.provider)) {
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
    thread: threadContent(target.thread, row.override_thread !== null, new Map(target.thread.flatMap((part) => part.media.map((media) => [media.id, media])))),
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
