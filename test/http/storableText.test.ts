// A lone UTF-16 surrogate (JSON's "\ud800", which parses into one) is text PostgreSQL cannot store as sent: in a job's
// JSON it was a 500 (POST /v1/ai/images), in text columns it silently became U+FFFD. Every transport refuses it at its
// edge with 400 INVALID_REQUEST naming the field: every string field of every documented request body (and bodies whose
// bytes are not UTF-8, which were decoded into U+FFFD), GraphQL variables and documents, and MCP tool arguments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import { documentedOperations, stringFieldPaths, urlOf, validValue, withValueAt } from '../support/openapiOperations.ts';
import { bodyHints, createResources, resourceFor, type Resources } from '../support/resources.ts';
import { errorOf, errorShapeProblems, send, type Answer } from '../support/answers.ts';
import { call, httpClient, refusalOf } from '../support/mcp.ts';

const lone = 'a\ud800b';
/** Bodies of numbers and booleans alone: no text to refuse. */
const textless = new Set(['createReviewLink', 'updateWorkspace']);
const operationsWithBodies = (await documentedOperations()).filter((operation) => operation.bodySchema && !textless.has(operation.operationId));

let service: TestService;
let acme: TestWorkspace;
let account: string;
let objects: Resources;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', AI_PROVIDER: 'sandbox' }));
  account = await connectSandbox(service.services, acme.workspaceId);
  objects = await createResources(service, acme, account);
});
afterAll(() => service.stop());

/** `['targets', '0', 'placement']` → `targets[0].placement`, as details name fields. */
const fieldName = (path: string[]) =>
  path.reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), '');

function expectRefused(answer: Answer, field: string, what: string): void {
  const outcome = `${what} → ${answer.status} ${answer.text.slice(0, 400)}`;
  expect(answer.status, outcome).toBe(400);
  expect(errorShapeProblems(answer), outcome).toEqual([]);
  expect(errorOf(answer), outcome).toMatchObject({
    code: 'INVALID_REQUEST',
    details: expect.arrayContaining([{ field, code: 'wellFormed', message: expect.any(String) }]),
  });
}

describe('REST', () => {
  it.each(operationsWithBodies)('$method $path refuses a lone surrogate in each string field of its body, naming it', async (operation) => {
    const path = Object.fromEntries(
      operation.parameters.filter((parameter) => parameter.in === 'path').map(({ name }) => [name, resourceFor(objects, operation.path, name) ?? 'x']),
    );
    const url = urlOf(service.url, operation, path, {});
    const validBody = validValue(operation.bodySchema!, bodyHints(objects));
    const fields = stringFieldPaths(operation.bodySchema!);
    expect(fields.length, 'a body of no string field would test nothing here').toBeGreaterThan(0);
    for (const field of fields) {
      const body = JSON.stringify(withValueAt(validBody, field, lone));
      const answer = await send(url, { method: operation.method, headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }), body });
      expectRefused(answer, fieldName(field), `${operation.method} ${operation.path} ${body.slice(0, 300)}`);
    }
  });

  it('names the object holding a key with a lone surrogate, and the body when it is a lone string', async () => {
    const headers = bearer(acme.ownerKey, { 'content-type': 'application/json' });
    const settings = JSON.stringify({ content: { caption: 'Hi' }, targets: [{ connectionId: account, placement: 'feed', settings: { [lone]: 1 } }] });
    expectRefused(await send(`${service.url}/v1/posts`, { method: 'POST', headers, body: settings }), 'targets[0].settings', settings);
    expectRefused(await send(`${service.url}/v1/posts`, { method: 'POST', headers, body: JSON.stringify(lone) }), 'body', 'a string body');
  });

  it('refuses a body whose bytes are not UTF-8 (they were read as U+FFFD and stored so)', async () => {
    const body = Buffer.concat([Buffer.from('{"prompt":"a'), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('b"}')]);
    const answer = await send(`${service.url}/v1/ai/images`, { method: 'POST', headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }), body });
    expectRefused(answer, 'body', 'a prompt in CESU-8 and a stray 0xff');
  });

  it('takes a surrogate pair (an emoji) as the text it is', async () => {
    const answer = await send(`${service.url}/v1/ai/images`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: '{"prompt":"a \\ud83d\\ude00 b"}',
    });
    expect(answer.status, answer.text).toBe(202);
  });
});

describe('GraphQL', () => {
  const graph = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, text: await response.text() };
  };
  const expectGraphRefused = (answer: { status: number; text: string }, field: string) => {
    expect(answer.status, answer.text).toBe(400);
    const { data, errors } = JSON.parse(answer.text) as { data?: unknown; errors: { extensions: Record<string, unknown> }[] };
    expect(data ?? null).toBeNull();
    expect(errors[0]!.extensions, answer.text).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field, code: 'wellFormed', message: expect.any(String) }],
    });
  };

  it('refuses a lone surrogate in a variable, naming the argument path', async () => {
    expectGraphRefused(await graph('mutation($prompt: String!) { generateImage(prompt: $prompt) }', { prompt: lone }), 'prompt');
    const targets = [{ connectionId: account, placement: 'FEED', override: { caption: lone } }];
    expectGraphRefused(
      await graph('mutation($targets: [TargetInput!]!) { createPost(content: { caption: "x" }, targets: $targets) { id } }', { targets }),
      'targets[0].override.caption',
    );
  });

  it('refuses a document holding a lone surrogate (in a literal) as an ill-formed query', async () => {
    expectGraphRefused(await graph(`mutation { generateImage(prompt: "${lone}") }`), 'query');
  });
});

describe('MCP', () => {
  it('refuses a lone surrogate in a tool argument, naming it, before its idempotency key is stored', async () => {
    const client = await httpClient(service.url, acme.ownerKey);
    try {
      expect(refusalOf(await call(client, 'generate_image', { prompt: lone }))).toMatchObject({
        code: 'INVALID_REQUEST',
        details: [{ field: 'prompt', code: 'wellFormed', message: expect.any(String) }],
      });
      const post = { caption: 'Hi', targets: [{ connectionId: account, placement: 'feed' }], idempotencyKey: `key-${lone}` };
      expect(refusalOf(await call(client, 'create_post', post)).details).toEqual([
        { field: 'idempotencyKey', code: 'wellFormed', message: expect.any(String) },
      ]);
    } finally {
      await client.close();
    }
  });
});
