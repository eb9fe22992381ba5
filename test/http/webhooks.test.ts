// Webhooks: endpoints, signed deliveries verified by a real receiver (our HMAC and the standardwebhooks library),
// retries, timeouts, replay, rotation, test events, ordering and isolation, and the SSRF guard.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { queueNames } from '../../src/jobs/boss.ts';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { Receiver } from '../support/receiver.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
const receivers: Receiver[] = [];

beforeAll(
  async () =>
    ({ service, acme, api } = await serviceWithWorkspace({
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0.5,0.5,0.5',
      // A retry coming due wakes no worker: found at the next backstop poll (5 s by default).
      JOB_BACKSTOP_POLL_MS: '500',
      WEBHOOK_TIMEOUT_MS: '1500',
    })),
);
afterEach(async () => {
  for (const endpoint of (await api('GET', '/webhooks?limit=100')).body.data) await api('DELETE', `/webhooks/${endpoint.id}`);
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.stop()));
  await service.stop();
});

async function receiverWithEndpoint(events?: string[]) {
  const receiver = await new Receiver().start();
  receivers.push(receiver);
  const created = await api('POST', '/webhooks', { url: receiver.url, ...(events ? { events } : {}), description: 'test receiver' });
  expect(created.status).toBe(201);
  receiver.secrets = [created.body.data.secret];
  return { receiver, endpoint: created.body.data as { id: string; secret: string } };
}

async function deliveries(endpointId: string) {
  return (await api('GET', `/webhooks/${endpointId}/deliveries?limit=100`)).body.data as any[];
}

