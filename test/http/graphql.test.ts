// The domain graph at /graphql: same callers, scopes and error codes as REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => ({ service, acme } = await serviceWithWorkspace()));
afterAll(() => service.stop());

async function graph(apiKey: string | null, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? bearer(apiKey) : {}), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
}

describe('GraphQL', () => {
  it('tells the viewer their effective scopes: the key’s own, capped by the role', async () => {
    const viewer = await addPerson(service.services, acme.workspaceId, 'admin');
    const key = await keyFor(service.services, acme.workspaceId, viewer.userId, { scopes: ['accounts:read', 'webhooks:write'] });
    const { body } = await graph(key.apiKey, '{ viewer { role scopes plan { name } workspaceId } }');
    expect(body.data.viewer).toEqual({ role: 'ADMIN', scopes: ['ACCOUNTS_READ', 'WEBHOOKS_WRITE'], plan: { name: 'pro' }, workspaceId: acme.workspaceId });
  });

  it('pages social accounts as a connection with the REST cursors', async () => {
    const workspace = await createWorkspace(service.services);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await connectSandbox(service.services, workspace.workspaceId));
    const query =
      'query($after: String) { socialAccounts(first: 2, after: $after) { edges { node { id provider status needsReconnect } } pageInfo { hasNextPage endCursor } } }';
    const first = (await graph(workspace.ownerKey, query)).body.data.socialAccounts;
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await graph(workspace.ownerKey, query, { after: first.pageInfo.endCursor })).body.data.socialAccounts;
    expect(second.pageInfo.hasNextPage).toBe(false);
    const seen = [...first.edges, ...second.edges].map((edge: { node: { id: string } }) => edge.node.id);
    expect(seen.sort()).toEqual(ids.sort());
    expect(first.edges[0].node).toMatchObject({ provider: 'SANDBOX', status: 'ACTIVE', needsReconnect: false });

    const rest = await (
      await fetch(`${service.url}/v1/social-accounts?limit=2&cursor=${first.pageInfo.endCursor}`, { headers: bearer(workspace.ownerKey) })
    ).json();
    expect(rest.data.map((a: { id: string }) => a.id)).toEqual(second.edges.map((e: { node: { id: string } }) => e.node.id));
  });

  it('refuses a missing scope with FORBIDDEN naming scope and operation, in the caller’s language', async () => {
    const key = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: ['posts:read'] });
    const { body } = await graph(key.apiKey, '{ socialAccounts(first: 1) { edges { node { id } } } }', {}, { 'accept-language': 'de' });
    expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(body.errors[0].message).toBe('Der API-Schlüssel benötigt den Scope accounts:read für listSocialAccounts.');
  });

  it('answers NOT_FOUND for another workspace’s account and 401 without a key', async () => {
    const other = await createWorkspace(service.services);
    const theirs = await connectSandbox(service.services, other.workspaceId);
    const { body } = await graph(acme.ownerKey, 'query($id: ID!) { socialAccount(id: $id) { id } }', { id: theirs });
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
    const anonymous = await graph(null, '{ viewer { role } }');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('serves provider rules like GET /v1/providers', async () => {
    const { body } = await graph(acme.ownerKey, '{ providers { provider placements { name caption { maxLength } } } }');
    const sandbox = body.data.providers.find((p: { provider: string }) => p.provider === 'SANDBOX');
    expect(sandbox.placements.map((p: { name: string }) => p.name)).toEqual(['feed', 'reel', 'story']);
    expect(sandbox.placements[0].caption.maxLength).toBe(500);
  });
});

