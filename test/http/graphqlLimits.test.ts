// What /graphql refuses, and how: document and cost limits, costly queries counted as several requests, the size
// of an answer, the REST input limits held by the domain, NUL characters, and transport errors. Every refusal in
// the API's error shape, localized.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { parse } from 'graphql';
import { graphLimits } from '../../schema/limits.ts';
import { operationCost } from '../../schema/cost.ts';
import { graphSchema } from '../../schema/index.ts';
import { inputLimits } from '../../src/limits.ts';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => ({ service, acme } = await serviceWithWorkspace()));
afterAll(() => service.stop());

async function post(url: string, apiKey: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: bearer(apiKey, { 'content-type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const graph = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  post(service.url, acme.ownerKey, { query, variables }, headers);

/** The one error of a refused request, checked for the API's shape. */
function refusal(answer: { body: { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] } }) {
  expect(answer.body.data ?? null).toBeNull();
  expect(answer.body.errors).toHaveLength(1);
  const [error] = answer.body.errors!;
  expect(error!.extensions.requestId).toEqual(expect.any(String));
  expect(Object.keys(error!).sort()).toEqual(expect.arrayContaining(['extensions', 'message']));
  expect(error).not.toHaveProperty('originalError');
  expect(error).not.toHaveProperty('stack');
  return error!;
}

describe('document limits (graphql-armor)', () => {
  it('refuses nesting deeper than the limit, naming it in the caller’s language', async () => {
    // The deepest selection the dashboard makes is within the limit.
    const deepest = await graph('{ posts(first: 1) { edges { node { targets { validation { problems { code } } } } } } }');
    expect(deepest.status).toBe(200);

    const refused = await graph(`{ ${nest(graphLimits.maxDepth + 1)} }`, {}, { 'accept-language': 'de' });
    expect(refused.status).toBe(400);
    expect(refusal(refused).extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'query', code: 'maxDepth', message: `Felder dürfen höchstens ${graphLimits.maxDepth} Ebenen tief verschachtelt sein.` }],
    });
  });

  it('refuses more aliases, tokens or directives than the limits', async () => {
    const aliases = Array.from({ length: graphLimits.maxAliases + 1 }, (_, i) => `a${i}: viewer { role }`).join(' ');
    expect(refusal(await graph(`{ ${aliases} }`)).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ code: 'maxAliases' }] });

    const tokens = `{ viewer { ${'role '.repeat(graphLimits.maxTokens)}} }`;
    const tokenAnswer = await graph(tokens);
    expect(tokenAnswer.status).toBe(400);
    expect(refusal(tokenAnswer).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ code: 'maxTokens' }] });

    // Nested deeply enough that graphql-js's recursive parser would run out of stack before counting the tokens.
    const nestedList = await graph(`{ media(before: ${'['.repeat(5000)}${']'.repeat(5000)}) { __typename } }`);
    expect(nestedList.status).toBe(400);
    expect(refusal(nestedList).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ code: 'maxTokens' }] });

    const directives = `{ viewer { role ${'@include(if: true) '.repeat(graphLimits.maxDirectives + 1)}} }`;
    expect(refusal(await graph(directives)).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ code: 'maxDirectives' }] });
  });
});

/** A selection `levels` deep: limits are checked before fields are, so the names need not exist. */
function nest(levels: number): string {
  return Array.from({ length: levels }, (_, level) => `f${level}`).reduceRight((inner, field) => `${field} { ${inner} }`, 'leaf');
}

