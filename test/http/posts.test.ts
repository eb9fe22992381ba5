// Posts: create once, read, list, change under optimistic concurrency, delete; and the contract's state machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { revokeSocialAccount } from '../../src/accounts/socialAccounts.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let feed: string;
let second: string;

beforeAll(async () => {
  ({ service, acme, api } = await serviceWithWorkspace());
  feed = await connectSandbox(service.services, acme.workspaceId);
  second = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

const draft = (overrides: Record<string, unknown> = {}) => ({
  content: { caption: 'Hello from the test suite', mediaIds: [] },
  targets: [{ connectionId: feed, placement: 'feed' }],
  ...overrides,
});

describe('POST /posts', () => {
  it('creates a draft for several accounts, with per-target overrides', async () => {
    const { status, body } = await api('POST', '/posts', {
      content: { caption: 'Launch day' },
      targets: [
        { connectionId: feed, placement: 'feed' },
        { connectionId: second, placement: 'feed', override: { caption: 'Launch day, second account' } },
      ],
      campaign: 'launch',
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      status: 'draft',
      version: 1,
      content: { caption: 'Launch day', mediaIds: [] },
      campaign: 'launch',
      scheduledAt: null,
      media: [],
    });
    expect(body.data.targets).toEqual([
      expect.objectContaining({
        connectionId: feed,
        placement: 'feed',
        override: null,
        status: 'pending',
        provider: 'sandbox',
        validation: { valid: true, problems: [] },
      }),
      expect.objectContaining({ connectionId: second, override: { caption: 'Launch day, second account' } }),
    ]);
    expect(body.data.accounts.map((a: { id: string }) => a.id).sort()).toEqual([feed, second].sort());
  });

  it('refuses content that breaks a network rule with 422 naming the target and the rule', async () => {
    const { status, body } = await api('POST', '/posts', {
      content: { caption: 'x'.repeat(501) },
      targets: [
        { connectionId: feed, placement: 'feed', override: { caption: 'short is fine' } },
        { connectionId: second, placement: 'feed' },
        { connectionId: feed, placement: 'reel' },
        { connectionId: second, placement: 'pin' },
      ],
    });
    expect(status).toBe(422);
    expect(body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    expect(body.error.details).toEqual([
      { field: 'targets[1].caption', code: 'caption.maxLength', message: 'The caption is 501 characters long; the limit is 500.' },
      { field: 'targets[2].caption', code: 'caption.maxLength', message: expect.any(String) },
      { field: 'targets[2].mediaIds', code: 'media.min', message: 'A reel needs at least 1 media file; the post has 0.' },
      { field: 'targets[3].placement', code: 'placement', message: 'sandbox has no such placement; it has: feed, reel, story.' },
    ]);
  });

  it('refuses accounts of another workspace, revoked accounts, duplicate targets and unknown media', async () => {
    const other = await createWorkspace(service.services);
    const theirs = await connectSandbox(service.services, other.workspaceId);
    const foreign = await api(
      'POST',
      '/posts',
      draft({
        targets: [
          { connectionId: theirs, placement: 'feed' },
          { connectionId: feed, placement: 'feed' },
          { connectionId: feed, placement: 'feed' },
        ],
      }),
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('VALIDATION_FAILED');
    expect(foreign.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).toEqual([
      ['targets[0].connectionId', 'unknownAccount'],
      ['targets[2]', 'duplicateTarget'],
    ]);
    const media = await api('POST', '/posts', draft({ content: { caption: 'x', mediaIds: [crypto.randomUUID()] } }));
    expect(media.body.error.details[0]).toMatchObject({ field: 'content.mediaIds[0]', code: 'unknownMedia' });

    const revoked = await connectSandbox(service.services, acme.workspaceId);
    await revokeSocialAccount(service.services.db, service.services.outbox, revoked);
    const inactive = await api('POST', '/posts', draft({ targets: [{ connectionId: revoked, placement: 'feed' }] }));
    expect(inactive.status).toBe(422);
    expect(inactive.body.error.details[0]).toMatchObject({ field: 'targets[0].connectionId', code: 'account.active' });
    expect(
      (await api('GET', '/posts?limit=100')).body.data.some((p: { targets: { connectionId: string }[] }) => p.targets.some((t) => t.connectionId === theirs)),
    ).toBe(false);
  });

  it('answers a body that does not match the schema with 400 and details', async () => {
    const { status, body } = await api('POST', '/posts', { content: { caption: 7 }, targets: [{ connectionId: 'nope', placement: 'feed', extra: 1 }] });
    expect(status).toBe(400);
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['content.caption', 'targets[0].connectionId', 'targets[0].extra']);
    expect((await api('POST', '/posts', { targets: [] })).body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['content', 'targets']);
  });

  it('needs posts:write, and another workspace’s post is 404', async () => {
    const reader = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    const refused = await apiFor(service.url, reader.apiKey)('POST', '/posts', draft());
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('API key needs the posts:write scope for createPost.');
    const other = await createWorkspace(service.services);
    const otherAccount = await connectSandbox(service.services, other.workspaceId);
    const theirs = await apiFor(service.url, other.ownerKey)('POST', '/posts', draft({ targets: [{ connectionId: otherAccount, placement: 'feed' }] }));
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/publish'],
    ] as const) {
      const response = await api(method, `/posts/${theirs.body.data.id}${path}`, method === 'PATCH' ? { version: 1 } : undefined);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });
});

describe('GET /posts', () => {
  it('filters by status, account, network, campaign and time, and pages with a cursor', async () => {
    const workspace = await createWorkspace(service.services);
    const own = apiFor(service.url, workspace.ownerKey);
    const a = await connectSandbox(service.services, workspace.workspaceId);
    const b = await connectSandbox(service.services, workspace.workspaceId);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await own('POST', '/posts', {
        content: { caption: `post ${i}` },
        targets: [{ connectionId: i % 2 ? a : b, placement: 'feed' }],
        campaign: i < 2 ? 'spring' : null,
      });
      ids.push(created.body.data.id);
    }
    const first = await own('GET', '/posts?limit=2');
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.pagination.hasMore).toBe(true);
    const rest = await own('GET', `/posts?limit=10&cursor=${first.body.pagination.nextCursor}`);
    expect(rest.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.body.pagination).toEqual({ nextCursor: null, hasMore: false });

    expect((await own('GET', `/posts?connectionId=${a}`)).body.data.map((p: { id: string }) => p.id)).toEqual([ids[3], ids[1]]);
    expect((await own('GET', '/posts?campaign=spring')).body.data).toHaveLength(2);
    expect((await own('GET', '/posts?provider=sandbox&status=draft,scheduled')).body.data).toHaveLength(5);
    expect((await own('GET', '/posts?status=published')).body.data).toHaveLength(0);
    expect((await own('GET', `/posts?from=${new Date(Date.now() + 60_000).toISOString()}`)).body.data).toHaveLength(0);
    const bad = await own('GET', '/posts?status=sent');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ field: 'status', code: 'enum' });
  });
});

