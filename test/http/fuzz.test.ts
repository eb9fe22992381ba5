// Malformed input never breaks the HTTP API. For every operation of rest/openapi.yaml, and for every path, query and
// header parameter and every body field of it, fast-check sends malformed values (wrong types, huge strings, NUL,
// bad percent-encoding, dates PostgreSQL cannot hold, broken UUIDs and forged cursors, nested junk) with a key holding
// every scope, the rest of the request valid; the routes outside /v1 that need no key get the same. Never a 5xx,
// never a dropped connection; every error in the documented shape with its requestId, never a stack or SQL text.
// Bounded: the known-bad values, then a few random ones, per parameter and field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import { documentedOperations, fieldPaths, urlOf, validValue, withValueAt, type DocumentedOperation, type Parameter } from '../support/openapiOperations.ts';
import { bodyHints, createResources, resourceFor, type Resources } from '../support/resources.ts';
import { errorOf, errorShapeProblems, send, type Answer } from '../support/answers.ts';
import { apiFor, waitForPost } from '../support/posts.ts';

const operations = await documentedOperations();

/**
 * Bounded in runs and in time: the known-bad values first, then 6 random ones per parameter and field; once
 * `fuzzingMs` have passed, one random one, so that a slow machine fuzzes less rather than longer.
 */
const fuzzingMs = 30_000;
let deadline = 0;

function runs<T>(examples: readonly T[] = []) {
  // fast-check counts the examples among the runs.
  return { numRuns: examples.length + (Date.now() < deadline ? 6 : 1), examples: examples.map((value) => [value] as [T]) };
}

let service: TestService;
let acme: TestWorkspace;
let account: string;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', AI_PROVIDER: 'sandbox' }));
  account = await connectSandbox(service.services, acme.workspaceId);
  deadline = Date.now() + fuzzingMs;
});
afterAll(() => service.stop());

// ---- Malformed values --------------------------------------------------------------------------------------------

const someId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Times JSON Schema's date-time may let through but PostgreSQL (or RFC 3339) cannot hold. */
const impossibleTimes = [
  '0000-01-01T00:00:00.000Z',
  '0000-12-31T23:59:59Z',
  '2026-06-30T23:59:60Z',
  '10000-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '2026-02-30T00:00:00Z',
  '0000-01-01',
];
const hostileTexts = [
  ...impossibleTimes,
  'a\u0000b',
  '\u0000',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  "' OR 1=1 --",
  '../../etc/passwd',
  '3fa85f64-5717-4562-b3fc-2c963f66afa',
  'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  '00000000-0000-0000-0000-000000000000',
  '\u202e\u0301',
  '😀'.repeat(64),
  ' ',
  'x'.repeat(3000),
  ...impossibleTimes.map((time) => cursorOf([time, someId])),
  cursorOf(['2026-01-01T00:00:00.000Z', "x' OR 1=1"]),
  cursorOf([1, 2]),
  cursorOf({ at: '2026-01-01' }),
  cursorOf(['2026-01-01T00:00:00.000Z', someId, 'extra']),
  'not base64 !',
];
const badPercentEncodings = ['%', '%zz', '%FF%FE', '%E2%82', '%C0%AF', '%00', 'a%00b', '%%', '%2'];

