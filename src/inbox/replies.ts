// Posting an answer to an inbox item, once, as the account, like a publish: the attempt is committed
// (`publishing`, attempts + 1) before the network is called, its checkpoint (kit/steps.ts) is saved on the reply
// before the call and with the network's answer after it, and every attempt gets what the earlier ones saved, so a
// crash or a retry between the network's answer and our record never answers twice (the network's idempotency key
// or a look-up, as the network's inbox adapter declares). A reply is charged to the network's publishing quotas as a
// publish's reply is (kit/quotas.ts `costPerReply`); one that would exceed them waits for the window.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { TokenKeeper } from '../accounts/tokens.ts';
import { ProviderError } from '../providers/adapter.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { chargeInbox } from './quotaCharge.ts';
import type { CheckpointState } from '../providers/kit/steps.ts';
import { shownUrl } from '../outbound/guard.ts';
import { publishRetryLimit, queueNames, type PgBoss } from '../jobs/boss.ts';
import type { InboxAdapters } from './networks.ts';
import type { PostInboxReplyJob } from './inbox.ts';

export interface ReplyDeps {
  db: Database;
  boss: PgBoss;
  secrets: SecretBox;
  tokens: TokenKeeper;
  adapters: ProviderAdapters;
  inboxes: InboxAdapters;
  logger: Logger;
  linkHosts: ReadonlySet<string>;
}

interface ClaimedReply {
  id: string;
  text: string;
  checkpoint: CheckpointState | null;
  workspace_id: string;
  connection_id: string;
  provider: string;
  username: string;
  account_remote_id: string | null;
  encrypted_tokens: string | null;
  comment_remote_id: string;
  post_remote_id: string;
  reference: Record<string, string>;
}

export type ReplyOutcome = 'published' | 'failed' | 'waiting' | 'retry' | 'gone';

/** One attempt at posting the reply; `retry`: a transient failure, for the job's own retry. */
export async function postInboxReply(deps: ReplyDeps, replyId: string, finalAttempt: boolean, signal = new AbortController().signal): Promise<ReplyOutcome> {
  const { rows } = await deps.db.pool.query<ClaimedReply>(
    `UPDATE inbox_reply r SET status = 'publishing', attempts = r.attempts + 1
     FROM inbox_item i JOIN social_account a ON a.id = i.connection_id JOIN post_target t ON t.id = i.target_id
     WHERE r.id = $1 AND r.item_id = i.id AND r.status IN ('pending', 'publishing')
     RETURNING r.id, r.text, r.checkpoint, i.workspace_id, i.connection_id, i.provider, a.username, a.remote_id AS account_remote_id,
               a.encrypted_tokens, i.remote_id AS comment_remote_id, t.remote_id AS post_remote_id, i.reference`,
    [replyId],
  );
  const reply = rows[0];
  if (!reply) return 'gone';
  const inbox = deps.inboxes.get(reply.provider);
  if (!inbox) return fail(deps, reply.id, 'PROVIDER_NOT_AVAILABLE', `${reply.provider} has no inbox on this installation.`);
  // Charged once per reply, as a publish is: the attempt that is charged leaves a checkpoint, and later attempts
  // (a retry, a resumed one) find it. An answer costs what a publish's reply costs (X counts it as a post, YouTube's
  // comment 50 units).
  if (!reply.checkpoint) {
    const quotas = deps.adapters.get(reply.provider)?.quotas ?? [];
    const wait = await chargeInbox(deps.db, { provider: reply.provider, connectionId: reply.connection_id, workspaceId: reply.workspace_id }, quotas, {
      cost: (quota) => (quota.placements ? 0 : (quota.costPerReply ?? 0)),
    });
    if (wait) {
      await deps.db.pool.query(`UPDATE inbox_reply SET status = 'pending' WHERE id = $1`, [reply.id]);
      await deps.boss.send(queueNames.postInboxReply, { replyId: reply.id } satisfies PostInboxReplyJob, { startAfter: wait.until });
      return 'waiting';
    }
    reply.checkpoint = { done: {} };
    await deps.db.pool.query('UPDATE inbox_reply SET checkpoint = $2::jsonb WHERE id = $1', [reply.id, JSON.stringify(reply.checkpoint)]);
  }
  let saved: CheckpointState | undefined = reply.checkpoint;
  const checkpoint = {
    get saved() {
      return saved;
    },
    save: async (state: CheckpointState) => {
      saved = state;
      await deps.db.pool.query('UPDATE inbox_reply SET checkpoint = $2::jsonb WHERE id = $1', [reply.id, JSON.stringify(state)]);
    },
  };
  try {
    const refreshable = deps.adapters.get(reply.provider)?.refresh !== undefined;
    const item = await deps.tokens.callWithTokens({ id: reply.connection_id, encryptedTokens: reply.encrypted_tokens }, refreshable, (tokens) =>
      inbox.reply({
        account: { id: reply.connection_id, provider: reply.provider, username: reply.username, remoteId: reply.account_remote_id, tokens },
        comment: { remoteId: reply.comment_remote_id, postRemoteId: reply.post_remote_id, reference: reply.reference },
        text: reply.text,
        idempotencyKey: reply.id,
        checkpoint,
        signal,
      }),
    );
    await deps.db.pool.query(
      `UPDATE inbox_reply SET status = 'published', remote_id = $2, remote_url = $3, published_at = now(), error_code = NULL, error_message = NULL WHERE id = $1`,
      [reply.id, item.remoteId, shownUrl(item.remoteUrl, deps.linkHosts)],
    );
    return 'published';
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.transient && !finalAttempt) {
      await deps.db.pool.query('UPDATE inbox_reply SET error_code = $2, error_message = $3 WHERE id = $1', [reply.id, error.code, error.message]);
      return 'retry';
    }
    return fail(deps, reply.id, error.code, error.message);
  }
}

async function fail(deps: ReplyDeps, replyId: string, code: string, message: string): Promise<'failed'> {
  await deps.db.pool.query(`UPDATE inbox_reply SET status = 'failed', error_code = $2, error_message = $3 WHERE id = $1`, [replyId, code, message]);
  return 'failed';
}

export async function startInboxReplies(boss: PgBoss, deps: ReplyDeps): Promise<void> {
  await boss.work<PostInboxReplyJob>(queueNames.postInboxReply, { batchSize: 1, localConcurrency: 2, includeMetadata: true }, async ([job]) => {
    const outcome = await postInboxReply(deps, job!.data.replyId, job!.retryCount >= publishRetryLimit, job!.signal);
    // pg-boss retries the job with backoff; the next attempt resumes from the checkpoint.
    if (outcome === 'retry') throw new Error('the network failed transiently; retried');
  });
}