describe('cost', () => {
  const full = (first: string) =>
    `posts${first} { edges { node { id content { caption } status targets { id status placement validation { valid problems { code field message } } } } } }`;
  const aliased = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, i) => `p${i}: ${field}`).join(' ')} }`;

  it('counts a page size given in a variable: the same document is refused for 100 items, answered for 1', async () => {
    const costly = `query($n: Int) ${aliased(10, full('(first: $n)'))}`;
    expect((await graph(costly, { n: 1 })).status).toBe(200);
    const refused = await graph(costly, { n: 100 }, { 'accept-language': 'de' });
    expect(refused.status).toBe(400);
    const error = refusal(refused);
    expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'query', code: 'maxCost' }] });
    const message = (error.extensions.details as { message: string }[])[0]!.message;
    expect(message).toMatch(/^Die Abfrage kostet [\d.]+; /);
    expect(message).toContain(`erlaubt sind höchstens ${graphLimits.maxCost.toLocaleString('de')}:`);
  });

  it('answers a query built from fragments as the same query written out, and counts its cost alike', async () => {
    const writtenOut = `query($n: Int) { posts(first: $n) { edges { node { id status content { caption } targets { id status } } } } }`;
    const withFragments = `query($n: Int) { posts(first: $n) { edges { node { ...PostFields } } } }
      fragment PostFields on Post { id ... on Post { status content { caption } } targets { ...TargetFields } }
      fragment TargetFields on PostTarget { id status }`;
    const connectionId = await connectSandbox(service.services, acme.workspaceId);
    const created = await fetch(`${service.url}/v1/posts`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ content: { caption: 'Fragments' }, targets: [{ connectionId, placement: 'feed' }] }),
    });
    expect(created.status).toBe(201);
    const [plain, fragmented] = [await graph(writtenOut, { n: 5 }), await graph(withFragments, { n: 5 })];
    expect(plain.body.data.posts.edges.length).toBeGreaterThan(0);
    expect(plain.status).toBe(200);
    expect(fragmented.status).toBe(200);
    expect(fragmented.body).toEqual(plain.body);
    for (const n of [1, 100]) {
      expect(operationCost(graphSchema, parse(withFragments), { n })).toBe(operationCost(graphSchema, parse(writtenOut), { n }));
    }
  });

  it('counts a connection asked for without `first` at the default page size, not as one item', async () => {
    expect((await graph(aliased(15, full('(first: 1)')))).status).toBe(200);
    expect(refusal(await graph(aliased(15, full('')))).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ code: 'maxCost' }] });
  });
});

describe('costly queries count as several requests', () => {
  let limited: TestService;
  let owner: TestWorkspace;
  beforeAll(async () => {
    limited = await startTestService({ RATE_LIMIT_PER_MINUTE: '30' }, service.databaseUrl);
    owner = await createWorkspace(limited.services);
  });
  afterAll(() => limited.stop());

  const remaining = (headers: Headers) => Number(/r=(\d+)/.exec(headers.get('ratelimit') ?? '')![1]);

  it('charges ceil(cost / costPerRequest) requests before executing, and answers 429 RATE_LIMITED past the limit', async () => {
    const cheap = await post(limited.url, owner.ownerKey, { query: '{ viewer { role } }' });
    expect(cheap.status).toBe(200);
    const before = remaining(cheap.headers);

    // 4 connections of 100 posts with their targets: a cost of about 16,600.
    const query = `{ ${Array.from({ length: 4 }, (_, i) => `p${i}: posts(first: 100) { edges { node { id content { caption } status targets { id status placement } } } }`).join(' ')} }`;
    const first = await post(limited.url, owner.ownerKey, { query });
    expect(first.status).toBe(200);
    expect(before - remaining(first.headers)).toBe(4);

    let answer = first;
    while (answer.status === 200) answer = await post(limited.url, owner.ownerKey, { query }, { 'accept-language': 'fr' });
    expect(answer.status).toBe(429);
    expect(refusal(answer).extensions.code).toBe('RATE_LIMITED');
    expect(answer.body.errors[0].message).toMatch(/^Trop de requêtes/);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=30;w=60');
  });
});

describe('answer size', () => {
  it('refuses an answer larger than GRAPHQL_MAX_RESPONSE_BYTES with a clear error instead of sending it', async () => {
    const small = await startTestService({ GRAPHQL_MAX_RESPONSE_BYTES: '2048' }, service.databaseUrl);
    try {
      const owner = await createWorkspace(small.services);
      const answer = await post(small.url, owner.ownerKey, { query: '{ providers { provider displayName notes placements { name description } } }' });
      expect(answer.status).toBe(400);
      expect(refusal(answer).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'query', code: 'responseTooLarge' }] });
      expect((await post(small.url, owner.ownerKey, { query: '{ viewer { role } }' })).status).toBe(200);
    } finally {
      await small.stop();
    }
  });
});

describe('input limits live in the domain: GraphQL refuses what REST refuses, with the same details', () => {
  async function rest(method: string, path: string, body: unknown) {
    const response = await fetch(`${service.url}/v1${path}`, {
      method,
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  it('webhooks: a description over the limit (a 20 MB one was once stored)', async () => {
    const description = 'd'.repeat(inputLimits.webhook.description + 1);
    const url = 'https://hooks.example.com/in';
    const viaGraph = await graph('mutation($description: String) { createWebhook(url: "https://hooks.example.com/in", description: $description) { id } }', {
      description,
    });
    const viaRest = await rest('POST', '/webhooks', { url, description });
    // A field error (the document was valid and ran): 200 with the error in the body, as GraphQL over HTTP says.
    expect(viaGraph.status).toBe(200);
    expect(viaRest.status).toBe(400);
    expect(refusal(viaGraph).extensions.details).toEqual(viaRest.body.error.details);
    expect(viaRest.body.error.details).toEqual([
      { field: 'description', code: 'maxLength', message: `Must be at most ${inputLimits.webhook.description} characters long.` },
    ]);
    const listed = await graph('{ webhooks(first: 100) { edges { node { id } } } }');
    expect(listed.body.data.webhooks.edges).toEqual([]);
  });

  it('queues: a name over the limit and more slots than the limit', async () => {
    const name = 'q'.repeat(inputLimits.queue.name + 1);
    const slots = Array.from({ length: inputLimits.queue.slots + 1 }, () => ({ day: 'monday', time: '09:00' }));
    const graphSlots = slots.map((slot) => ({ ...slot, day: 'MONDAY' }));
    const mutation = 'mutation($name: String!, $slots: [SlotInput!]!) { createQueue(name: $name, timezone: "UTC", slots: $slots) { id } }';
    const viaGraph = await graph(mutation, { name, slots: graphSlots });
    const viaRest = await rest('POST', '/queues', { name, timezone: 'UTC', slots });
    expect(refusal(viaGraph).extensions.code).toBe('INVALID_REQUEST');
    const fields = (details: { field: string; code: string }[]) => details.map(({ field, code }) => ({ field, code }));
    expect(fields(viaGraph.body.errors[0].extensions.details)).toEqual([
      { field: 'name', code: 'maxLength' },
      { field: 'slots', code: 'maxItems' },
    ]);
    expect(fields(viaRest.body.error.details)).toEqual(expect.arrayContaining(fields(viaGraph.body.errors[0].extensions.details)));
    expect((await graph('{ queues(first: 100) { edges { node { id } } } }')).body.data.queues.edges).toEqual([]);
  });

  it('posts: a caption, targets and a campaign over the limits', async () => {
    const account = await connectSandbox(service.services, acme.workspaceId);
    const targets = Array.from({ length: inputLimits.post.targets + 1 }, () => ({ connectionId: account, placement: 'FEED' }));
    const mutation =
      'mutation($caption: String, $targets: [TargetInput!]!, $campaign: String) { createPost(content: { caption: $caption }, targets: $targets, campaign: $campaign) { id } }';
    const answer = await graph(mutation, { caption: 'c'.repeat(inputLimits.post.caption + 1), targets, campaign: 'k'.repeat(inputLimits.post.campaign + 1) });
    expect(refusal(answer).extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [
        { field: 'content.caption', code: 'maxLength' },
        { field: 'targets', code: 'maxItems' },
        { field: 'campaign', code: 'maxLength' },
      ],
    });
  });
});

describe('NUL characters in GraphQL input', () => {
  it('refuses them in variables and in literals, naming the field, before anything is stored', async () => {
    const inVariable = await graph('mutation($description: String) { createWebhook(url: "https://hooks.example.com/nul", description: $description) { id } }', {
      description: 'before\u0000after',
    });
    expect(inVariable.status).toBe(400);
    expect(refusal(inVariable).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'description', code: 'nulCharacter' }] });

    const inLiteral = await graph('mutation { createQueue(name: "a\\u0000b", timezone: "UTC", slots: [{ day: MONDAY, time: "09:00" }]) { id } }');
    expect(refusal(inLiteral).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'name', code: 'nulCharacter' }] });

    const nested = await graph('mutation($targets: [TargetInput!]!) { createPost(content: { caption: "x" }, targets: $targets) { id } }', {
      targets: [{ connectionId: '00000000-0000-4000-8000-000000000000', placement: 'FEED', override: { caption: 'fe\u0000ed' } }],
    });
    expect(refusal(nested).extensions).toMatchObject({ details: [{ field: 'targets[0].override.caption', code: 'nulCharacter' }] });
    expect((await graph('{ webhooks(first: 100) { edges { node { id } } } }')).body.data.webhooks.edges).toEqual([]);
  });
});

describe('transport and document errors in the API’s shape', () => {
  it('answers a body that is not JSON with 415 and the error shape (not an empty body)', async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'text/plain', 'accept-language': 'es' }),
      body: '{ viewer { role } }',
    });
    expect(response.status).toBe(415);
    const body = await response.json();
    expect(refusal({ body }).extensions.code).toBe('INVALID_REQUEST');
    expect(body.errors[0].message).toMatch(/^Envíe las solicitudes GraphQL como JSON/);
    expect(body.errors[0].extensions.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('answers another method with 405 and Allow', async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'PUT',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: '{}',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(refusal({ body: await response.json() }).extensions.code).toBe('INVALID_REQUEST');
  });

  it('answers a path below the endpoint with 404 NOT_FOUND, and a body over 1 MiB with 400 like REST', async () => {
    const below = await fetch(`${service.url}/graphql/x`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: '{"query":"{ viewer { role } }"}',
    });
    expect(below.status).toBe(404);
    expect(refusal({ body: await below.json() }).extensions.code).toBe('NOT_FOUND');
    const anonymousPage = await fetch(`${service.url}/graphql/x`, { headers: { accept: 'text/html' } });
    expect(anonymousPage.status).toBe(401);
    expect(refusal({ body: await anonymousPage.json() }).extensions.code).toBe('UNAUTHENTICATED');

    const huge = await graph(`{ viewer { role } } # ${'x'.repeat(graphLimits.maxRequestBytes)}`);
    expect(huge.status).toBe(400);
    expect(refusal(huge).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'body', code: 'tooLarge' }] });
  });

  it('answers malformed JSON, a syntax error, an unknown field and a bad variable with 400 INVALID_REQUEST, nothing internal', async () => {
    const malformed = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: '{"query": ',
    });
    expect(malformed.status).toBe(400);
    const malformedBody = await malformed.json();
    expect(refusal({ body: malformedBody }).extensions.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(malformedBody)).not.toMatch(/SyntaxError|at JSON\.parse|node_modules/);

    for (const [query, variables] of [
      ['{ viewer { role }', {}],
      ['{ viewer { nope } }', {}],
      ['query($from: DateTime) { posts(from: $from) { edges { node { id } } } }', { from: '0000-01-01T00:00:00Z' }],
      ['query($from: DateTime) { posts(from: $from) { edges { node { id } } } }', { from: '2026-02-30T00:00:00Z' }],
      ['query($id: ID!) { post(id: $id) { id } }', { id: { nested: [1, 2] } }],
    ] as const) {
      const answer = await graph(query, variables);
      expect(answer.status, query).toBe(400);
      const error = refusal(answer);
      expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ code: 'graphql' }] });
      expect(JSON.stringify(answer.body)).not.toMatch(/originalError|stack|node_modules/);
    }
  });
});

describe('GraphiQL', () => {
  it('is served from our own dependencies, with no CDN, and says how to authenticate', async () => {
    const response = await fetch(`${service.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="?https?:|unpkg\.com|jsdelivr|cdnjs/);
    expect(html).toContain('Authorization');
    expect(html).toContain('x-workspace-id');
  });
});
