// The built-in test network. It behaves like a real one (every publish call creates a new item, so a
// duplicate call would show as a duplicate post), and the caption steers the outcome:
//   [sandbox:fail]       every attempt fails with a permanent error
//   [sandbox:fail-once]  the first attempt fails with a transient error
//   [sandbox:slow]       the call takes 3 s; the item exists at the network from the start (like a network
//                        that created the post but answers slowly, the case that tempts a duplicate retry)
//   [sandbox:processing] the network accepts the post and processes it for a second (like Meta's containers or
//                        YouTube's processing): the target waits for a status check
//   [sandbox:rate-limited] the first attempt is refused by a rate limit that resets a second later
import type { Quota } from '../kit/quotas.ts';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/database.ts';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, PublishOutcome, PublishRequest, PublishedItem } from '../adapter.ts';
import { sandboxRules } from './network.ts';
import { NetworkAdapter } from '../kit/networkAdapter.ts';

export const sandboxMarkers = {
  fail: '[sandbox:fail]',
  failOnce: '[sandbox:fail-once]',
  slow: '[sandbox:slow]',
  processing: '[sandbox:processing]',
  rateLimited: '[sandbox:rate-limited]',
} as const;
export const sandboxSlowMs = 3000;
/** How long the sandbox "processes" a post, and how long its rate limit lasts. */
export const sandboxDelayMs = 1000;

/** SANDBOX_QUOTA: a quota to see quota waits without a network. */
const sandboxQuotas = (quota: { posts: number; seconds: number } | null): Quota[] =>
  quota
    ? [
        {
          name: `${quota.posts} posts per ${quota.seconds} s per account (SANDBOX_QUOTA)`,
          scope: 'account',
          windowSeconds: quota.seconds,
          limit: quota.posts,
          costPerPublish: 1,
        },
      ]
    : [];

export class SandboxAdapter extends NetworkAdapter implements ProviderAdapter {
  readonly connector = { method: 'local' } as const;
  readonly #db: Database;
  readonly #publicBaseUrl: string;

  constructor(db: Database, publicBaseUrl: string, quota: { posts: number; seconds: number } | null = null) {
    super({ rules: sandboxRules, duplicates: 'look-up', quotas: sandboxQuotas(quota) });
    this.#db = db;
    this.#publicBaseUrl = publicBaseUrl;
  }

  #item(id: string): PublishedItem {
    return { remoteId: id, remoteUrl: `${this.#publicBaseUrl}/sandbox/items/${id}` };
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { caption } = request;
    if (caption.includes(sandboxMarkers.fail)) {
      throw new ProviderError('SANDBOX_REJECTED', `The sandbox network rejected the post (${sandboxMarkers.fail} marker).`, false);
    }
    if (caption.includes(sandboxMarkers.failOnce) && (await this.#attemptNumber(request)) === 1) {
      throw new ProviderError('SANDBOX_UNAVAILABLE', `The sandbox network is briefly unavailable (${sandboxMarkers.failOnce} marker).`, true);
    }
    if (caption.includes(sandboxMarkers.rateLimited) && (await this.#attemptNumber(request)) === 1) {
      const reason = `The sandbox network's rate limit is reached; it resets in ${sandboxDelayMs / 1000} s (${sandboxMarkers.rateLimited} marker).`;
      throw new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: sandboxDelayMs });
    }
    const item = await this.#db.prisma.sandboxItem.create({
      data: {
        accountId: request.account.id,
        idempotencyKey: request.idempotencyKey,
        placement: request.placement,
        caption,
        mediaIds: request.media.map((m) => m.id),
      },
    });
    if (caption.includes(sandboxMarkers.slow)) await sleep(sandboxSlowMs, undefined, { signal: request.signal });
    if (caption.includes(sandboxMarkers.processing)) return { status: 'processing', handle: item.id, checkAfterMs: sandboxDelayMs };
    return { status: 'published', item: this.#item(item.id) };
  }

  /** The processing of a `[sandbox:processing]` post is over once its delay has passed. */
  async checkStatus(_request: PublishRequest, handle: string): Promise<PublishOutcome> {
    const item = await this.#db.prisma.sandboxItem.findUnique({ where: { id: handle } });
    if (!item) throw new ProviderError('PROVIDER_REJECTED', 'The sandbox network has no such item.', false);
    const ready = item.createdAt.getTime() + sandboxDelayMs <= Date.now();
    return ready ? { status: 'published', item: this.#item(item.id) } : { status: 'processing', handle, checkAfterMs: sandboxDelayMs };
  }

  /** Which attempt this is for the target (1 for the first), counted at the sandbox network. */
  async #attemptNumber(request: PublishRequest): Promise<number> {
    const { rows } = await this.#db.pool.query<{ count: number }>(
      `INSERT INTO sandbox_attempt (idempotency_key, count) VALUES ($1, 1)
       ON CONFLICT (idempotency_key) DO UPDATE SET count = sandbox_attempt.count + 1 RETURNING count`,
      [request.idempotencyKey],
    );
    return rows[0]!.count;
  }

  async findPublished(request: PublishRequest): Promise<PublishedItem | null> {
    const item = await this.#db.prisma.sandboxItem.findFirst({
      where: { idempotencyKey: request.idempotencyKey },
      orderBy: { createdAt: 'asc' },
    });
    return item ? this.#item(item.id) : null;
  }

  /** Deterministic figures derived from the item id, so tests and demos can compute them by hand. */
  async metrics(_account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const seed = createHash('sha256').update(remoteId).digest();
    const impressions = 100 + (seed.readUInt16BE(0) % 900);
    return {
      impressions,
      reach: Math.floor(impressions * 0.8),
      likes: seed.readUInt8(2) % 50,
      comments: seed.readUInt8(3) % 10,
      shares: seed.readUInt8(4) % 5,
      saves: seed.readUInt8(5) % 5,
      clicks: seed.readUInt8(6) % 20,
      videoViews: seed.readUInt8(7) % 100,
    };
  }
}

/** A published sandbox item, as the "network" shows it publicly at its remote URL. */
export async function findSandboxItem(db: Database, id: string) {
  return db.prisma.sandboxItem.findUnique({
    where: { id },
    select: { id: true, placement: true, caption: true, mediaIds: true, createdAt: true },
  });
}
