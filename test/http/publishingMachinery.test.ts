// What real networks need from the publish pipeline, shown with the sandbox network's markers: posts the network
// processes later (status checks, no worker held), rate limits retried after the network's reset, outcomes
// recorded as they come, network settings validated with defaults, and accounts that can no longer publish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import { inSeconds, waitForPost, type Api } from '../support/posts.ts';
import { sandboxDelayMs } from '../../src/providers/sandbox/adapter.ts';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let account: string;

beforeAll(async () => {
  ({ service, acme, api } = await serviceWithWorkspace());
  account = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

async function publish(caption: string, targets: object[] = [{ connectionId: account, placement: 'feed' }]) {
  const created = await api('POST', '/posts', { content: { caption }, targets });
  expect(created.status).toBe(201);
  expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
  return created.body.data.id as string;
}

const itemsOf = (targetId: string) => service.services.db.prisma.sandboxItem.count({ where: { idempotencyKey: targetId } });

describe('a network that processes a post after accepting it', () => {
  it('keeps the target publishing with the network’s handle, then records it published from a status check', async () => {
    const id = await publish('Processed later [sandbox:processing]');
    let target: { status: string; processingHandle: string | null } | null = null;
    for (let i = 0; i < 50 && !target?.processingHandle; i++) {
      target = await service.services.db.prisma.postTarget.findFirst({ where: { postId: id } });
      await sleep(20);
    }
    expect(target).toMatchObject({ status: 'publishing' });
    expect(target!.processingHandle).not.toBeNull();

    const published = await waitForPost(api, id, ['published', 'failed']);
    expect(published.status).toBe('published');
    expect(published.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null, remoteId: target!.processingHandle });
    expect(await itemsOf(published.targets[0].id)).toBe(1);
    const row = await service.services.db.prisma.postTarget.findUniqueOrThrow({ where: { id: published.targets[0].id } });
    expect(row.processingHandle).toBeNull();
  });
});

describe('a network’s rate limit', () => {
  it('shows the network’s reason while waiting, and publishes once after the reset it gave', async () => {
    const started = Date.now();
    const id = await publish('Busy network [sandbox:rate-limited]');
    let waiting: any = null;
    for (let i = 0; i < 100 && !waiting; i++) {
      const { body } = await api('GET', `/posts/${id}`);
      if (body.data.targets[0].error) waiting = body.data.targets[0];
      else await sleep(20);
    }
    expect(waiting).toMatchObject({ status: 'publishing', error: { code: 'RATE_LIMITED_BY_PROVIDER' } });
    expect(waiting.error.message).toContain('rate limit');
    // The wait is the network's reset, shown as such.
    expect(Date.parse(waiting.waitingUntil)).toBeGreaterThanOrEqual(started + sandboxDelayMs);
    expect(waiting.waitingReason).toBe(waiting.error.message);

    const published = await waitForPost(api, id, ['published', 'failed']);
    expect(published.targets[0]).toMatchObject({ status: 'published', attempts: 2, error: null, waitingUntil: null, waitingReason: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(sandboxDelayMs);
    expect(await itemsOf(published.targets[0].id)).toBe(1);
  });
});

describe('recording outcomes', () => {
  it('records a fast target while a slow one of the same post is still at the network', async () => {
    const other = await connectSandbox(service.services, acme.workspaceId);
    const id = await publish('Two speeds', [
      { connectionId: account, placement: 'feed' },
      { connectionId: other, placement: 'feed', override: { caption: 'Two speeds [sandbox:slow]' } },
    ]);
    let seen: string[] = [];
    for (let i = 0; i < 200; i++) {
      const { body } = await api('GET', `/posts/${id}`);
      seen = body.data.targets.map((target: { status: string }) => target.status);
      if (seen[0] === 'published' || body.data.status !== 'publishing') break;
      await sleep(20);
    }
    expect(seen).toEqual(['published', 'publishing']);
    expect((await waitForPost(api, id, ['published', 'failed'])).status).toBe('published');
  });
});

describe('targets[].settings', () => {
  it('lists each network’s settings as a JSON Schema with defaults in GET /providers', async () => {
    const { body } = await api('GET', '/providers');
    const mastodon = body.data.find((rules: { provider: string }) => rules.provider === 'mastodon');
    expect(mastodon.settings.properties.visibility).toMatchObject({ enum: ['public', 'unlisted', 'private', 'direct'], default: 'public' });
    const pinterest = body.data.find((rules: { provider: string }) => rules.provider === 'pinterest');
    expect(pinterest.settings.required).toEqual(['boardId']);
  });

  it('fills in defaults, keeps what was given, and refuses what the network’s schema does not allow', async () => {
    const { connectionId } = await connectSocialAccount(service.services.db, service.services.secrets, service.services.adapters, service.services.outbox, {
      workspaceId: acme.workspaceId,
      provider: 'mastodon',
      username: 'settings-test',
      tokens: { accessToken: 'a-mastodon-token', extra: { instanceUrl: 'https://mastodon.example' } },
    });
    const created = await api('POST', '/posts', {
      content: { caption: 'Hello fediverse' },
      targets: [{ connectionId, placement: 'feed', settings: { spoilerText: 'cw' } }],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.targets[0].settings).toEqual({ visibility: 'public', spoilerText: 'cw' });

    const refused = await api('POST', '/posts', {
      content: { caption: 'Hello fediverse' },
      targets: [{ connectionId, placement: 'feed', settings: { visibility: 'secret', colour: 'red' } }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    const fields = refused.body.error.details.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['targets[0].settings.colour', 'targets[0].settings.visibility']);

    const sandbox = await api('POST', '/posts', {
      content: { caption: 'x' },
      targets: [{ connectionId: account, placement: 'feed', settings: { anything: 1 } }],
    });
    expect(sandbox.status).toBe(422);
    expect(sandbox.body.error.details[0].field).toBe('targets[0].settings.anything');
  });
});

describe('an account that can no longer publish when its scheduled time comes', () => {
  it.each([
    ['REVOKED', 'ACCOUNT_DISCONNECTED'],
    ['NEEDS_RECONNECT', 'ACCOUNT_NEEDS_RECONNECT'],
  ])('an account %s fails the target with %s, without calling the network or retrying', async (status, code) => {
    const account = await connectSandbox(service.services, acme.workspaceId);
    const created = await api('POST', '/posts', { content: { caption: 'Later' }, targets: [{ connectionId: account, placement: 'feed' }] });
    const id = created.body.data.id;
    expect((await api('POST', `/posts/${id}/schedule`, { scheduledAt: inSeconds(1.5), timezone: 'UTC' })).status).toBe(200);
    await service.services.db.prisma.socialAccount.update({ where: { id: account }, data: { status, needsReconnect: true } });
    const failed = await waitForPost(api, id, ['failed', 'published']);
    expect(failed.targets[0]).toMatchObject({ status: 'failed', error: { code } });
    expect(await itemsOf(failed.targets[0].id)).toBe(0);
  });
});
