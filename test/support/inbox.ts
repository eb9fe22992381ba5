// What the inbox tests of every network share (test/http/*Inbox.test.ts, inbox.test.ts): the collection and reply
// jobs' dependencies from a running service, a poll run as the tick would at an injected time, the inbox as the
// API lists it, a reply waited for until it settles, and the row an attempt leaves when it crashes after calling
// the network.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { duePolls, pollInbox, type CollectionDeps } from '../../src/inbox/collect.ts';
import type { ReplyDeps } from '../../src/inbox/replies.ts';
import { waitForPost, type Api } from './posts.ts';
import type { TestService } from './service.ts';

/** The poll job's and the reply job's dependencies, as the worker builds them. */
export function inboxJobs({ services }: TestService): { collection: CollectionDeps; replies: ReplyDeps } {
  const linkHosts = services.connections.allowedHosts;
  const shared = { db: services.db, secrets: services.secrets, tokens: services.tokens, adapters: services.adapters, inboxes: services.inboxes };
  return {
    collection: { ...shared, logger: services.logger, settings: services.config.inbox, linkHosts },
    replies: { ...shared, boss: services.boss, logger: services.logger, linkHosts },
  };
}

/** Polls the account as the tick would at `at`: only when its poll is due then (null otherwise). */
export async function pollIfDue(collection: CollectionDeps, connectionId: string, at: Date) {
  const due = await duePolls(collection, at);
  return due.includes(connectionId) ? pollInbox(collection, connectionId, at) : null;
}

/** Publishes a post with `caption` to the account through the API; answers its id and its network's id. */
export async function publishTo(api: Api, connectionId: string, caption: string): Promise<{ postId: string; remoteId: string }> {
  const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId, placement: 'feed' }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
  expect(post.status, JSON.stringify(post.targets)).toBe('published');
  return { postId: post.id, remoteId: post.targets[0].remoteId };
}

/** GET /v1/inbox with `query`: its items. */
export async function inboxOf(api: Api, query = ''): Promise<any[]> {
  const answer = await api('GET', `/inbox${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

/** The reply as the inbox lists it once it is no longer pending or publishing. */
export async function settledReply(api: Api, itemId: string, replyId: string): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const item = (await inboxOf(api)).find((candidate) => candidate.id === itemId);
    const reply = item?.replies.find((candidate: { id: string }) => candidate.id === replyId);
    if (reply && !['pending', 'publishing'].includes(reply.status)) return reply;
    await sleep(100);
  }
  throw new Error(`reply ${replyId} did not settle`);
}

/**
 * The row of an attempt that crashed after it sent its reply to the network: committed as publishing with its call
 * started, its answer never recorded. Answers the reply's id (the network's idempotency key).
 */
export async function crashedReply({ services }: TestService, itemId: string, text: string): Promise<string> {
  const { rows } = await services.db.pool.query<{ id: string }>(
    `INSERT INTO inbox_reply (id, item_id, text, status, attempts, checkpoint) VALUES (gen_random_uuid(), $1, $2, 'publishing', 1, $3::jsonb) RETURNING id`,
    [itemId, text, JSON.stringify({ done: {}, started: 'reply' })],
  );
  return rows[0]!.id;
}
