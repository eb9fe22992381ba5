// Idempotency-Key on every POST under /v1: the first complete answer is kept per workspace and key and replayed to a
// retry of the same request (with Idempotent-Replayed: true); the same key with another request, or while the first
// still runs, is 409 CONFLICT; answers that may differ on a retry (409, 429, 5xx) release the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { errorOf, errorShapeProblems, send, type Answer } from '../support/answers.ts';
import { deleteExpiredKeys } from '../../src/idempotency/store.ts';
import { queueNames } from '../../src/jobs/boss.ts';

let service: TestService;
let acme: TestWorkspace;
let feed: string;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace());
  feed = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(() => service.stop());

let counter = 0;
const newKey = () => `key-${process.pid}-${++counter}-${Date.now()}`;

function post(path: string, body: unknown, headers: Record<string, string>, apiKey = acme.ownerKey): Promise<Answer> {
  return send(`${service.url}/v1${path}`, {
    method: 'POST',
    headers: bearer(apiKey, { 'content-type': 'application/json', ...headers }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const draft = (caption: string, connectionId = feed) => ({ content: { caption }, targets: [{ connectionId, placement: 'feed' }], campaign: caption });

async function postsOfCampaign(workspace: TestWorkspace, campaign: string): Promise<number> {
  return service.services.db.prisma.post.count({ where: { workspaceId: workspace.workspaceId, campaign } });
}

function expectConflict(answer: Answer, message: RegExp): void {
  expect(errorShapeProblems(answer), answer.text).toEqual([]);
  expect(answer.status, answer.text).toBe(409);
  expect(errorOf(answer).code).toBe('CONFLICT');
  expect(errorOf(answer).message).toMatch(message);
}

describe('a retry with the same Idempotency-Key', () => {
  it('gets the first answer again, marked Idempotent-Replayed, and nothing is created twice', async () => {
    const key = newKey();
    const first = await post('/posts', draft('replayed'), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post('/posts', draft('replayed'), { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.text).toBe(first.text);
    expect(retry.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(retry.headers.ratelimit).toBeDefined();
    expect(await postsOfCampaign(acme, 'replayed')).toBe(1);
  });

  it('compares bodies as JSON data: key order and whitespace do not matter', async () => {
    const key = newKey();
    const first = await post('/posts', `{"content":{"caption":"reordered"},"targets":[{"connectionId":"${feed}","placement":"feed"}],"campaign":"reordered"}`, {
      'idempotency-key': key,
    });
    const retry = await post(
      '/posts',
      `{ "campaign": "reordered", "targets": [ { "placement": "feed", "connectionId": "${feed}" } ], "content": { "caption": "reordered" } }`,
      { 'idempotency-key': key },
    );
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    expect(await postsOfCampaign(acme, 'reordered')).toBe(1);
  });

  it('replays a refusal that a retry would repeat (422)', async () => {
    const key = newKey();
    const tooLong = { content: { caption: 'x'.repeat(501) }, targets: [{ connectionId: feed, placement: 'feed' }] };
    const first = await post('/posts', tooLong, { 'idempotency-key': key });
    expect(first.status).toBe(422);
    const retry = await post('/posts', tooLong, { 'idempotency-key': key });
    expect(retry.status).toBe(422);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
  });

  it('runs again after a 409, which is not kept (the state it depends on may change)', async () => {
    const created = JSON.parse((await post('/posts', draft('retry-after-409'), {})).text).data;
    const key = newKey();
    const first = await post(`/posts/${created.id}/retry`, {}, { 'idempotency-key': key });
    expect(first.status).toBe(409);
    const again = await post(`/posts/${created.id}/retry`, {}, { 'idempotency-key': key });
    expect(again.status).toBe(409);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(errorOf(again).code).toBe('INVALID_STATE_TRANSITION');
  });

  it('still needs credentials: without them 401, and another key of the workspace may not use it (409)', async () => {
    const key = newKey();
    expect((await post('/posts', draft('credentials'), { 'idempotency-key': key })).status).toBe(201);
    const anonymous = await send(`${service.url}/v1/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(draft('credentials')),
    });
    expect(anonymous.status).toBe(401);
    const { apiKey: otherKey } = await keyFor(service.services, acme.workspaceId, acme.ownerId);
    expectConflict(await post('/posts', draft('credentials'), { 'idempotency-key': key }, otherKey), /different request/);
    expect(await postsOfCampaign(acme, 'credentials')).toBe(1);
  });
});

describe('the same key with another request', () => {
  it('is 409 CONFLICT for another body, with a message saying why, in the caller’s language', async () => {
    const key = newKey();
    expect((await post('/posts', draft('first body'), { 'idempotency-key': key })).status).toBe(201);
    expectConflict(await post('/posts', draft('second body'), { 'idempotency-key': key }), /already used for a different request/);
    expectConflict(await post('/posts', draft('second body'), { 'idempotency-key': key, 'accept-language': 'de' }), /schon für eine andere Anfrage verwendet/);
    expect(await postsOfCampaign(acme, 'second body')).toBe(0);
  });

  it('is 409 CONFLICT for another path', async () => {
    const key = newKey();
    expect((await post('/posts', draft('another path'), { 'idempotency-key': key })).status).toBe(201);
    expectConflict(
      await post('/queues', { name: 'Weekdays', timezone: 'Europe/Berlin', slots: [{ day: 'monday', time: '09:00' }] }, { 'idempotency-key': key }),
      /different request/,
    );
    expect(await service.services.db.prisma.queue.count({ where: { workspaceId: acme.workspaceId, name: 'Weekdays' } })).toBe(0);
  });
});

describe('concurrent requests with one key', () => {
  it('run once: the others are 409 (still running) or replay the one answer', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/posts', draft('concurrent'), { 'idempotency-key': key })));
    const ran = answers.filter((answer) => answer.status === 201 && answer.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer === ran[0]) continue;
      if (answer.status === 409) expectConflict(answer, /still running/);
      else
        expect({ status: answer.status, replayed: answer.headers['idempotent-replayed'], text: answer.text }).toEqual({
          status: 201,
          replayed: 'true',
          text: ran[0]!.text,
        });
    }
    expect(await postsOfCampaign(acme, 'concurrent')).toBe(1);
  });
});

describe('keys are per workspace', () => {
  it('the same key in two workspaces names two independent requests', async () => {
    const globex = await createWorkspace(service.services);
    const theirFeed = await connectSandbox(service.services, globex.workspaceId);
    const key = newKey();
    const ours = await post('/posts', draft('per workspace'), { 'idempotency-key': key });
    const theirs = await post('/posts', draft('per workspace', theirFeed), { 'idempotency-key': key }, globex.ownerKey);
    expect([ours.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.parse(theirs.text).data.id).not.toBe(JSON.parse(ours.text).data.id);
    expect(await postsOfCampaign(globex, 'per workspace')).toBe(1);
  });
});

describe('the key itself', () => {
  it('must have 1 to 255 characters: otherwise 400 naming the header, and nothing runs', async () => {
    for (const [key, code] of [
      ['', 'minLength'],
      ['k'.repeat(256), 'maxLength'],
    ] as const) {
      const answer = await post('/posts', draft('bad key'), { 'idempotency-key': key });
      expect(answer.status, answer.text).toBe(400);
      expect(errorOf(answer).details).toEqual([{ field: 'Idempotency-Key', code, message: expect.any(String) }]);
    }
    expect((await post('/posts', draft('bad key'), { 'idempotency-key': 'k'.repeat(255) })).status).toBe(201);
    expect(await postsOfCampaign(acme, 'bad key')).toBe(1);
  });

  it('is ignored on other methods', async () => {
    const key = newKey();
    const get = () => send(`${service.url}/v1/posts?campaign=replayed`, { method: 'GET', headers: bearer(acme.ownerKey, { 'idempotency-key': key }) });
    expect((await get()).headers['idempotent-replayed']).toBeUndefined();
    expect((await get()).headers['idempotent-replayed']).toBeUndefined();
  });

  it('is forgotten once expired: the cleanup job deletes it and the key may name a new request', async () => {
    const key = newKey();
    expect((await post('/posts', draft('expired first'), { 'idempotency-key': key })).status).toBe(201);
    await service.services.db.pool.query(`UPDATE idempotent_request SET expires_at = now() - interval '1 second' WHERE workspace_id = $1 AND key = $2`, [
      acme.workspaceId,
      key,
    ]);
    const schedules = await service.services.boss.getSchedules();
    expect(schedules.map((schedule) => schedule.name)).toContain(queueNames.housekeeping);
    expect(await deleteExpiredKeys(service.services.db.pool)).toBeGreaterThanOrEqual(1);
    const { rowCount } = await service.services.db.pool.query('SELECT 1 FROM idempotent_request WHERE workspace_id = $1 AND key = $2', [acme.workspaceId, key]);
    expect(rowCount).toBe(0);
    const reused = await post('/posts', draft('expired second'), { 'idempotency-key': key });
    expect(reused.status).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
  });

  it('of an expired answer not yet cleaned up is taken over by the next request', async () => {
    const key = newKey();
    expect((await post('/posts', draft('lapsed first'), { 'idempotency-key': key })).status).toBe(201);
    await service.services.db.pool.query(`UPDATE idempotent_request SET expires_at = now() - interval '1 second' WHERE workspace_id = $1 AND key = $2`, [
      acme.workspaceId,
      key,
    ]);
    const next = await post('/posts', draft('lapsed second'), { 'idempotency-key': key });
    expect(next.status).toBe(201);
    expect(await postsOfCampaign(acme, 'lapsed second')).toBe(1);
  });
});
