// Review before publishing over HTTP: the workspace's approvalRequired, submit / approve / request changes with
// who may do each, owners' and admins' own posts published directly, the PATCH that voids an approval, team
// comments with the decisions among them, and what each refusal answers (roles, scopes, another workspace).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, inSeconds, type Api } from '../support/posts.ts';
import type { Role } from '../../src/access/scopes.ts';
import { setUserRole } from '../../src/workspaces/workspaces.ts';
import { call, httpClient, refusalOf, succeed } from '../support/mcp.ts';

let service: TestService;
let acme: TestWorkspace;
let owner: Api;
let account: string;
const people = {} as Record<'admin' | 'editor' | 'viewer', { api: Api; apiKey: string; userId: string; email: string }>;

/** A person of the workspace with `role` and an API key of theirs (made while an admin: editors and viewers make none). */
async function memberWithKey(workspaceId: string, role: Role) {
  const person = await addPerson(service.services, workspaceId, 'admin');
  const { apiKey } = await keyFor(service.services, workspaceId, person.userId, role === 'viewer' ? { preset: 'read-only' } : { preset: 'publishing' });
  await setUserRole(service.services.db, { workspaceId, userId: person.userId, role });
  return { api: apiFor(service.url, apiKey), apiKey, ...person };
}
const member = (role: Role) => memberWithKey(acme.workspaceId, role);

beforeAll(async () => {
  ({ service, acme, api: owner } = await serviceWithWorkspace());
  account = await connectSandbox(service.services, acme.workspaceId);
  people.admin = await member('admin');
  people.editor = await member('editor');
  people.viewer = await member('viewer');
  expect((await owner('PATCH', '/workspace', { approvalRequired: true })).status).toBe(200);
});
afterAll(() => service.stop());

async function draftBy(api: Api, caption = 'For review') {
  const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: account, placement: 'feed' }] });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; version: number };
}

const schedule = (api: Api, id: string) => api('POST', `/posts/${id}/schedule`, { scheduledAt: inSeconds(3600), timezone: 'Europe/Berlin' });

function refusedAsReviewRequired(answer: { status: number; body: any }) {
  expect(answer.status).toBe(409);
  expect(answer.body.error.code).toBe('INVALID_STATE_TRANSITION');
  expect(answer.body.error.message).toMatch(/requires review/);
}

describe('GET/PATCH /workspace', () => {
  it('is read by every member and changed only by owners and admins with posts:write', async () => {
    for (const person of Object.values(people)) {
      const read = await person.api('GET', '/workspace');
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({ id: acme.workspaceId, name: expect.any(String), approvalRequired: true });
    }
    const byEditor = await people.editor.api('PATCH', '/workspace', { approvalRequired: false });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('FORBIDDEN');
    const readOnly = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    const byReadOnlyKey = await apiFor(service.url, readOnly.apiKey)('PATCH', '/workspace', { approvalRequired: false });
    expect(byReadOnlyKey.status).toBe(403);
    expect(byReadOnlyKey.body.error.message).toContain('posts:write');
    expect((await people.admin.api('PATCH', '/workspace', { approvalRequired: true })).body.data.approvalRequired).toBe(true);
    const wrong = await owner('PATCH', '/workspace', { approvalRequired: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ field: 'approvalRequired' })]);
    expect((await owner('GET', '/workspace')).body.data.approvalRequired).toBe(true);
  });
});

