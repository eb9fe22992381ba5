// Operators see every target's outcome in the log, once, at a level that fits it: published (info), waiting for
// the network (info), failed and retried later (warn), failed for good (error), each with the network's reason and
// the ids to find it by, and never the account's tokens.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';

const tokens = { accessToken: 'sandbox-access-token-do-not-log', refreshToken: 'sandbox-refresh-token-do-not-log' };
const logged: string[] = [];
const log = new Writable({
  write(chunk, _encoding, done) {
    logged.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let service: TestService;
let acme: TestWorkspace;
let api: Api;
const accounts: string[] = [];

beforeAll(async () => {
  service = await startTestService({ LOG_LEVEL: 'info' }, undefined, log);
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
  const { db, secrets, adapters, outbox } = service.services;
  for (const username of ['fails', 'rate-limited', 'processing', 'publishes']) {
    accounts.push(
      (
        await connectSocialAccount(db, secrets, adapters, outbox, {
          workspaceId: acme.workspaceId,
          provider: 'sandbox',
          username: `${username}-${crypto.randomUUID()}`,
          tokens,
        })
      ).connectionId,
    );
  }
});
afterAll(() => service.stop());

const outcomeLines = (targetId: string) => logged.map((line) => JSON.parse(line)).filter((entry) => entry.targetId === targetId);

describe('the log of publishing', () => {
  it('has a line for every outcome of every target, with its reason, and no token', async () => {
    const captions = ['[sandbox:fail]', '[sandbox:rate-limited]', '[sandbox:processing]', 'Plain'];
    const targets = accounts.map((connectionId, index) => ({ connectionId, placement: 'feed', override: { caption: `Outcomes ${captions[index]}` } }));
    const created = await api('POST', '/posts', { content: { caption: 'Outcomes' }, targets });
    expect(created.status).toBe(201);
    const postId = created.body.data.id;
    await api('POST', `/posts/${postId}/publish`);
    const settled = await waitForPost(api, postId, ['partially_published']);
    const [fails, rateLimited, processing, publishes] = settled.targets.map((target: { id: string }) => target.id);
    const ids = { workspaceId: acme.workspaceId, postId, provider: 'sandbox' };

    expect(outcomeLines(fails)).toEqual([
      expect.objectContaining({
        ...ids,
        level: 50,
        attempt: 1,
        code: 'SANDBOX_REJECTED',
        reason: 'The sandbox network rejected the post ([sandbox:fail] marker).',
        retry: 'never',
        msg: 'target failed',
      }),
    ]);
    expect(outcomeLines(rateLimited)).toEqual([
      expect.objectContaining({
        ...ids,
        level: 40,
        attempt: 1,
        code: 'RATE_LIMITED_BY_PROVIDER',
        reason: expect.stringContaining('rate limit'),
        retry: 'later',
        retryAt: expect.any(String),
        msg: 'target failed, to be retried',
      }),
      expect.objectContaining({ ...ids, level: 30, attempt: 2, msg: 'target published' }),
    ]);
    const waited = outcomeLines(processing);
    expect(waited[0]).toMatchObject({ ...ids, level: 30, attempt: 1, checkAfter: expect.any(String), msg: 'target waiting for the network' });
    expect(waited.at(-1)).toMatchObject({ ...ids, level: 30, attempt: 1, msg: 'target published' });
    expect(outcomeLines(publishes)).toEqual([
      expect.objectContaining({ ...ids, level: 30, attempt: 1, remoteId: expect.any(String), msg: 'target published' }),
    ]);

    const everything = logged.join('\n');
    for (const secret of [tokens.accessToken, tokens.refreshToken, acme.ownerKey]) expect(everything).not.toContain(secret);
  });
});
