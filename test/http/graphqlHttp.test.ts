// GraphQL over HTTP as its spec says: `application/graphql-response+json` (also for a client that names no media
// type) answers a request error with its code's HTTP status; `application/json` answers every well-formed request
// with 200 and the errors in the body, each carrying `extensions.code`. A request that is not a GraphQL request at
// all (not JSON, no query) or whose caller is unknown is refused at the HTTP level either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, keyFor, type TestWorkspace } from '../support/fixtures.ts';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => ({ service, acme } = await serviceWithWorkspace()));
afterAll(() => service.stop());

const graphqlResponse = 'application/graphql-response+json';

async function ask(accept: string | null, body: string, apiKey: string | null = acme.ownerKey) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept === null ? {} : { accept }), ...(apiKey ? bearer(apiKey) : {}) },
    body,
  });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

const query = (text: string) => JSON.stringify({ query: text });

describe('application/graphql-response+json', () => {
  it('answers a document that does not validate with 400 and INVALID_REQUEST', async () => {
    const answer = await ask(graphqlResponse, query('{ viewer { nonsense } }'));
    expect(answer.status).toBe(400);
    expect(answer.type).toBe(`${graphqlResponse}; charset=utf-8`);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'query', code: 'graphql' }] });
  });

  it('is what a client naming no media type gets (no Accept, or */*)', async () => {
    for (const accept of [null, '*/*']) {
      const answer = await ask(accept, query('{ viewer { nonsense } }'));
      expect(answer.status).toBe(400);
      expect(answer.type).toBe(`${graphqlResponse}; charset=utf-8`);
    }
  });

  it('answers a field error with 200: the document ran, `data` is there', async () => {
    const key = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: ['posts:read'] });
    const answer = await ask(graphqlResponse, query('{ viewer { role } socialAccounts(first: 1) { edges { node { id } } } }'), key.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors[0]).toMatchObject({ path: ['socialAccounts'], extensions: { code: 'FORBIDDEN' } });
  });
});

describe('application/json', () => {
  it('answers a document that does not validate with 200, the error and its code in the body', async () => {
    const answer = await ask('application/json', query('{ viewer { nonsense } }'));
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'query', code: 'graphql' }] });
  });

  it('answers a refused field with 200 and its code, like Apollo Client and urql expect', async () => {
    const key = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: ['posts:read'] });
    const answer = await ask('application/json', query('{ socialAccounts(first: 1) { edges { node { id } } } }'), key.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', requestId: expect.any(String) });
  });

  it('is chosen when the client prefers it to the GraphQL response type', async () => {
    const answer = await ask(`application/json, ${graphqlResponse};q=0.9`, query('{ viewer { nonsense } }'));
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/json; charset=utf-8');
  });
});

describe('refusals at the HTTP level, whatever the client accepts', () => {
  it('a body that is not JSON is 400, a request without a query 400, an unknown key 401', async () => {
    for (const accept of ['application/json', graphqlResponse]) {
      const broken = await ask(accept, '{ "query": ');
      expect(broken.status).toBe(400);
      expect(broken.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
      const noQuery = await ask(accept, JSON.stringify({ variables: {} }));
      expect(noQuery.status).toBe(400);
      expect(noQuery.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
      const unknown = await ask(accept, query('{ viewer { role } }'), 'sps_not_a_key');
      expect(unknown.status).toBe(401);
      expect(unknown.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });
});