describe('request log', () => {
  it('records every call with its route template, readable by owners and admins only', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    await fetch(`${service.url}/v1/social-accounts/${account}`, { headers: bearer(workspace.ownerKey, { 'x-request-id': 'trace-me-0001' }) });
    await fetch(`${service.url}/v1/social-accounts?limit=500`, { headers: bearer(workspace.ownerKey) });
    await service.services.recorder.flush();

    const { body } = await graph(workspace.ownerKey, '{ requestLog(first: 10) { edges { node { requestId method route status durationMs apiKeyId } } } }');
    const entries = body.data.requestLog.edges.map((edge: { node: unknown }) => edge.node);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ requestId: 'trace-me-0001', method: 'GET', route: '/v1/social-accounts/{id}', status: 200 }),
        expect.objectContaining({ method: 'GET', route: '/v1/social-accounts', status: 400 }),
      ]),
    );
    expect(entries.every((entry: { apiKeyId: string | null; durationMs: number }) => entry.apiKeyId && entry.durationMs >= 0)).toBe(true);

    // Editors hold no keys (only owners and admins create them): an editor reads the graph from the dashboard.
    const editor = await addPerson(service.services, workspace.workspaceId, 'editor', 'editor password 1');
    const login = await fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: editor.email, password: 'editor password 1' }),
    });
    const session = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-workspace-id': workspace.workspaceId };
    const refused = await graph(null, '{ requestLog(first: 1) { edges { node { id } } } }', {}, session);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('posts in the graph', () => {
  it('creates, changes, publishes and lists posts with the REST rules and codes', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    const created = await graph(
      workspace.ownerKey,
      'mutation($targets: [TargetInput!]!) { createPost(content: { caption: "From the graph" }, targets: $targets) { id status version targets { placement status validation { valid } } } }',
      { targets: [{ connectionId: account, placement: 'FEED' }] },
    );
    const post = created.body.data.createPost;
    expect(post).toMatchObject({ status: 'DRAFT', version: 1, targets: [{ placement: 'FEED', status: 'PENDING', validation: { valid: true } }] });

    const invalid = await graph(workspace.ownerKey, 'mutation($targets: [TargetInput!]!) { createPost(content: { caption: "x" }, targets: $targets) { id } }', {
      targets: [{ connectionId: account, placement: 'REEL' }],
    });
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'PROVIDER_VALIDATION_FAILED',
      details: [{ field: 'targets[0].mediaIds', code: 'media.min' }],
    });

    const update =
      'mutation($id: ID!, $version: Int!) { updatePost(id: $id, version: $version, content: { caption: "Changed" }) { version content { caption } } }';
    expect((await graph(workspace.ownerKey, update, { id: post.id, version: 1 })).body.data.updatePost).toEqual({
      version: 2,
      content: { caption: 'Changed' },
    });
    expect((await graph(workspace.ownerKey, update, { id: post.id, version: 1 })).body.errors[0].extensions.code).toBe('CONCURRENT_MODIFICATION');

    const published = await graph(workspace.ownerKey, 'mutation($id: ID!) { publishPost(id: $id) { status } }', { id: post.id });
    expect(published.body.data.publishPost.status).toBe('PUBLISHING');
    const again = await graph(workspace.ownerKey, 'mutation($id: ID!) { publishPost(id: $id) { status } }', { id: post.id });
    expect(again.body.errors[0].extensions.code).toBe('INVALID_STATE_TRANSITION');

    const listed = await graph(workspace.ownerKey, '{ posts(first: 5, status: [PUBLISHING, PUBLISHED]) { edges { node { id } } } }');
    expect(listed.body.data.posts.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([post.id]);
  });

  it('duplicates a post of any state as a new draft with its content, targets and campaign', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    const fields = 'id status campaign content { caption } targets { connectionId placement caption override { caption } settings }';
    const created = await graph(
      workspace.ownerKey,
      `mutation($targets: [TargetInput!]!) { createPost(content: { caption: "Original" }, targets: $targets, campaign: "spring") { ${fields} } }`,
      { targets: [{ connectionId: account, placement: 'FEED', override: { caption: "The sandbox's own" } }] },
    );
    const original = created.body.data.createPost;
    expect(original.targets[0].caption).toBe("The sandbox's own");
    await graph(workspace.ownerKey, 'mutation($id: ID!) { publishPost(id: $id) { status } }', { id: original.id });

    const copy = (await graph(workspace.ownerKey, `mutation($id: ID!) { duplicatePost(id: $id) { ${fields} } }`, { id: original.id })).body.data.duplicatePost;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toEqual({ ...original, id: copy.id, status: 'DRAFT' });

    const reader = await keyFor(service.services, workspace.workspaceId, workspace.ownerId, { scopes: ['posts:read'] });
    const refused = await graph(reader.apiKey, 'mutation($id: ID!) { duplicatePost(id: $id) { id } }', { id: original.id });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('tells which actions the post’s state allows, as the state machine does', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    const created = await graph(
      workspace.ownerKey,
      'mutation($targets: [TargetInput!]!) { createPost(content: { caption: "Acts" }, targets: $targets) { id actions } }',
      {
        targets: [{ connectionId: account, placement: 'FEED' }],
      },
    );
    const draft = created.body.data.createPost;
    expect(draft.actions).toEqual(['UPDATE', 'DELETE', 'SCHEDULE', 'QUEUE', 'PUBLISH']);
    const publishing = await graph(workspace.ownerKey, 'mutation($id: ID!) { publishPost(id: $id) { status actions } }', { id: draft.id });
    expect(publishing.body.data.publishPost).toEqual({ status: 'PUBLISHING', actions: [] });
  });
});