/** Text for a path segment or query value, already percent-encoded (or deliberately not). */
const urlJunk = fc.oneof(
  fc.constantFrom(...badPercentEncodings, ...hostileTexts.map(encodeURIComponent)),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^([a-z0-9-]|%[0-9A-Fa-f]{0,2})+$/),
);
/** An empty or dot segment (`.`, `%2E%2E`) is not an id: URL parsers resolve it into another route. */
const isOwnSegment = (text: string) => !/^(\.|%2e){0,2}$/i.test(text);
/** Header values a client can send (printable ASCII). */
const headerJunk = fc.oneof(
  fc.constantFrom(...hostileTexts.filter((text) => /^[\x20-\x7e]+$/.test(text) && text.length < 4000)),
  fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((text) => text.replace(/[^\x20-\x7e]/g, '')),
);
const jsonJunk = fc.oneof(
  fc.constantFrom<unknown>(null, true, 0, -1, 1.5, 1e308, -1e308, 2 ** 64, '', ...hostileTexts, 'x'.repeat(100_000), [], {}, [[[[[[[[]]]]]]]], { $ne: null }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double(),
);
/** Whole bodies: broken JSON, JSON that is not an object, and bodies that are not JSON at all. */
const rawBodies: [contentType: string | undefined, body: string | Buffer][] = [
  ['application/json', '{'],
  ['application/json', '{"a":'],
  ['application/json', 'null'],
  ['application/json', '[]'],
  ['application/json', '"text"'],
  ['application/json', '1'],
  ['application/json', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
  ['application/json', '['.repeat(50_000)],
  ['application/json', '{"a":"\\u0000"}'],
  ['application/json', Buffer.from([0xff, 0xfe, 0x7b, 0x7d])],
  ['application/json', `{"a":"${'x'.repeat(2_000_000)}"}`],
  ['application/json; charset=utf-16', '{}'],
  ['text/plain', '{}'],
  [undefined, '{}'],
  ['application/x-www-form-urlencoded', 'a=b'],
  ['multipart/form-data; boundary=x', '--x--'],
];
const rawBodyJunk = fc.oneof(
  fc.constantFrom(...rawBodies),
  fc.tuple(fc.constantFrom<string | undefined>('application/json', 'text/plain', undefined), fc.string({ unit: 'binary', minLength: 1, maxLength: 100 })),
);

// ---- Requests and what every answer must be -----------------------------------------------------------------------

interface Call {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: { contentType: string | undefined; text: string | Buffer } | undefined;
}

function validCall(operation: DocumentedOperation, path: Record<string, string>, objects: Resources | undefined): Call {
  const query = operation.parameters.filter((parameter) => parameter.in === 'query' && parameter.required);
  return {
    path,
    query: Object.fromEntries(query.map((parameter) => [parameter.name, encodeURIComponent(String(validValue(parameter.schema ?? {}, {}, parameter.name)))])),
    headers: operation.schemes.includes('apiKey') ? bearer(acme.ownerKey) : {},
    body: operation.bodySchema && {
      contentType: 'application/json',
      text: JSON.stringify(validValue(operation.bodySchema, objects ? bodyHints(objects) : {})),
    },
  };
}

function describeCall(operation: DocumentedOperation, url: string, call: Call): string {
  const body = call.body ? ` ${call.body.contentType ?? '(no content type)'} ${String(call.body.text).slice(0, 300)}` : '';
  return `${operation.method} ${url.slice(0, 300)} ${JSON.stringify(call.headers).slice(0, 300)}${body}`;
}

/** The key of `statuses` that documents `status` (`404`, `4XX` or `default`), or the status itself when none does. */
function documentedAs(statuses: string[], status: number): string {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((key) => statuses.includes(key)) ?? String(status);
}

async function expectHandled(operation: DocumentedOperation, call: Call): Promise<void> {
  const url = urlOf(service.url, operation, call.path, call.query);
  const what = describeCall(operation, url, call);
  const headers = call.body?.contentType ? { ...call.headers, 'content-type': call.body.contentType } : call.headers;
  let answer: Answer;
  try {
    answer = await send(url, { method: operation.method, headers, body: call.body?.text });
  } catch (error) {
    throw new Error(`${what}: no answer (${(error as Error).message})`);
  }
  const outcome = `${what} → ${answer.status} ${answer.text.slice(0, 500)}`;
  expect(answer.status, outcome).toBeLessThan(500);
  if (operation.statuses.length)
    expect(operation.statuses, `${outcome}: the status is not documented`).toContain(documentedAs(operation.statuses, answer.status));
  if (answer.status >= 400 && operation.method !== 'HEAD') expect(errorShapeProblems(answer), outcome).toEqual([]);
}

/** Values every run tries first: bad percent-encoding in a path, NUL in a query, impossible times in a time or cursor. */
function knownBadFor(parameter: Parameter): string[] {
  if (parameter.in === 'path') return badPercentEncodings;
  if (parameter.in !== 'query') return [];
  const times = ['date', 'date-time'].includes(parameter.schema?.format ?? '') ? impossibleTimes.map(encodeURIComponent) : [];
  const cursors = parameter.name === 'cursor' ? impossibleTimes.map((time) => cursorOf([time, someId])) : [];
  return ['a%00b', ...times, ...cursors];
}
/** Where a parameter's value goes in a call. */
const slotOf = { path: 'path', query: 'query', header: 'headers' } as const;

/**
 * Fuzzes every parameter and body field of `operation`, one at a time, the rest of the call valid: `path` holds the
 * valid path parameters (ids of `objects`, whose ids also fill the body).
 */
async function fuzz(operation: DocumentedOperation, path: Record<string, string>, objects: Resources | undefined): Promise<void> {
  const valid = validCall(operation, path, objects);
  for (const parameter of operation.parameters) {
    const slot = slotOf[parameter.in as keyof typeof slotOf];
    const junk = slot === 'headers' ? headerJunk : slot === 'path' ? urlJunk.filter(isOwnSegment) : urlJunk;
    await fc.assert(
      fc.asyncProperty(junk, (value) => expectHandled(operation, { ...valid, [slot]: { ...valid[slot], [parameter.name]: value } })),
      runs(knownBadFor(parameter)),
    );
  }
  if (!operation.bodySchema) return;
  const validBody = JSON.parse(String(valid.body!.text)) as unknown;
  for (const field of fieldPaths(operation.bodySchema)) {
    await fc.assert(
      fc.asyncProperty(jsonJunk, (value) =>
        expectHandled(operation, { ...valid, body: { contentType: 'application/json', text: JSON.stringify(withValueAt(validBody, field, value)) } }),
      ),
      runs(),
    );
  }
  await fc.assert(
    fc.asyncProperty(rawBodyJunk, ([contentType, text]) => expectHandled(operation, { ...valid, body: { contentType, text } })),
    runs(rawBodies),
  );
}

const pathParameters = (operation: DocumentedOperation) => operation.parameters.filter((parameter) => parameter.in === 'path');

describe('every documented operation', () => {
  it.each(operations)('$method $path takes malformed parameters and fields without failing', async (operation) => {
    // Fresh objects for each operation that names some: one that deletes or publishes leaves the next its own.
    const objects =
      pathParameters(operation).length || operation.bodySchema
        ? await createResources(service, acme, operation.path.startsWith('/social-accounts/') ? undefined : account)
        : undefined;
    const path = Object.fromEntries(
      pathParameters(operation).map(({ name, schema }) => [name, resourceFor(objects!, operation.path, name) ?? String(validValue(schema ?? {}))]),
    );
    await fuzz(operation, path, objects);
  });
});

/** The routes outside /v1 that need no key: a sandbox item's page, signed file downloads, upload URLs and tus. */
const outsideRoutes: DocumentedOperation[] = [
  ['GET', '/sandbox/items/{id}', []],
  ['GET', '/media-files/{id}/{variant}', ['expires', 'signature']],
  ['PUT', '/uploads/{id}', ['expires', 'signature']],
  ['POST', '/uploads/tus', []],
  ['HEAD', '/uploads/tus/{id}', []],
  ['PATCH', '/uploads/tus/{id}', []],
  ['DELETE', '/uploads/tus/{id}', []],
].map(([method, path, query]) => ({
  operationId: `${method} ${path}`,
  method: method as string,
  path: path as string,
  serverUrl: '',
  parameters: [
    ...[...(path as string).matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name: name!, in: 'path', required: true })),
    ...(query as string[]).map((name) => ({ name, in: 'query' })),
    ...['tus-resumable', 'upload-length', 'upload-offset', 'upload-metadata', 'x-upload-token'].map((name) => ({ name, in: 'header' })),
  ],
  bodySchema: undefined,
  schemes: [],
  statuses: [],
}));