async function waitForDelivery(endpointId: string, status: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await deliveries(endpointId)).find((delivery) => delivery.status === status);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${status} delivery: ${JSON.stringify(await deliveries(endpointId))}`);
    await sleep(50);
  }
}

describe('endpoints', () => {
  it('returns the secret once, and never again', async () => {
    const { endpoint } = await receiverWithEndpoint(['post.published']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = await api('GET', '/webhooks');
    expect(listed.body.data).toEqual([expect.objectContaining({ id: endpoint.id, events: ['post.published'], enabled: true, description: 'test receiver' })]);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    expect(JSON.stringify((await api('GET', `/webhooks/${endpoint.id}`)).body)).not.toContain('whsec_');
    const changed = await api('PATCH', `/webhooks/${endpoint.id}`, { events: [], enabled: false });
    expect(changed.body.data).toMatchObject({ events: [], enabled: false });
  });

  it('refuses private, loopback, link-local and metadata addresses, plain http and unknown events', async () => {
    const refusals: [string, string][] = [
      ['https://10.1.2.3/hook', 'privateAddress'],
      ['https://192.168.1.20/hook', 'privateAddress'],
      ['https://169.254.169.254/latest/meta-data', 'privateAddress'],
      ['https://[::1]/hook', 'privateAddress'],
      ['https://[::ffff:10.0.0.1]/hook', 'privateAddress'],
      ['https://127.0.0.3/hook', 'privateAddress'],
      ['https://[fd00:ec2::254]/latest/meta-data', 'privateAddress'],
      ['http://example.com/hook', 'httpsRequired'],
      ['ftp://example.com/hook', 'httpsRequired'],
      ['not a url', 'invalidUrl'],
    ];
    for (const [url, code] of refusals) {
      const { status, body } = await api('POST', '/webhooks', { url });
      expect({ url, status, code: body.error.details?.[0]?.code }).toEqual({ url, status: 400, code });
    }
    const unknown = await api('POST', '/webhooks', { url: 'https://example.com/hook', events: ['post.exploded'] });
    expect(unknown.status).toBe(400);
    expect((await api('GET', '/webhooks')).body.data).toEqual([]);
  });

  it('needs webhooks:write, which editors do not have', async () => {
    const key = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'publishing' });
    const refused = await apiFor(service.url, key.apiKey)('GET', '/webhooks');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('API key needs the webhooks:write scope for listWebhooks.');
  });
});

describe('deliveries', () => {
  it('delivers each event once, signed both ways, in event order, with the documented headers', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint();
    const account = await connectSandbox(service.services, acme.workspaceId);
    const post = (await api('POST', '/posts', { content: { caption: 'Webhooks!' }, targets: [{ connectionId: account, placement: 'feed' }] })).body.data;
    await api('POST', `/posts/${post.id}/publish`);
    await waitForPost(api, post.id, ['published']);
    const received = await receiver.waitFor(3);
    expect(received.map((r) => r.envelope.type)).toEqual(['connection.connected', 'target.published', 'post.published']);
    for (const delivery of received) {
      expect(delivery.verifiedBy).toEqual({ ours: [endpoint.secret], standard: [endpoint.secret] });
      expect(delivery.headers['x-post-event']).toBe(delivery.envelope.type);
      expect(delivery.headers['webhook-id']).toBe(delivery.envelope.id);
      expect(delivery.headers['x-post-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Math.abs(Number(delivery.headers['x-post-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(received[1]!.envelope).toMatchObject({
      type: 'target.published',
      createdAt: expect.stringMatching(/\.\d{3}Z$/),
      data: { type: 'TargetPublished', postId: post.id, provider: 'sandbox', remoteUrl: expect.stringContaining('/sandbox/items/') },
    });
    for (let i = 0; i < 100 && (await deliveries(endpoint.id)).some((delivery) => delivery.status !== 'succeeded'); i++) await sleep(50);
    const log = await deliveries(endpoint.id);
    expect(log.map((delivery) => [delivery.status, delivery.attemptLog[0].statusCode])).toEqual([
      ['succeeded', 200],
      ['succeeded', 200],
      ['succeeded', 200],
    ]);
  });

  it('retries after a 500 and after a timeout, logging every attempt, until it succeeds', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint(['webhook.test']);
    receiver.answer({ status: 500 }, { delayMs: 2500 }, { status: 200 });
    await api('POST', `/webhooks/${endpoint.id}/test`);
    const done = await waitForDelivery(endpoint.id, 'succeeded', 20_000);
    expect(done.attempts).toBe(3);
    expect(done.attemptLog.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([500, null, 200]);
    expect(done.attemptLog[0]).toMatchObject({ responseExcerpt: 'answered 500', error: 'The endpoint answered 500.' });
    expect(done.attemptLog[1].error).toBe('No answer within 1.5 s.');
    expect(new Set(receiver.received.map((r) => r.envelope.id)).size).toBe(1);
  });

  it('fails a delivery after the last attempt, shows it, and goes on with later events', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint(['webhook.test']);
    receiver.answer({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    await api('POST', `/webhooks/${endpoint.id}/test`);
    await api('POST', `/webhooks/${endpoint.id}/test`);
    const failed = await waitForDelivery(endpoint.id, 'failed', 20_000);
    expect(failed.attempts).toBe(4);
    expect(failed.completedAt).not.toBeNull();
    await waitForDelivery(endpoint.id, 'succeeded', 20_000);
    // Order: the second event waited until the first was settled.
    const ids = receiver.received.map((r) => r.envelope.id);
    expect(ids.slice(0, 4).every((id) => id === ids[0])).toBe(true);
    expect(ids[4]).not.toBe(ids[0]);
    // Waiting for a retry is a job due at that time, not a loop: a handful of drain jobs in all.
    const { rows } = await service.services.db.pool.query(
      `SELECT count(*)::int AS jobs FROM pgboss.job WHERE name = 'webhook-drain' AND data->>'endpointId' = $1`,
      [endpoint.id],
    );
    expect(rows[0].jobs).toBeLessThan(15);
  });

  it('does not follow redirects', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint(['webhook.test']);
    const elsewhere = await new Receiver().start();
    receivers.push(elsewhere);
    receiver.always({ status: 302, location: elsewhere.url });
    await api('POST', `/webhooks/${endpoint.id}/test`);
    await receiver.waitFor(2, 10_000);
    expect(elsewhere.received).toHaveLength(0);
    expect((await deliveries(endpoint.id))[0].attemptLog[0]).toMatchObject({ statusCode: 302, error: 'The endpoint answered 302.' });
  });

  it('replays a delivery with the same event id', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint(['webhook.test']);
    await api('POST', `/webhooks/${endpoint.id}/test`);
    const first = await waitForDelivery(endpoint.id, 'succeeded');
    const replay = await api('POST', `/webhooks/${endpoint.id}/deliveries/${first.id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body.data).toMatchObject({ eventId: first.eventId, replayOf: first.id, status: 'pending' });
    await receiver.waitFor(2);
    expect(receiver.received.map((r) => r.envelope.id)).toEqual([first.eventId, first.eventId]);
    expect(receiver.received[0]!.headers['x-post-delivery']).not.toBe(receiver.received[1]!.headers['x-post-delivery']);
  });

  it('signs with the old and the new secret for 24 h after a rotation', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint(['webhook.test']);
    const rotated = await api('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    const expires = new Date(rotated.body.data.previousSecretExpiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3600_000);
    receiver.secrets = [endpoint.secret, rotated.body.data.secret];
    await api('POST', `/webhooks/${endpoint.id}/test`);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.verifiedBy.ours.sort()).toEqual([...receiver.secrets].sort());
    expect(delivery!.verifiedBy.standard.sort()).toEqual([...receiver.secrets].sort());
  });

  it('keeps a slow endpoint from delaying the others', async () => {
    const slow = await receiverWithEndpoint(['webhook.test']);
    slow.receiver.always({ delayMs: 1400 });
    const healthy = await receiverWithEndpoint(['webhook.test']);
    for (let i = 0; i < 3; i++) await api('POST', `/webhooks/${slow.endpoint.id}/test`);
    await sleep(100);
    const sentAt = Date.now();
    await api('POST', `/webhooks/${healthy.endpoint.id}/test`);
    const [delivery] = await healthy.receiver.waitFor(1);
    expect(delivery!.at - sentAt).toBeLessThan(1000);
    expect(slow.receiver.received.length).toBeLessThan(3);
  });

  it('checks the destination again before each attempt and refuses what it may not reach', async () => {
    const receiver = await new Receiver().start();
    receivers.push(receiver);
    // As if the host's DNS answer had changed to a private address after the endpoint was saved.
    const endpoint = await service.services.db.prisma.webhookEndpoint.create({
      data: {
        workspaceId: acme.workspaceId,
        url: receiver.url.replace('http://127.0.0.1', 'https://127.0.0.2'),
        events: ['webhook.test'],
        sealedSecret: service.services.secrets.seal('whsec_AAAA'),
      },
    });
    await api('POST', `/webhooks/${endpoint.id}/test`);
    const failed = await waitForDelivery(endpoint.id, 'failed', 15_000);
    expect(failed.attemptLog[0].error).toBe(
      'Refused before sending: The host 127.0.0.2 resolves to 127.0.0.2, which is not a public address. The operator can allow the host in WEBHOOK_ALLOWED_HOSTS.',
    );
    expect(receiver.received).toHaveLength(0);
  });
});

