// What the dashboard does in the graph that was REST-only or CLI-only: starting uploads, API keys, people and roles,
// and the viewer. Keys and people are for owners and admins; an API key also needs the access:write scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import type { Role } from '../../src/access/scopes.ts';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => ({ service, acme } = await serviceWithWorkspace()));
afterAll(() => service.stop());

type Caller = Record<string, string>;

const keyed = (apiKey: string): Caller => bearer(apiKey);

/** A signed-in browser of a new person with this role in the workspace. */
async function session(workspaceId: string, role: Role): Promise<Caller & { userId: string }> {
  const person = await addPerson(service.services, workspaceId, role, 'a long password 1');
  const login = await fetch(`${service.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: 'a long password 1' }),
  });
  return { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-workspace-id': workspaceId, userId: person.userId };
}

async function graph(caller: Caller, query: string, variables: Record<string, unknown> = {}) {
  const { userId: _userId, ...headers } = caller;
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, any> | null; errors?: { message: string; extensions: { code: string; details?: unknown[] } }[] };
}

function refused(answer: Awaited<ReturnType<typeof graph>>) {
  expect(answer.errors).toHaveLength(1);
  return { code: answer.errors![0]!.extensions.code, message: answer.errors![0]!.message };
}

describe('startUpload', () => {
  it('answers where to send the file, as POST /v1/media/uploads does', async () => {
    const { data } = await graph(
      keyed(acme.ownerKey),
      'mutation { startUpload(filename: "clip.mp4", contentType: "video/mp4", size: 2048) { id method maxBytes headers resumable { protocol endpoint } } }',
    );
    expect(data!.startUpload).toMatchObject({ method: 'PUT', maxBytes: 2048, headers: { 'content-type': 'video/mp4' }, resumable: { protocol: 'tus' } });
    const { data: read } = await graph(keyed(acme.ownerKey), 'query($id: ID!) { mediaFile(id: $id) { filename status } }', { id: data!.startUpload.id });
    expect(read!.mediaFile).toEqual({ filename: 'clip.mp4', status: 'UPLOADING' });
  });

  it('refuses what REST’s schema refuses, with the same details', async () => {
    const answer = await graph(keyed(acme.ownerKey), 'mutation { startUpload(filename: "", contentType: "image/png", size: 0.5) { id } }');
    expect(answer.errors![0]!.extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [
        { field: 'filename', code: 'minLength' },
        { field: 'size', code: 'minimum' },
      ],
    });
  });

  it('needs media:write: refused for a key without it and for a viewer’s session', async () => {
    const readOnly = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    const start = 'mutation { startUpload(filename: "a.png", contentType: "image/png", size: 10) { id } }';
    expect(refused(await graph(keyed(readOnly.apiKey), start))).toEqual({ code: 'FORBIDDEN', message: 'API key needs the media:write scope for startUpload.' });
    expect(refused(await graph(await session(acme.workspaceId, 'viewer'), start))).toEqual({
      code: 'FORBIDDEN',
      message: 'The viewer role does not allow startUpload.',
    });
  });
});

describe('API keys', () => {
  it('creates a key with a preset, shown once, that works at once; lists keys without it; revokes it', async () => {
    const workspace = await createWorkspace(service.services);
    const owner = keyed(workspace.ownerKey);
    const { data } = await graph(owner, 'mutation { createApiKey(preset: PUBLISHING, name: "CI") { apiKey key { id name prefix scopes revokedAt } } }');
    const created = data!.createApiKey;
    expect(created.key).toMatchObject({
      name: 'CI',
      revokedAt: null,
      scopes: ['POSTS_READ', 'MEDIA_READ', 'ACCOUNTS_READ', 'ANALYTICS_READ', 'POSTS_WRITE', 'MEDIA_WRITE', 'AI_WRITE'],
    });
    expect(created.apiKey.startsWith(created.key.prefix)).toBe(true);
    expect((await fetch(`${service.url}/v1/posts`, { headers: bearer(created.apiKey) })).status).toBe(200);

    const listed = await graph(owner, '{ apiKeys { id name prefix } }');
    expect(listed.data!.apiKeys).toContainEqual({ id: created.key.id, name: 'CI', prefix: created.key.prefix });
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);

    const revoked = await graph(owner, 'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }', { id: created.key.id });
    expect(revoked.data!.revokeApiKey.revokedAt).toEqual(expect.any(String));
    expect((await fetch(`${service.url}/v1/posts`, { headers: bearer(created.apiKey) })).status).toBe(401);
  });

  it('creates a key with scopes, never more than the caller holds', async () => {
    const workspace = await createWorkspace(service.services);
    const limited = await keyFor(service.services, workspace.workspaceId, workspace.ownerId, { scopes: ['access:write', 'posts:read'] });
    const own = await graph(keyed(limited.apiKey), 'mutation { createApiKey(scopes: [POSTS_READ]) { key { scopes } } }');
    expect(own.data!.createApiKey.key.scopes).toEqual(['POSTS_READ']);
    const broader = await graph(keyed(limited.apiKey), 'mutation { createApiKey(scopes: [POSTS_READ, POSTS_WRITE]) { apiKey } }');
    expect(refused(broader)).toEqual({ code: 'FORBIDDEN', message: 'API key needs the posts:write scope for createApiKey.' });
  });

  it('refuses an expiry in the past, naming the earliest allowed time', async () => {
    const workspace = await createWorkspace(service.services);
    const before = Date.now();
    const past = await graph(keyed(workspace.ownerKey), 'mutation { createApiKey(preset: READ_ONLY, expiresAt: "2020-01-01T00:00:00Z") { apiKey } }');
    const detail = past.errors![0]!.extensions.details![0] as { field: string; code: string; message: string };
    expect(detail).toMatchObject({ field: 'expiresAt', code: 'past' });
    const earliest = /^Must be later than (\S+)\.$/.exec(detail.message)?.[1];
    expect(Date.parse(earliest!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('is for owners and admins, and for keys with access:write', async () => {
    const workspace = await createWorkspace(service.services);
    const publishing = await keyFor(service.services, workspace.workspaceId, workspace.ownerId, { preset: 'publishing' });
    const editor = await session(workspace.workspaceId, 'editor');
    const admin = await session(workspace.workspaceId, 'admin');
    const ownersKey = (await graph(keyed(workspace.ownerKey), '{ apiKeys { id } }')).data!.apiKeys[0].id;

    for (const [query, operation] of [
      ['{ apiKeys { id } }', 'listApiKeys'],
      ['mutation { createApiKey(preset: READ_ONLY) { apiKey } }', 'createApiKey'],
      [`mutation { revokeApiKey(id: "${ownersKey}") { id } }`, 'revokeApiKey'],
    ] as const) {
      expect(refused(await graph(keyed(publishing.apiKey), query))).toEqual({
        code: 'FORBIDDEN',
        message: `API key needs the access:write scope for ${operation}.`,
      });
      expect(refused(await graph(editor, query))).toEqual({ code: 'FORBIDDEN', message: `The editor role does not allow ${operation}.` });
    }
    expect((await graph(admin, 'mutation { createApiKey(preset: READ_ONLY) { key { createdById } } }')).data!.createApiKey.key.createdById).toBe(admin.userId);
  });

  it('cannot revoke another workspace’s key', async () => {
    const other = await createWorkspace(service.services);
    const theirs = (await graph(keyed(other.ownerKey), '{ apiKeys { id } }')).data!.apiKeys[0].id;
    expect(refused(await graph(keyed(acme.ownerKey), 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: theirs })).code).toBe('NOT_FOUND');
    expect((await fetch(`${service.url}/v1/posts`, { headers: bearer(other.ownerKey) })).status).toBe(200);
  });
});

describe('people and roles', () => {
  it('adds a person, changes their role and removes them; their keys stop working', async () => {
    const workspace = await createWorkspace(service.services);
    const owner = keyed(workspace.ownerKey);
    const added = await graph(owner, 'mutation { addMember(email: "Ada@Example.test", role: ADMIN, password: "a long password 1") { userId email role } }');
    const member = added.data!.addMember;
    expect(member).toMatchObject({ email: 'ada@example.test', role: 'ADMIN' });
    const signIn = await fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.test', password: 'a long password 1' }),
    });
    expect(signIn.status).toBe(204);

    const theirKey = await keyFor(service.services, workspace.workspaceId, member.userId, { preset: 'publishing' });
    const changed = await graph(owner, 'mutation($id: ID!) { setMemberRole(userId: $id, role: VIEWER) { role } }', { id: member.userId });
    expect(changed.data!.setMemberRole.role).toBe('VIEWER');
    expect((await graph(owner, '{ members { email role } }')).data!.members).toContainEqual({ email: 'ada@example.test', role: 'VIEWER' });

    expect((await graph(owner, 'mutation($id: ID!) { removeMember(userId: $id) { email } }', { id: member.userId })).data!.removeMember.email).toBe(
      'ada@example.test',
    );
    expect((await fetch(`${service.url}/v1/posts`, { headers: bearer(theirKey.apiKey) })).status).toBe(401);
  });

  it('refuses a second membership, someone else’s password, and removing the last owner', async () => {
    const workspace = await createWorkspace(service.services);
    const owner = keyed(workspace.ownerKey);
    const editor = await addPerson(service.services, workspace.workspaceId, 'editor');
    expect(refused(await graph(owner, 'mutation($email: String!) { addMember(email: $email, role: VIEWER) { userId } }', { email: editor.email })).code).toBe(
      'CONFLICT',
    );

    const elsewhere = await addPerson(service.services, acme.workspaceId, 'editor');
    const withPassword = await graph(owner, 'mutation($email: String!) { addMember(email: $email, role: VIEWER, password: "taken over 12345") { userId } }', {
      email: elsewhere.email,
    });
    expect(withPassword.errors![0]!.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'password', code: 'existingUser' }] });
    const joined = await graph(owner, 'mutation($email: String!) { addMember(email: $email, role: VIEWER) { userId } }', { email: elsewhere.email });
    expect(joined.data!.addMember.userId).toBe(elsewhere.userId);

    expect(refused(await graph(owner, 'mutation($id: ID!) { removeMember(userId: $id) { userId } }', { id: workspace.ownerId })).code).toBe('CONFLICT');
  });

  it('is for owners and admins (keys with access:write); only owners touch the owner role', async () => {
    const workspace = await createWorkspace(service.services);
    const admin = await session(workspace.workspaceId, 'admin');
    const editor = await session(workspace.workspaceId, 'editor');
    const publishing = await keyFor(service.services, workspace.workspaceId, workspace.ownerId, { preset: 'publishing' });
    const person = await addPerson(service.services, workspace.workspaceId, 'viewer');

    for (const [query, operation] of [
      ['{ members { email } }', 'listMembers'],
      ['mutation { addMember(email: "new@example.test", role: VIEWER) { userId } }', 'addMember'],
      [`mutation { setMemberRole(userId: "${person.userId}", role: EDITOR) { role } }`, 'setMemberRole'],
      [`mutation { removeMember(userId: "${person.userId}") { role } }`, 'removeMember'],
    ] as const) {
      expect(refused(await graph(keyed(publishing.apiKey), query))).toEqual({
        code: 'FORBIDDEN',
        message: `API key needs the access:write scope for ${operation}.`,
      });
      expect(refused(await graph(editor, query))).toEqual({ code: 'FORBIDDEN', message: `The editor role does not allow ${operation}.` });
    }

    expect((await graph(admin, `mutation { setMemberRole(userId: "${person.userId}", role: EDITOR) { role } }`)).data!.setMemberRole.role).toBe('EDITOR');
    const promote = await graph(admin, `mutation { setMemberRole(userId: "${person.userId}", role: OWNER) { role } }`);
    expect(refused(promote)).toEqual({ code: 'FORBIDDEN', message: 'The admin role does not allow setMemberRole.' });
    const demoteOwner = await graph(admin, `mutation { setMemberRole(userId: "${workspace.ownerId}", role: VIEWER) { role } }`);
    expect(refused(demoteOwner).code).toBe('FORBIDDEN');
    expect(refused(await graph(admin, 'mutation { addMember(email: "boss@example.test", role: OWNER) { role } }')).code).toBe('FORBIDDEN');
  });
});

describe('viewer', () => {
  it('gives the person, their workspaces and roles, the plan and its limits, and the AI credits', async () => {
    const workspace = await createWorkspace(service.services);
    const { data } = await graph(
      keyed(workspace.ownerKey),
      '{ viewer { role person { email workspaces { id role } } plan { name apiAccess ai maxSocialAccounts monthlyAiCredits } aiCredits { monthly remaining resetsAt } } }',
    );
    expect(data!.viewer).toMatchObject({
      role: 'OWNER',
      person: { email: expect.stringMatching(/@example\.test$/), workspaces: [{ id: workspace.workspaceId, role: 'OWNER' }] },
      plan: { name: 'pro', apiAccess: true, ai: true, maxSocialAccounts: 25, monthlyAiCredits: 500 },
      aiCredits: { monthly: 500, remaining: 500, resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
  });
});
