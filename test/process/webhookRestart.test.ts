// Deliveries survive a restart in the middle of their retry schedule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor } from '../support/posts.ts';
import { Receiver } from '../support/receiver.ts';

let env: Record<string, string>;
let apiKey: string;
let receiver: Receiver;
const servers = new ServerProcesses();

beforeAll(async () => {
  env = {
    DATABASE_URL: await createTestDatabase(),
    ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE: '4,4',
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  ({ apiKey } = await setupWithCli(env, { name: 'Hooks', email: 'hooks@example.test' }));
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await servers.killAll();
});

describe('webhook retries across a restart', () => {
  it('makes the scheduled retry after the service comes back', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const endpoint = (await api('POST', '/webhooks', { url: receiver.url, events: ['webhook.test'] })).body.data;
    receiver.secrets = [endpoint.secret];
    receiver.answer({ status: 500 });
    await api('POST', `/webhooks/${endpoint.id}/test`);
    await receiver.waitFor(1);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    await sleep(5000);
    expect(receiver.received).toHaveLength(1);
    const second = await servers.start(env);
    await receiver.waitFor(2, 20_000);
    expect(receiver.received[1]!.envelope.id).toBe(receiver.received[0]!.envelope.id);
    expect(receiver.received[1]!.verifiedBy.standard).toEqual([endpoint.secret]);
    let log: any[] = [];
    for (let i = 0; i < 50; i++) {
      log = (await apiFor(second.url, apiKey)('GET', `/webhooks/${endpoint.id}/deliveries`)).body.data;
      if (log[0]?.status === 'succeeded') break;
      await sleep(100);
    }
    expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(log[0].attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
