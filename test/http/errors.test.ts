// The Errors section of the spec: one shape everywhere, details on 400s, localized messages, request ids.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => ({ service, acme } = await serviceWithWorkspace()));
afterAll(() => service.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { headers: bearer(acme.ownerKey, headers) });

describe('400 INVALID_REQUEST', () => {
  it('lists each wrong query parameter in details', async () => {
    for (const [query, field, code] of [
      ['limit=0', 'limit', 'minimum'],
      ['limit=101', 'limit', 'maximum'],
      ['limit=ten', 'limit', 'type'],
      ['cursor=garbage', 'cursor', 'invalid'],
      [`cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', "x' OR 1=1"])).toString('base64url')}`, 'cursor', 'invalid'],
    ] as const) {
      const response = await get(`/v1/social-accounts?${query}`);
      const body = await response.json();
      expect(response.status).toBe(400);
      expect(body.error.code).toBe('INVALID_REQUEST');
      expect(body.error.details).toEqual([{ field, code, message: expect.any(String) }]);
    }
  });

  it('answers malformed JSON with INVALID_JSON', async () => {
    const malformed = await fetch(`${service.url}/v1/providers`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: '{"caption": ',
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('INVALID_JSON');
  });
});

describe('requests Node’s HTTP parser refuses', () => {
  async function raw(request: string): Promise<string> {
    const { port } = new URL(service.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.end(request);
    let answer = '';
    for await (const chunk of socket) answer += chunk;
    return answer;
  }
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('answers headers over 16 KiB with 431 in the error shape', async () => {
    const answer = await raw(`GET /v1/posts HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer.startsWith('HTTP/1.1 431')).toBe(true);
    expect(bodyOf(answer).error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('16 KiB'), requestId: expect.any(String) });
  });

  it('answers bytes that are not HTTP with 400 in the error shape', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 400')).toBe(true);
    expect(bodyOf(answer).error.code).toBe('INVALID_REQUEST');
  });
});

describe('routes', () => {
  it('answers an unknown path with 404 NOT_FOUND and a wrong method with 405 and Allow', async () => {
    const unknown = await get('/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ code: 'NOT_FOUND', message: 'There is no endpoint GET /v1/nothing-here.' });
    const outside = await fetch(`${service.url}/nowhere`);
    expect(outside.status).toBe(404);
    expect((await outside.json()).error.code).toBe('NOT_FOUND');

    const wrongMethod = await fetch(`${service.url}/v1/social-accounts`, { method: 'DELETE', headers: bearer(acme.ownerKey) });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
    expect((await wrongMethod.json()).error.code).toBe('INVALID_REQUEST');
  });
});

describe('languages', () => {
  it('follows Accept-Language with q-values, falls back to English, and never changes the code', async () => {
    const cases: [string, string][] = [
      ['de', 'Darf höchstens 100 sein.'],
      ['fr-FR', 'Doit être au plus 100.'],
      ['fr;q=0.5, es;q=0.9', 'Debe ser como máximo 100.'],
      ['ja, de;q=0.1', 'Darf höchstens 100 sein.'],
      ['ja', 'Must be at most 100.'],
      ['', 'Must be at most 100.'],
    ];
    for (const [acceptLanguage, detail] of cases) {
      const response = await get('/v1/social-accounts?limit=500', acceptLanguage ? { 'accept-language': acceptLanguage } : {});
      const body = await response.json();
      expect(body.error.code).toBe('INVALID_REQUEST');
      expect(body.error.details[0].message).toBe(detail);
    }
    const unauthenticated = await fetch(`${service.url}/v1/social-accounts`, { headers: { 'accept-language': 'es' } });
    expect((await unauthenticated.json()).error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'La clave de API falta, es incorrecta, está revocada o ha caducado.',
    });
  });
});

describe('request ids', () => {
  it('puts x-request-id on every response, echoing a well-formed incoming one', async () => {
    for (const response of [
      await get('/v1/providers'),
      await get('/v1/nothing'),
      await fetch(`${service.url}/healthz`),
      await fetch(`${service.url}/v1/openapi.json`),
    ]) {
      expect(response.headers.get('x-request-id')).toMatch(/^[\w.:-]{8,}$/);
    }
    const echoed = await get('/v1/providers', { 'x-request-id': 'client-chosen-id-42' });
    expect(echoed.headers.get('x-request-id')).toBe('client-chosen-id-42');
    const refused = await get('/v1/providers', { 'x-request-id': 'bad id with spaces' });
    expect(refused.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});

describe('500 INTERNAL', () => {
  it('answers a failure with a generic message, leaking no SQL or stack', async () => {
    const broken = await startTestService();
    const workspace = await createWorkspace(broken.services);
    await broken.services.db.pool.query('ALTER TABLE social_account RENAME TO social_account_gone');
    try {
      const response = await fetch(`${broken.url}/v1/social-accounts`, { headers: bearer(workspace.ownerKey) });
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text).error).toMatchObject({ code: 'INTERNAL', message: 'The request failed on our side. Retry shortly.' });
      expect(text).not.toMatch(/social_account|at |\.ts|prisma/i);
    } finally {
      await broken.services.db.pool.query('ALTER TABLE social_account_gone RENAME TO social_account');
      await broken.stop();
    }
  });
});

describe('text the database cannot store', () => {
  it('answers a NUL character in a body with 400, not 500', async () => {
    const response = await fetch(`${service.url}/v1/posts`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: '{"content":{"caption":"a\\u0000b"},"targets":[]}',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0]).toMatchObject({ field: 'body', code: 'nulCharacter' });
  });
});
