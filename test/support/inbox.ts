// Driving the inbox from a test as the service's jobs would: polls at an injected time (only when the account's poll
// is due then, as the tick decides), the inbox as GET /v1/inbox lists it, a reply's settled state, and the row a
// crashed reply attempt leaves (committed as publishing, its network call started, its answer never recorded).
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { duePolls, pollInbox, type CollectionDeps, type PollResult } from '../../src/inbox/collect.ts';
import type { ReplyDeps } from '../../src/inbox/replies.ts';
import { waitForPost, type Api } from './posts.ts';
import type { TestService } from './service.ts';

export interface InboxDriver {
  collection: CollectionDeps;
  replies: ReplyDeps;
  /** Publishes a post with `caption` to the account through the API: its id and its network's id. */
  publish(connectionId: string, caption: string): Promise<{ postId: string; remoteId: string }>;
  /** GET /v1/inbox with `query`: its items. */
  items(query?: string): Promise<any[]>;
  /** Polls the account as the tick would at `at`: null when its poll is not due then. */
  pollIfDue(connectionId: string, at: Date): Promise<PollResult | null>;
  /** Every item GET /v1/inbox lists, page after page. */
  allItems(): Promise<any[]>;
  /** The item of the network's `remoteId`. */
  item(remoteId: string): Promise<any>;
  /** The reply once it is neither pending nor publishing. */
  settledReply(itemId: string, replyId: string): Promise<any>;
  /** The reply row of an attempt that crashed after sending `text` (the `reply` step started): its id. */
  crashedReply(itemId: string, text: string): Promise<string>;
}

export function inboxDriver({ services }: TestService, api: Api): InboxDriver {
  const linkHosts = services.connections.allowedHosts;
  const shared = { db: services.db, secrets: services.secrets, tokens: services.tokens, adapters: services.adapters, inboxes: services.inboxes };
  const collection: CollectionDeps = { ...shared, logger: services.logger, settings: services.config.inbox, linkHosts };
  const items = async (query = '') => {
    const answer = await api('GET', `/inbox${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as any[];
  };
  const allItems = async () => {
    const all: any[] = [];
    for (let cursor = ''; ; ) {
      const answer = await api('GET', `/inbox?limit=100${cursor && `&cursor=${cursor}`}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      all.push(...answer.body.data);
      if (!answer.body.pagination.hasMore) return all;
      cursor = answer.body.pagination.nextCursor;
    }
  };
  return {
    collection,
    allItems,
    item: async (remoteId) => (await allItems()).find((candidate) => candidate.remoteId === remoteId),
    replies: { ...shared, boss: services.boss, logger: services.logger, linkHosts },
    items,
    async publish(connectionId, caption) {
      const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId, placement: 'feed' }] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
      const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
      expect(post.status, JSON.stringify(post.targets)).toBe('published');
      return { postId: post.id, remoteId: post.targets[0].remoteId };
    },
    async pollIfDue(connectionId, at) {
      const due = await duePolls(collection, at);
      return due.includes(connectionId) ? pollInbox(collection, connectionId, at) : null;
    },
    async settledReply(itemId, replyId) {
      let reply: any;
      for (let i = 0; i < 300; i++) {
        const item = (await allItems()).find((candidate) => candidate.id === itemId);
        reply = item?.replies.find((candidate: { id: string }) => candidate.id === replyId);
        if (reply && !['pending', 'publishing'].includes(reply.status)) return reply;
        await sleep(100);
      }
      throw new Error(`reply ${replyId} did not settle: ${JSON.stringify(reply)}`);
    },
    async crashedReply(itemId, text) {
      const { rows } = await services.db.pool.query<{ id: string }>(
        `INSERT INTO inbox_reply (id, item_id, text, status, attempts, checkpoint) VALUES (gen_random_uuid(), $1, $2, 'publishing', 1, $3::jsonb) RETURNING id`,
        [itemId, text, JSON.stringify({ done: {}, started: 'reply' })],
      );
      return rows[0]!.id;
    },
  };
}
