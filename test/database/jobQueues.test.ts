// The job queues are brought to the current options at every start, also where an older version created them:
// pg-boss's createQueue leaves an existing queue as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { queueNames, startJobs } from '../../src/jobs/boss.ts';
import { createTestDatabase } from '../support/database.ts';

let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});

const options = { superviseIntervalSeconds: 60, supervise: false, poolSize: 2 };
const noErrors = (error: Error) => {
  throw error;
};

describe('job queues', () => {
  let boss: PgBoss | undefined;
  afterAll(async () => {
    await boss?.stop({ graceful: false });
  });

  it('gives a queue made without heartbeats by an older version the heartbeat its jobs need now', async () => {
    const older = new PgBoss({ connectionString: databaseUrl, supervise: false });
    await older.start();
    await older.createQueue(queueNames.processMedia, { retryLimit: 1, expireInSeconds: 3600 });
    expect((await older.getQueue(queueNames.processMedia))?.heartbeatSeconds ?? null).toBeNull();
    await older.stop({ graceful: false });

    boss = await startJobs(databaseUrl, options, noErrors);
    const queue = await boss.getQueue(queueNames.processMedia);
    expect(queue).toMatchObject({ heartbeatSeconds: 30, retryLimit: 3, expireInSeconds: 3600 });
    expect((await boss.getQueue(queueNames.generateImage))?.heartbeatSeconds).toBe(30);
  });
});
