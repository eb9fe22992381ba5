// A job that comes due later (a retry, a delayed drain) wakes no worker: a worker woken by NOTIFY finds it at its
// backstop poll, every JOB_BACKSTOP_POLL_MS (5 s by default; tests of retries set it low).
import { afterAll, expect, it } from 'vitest';
import type { PgBoss } from 'pg-boss';
import { queueNames, startJobs, wokenByNotify } from '../../src/jobs/boss.ts';
import { createTestDatabase } from '../support/database.ts';

let boss: PgBoss | undefined;
afterAll(async () => {
  await boss?.stop({ graceful: false });
});

it('finds a job that came due at the next backstop poll', { timeout: 30_000 }, async () => {
  boss = await startJobs(await createTestDatabase(), { superviseIntervalSeconds: 60, supervise: true, poolSize: 2, backstopPollMs: 500 }, (error) => {
    throw error;
  });
  let handledAt = 0;
  await boss.work(queueNames.webhookDrain, { batchSize: 1, ...wokenByNotify }, async () => {
    handledAt = Date.now();
  });
  const sentAt = Date.now();
  await boss.send(queueNames.webhookDrain, {}, { startAfter: 1 });
  while (!handledAt && Date.now() - sentAt < 20_000) await new Promise((resolve) => setTimeout(resolve, 50));
  // Due after 1 s; the default backstop would find it about 5 s after it was sent.
  expect(handledAt - sentAt).toBeGreaterThanOrEqual(900);
  expect(handledAt - sentAt).toBeLessThan(4000);
});