describe('a drain whose process died', () => {
  it('is taken over by the queue’s retry of its job at once, not when its lease runs out', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint();
    // What a worker killed mid-drain leaves: the endpoint's lease held for a while yet by its job.
    const deadJob = randomUUID();
    await service.services.db.pool.query(`UPDATE webhook_endpoint SET drain_lease_until = now() + interval '1 hour', drain_lease_holder = $2 WHERE id = $1`, [
      endpoint.id,
      deadJob,
    ]);
    expect((await api('POST', `/webhooks/${endpoint.id}/test`)).status).toBe(202);
    await sleep(1000);
    // The new event's drain found the lease taken and left it to its holder.
    expect(receiver.received).toHaveLength(0);
    // The queue runs the dead worker's job again (as it does once the job's heartbeat stops).
    await service.services.boss.insert(queueNames.webhookDrain, [{ id: deadJob, data: { endpointId: endpoint.id } }]);
    const [delivered] = await receiver.waitFor(1);
    expect(delivered!.envelope.type).toBe('webhook.test');
    expect((await waitForDelivery(endpoint.id, 'succeeded')).attempts).toBe(1);
  });
});

describe('disabled endpoints', () => {
  it('get no new events, keep pending deliveries until enabled again, and refuse test events', async () => {
    const { receiver, endpoint } = await receiverWithEndpoint(['post.deleted']);
    receiver.answer({ status: 500 });
    const account = await connectSandbox(service.services, acme.workspaceId);
    const before = (await api('POST', '/posts', { content: { caption: 'Before' }, targets: [{ connectionId: account, placement: 'feed' }] })).body.data;
    await api('DELETE', `/posts/${before.id}`);
    await receiver.waitFor(1);
    await api('PATCH', `/webhooks/${endpoint.id}`, { enabled: false });
    expect((await api('POST', `/webhooks/${endpoint.id}/test`)).status).toBe(409);
    const during = (await api('POST', '/posts', { content: { caption: 'During' }, targets: [{ connectionId: account, placement: 'feed' }] })).body.data;
    await api('DELETE', `/posts/${during.id}`);
    await sleep(1200); // past the retry time: nothing is sent while disabled
    expect(receiver.received).toHaveLength(1);
    await api('PATCH', `/webhooks/${endpoint.id}`, { enabled: true });
    const received = await receiver.waitFor(2);
    expect(received.map((r) => r.envelope.data.postId)).toEqual([before.id, before.id]);
  });

  it('refuses IPv4-compatible IPv6 forms of private addresses', async () => {
    const { status, body } = await api('POST', '/webhooks', { url: 'https://[::7f00:1]/hook' });
    expect(status).toBe(400);
    expect(body.error.details[0].code).toBe('privateAddress');
  });
});