describe('media in the graph', () => {
  it('lists media, sets alt text and refuses deleting a file a draft uses', async () => {
    const workspace = await createWorkspace(service.services);
    const started = await fetch(`${service.url}/v1/media/uploads`, {
      method: 'POST',
      headers: bearer(workspace.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ filename: 'graph.png', contentType: 'image/png', size: 3 }),
    }).then((r) => r.json());
    const listed = await graph(workspace.ownerKey, '{ media(first: 5) { edges { node { id status filename url } } } }');
    expect(listed.body.data.media.edges).toEqual([{ node: { id: started.data.id, status: 'UPLOADING', filename: 'graph.png', url: null } }]);
    const alt = await graph(workspace.ownerKey, 'mutation($id: ID!) { setAltText(id: $id, altText: "A test card") { altText } }', { id: started.data.id });
    expect(alt.body.data.setAltText.altText).toBe('A test card');
    const incomplete = await graph(workspace.ownerKey, 'mutation($id: ID!) { completeUpload(id: $id) { status } }', { id: started.data.id });
    expect(incomplete.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'upload', code: 'incomplete' }] });
  });
});

describe('queues and analytics in the graph', () => {
  it('creates a queue, queues a post into it and reads analytics', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    const queue = await graph(
      workspace.ownerKey,
      'mutation { createQueue(name: "Graph", timezone: "Asia/Tokyo", slots: [{ day: FRIDAY, time: "12:00" }]) { id slots { day time } } }',
    );
    expect(queue.body.data.createQueue.slots).toEqual([{ day: 'FRIDAY', time: '12:00' }]);
    const post = await graph(
      workspace.ownerKey,
      'mutation($targets: [TargetInput!]!) { createPost(content: { caption: "Queued in the graph" }, targets: $targets) { id } }',
      {
        targets: [{ connectionId: account, placement: 'FEED' }],
      },
    );
    const queued = await graph(
      workspace.ownerKey,
      'mutation($id: ID!, $queueId: ID!) { queuePost(id: $id, queueId: $queueId) { status timezone queueId scheduledAt } }',
      {
        id: post.body.data.createPost.id,
        queueId: queue.body.data.createQueue.id,
      },
    );
    expect(queued.body.data.queuePost).toMatchObject({ status: 'SCHEDULED', timezone: 'Asia/Tokyo', queueId: queue.body.data.createQueue.id });
    expect(new Date(queued.body.data.queuePost.scheduledAt).getUTCHours()).toBe(3); // 12:00 in Tokyo
    const badSlot = await graph(workspace.ownerKey, 'mutation { createQueue(name: "Bad", timezone: "UTC", slots: [{ day: MONDAY, time: "noon" }]) { id } }');
    expect(badSlot.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'slots[0].time' }] });
    const badDay = await graph(workspace.ownerKey, 'mutation { createQueue(name: "Bad", timezone: "UTC", slots: [{ day: FUNDAY, time: "09:00" }]) { id } }');
    expect(badDay.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'query', code: 'graphql' }] });
    expect(badDay.body.errors[0].message).toContain('Value "FUNDAY" does not exist in "Weekday" enum');
    const badFilter = await graph(workspace.ownerKey, '{ posts(first: 1, connectionId: "not-a-uuid") { edges { node { id } } } }');
    expect(badFilter.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'connectionId' }] });
    const report = await graph(
      workspace.ownerKey,
      '{ analytics(from: "2026-01-01", to: "2026-01-31", groupBy: PROVIDER) { groupBy totals { impressions } rows { key } } }',
    );
    expect(report.body.data.analytics).toEqual({ groupBy: 'PROVIDER', totals: { impressions: 0 }, rows: [] });
  });
});