describe('the review of an editor’s post', () => {
  it('goes draft → in_review → changes_requested → in_review → approved draft, then anyone allowed schedules it', async () => {
    const { editor, admin } = people;
    const post = await draftBy(editor.api);
    refusedAsReviewRequired(await schedule(editor.api, post.id));
    refusedAsReviewRequired(await editor.api('POST', `/posts/${post.id}/publish`));
    const queue = await owner('POST', '/queues', { name: 'Mornings', timezone: 'Europe/Berlin', slots: [{ day: 'monday', time: '09:00' }] });
    refusedAsReviewRequired(await editor.api('POST', `/posts/${post.id}/queue`, { queueId: queue.body.data.id }));

    const submitted = await editor.api('POST', `/posts/${post.id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({
      status: 'in_review',
      review: { state: 'in_review', requestedBy: editor.userId, decidedBy: null, decidedAt: null },
    });
    expect((await editor.api('POST', `/posts/${post.id}/submit`)).body.error.code).toBe('INVALID_STATE_TRANSITION');
    const inReview = await owner('POST', `/posts/${post.id}/publish`);
    expect(inReview.status).toBe(409);
    expect(inReview.body.error.code).toBe('INVALID_STATE_TRANSITION');

    const byEditor = await editor.api('POST', `/posts/${post.id}/approve`, {});
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('FORBIDDEN');
    const noComment = await admin.api('POST', `/posts/${post.id}/request-changes`, {});
    expect(noComment.status).toBe(400);
    expect(noComment.body.error.details).toEqual([expect.objectContaining({ field: 'comment', code: 'required' })]);
    const blank = await admin.api('POST', `/posts/${post.id}/request-changes`, { comment: '   ' });
    expect(blank.status).toBe(400);

    const sentBack = await admin.api('POST', `/posts/${post.id}/request-changes`, { comment: 'Add the launch date' });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body.data).toMatchObject({
      status: 'changes_requested',
      review: { state: 'changes_requested', decidedBy: { userId: admin.userId, name: null }, decidedAt: expect.any(String) },
    });
    expect((await schedule(editor.api, post.id)).status).toBe(409);

    const edited = await editor.api('PATCH', `/posts/${post.id}`, { version: sentBack.body.data.version, content: { caption: 'Launch on Monday' } });
    expect(edited.body.data).toMatchObject({ status: 'changes_requested', review: { state: 'changes_requested' } });
    expect((await editor.api('POST', `/posts/${post.id}/submit`)).body.data.status).toBe('in_review');

    const approved = await owner('POST', `/posts/${post.id}/approve`, { comment: 'Good to go' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      status: 'draft',
      review: { state: 'approved', requestedBy: editor.userId, decidedBy: { userId: acme.ownerId } },
    });
    expect((await owner('POST', `/posts/${post.id}/approve`, {})).body.error.code).toBe('INVALID_STATE_TRANSITION');

    const scheduled = await schedule(editor.api, post.id);
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data.status).toBe('scheduled');

    const comments = await editor.api('GET', `/posts/${post.id}/comments`);
    expect(comments.status).toBe(200);
    expect(comments.body.data.map((c: { kind: string; text: string }) => [c.kind, c.text])).toEqual([
      ['approved', 'Good to go'],
      ['changes_requested', 'Add the launch date'],
    ]);
    expect(comments.body.data[1].author).toEqual({ userId: admin.userId, email: admin.email, name: null });
  });

  it('is refused to a viewer and to a key without posts:write, and is 404 for another workspace’s post', async () => {
    const post = await draftBy(people.editor.api);
    const byViewer = await people.viewer.api('POST', `/posts/${post.id}/submit`);
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.message).toContain('posts:write');
    const readOnly = await keyFor(service.services, acme.workspaceId, people.admin.userId, { preset: 'read-only' });
    const byReadOnly = apiFor(service.url, readOnly.apiKey);
    expect((await byReadOnly('POST', `/posts/${post.id}/approve`, {})).status).toBe(403);
    expect((await byReadOnly('GET', `/posts/${post.id}/comments`)).status).toBe(200);
    expect((await byReadOnly('POST', `/posts/${post.id}/comments`, { text: 'hi' })).status).toBe(403);

    const other = await createWorkspace(service.services);
    const stranger = apiFor(service.url, other.ownerKey);
    for (const [method, path, body] of [
      ['POST', `/posts/${post.id}/submit`, undefined],
      ['POST', `/posts/${post.id}/approve`, {}],
      ['POST', `/posts/${post.id}/request-changes`, { comment: 'no' }],
      ['GET', `/posts/${post.id}/comments`, undefined],
      ['POST', `/posts/${post.id}/comments`, { text: 'hello' }],
    ] as const) {
      const answer = await stranger(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
    expect((await stranger('GET', '/workspace')).body.data.id).toBe(other.workspaceId);
  });
});

describe('owners and admins publishing their own posts', () => {
  it('publishes an owner’s own draft directly and records the action as its approval', async () => {
    const post = await draftBy(owner, 'Owner’s own');
    const published = await owner('POST', `/posts/${post.id}/publish`);
    expect(published.status).toBe(202);
    expect(published.body.data.review).toMatchObject({ state: 'approved', decidedBy: { userId: acme.ownerId }, requestedBy: null });
    const comments = await owner('GET', `/posts/${post.id}/comments`);
    expect(comments.body.data).toEqual([expect.objectContaining({ kind: 'approved', text: '', author: expect.objectContaining({ userId: acme.ownerId }) })]);
  });

  it('lets an admin schedule their own draft, but not an editor’s that is not approved', async () => {
    const own = await draftBy(people.admin.api, 'Admin’s own');
    expect((await schedule(people.admin.api, own.id)).body.data).toMatchObject({ status: 'scheduled', review: { state: 'approved' } });
    const editors = await draftBy(people.editor.api);
    refusedAsReviewRequired(await schedule(people.admin.api, editors.id));
    expect((await owner('GET', `/posts/${editors.id}`)).body.data).toMatchObject({ status: 'draft', review: null });
  });
});

describe('a PATCH of an approved or in-review post', () => {
  async function approvedDraft() {
    const post = await draftBy(people.editor.api);
    await people.editor.api('POST', `/posts/${post.id}/submit`);
    return (await owner('POST', `/posts/${post.id}/approve`, {})).body.data as { id: string; version: number };
  }

  it('voids the approval when the content changes, says so, and the post needs review again', async () => {
    const post = await approvedDraft();
    const relabelled = await people.editor.api('PATCH', `/posts/${post.id}`, { version: post.version, campaign: 'spring' });
    expect(relabelled.body.data).toMatchObject({ status: 'draft', review: { state: 'approved' } });
    const same = await people.editor.api('PATCH', `/posts/${post.id}`, { version: relabelled.body.data.version, content: { caption: 'For review' } });
    expect(same.body.data.review.state).toBe('approved');

    const edited = await people.editor.api('PATCH', `/posts/${post.id}`, { version: same.body.data.version, content: { caption: 'Changed after approval' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ status: 'draft', review: { state: 'voided', decidedBy: null, decidedAt: null } });
    refusedAsReviewRequired(await schedule(people.editor.api, post.id));
  });

  it('takes an in-review post back to draft when its targets change', async () => {
    const post = await draftBy(people.editor.api);
    const submitted = (await people.editor.api('POST', `/posts/${post.id}/submit`)).body.data;
    const second = await connectSandbox(service.services, acme.workspaceId);
    const retargeted = await people.editor.api('PATCH', `/posts/${post.id}`, {
      version: submitted.version,
      targets: [{ connectionId: second, placement: 'feed' }],
    });
    expect(retargeted.body.data).toMatchObject({ status: 'draft', review: { state: 'voided' } });
  });

  it('takes an approved scheduled post out of its schedule: the scheduler never publishes it', async () => {
    const post = await approvedDraft();
    const scheduled = await people.editor.api('POST', `/posts/${post.id}/schedule`, { scheduledAt: inSeconds(2), timezone: 'UTC' });
    expect(scheduled.body.data.status).toBe('scheduled');
    const edited = await people.editor.api('PATCH', `/posts/${post.id}`, { version: scheduled.body.data.version, content: { caption: 'Edited' } });
    expect(edited.body.data).toMatchObject({ status: 'draft', scheduledAt: null, review: { state: 'voided' } });
    // The job of the voided schedule was due at +2 s (pg-boss's start-after is wall-clock time): past it, nothing went out.
    await sleep(4000);
    const after = (await owner('GET', `/posts/${post.id}`)).body.data;
    expect(after).toMatchObject({ status: 'draft', publishedAt: null });
    expect(after.targets[0]).toMatchObject({ status: 'pending', remoteId: null, attempts: 0 });
  });
});

describe('without approvalRequired', () => {
  it('keeps today’s behaviour: editors schedule directly, and submit says review is not required', async () => {
    const solo = await createWorkspace(service.services);
    const soloOwner = apiFor(service.url, solo.ownerKey);
    expect((await soloOwner('GET', '/workspace')).body.data.approvalRequired).toBe(false);
    const editorApi = (await memberWithKey(solo.workspaceId, 'editor')).api;
    const soloAccount = await connectSandbox(service.services, solo.workspaceId);
    const post = (await editorApi('POST', '/posts', { content: { caption: 'Solo' }, targets: [{ connectionId: soloAccount, placement: 'feed' }] })).body.data;
    const submitted = await editorApi('POST', `/posts/${post.id}/submit`);
    expect(submitted.status).toBe(409);
    expect(submitted.body.error.message).toMatch(/does not require review/);
    expect((await schedule(editorApi, post.id)).body.data).toMatchObject({ status: 'scheduled', review: null });
  });
});

describe('comments', () => {
  it('adds a member’s comment with its author, refuses an empty one, and lists them newest first by page', async () => {
    const post = await draftBy(people.editor.api);
    const first = await people.editor.api('POST', `/posts/${post.id}/comments`, { text: '  First thought  ' });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      author: { userId: people.editor.userId, email: people.editor.email, name: null },
      text: 'First thought',
      kind: 'comment',
      createdAt: expect.any(String),
    });
    await people.admin.api('POST', `/posts/${post.id}/comments`, { text: 'Second' });
    const empty = await people.editor.api('POST', `/posts/${post.id}/comments`, { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([expect.objectContaining({ field: 'text', code: 'minLength' })]);
    const page = await people.viewer.api('GET', `/posts/${post.id}/comments?limit=1`);
    expect(page.body.data.map((c: { text: string }) => c.text)).toEqual(['Second']);
    const next = await people.viewer.api('GET', `/posts/${post.id}/comments?limit=1&cursor=${page.body.pagination.nextCursor}`);
    expect(next.body.data.map((c: { text: string }) => c.text)).toEqual(['First thought']);
    expect(next.body.pagination.hasMore).toBe(false);
  });
});

describe('Post.actions in the graph', () => {
  async function actions(apiKey: string, id: string) {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(apiKey) },
      body: JSON.stringify({ query: 'query($id: ID!) { post(id: $id) { actions review { state } } }', variables: { id } }),
    });
    return ((await response.json()) as { data: { post: { actions: string[] } } }).data.post.actions;
  }

  it('shows each caller only what review allows them', async () => {
    const editorKey = people.editor.apiKey;
    const post = await draftBy(people.editor.api);
    expect(await actions(editorKey, post.id)).toEqual(['UPDATE', 'DELETE', 'SUBMIT']);
    expect(await actions(acme.ownerKey, post.id)).toEqual(['UPDATE', 'DELETE', 'SUBMIT']);
    await people.editor.api('POST', `/posts/${post.id}/submit`);
    expect(await actions(editorKey, post.id)).toEqual(['UPDATE', 'DELETE']);
    expect(await actions(acme.ownerKey, post.id)).toEqual(['UPDATE', 'DELETE', 'APPROVE', 'REQUEST_CHANGES']);
    await owner('POST', `/posts/${post.id}/approve`, {});
    expect(await actions(editorKey, post.id)).toEqual(['UPDATE', 'DELETE', 'SCHEDULE', 'QUEUE', 'PUBLISH', 'SUBMIT']);
    const own = await draftBy(owner);
    expect(await actions(acme.ownerKey, own.id)).toEqual(['UPDATE', 'DELETE', 'SCHEDULE', 'QUEUE', 'PUBLISH', 'SUBMIT']);
  });
});

describe('MCP', () => {
  it('shows agents the review state, actions and comments, and refuses what REST refuses', async () => {
    const agent = await httpClient(service.url, people.editor.apiKey);
    const post = await draftBy(people.editor.api);
    await people.admin.api('POST', `/posts/${post.id}/comments`, { text: 'Check the date' });

    const refusal = refusalOf(await call(agent, 'publish_post', { postId: post.id }));
    expect(refusal.code).toBe('INVALID_STATE_TRANSITION');
    expect(refusal.message).toMatch(/requires review/);
    expect(refusalOf(await call(agent, 'schedule_post', { postId: post.id, scheduledAt: inSeconds(3600), timezone: 'UTC' })).code).toBe(
      'INVALID_STATE_TRANSITION',
    );

    await people.editor.api('POST', `/posts/${post.id}/submit`);
    const { post: seen } = await succeed(agent, 'get_post', { postId: post.id });
    expect(seen).toMatchObject({ status: 'in_review', actions: ['update', 'delete'], review: { state: 'in_review', requestedBy: people.editor.userId } });
    expect(seen.comments).toEqual([
      expect.objectContaining({ kind: 'comment', text: 'Check the date', author: expect.objectContaining({ userId: people.admin.userId }) }),
    ]);
    const listed = await succeed(agent, 'list_posts', { status: ['in_review'] });
    expect(listed.posts.map((p: { id: string }) => p.id)).toContain(post.id);
    expect(listed.posts.every((p: { review: { state: string } }) => p.review.state === 'in_review')).toBe(true);

    await owner('POST', `/posts/${post.id}/approve`, { comment: 'ok' });
    const approved = (await succeed(agent, 'get_post', { postId: post.id })).post;
    const { post: edited } = await succeed(agent, 'update_post', { postId: post.id, version: approved.version, caption: 'Edited by the agent' });
    expect(edited).toMatchObject({ status: 'draft', review: { state: 'voided' } });
  });
});
