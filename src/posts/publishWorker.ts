// The job that publishes one target. A target reaches its network at most once: the attempt is recorded
// (status `publishing`, attempts + 1) before the network is called, and any later attempt first asks the network
// whether the earlier one got through (`findPublished`, keyed by the target id) before posting again.
import type { Database, Transaction } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { ProviderError, type ProviderTokens, type PublishRequest, type PublishedItem } from '../providers/adapter.ts';
import { recordEvent } from '../events/outbox.ts';
import { renderMessage } from '../errors/messages.ts';
import { publishRetryLimit, queueNames, type PgBoss } from '../jobs/boss.ts';
import type { Post, PostTarget, SocialAccount } from '../db/generated/prisma/client.ts';
import { settledStatus } from './states.ts';
import { captionOf } from './posts.ts';
import { checkTarget } from './validation.ts';
import type { PublishTargetJob } from './publishing.ts';

interface Deps {
  db: Database;
  adapters: ProviderAdapters;
  secrets: SecretBox;
  logger: Logger;
}

interface Claim {
  post: Post;
  target: PostTarget & { account: SocialAccount };
  /** An earlier attempt started and may have reached the network. */
  attemptedBefore: boolean;
}

type Failure = { code: string; message: string };

async function lockPostRow(tx: Transaction, postId: string): Promise<Post | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM post WHERE id = ${postId}::uuid FOR UPDATE`;
  return rows.length ? tx.post.findUnique({ where: { id: postId } }) : null;
}

/** Once every target is final, the post becomes published, partially_published or failed, with its event. */
async function settlePost(tx: Transaction, post: Post): Promise<void> {
  const targets = await tx.postTarget.findMany({ where: { postId: post.id }, orderBy: { position: 'asc' } });
  const status = settledStatus(targets);
  if (!status) return;
  const published = targets.filter((target) => target.publishedAt);
  const publishedAt = published.length ? new Date(Math.max(...published.map((target) => target.publishedAt!.getTime()))) : null;
  await tx.post.update({ where: { id: post.id }, data: { status, publishedAt, version: { increment: 1 } } });
  await recordEvent(tx, post.workspaceId, `post.${status}` as const, {
    postId: post.id,
    status,
    targets: targets.map((target) => ({ targetId: target.id, connectionId: target.connectionId, status: target.status, remoteUrl: target.remoteUrl })),
  });
}

export class TargetPublisher {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** Runs one job; `failed` asks pg-boss to retry it later (with backoff). */
  async run(job: PublishTargetJob, attempt: { retryCount: number; retryLimit: number }, signal: AbortSignal): Promise<'completed' | 'failed'> {
    const claim = await this.#claim(job);
    if (!claim) return 'completed';
    let item: PublishedItem;
    try {
      item = await this.#publish(claim, signal);
    } catch (error) {
      const transient = !(error instanceof ProviderError) || error.transient;
      const failure: Failure =
        error instanceof ProviderError ? { code: error.code, message: error.message } : { code: 'PUBLISH_ERROR', message: 'The network could not be reached.' };
      if (!(error instanceof ProviderError)) this.#deps.logger.error({ err: error, targetId: job.targetId }, 'publish attempt failed');
      if (transient && attempt.retryCount < attempt.retryLimit) {
        await this.#deps.db.prisma.postTarget.update({ where: { id: claim.target.id }, data: { errorCode: failure.code, errorMessage: failure.message } });
        return 'failed';
      }
      await this.#finish(claim, { failure });
      return 'completed';
    }
    await this.#finish(claim, { item });
    return 'completed';
  }

  async #claim(job: PublishTargetJob): Promise<Claim | null> {
    return this.#deps.db.prisma.$transaction(async (tx) => {
      let post = await lockPostRow(tx, job.postId);
      if (!post || post.publishRunId !== job.runId) return null;
      const target = await tx.postTarget.findUnique({ where: { id: job.targetId }, include: { account: true } });
      if (!target || target.status === 'published' || target.status === 'failed') return null;
      if (post.status === 'scheduled') {
        post = await tx.post.update({ where: { id: post.id }, data: { status: 'publishing', version: { increment: 1 } } });
      }
      if (post.status !== 'publishing') return null;
      // The rules are checked again when the time comes: an account may have been revoked since scheduling.
      const violations = checkTarget({
        provider: target.account.provider,
        accountStatus: target.account.status,
        placement: target.placement,
        caption: captionOf(post, target),
        mediaIds: post.mediaIds,
      });
      if (violations.length) {
        const message = violations.map((violation) => renderMessage('en', violation.messageKey, violation.params)).join(' ');
        await this.#fail(tx, post, target, { code: 'PROVIDER_VALIDATION_FAILED', message });
        return null;
      }
      await tx.postTarget.update({ where: { id: target.id }, data: { status: 'publishing', attempts: { increment: 1 } } });
      return { post, target, attemptedBefore: target.attempts > 0 };
    });
  }

  async #publish(claim: Claim, signal: AbortSignal): Promise<PublishedItem> {
    const { post, target, attemptedBefore } = claim;
    const adapter = this.#deps.adapters.get(target.account.provider);
    if (!adapter) {
      throw new ProviderError('PROVIDER_NOT_AVAILABLE', `Publishing to ${target.account.provider} is not available on this installation yet.`, false);
    }
    const tokens: ProviderTokens | null = target.account.encryptedTokens ? JSON.parse(this.#deps.secrets.open(target.account.encryptedTokens)) : null;
    const request: PublishRequest = {
      account: { id: target.account.id, provider: target.account.provider, username: target.account.username, remoteId: target.account.remoteId, tokens },
      placement: target.placement,
      caption: captionOf(post, target),
      media: [],
      idempotencyKey: target.id,
      signal,
    };
    const earlier = attemptedBefore ? await adapter.findPublished(request) : null;
    return earlier ?? adapter.publish(request);
  }

  async #finish(claim: Claim, outcome: { item: PublishedItem } | { failure: Failure }): Promise<void> {
    await this.#deps.db.prisma.$transaction(async (tx) => {
      const post = await lockPostRow(tx, claim.post.id);
      if (!post) return;
      if ('failure' in outcome) return this.#fail(tx, post, claim.target, outcome.failure);
      const { remoteId, remoteUrl } = outcome.item;
      await tx.postTarget.update({
        where: { id: claim.target.id },
        data: { status: 'published', remoteId, remoteUrl, publishedAt: new Date(), errorCode: null, errorMessage: null },
      });
      await recordEvent(tx, post.workspaceId, 'target.published', {
        postId: post.id,
        targetId: claim.target.id,
        connectionId: claim.target.connectionId,
        provider: claim.target.account.provider,
        remoteId,
        remoteUrl,
      });
      await settlePost(tx, post);
    });
  }

  async #fail(tx: Transaction, post: Post, target: PostTarget & { account: SocialAccount }, failure: Failure): Promise<void> {
    await tx.postTarget.update({ where: { id: target.id }, data: { status: 'failed', errorCode: failure.code, errorMessage: failure.message } });
    await recordEvent(tx, post.workspaceId, 'target.failed', {
      postId: post.id,
      targetId: target.id,
      connectionId: target.connectionId,
      provider: target.account.provider,
      error: failure,
    });
    await settlePost(tx, post);
  }
}

export async function startPublishWorkers(boss: PgBoss, publisher: TargetPublisher, concurrency: number): Promise<void> {
  await boss.work<PublishTargetJob>(
    queueNames.publishTarget,
    {
      batchSize: 25,
      localConcurrency: concurrency,
      includeMetadata: true,
      perJobResults: true,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
      burstWhenBatchFull: true,
    },
    async (jobs) =>
      Promise.all(
        jobs.map(async (job) => ({
          id: job.id,
          status: await publisher.run(job.data, { retryCount: job.retryCount, retryLimit: publishRetryLimit }, job.signal),
        })),
      ),
  );
}