describe('PATCH /posts/{id}', () => {
  it('changes a post at the version read, and refuses a stale version', async () => {
    const created = (await api('POST', '/posts', draft())).body.data;
    const changed = await api('PATCH', `/posts/${created.id}`, { version: 1, content: { caption: 'Edited' }, campaign: 'edits' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ version: 2, content: { caption: 'Edited' }, campaign: 'edits' });
    const stale = await api('PATCH', `/posts/${created.id}`, { version: 1, content: { caption: 'Lost update' } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('CONCURRENT_MODIFICATION');
    expect((await api('GET', `/posts/${created.id}`)).body.data.content.caption).toBe('Edited');
    const tooLong = await api('PATCH', `/posts/${created.id}`, { version: 2, content: { caption: 'y'.repeat(600) } });
    expect(tooLong.body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    expect((await api('GET', `/posts/${created.id}`)).body.data.version).toBe(2);
  });

  it('lets exactly one of two truly concurrent changes of the same version win', async () => {
    for (let round = 0; round < 5; round++) {
      const created = (await api('POST', '/posts', draft())).body.data;
      const results = await Promise.all(['left', 'right'].map((side) => api('PATCH', `/posts/${created.id}`, { version: 1, content: { caption: side } })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!.body.data.content.caption;
      expect((await api('GET', `/posts/${created.id}`)).body.data).toMatchObject({ version: 2, content: { caption: winner } });
    }
  });

  it('replaces the targets when given', async () => {
    const created = (await api('POST', '/posts', draft())).body.data;
    const changed = await api('PATCH', `/posts/${created.id}`, { version: 1, targets: [{ connectionId: second, placement: 'feed' }] });
    expect(changed.body.data.targets.map((t: { connectionId: string }) => t.connectionId)).toEqual([second]);
  });
});
