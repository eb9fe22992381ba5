// Posting queues over HTTP: create, list, change, delete, and posts placed in the next free slot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { slotInstants } from '../../src/queues/slots.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let account: string;

beforeAll(async () => {
  ({ service, acme, api } = await serviceWithWorkspace());
  account = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

const draft = async (connectionId = account) =>
  (await api('POST', '/posts', { content: { caption: 'Queued' }, targets: [{ connectionId, placement: 'feed' }] })).body.data.id as string;

describe('queues', () => {
  it('creates, lists and validates queues', async () => {
    const created = await api('POST', '/queues', {
      name: 'Weekdays',
      timezone: 'Europe/Berlin',
      slots: [
        { day: 'friday', time: '10:00' },
        { day: 'monday', time: '09:00' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Weekdays',
      timezone: 'Europe/Berlin',
      slots: [
        { day: 'monday', time: '09:00' },
        { day: 'friday', time: '10:00' },
      ],
      connectionIds: [],
    });
    expect((await api('GET', '/queues')).body.data.map((q: { id: string }) => q.id)).toContain(created.body.data.id);
    const bad = await api('POST', '/queues', { name: 'x', timezone: 'Mars/Base', slots: [{ day: 'funday', time: '25:00' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['slots[0].day', 'slots[0].time']);
    const zone = await api('POST', '/queues', { name: 'x', timezone: 'Mars/Base', slots: [{ day: 'monday', time: '09:00' }] });
    expect(zone.body.error.details).toEqual([expect.objectContaining({ field: 'timezone', code: 'unknownTimezone' })]);
  });

  it('places each queued post in the next free slot, two posts in two slots', async () => {
    const queue = (
      await api('POST', '/queues', {
        name: 'Daily',
        timezone: 'America/New_York',
        slots: [
          { day: 'tuesday', time: '08:15' },
          { day: 'thursday', time: '19:45' },
        ],
      })
    ).body.data;
    const expected = slotInstants(queue.timezone, queue.slots, new Date(), 2)
      .slice(0, 3)
      .map((d) => d.toISOString());
    const placed = [];
    for (let i = 0; i < 3; i++) {
      const response = await api('POST', `/posts/${await draft()}/queue`, { queueId: queue.id });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'scheduled', timezone: 'America/New_York', queueId: queue.id });
      placed.push(response.body.data.scheduledAt);
    }
    expect(placed).toEqual(expected);
    const concurrent = await Promise.all([draft(), draft()].map(async (id) => api('POST', `/posts/${await id}/queue`, { queueId: queue.id })));
    expect(new Set(concurrent.map((r) => r.body.data.scheduledAt)).size).toBe(2);
  });

  it('keeps posts scheduled when their slot is removed or the queue deleted, and says how many', async () => {
    const queue = (
      await api('POST', '/queues', {
        name: 'Mornings',
        timezone: 'UTC',
        slots: [
          { day: 'monday', time: '07:00' },
          { day: 'saturday', time: '07:00' },
        ],
      })
    ).body.data;
    const first = (await api('POST', `/posts/${await draft()}/queue`, { queueId: queue.id })).body.data;
    const second = (await api('POST', `/posts/${await draft()}/queue`, { queueId: queue.id })).body.data;
    const saturday = [first, second].filter((p) => new Date(p.scheduledAt).getUTCDay() === 6).length;
    const patched = await api('PATCH', `/queues/${queue.id}`, { slots: [{ day: 'monday', time: '07:00' }] });
    expect(patched.body).toMatchObject({ data: { slots: [{ day: 'monday', time: '07:00' }] }, keptScheduledPosts: saturday });
    const deleted = await api('DELETE', `/queues/${queue.id}`);
    expect(deleted.body.data).toEqual({ id: queue.id, deleted: true, keptScheduledPosts: 2 });
    const after = (await api('GET', `/posts/${first.id}`)).body.data;
    expect(after).toMatchObject({ status: 'scheduled', scheduledAt: first.scheduledAt, queueId: null });
  });

  it('takes only posts for the accounts a queue serves, and refuses what is not allowed', async () => {
    const other = await connectSandbox(service.services, acme.workspaceId);
    const queue = (await api('POST', '/queues', { name: 'One account', timezone: 'UTC', slots: [{ day: 'monday', time: '07:00' }], connectionIds: [account] }))
      .body.data;
    const refused = await api('POST', `/posts/${await draft(other)}/queue`, { queueId: queue.id });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0]).toMatchObject({ field: 'targets[0].connectionId', code: 'notInQueue' });
    expect((await api('POST', `/posts/${await draft()}/queue`, { queueId: crypto.randomUUID() })).status).toBe(404);
    const foreign = await createWorkspace(service.services);
    expect((await apiFor(service.url, foreign.ownerKey)('DELETE', `/queues/${queue.id}`)).status).toBe(404);
    const reader = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    expect(
      (await apiFor(service.url, reader.apiKey)('POST', '/queues', { name: 'x', timezone: 'UTC', slots: [{ day: 'monday', time: '07:00' }] })).status,
    ).toBe(403);
    expect((await apiFor(service.url, reader.apiKey)('GET', '/queues')).status).toBe(200);
  });
});
