// Publishing through the sandbox network: publish now, failures and retries, scheduling, deletion, and the
// outbox events each step writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import { inSeconds, waitForPost, type Api } from '../support/posts.ts';
import { envelopeOf } from '../../src/events/outbox.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let accountA: string;
let accountB: string;

beforeAll(async () => {
  ({ service, acme, api } = await serviceWithWorkspace());
  accountA = await connectSandbox(service.services, acme.workspaceId);
  accountB = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

async function createDraft(caption: string, overrideB?: string) {
  const targets = [
    { connectionId: accountA, placement: 'feed' },
    { connectionId: accountB, placement: 'feed', ...(overrideB ? { override: { caption: overrideB } } : {}) },
  ];
  const { status, body } = await api('POST', '/posts', { content: { caption }, targets });
  expect(status).toBe(201);
  return body.data as { id: string; targets: { id: string }[] };
}

const sandboxItems = (targetId: string) => service.services.db.prisma.sandboxItem.count({ where: { idempotencyKey: targetId } });
const events = async (postId: string) =>
  (await service.services.db.prisma.outboxEvent.findMany({ where: { workspaceId: acme.workspaceId }, orderBy: { sequence: 'asc' } }))
    .map(envelopeOf)
    .filter((event) => event.data.postId === postId);

describe('POST /posts/{id}/publish', () => {
  it('answers 202 at once, publishes every target once, and records the outcome and events', async () => {
    const post = await createDraft('Shipping it');
    const started = await api('POST', `/posts/${post.id}/publish`);
    expect(started.status).toBe(202);
    expect(started.body.data.status).toBe('publishing');

    const published = await waitForPost(api, post.id, ['published']);
    for (const target of published.targets) {
      expect(target).toMatchObject({ status: 'published', attempts: 1, error: null });
      expect(target.remoteUrl).toBe(`${service.services.config.publicBaseUrl}/sandbox/items/${target.remoteId}`);
      expect(await sandboxItems(target.id)).toBe(1);
      const shown = await (await fetch(target.remoteUrl.replace(service.services.config.publicBaseUrl, service.url))).json();
      expect(shown.data).toMatchObject({ id: target.remoteId, caption: 'Shipping it', placement: 'feed' });
    }
    expect(published.publishedAt).not.toBeNull();

    const again = await api('POST', `/posts/${post.id}/publish`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE_TRANSITION');
    expect((await api('PATCH', `/posts/${post.id}`, { version: published.version, content: { caption: 'late edit' } })).body.error.code).toBe(
      'INVALID_STATE_TRANSITION',
    );

    const recorded = await events(post.id);
    expect(recorded.map((event) => event.type)).toEqual(['target.published', 'target.published', 'post.published']);
    expect(recorded[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: { type: 'TargetPublished', postId: post.id, provider: 'sandbox', remoteUrl: expect.stringContaining('/sandbox/items/') },
    });
    expect(recorded[2]!.data).toMatchObject({ type: 'PostPublished', status: 'published' });
  });

  it('does not publish twice when the same publish request arrives twice at once', async () => {
    const post = await createDraft('Double click');
    const answers = await Promise.all([api('POST', `/posts/${post.id}/publish`), api('POST', `/posts/${post.id}/publish`)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const published = await waitForPost(api, post.id, ['published']);
    for (const target of published.targets) expect(await sandboxItems(target.id)).toBe(1);
  });

  it('fails a target permanently with the network’s reason, and retries only failed targets', async () => {
    const post = await createDraft('Mixed fortunes', 'This one fails [sandbox:fail]');
    await api('POST', `/posts/${post.id}/publish`);
    const partial = await waitForPost(api, post.id, ['partially_published']);
    const [good, bad] = partial.targets;
    expect(good.status).toBe('published');
    expect(bad).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'SANDBOX_REJECTED', message: 'The sandbox network rejected the post ([sandbox:fail] marker).' },
    });
    expect((await events(post.id)).map((e) => e.type)).toEqual(expect.arrayContaining(['target.published', 'target.failed', 'post.partially_published']));

    const notFailed = await api('POST', `/posts/${post.id}/retry`, { targetId: good.id });
    expect(notFailed.status).toBe(409);
    const unknown = await api('POST', `/posts/${post.id}/retry`, { targetId: crypto.randomUUID() });
    expect(unknown.status).toBe(404);

    const retried = await api('POST', `/posts/${post.id}/retry`, { targetId: bad.id });
    expect(retried.status).toBe(202);
    const after = await waitForPost(api, post.id, ['partially_published']);
    expect(after.targets[1]).toMatchObject({ status: 'failed', attempts: 2 });
    expect(after.targets[0].attempts).toBe(1);
    expect(await sandboxItems(good.id)).toBe(1);
  });

  it('retries a transient failure with backoff and then publishes once', async () => {
    const post = await createDraft('Flaky network [sandbox:fail-once]');
    await api('POST', `/posts/${post.id}/publish`);
    const published = await waitForPost(api, post.id, ['published'], 45_000);
    for (const target of published.targets) {
      expect(target).toMatchObject({ status: 'published', attempts: 2, error: null });
      expect(await sandboxItems(target.id)).toBe(1);
    }
  });

  it('fails the post when every target fails, and a failed post can be changed and retried', async () => {
    const post = await createDraft('[sandbox:fail] everywhere');
    await api('POST', `/posts/${post.id}/publish`);
    const failed = await waitForPost(api, post.id, ['failed']);
    expect((await events(post.id)).at(-1)!.type).toBe('post.failed');
    const fixed = await api('PATCH', `/posts/${post.id}`, { version: failed.version, content: { caption: 'Fixed caption' } });
    expect(fixed.status).toBe(200);
    expect((await api('POST', `/posts/${post.id}/retry`)).status).toBe(202);
    const published = await waitForPost(api, post.id, ['published']);
    expect(published.targets.every((t: { attempts: number }) => t.attempts === 2)).toBe(true);
  });

  it('refuses to delete a post while it is publishing', async () => {
    const post = await createDraft('Slow one [sandbox:slow]');
    await api('POST', `/posts/${post.id}/publish`);
    const deleting = await api('DELETE', `/posts/${post.id}`);
    expect(deleting.status).toBe(409);
    expect(deleting.body.error.code).toBe('INVALID_STATE_TRANSITION');
    await waitForPost(api, post.id, ['published']);
    expect((await api('DELETE', `/posts/${post.id}`)).status).toBe(204);
    expect((await api('GET', `/posts/${post.id}`)).status).toBe(404);
    expect((await events(post.id)).at(-1)).toMatchObject({ type: 'post.deleted', data: { type: 'PostDeleted', postId: post.id } });
  });
});

describe('POST /posts/{id}/schedule', () => {
  it('refuses past times, unknown zones and times without an offset', async () => {
    const post = await createDraft('Later');
    const past = await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: '2020-01-01T00:00:00.000Z', timezone: 'Mars/Olympus' });
    expect(past.status).toBe(400);
    expect(past.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).toEqual([
      ['scheduledAt', 'past'],
      ['timezone', 'unknownTimezone'],
    ]);
    const noOffset = await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: '2030-01-01T00:00:00', timezone: 'Europe/Berlin' });
    expect(noOffset.status).toBe(400);
    expect(noOffset.body.error.details).toEqual([expect.objectContaining({ field: 'scheduledAt', code: 'format' })]);
    expect((await api('GET', `/posts/${post.id}`)).body.data.status).toBe('draft');
  });

  it('takes any ISO 8601 instant with an offset, with or without fractions of a second, as MCP does', async () => {
    for (const [scheduledAt, instant] of [
      ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00.000Z'],
      ['2030-01-01T01:30:00+01:00', '2030-01-01T00:30:00.000Z'],
      ['2030-01-01T00:00:00.25-05:00', '2030-01-01T05:00:00.250Z'],
    ]) {
      const post = await createDraft(`At ${scheduledAt}`);
      const scheduled = await api('POST', `/posts/${post.id}/schedule`, { scheduledAt, timezone: 'Europe/Berlin' });
      expect(scheduled.status, scheduledAt).toBe(200);
      expect(scheduled.body.data.scheduledAt).toBe(instant);
    }
  });

  it('publishes at the time, and only at the latest time when rescheduled', async () => {
    const post = await createDraft('On time');
    const first = await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: inSeconds(1.5), timezone: 'America/New_York' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'scheduled', timezone: 'America/New_York' });
    const laterAt = inSeconds(4);
    const moved = await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: laterAt, timezone: 'Europe/Berlin' });
    expect(moved.body.data).toMatchObject({ status: 'scheduled', scheduledAt: laterAt, timezone: 'Europe/Berlin' });
    await sleep(2500);
    expect((await api('GET', `/posts/${post.id}`)).body.data.status).toBe('scheduled');
    const published = await waitForPost(api, post.id, ['published']);
    expect(new Date(published.targets[0].publishedAt).getTime()).toBeGreaterThanOrEqual(new Date(laterAt).getTime());
    for (const target of published.targets) expect(await sandboxItems(target.id)).toBe(1);
    expect((await events(post.id)).map((e) => e.type).filter((type) => type === 'post.scheduled')).toHaveLength(2);
  });

  it('takes the jobs of a scheduled post a moment early but leaves the post scheduled until its time', async () => {
    const post = await createDraft('Right on time');
    const dueAt = inSeconds(4);
    expect((await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: dueAt, timezone: 'UTC' })).status).toBe(200);
    const jobStates = async () =>
      (
        await service.services.db.pool.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = 'publish-target' AND data->>'postId' = $1`, [
          post.id,
        ])
      ).rows.map((row) => row.state);
    while (!(await jobStates()).includes('active') && Date.now() < Date.parse(dueAt)) await sleep(50);
    // A worker holds the jobs before the due time (they are available a second early)...
    const heldEarly = Date.now() < Date.parse(dueAt) - 100;
    expect(heldEarly).toBe(true);
    // ...and claims nothing meanwhile: the post can still be changed.
    expect((await api('GET', `/posts/${post.id}`)).body.data.status).toBe('scheduled');
    const published = await waitForPost(api, post.id, ['published']);
    for (const target of published.targets) expect(new Date(target.publishedAt).getTime()).toBeGreaterThanOrEqual(Date.parse(dueAt));
  });

  it('does not publish a scheduled post that was deleted, and publish-now overrides the schedule', async () => {
    const deleted = await createDraft('Never');
    await api('POST', `/posts/${deleted.id}/schedule`, { scheduledAt: inSeconds(1), timezone: 'UTC' });
    expect((await api('DELETE', `/posts/${deleted.id}`)).status).toBe(204);

    const now = await createDraft('Sooner');
    await api('POST', `/posts/${now.id}/schedule`, { scheduledAt: inSeconds(60), timezone: 'UTC' });
    expect((await api('POST', `/posts/${now.id}/publish`)).status).toBe(202);
    await waitForPost(api, now.id, ['published']);
    await sleep(1500);
    for (const target of deleted.targets) expect(await sandboxItems(target.id)).toBe(0);
  });
});

describe('changing and retrying', () => {
  it('publishes the new targets of a scheduled post whose targets were changed', async () => {
    const post = await createDraft('Changing targets');
    const scheduled = (await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: inSeconds(1.5), timezone: 'europe/berlin' })).body.data;
    expect(scheduled.timezone).toBe('Europe/Berlin');
    const changed = await api('PATCH', `/posts/${post.id}`, { version: scheduled.version, targets: [{ connectionId: accountB, placement: 'feed' }] });
    expect(changed.body.data.status).toBe('scheduled');
    const published = await waitForPost(api, post.id, ['published']);
    expect(published.targets).toHaveLength(1);
    expect(await sandboxItems(published.targets[0].id)).toBe(1);
    for (const target of post.targets) expect(await sandboxItems(target.id)).toBe(0);
  });

  it('refuses a retry with nothing to retry, and retries targets added to a failed post', async () => {
    const post = await createDraft('[sandbox:fail] first');
    await api('POST', `/posts/${post.id}/publish`);
    const failed = await waitForPost(api, post.id, ['failed']);
    const changed = await api('PATCH', `/posts/${post.id}`, {
      version: failed.version,
      content: { caption: 'Now fine' },
      targets: [{ connectionId: accountA, placement: 'feed' }],
    });
    expect(changed.body.data.targets[0].status).toBe('pending');
    expect((await api('POST', `/posts/${post.id}/retry`, {})).status).toBe(202);
    const published = await waitForPost(api, post.id, ['published']);
    const nothing = await api('POST', `/posts/${post.id}/retry`, {});
    expect(nothing.status).toBe(409);
    expect(published.targets[0].status).toBe('published');
  });

  it('refuses time zones that are only offsets', async () => {
    const post = await createDraft('Offsets');
    const offset = await api('POST', `/posts/${post.id}/schedule`, { scheduledAt: inSeconds(60), timezone: '+05:00' });
    expect(offset.body.error.details[0]).toMatchObject({ field: 'timezone', code: 'unknownTimezone' });
  });
});
