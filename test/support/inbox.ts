// What every network's inbox test does around its stand-in: the collection and reply jobs' dependencies from the test
// service, a poll at an injected time only when the tick would run it then, the inbox as the API lists it, and an
// answer waited for until it settles.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { duePolls, pollInbox, type CollectionDeps } from '../../src/inbox/collect.ts';
import type { ReplyDeps } from '../../src/inbox/replies.ts';
import type { Api } from './posts.ts';
import type { TestService } from './service.ts';

/** The poll job's and the reply job's dependencies, as the service gives them to its workers. */
export function inboxJobs(service: TestService): { collection: CollectionDeps; replies: ReplyDeps } {
  const { services } = service;
  const linkHosts = services.connections.allowedHosts;
  const shared = { db: services.db, secrets: services.secrets, tokens: services.tokens, adapters: services.adapters, inboxes: services.inboxes };
  return {
    collection: { ...shared, logger: services.logger, settings: services.config.inbox, linkHosts },
    replies: { ...shared, boss: services.boss, logger: services.logger, linkHosts },
  };
}

/** Polls the account as the tick would at `at`: only when its poll is due then. */
export async function pollIfDue(collection: CollectionDeps, connectionId: string, at: Date) {
  const due = await duePolls(collection, at);
  return due.includes(connectionId) ? pollInbox(collection, connectionId, at) : null;
}

/** GET /v1/inbox's items. */
export async function inboxOf(api: Api, query = ''): Promise<any[]> {
  const answer = await api('GET', `/inbox${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

/** The item's reply once it is neither pending nor publishing. */
export async function settledReply(api: Api, itemId: string, replyId: string, timeoutMs = 30_000): Promise<any> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(100)) {
    const item = (await inboxOf(api)).find((candidate) => candidate.id === itemId);
    const reply = item?.replies.find((candidate: { id: string }) => candidate.id === replyId);
    if (reply && !['pending', 'publishing'].includes(reply.status)) return reply;
  }
  throw new Error(`reply ${replyId} did not settle`);
}
