// What every network's inbox test does against the test service: the collection and reply jobs' dependencies, a
// poll run as the tick would run it at an injected time, the inbox read through the API, a reply waited for until it
// settles, and the row a crashed reply attempt leaves behind.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { duePolls, pollInbox, type CollectionDeps } from '../../src/inbox/collect.ts';
import type { ReplyDeps } from '../../src/inbox/replies.ts';
import type { Api } from './posts.ts';
import type { TestService } from './service.ts';

/** The poll job's and the reply job's dependencies, from the test service. */
export function inboxJobs(service: TestService): { collection: CollectionDeps; replies: ReplyDeps } {
  const { services } = service;
  const linkHosts = services.connections.allowedHosts;
  const shared = { db: services.db, secrets: services.secrets, tokens: services.tokens, adapters: services.adapters, inboxes: services.inboxes };
  return {
    collection: { ...shared, logger: services.logger, settings: services.config.inbox, linkHosts },
    replies: { ...shared, boss: services.boss, logger: services.logger, linkHosts },
  };
}

/** Polls the account as the tick would at `at`: only when its poll is due then (null where it is not). */
export async function pollIfDue(collection: CollectionDeps, connectionId: string, at: Date) {
  const due = await duePolls(collection, at);
  return due.includes(connectionId) ? pollInbox(collection, connectionId, at) : null;
}

/** GET /v1/inbox's items. */
export async function inboxItems(api: Api, query = ''): Promise<any[]> {
  const answer = await api('GET', `/inbox${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

/** The reply once it is no longer pending or publishing, as GET /v1/inbox shows it (with `query`, where the item is listed). */
export async function settledReply(api: Api, itemId: string, replyId: string, query = ''): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const item = (await inboxItems(api, query)).find((candidate) => candidate.id === itemId);
    const reply = item?.replies.find((candidate: { id: string }) => candidate.id === replyId);
    if (reply && !['pending', 'publishing'].includes(reply.status)) return reply;
    await sleep(100);
  }
  throw new Error(`reply ${replyId} did not settle`);
}

/**
 * What a reply attempt that crashed after calling the network leaves: the reply committed as publishing, its step
 * started, the network's answer never recorded. Answers the reply's id (the job's retry is then `postInboxReply`).
 */
export async function crashedReply(service: TestService, itemId: string, text: string): Promise<string> {
  const { rows } = await service.services.db.pool.query<{ id: string }>(
    `INSERT INTO inbox_reply (id, item_id, text, status, attempts, checkpoint) VALUES (gen_random_uuid(), $1, $2, 'publishing', 1, $3::jsonb) RETURNING id`,
    [itemId, text, JSON.stringify({ done: {}, started: 'reply' })],
  );
  return rows[0]!.id;
}