describe('routes outside /v1', () => {
  it.each(outsideRoutes)('$method $path takes malformed ids, signatures and headers without failing', async (route) => {
    const { media } = await createResources(service, acme, account);
    const path = Object.fromEntries(pathParameters(route).map(({ name }) => [name, name === 'variant' ? 'original' : media]));
    await fuzz(route, path, undefined);
  });
});

describe('the defects the adversarial probe found (issue 9)', () => {
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    send(`${service.url}${path}`, { method, headers: bearer(acme.ownerKey, headers), body });
  const expectInvalid = (answer: Answer, details: { field: string; code: string }[]) => {
    expect(answer.status, answer.text).toBe(400);
    expect(errorShapeProblems(answer)).toEqual([]);
    expect(errorOf(answer)).toMatchObject({ code: 'INVALID_REQUEST', details: details.map((detail) => ({ ...detail, message: expect.any(String) })) });
  };

  it('answers a badly percent-encoded id with 400 on every id route, outside /v1 too', async () => {
    const idRoutes = [...operations, ...outsideRoutes].filter((route) => pathParameters(route).length && route.method !== 'HEAD');
    for (const route of idRoutes) {
      for (const bad of ['%FF%FE', '%', '%zz']) {
        const url = urlOf(service.url, route, Object.fromEntries(pathParameters(route).map(({ name }) => [name, bad])), {});
        expectInvalid(await send(url, { method: route.method, headers: bearer(acme.ownerKey) }), [{ field: 'path', code: 'percentEncoding' }]);
      }
    }
  });

  it('refuses NUL in a query parameter or in the path with 400 naming it (the CSV export used to drop the connection)', async () => {
    const nul = [{ field: 'campaign', code: 'nulCharacter' }];
    expectInvalid(await call('GET', '/v1/analytics/export?from=2026-01-01&to=2026-01-31&campaign=a%00b'), nul);
    expectInvalid(await call('GET', '/v1/posts?campaign=a%00b'), nul);
    expectInvalid(await call('GET', '/v1/media?q=%00'), [{ field: 'q', code: 'nulCharacter' }]);
    expectInvalid(await call('GET', `/v1/posts/${someId}%00`), [{ field: 'path', code: 'nulCharacter' }]);
  });

  it('refuses forged cursors and times PostgreSQL cannot hold with 400 details, before any SQL', async () => {
    for (const list of ['/posts', '/media', '/queues', '/webhooks', '/social-accounts']) {
      for (const time of ['0000-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z']) {
        expectInvalid(await call('GET', `/v1${list}?cursor=${cursorOf([time, someId])}`), [{ field: 'cursor', code: 'invalid' }]);
      }
    }
    expectInvalid(await call('GET', '/v1/posts?from=0000-01-01T00:00:00.000Z'), [{ field: 'from', code: 'range' }]);
    expectInvalid(await call('GET', '/v1/media?to=0000-12-31T23:59:59Z'), [{ field: 'to', code: 'range' }]);
    expectInvalid(await call('GET', '/v1/posts?from=2026-06-30T23:59:60Z'), [{ field: 'from', code: 'format' }]);
    expectInvalid(await call('GET', '/v1/media?from=2026-01-01T00:00:60Z'), [{ field: 'from', code: 'format' }]);
    expectInvalid(await call('GET', '/v1/posts?to=10000-01-01T00:00:00Z'), [{ field: 'to', code: 'format' }]);
    const { post } = await createResources(service, acme, account);
    const schedule = JSON.stringify({ scheduledAt: '0000-01-01T00:00:00.000Z', timezone: 'Europe/Berlin' });
    expectInvalid(await call('POST', `/v1/posts/${post}/schedule`, { 'content-type': 'application/json' }, schedule), [
      { field: 'scheduledAt', code: 'range' },
    ]);
  });

  it('answers a body that is not JSON with 415 on every operation that takes one, in the caller’s language', async () => {
    const objects = await createResources(service, acme, account);
    for (const operation of operations.filter((candidate) => candidate.bodySchema && candidate.schemes.includes('apiKey'))) {
      const path = Object.fromEntries(pathParameters(operation).map(({ name }) => [name, resourceFor(objects, operation.path, name)!]));
      const body = JSON.stringify(validValue(operation.bodySchema!, bodyHints(objects)));
      const variants: Record<string, string>[] = [{ 'content-type': 'text/plain' }, {}, { 'content-type': 'text/plain', 'accept-language': 'de' }];
      for (const headers of variants) {
        const answer = await send(urlOf(service.url, operation, path, {}), { method: operation.method, headers: bearer(acme.ownerKey, headers), body });
        expect(answer.status, `${operation.operationId} ${JSON.stringify(headers)}`).toBe(415);
        expect(errorShapeProblems(answer)).toEqual([]);
        const expected = headers['accept-language'] ? 'muss JSON sein' : 'must be JSON';
        expect(errorOf(answer)).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining(expected) });
        expect(errorOf(answer).message).toContain('application/json');
      }
    }
  });

  it('does not republish every failed target when a retry naming one comes as text/plain', async () => {
    const api = apiFor(service.url, acme.ownerKey);
    const second = await connectSandbox(service.services, acme.workspaceId);
    const created = await api('POST', '/posts', {
      content: { caption: 'Fails [sandbox:fail]' },
      targets: [
        { connectionId: account, placement: 'feed' },
        { connectionId: second, placement: 'feed' },
      ],
    });
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const failed = await waitForPost(api, created.body.data.id, ['failed']);
    const retry = await call('POST', `/v1/posts/${failed.id}/retry`, { 'content-type': 'text/plain' }, JSON.stringify({ targetId: failed.targets[0].id }));
    expect(retry.status).toBe(415);
    const after = (await api('GET', `/posts/${failed.id}`)).body.data;
    expect(after.status).toBe('failed');
    expect(after.targets.map((target: { attempts: number }) => target.attempts)).toEqual([1, 1]);
  });
});
