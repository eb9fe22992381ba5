// The OpenAPI document is a promise: valid OpenAPI 3.1, served as JSON and YAML, every operation has a handler,
// and real answers match the schemas it declares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { OpenAPIBackend } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { openapiDocument, v1Document } from '../../rest/openapiDocument.ts';
import { operationHandlers } from '../../rest/operations.ts';
import { createBackend } from '../../rest/v1.ts';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, connectSandbox, type TestWorkspace } from '../support/fixtures.ts';

let service: TestService;
let acme: TestWorkspace;
let responses: OpenAPIBackend;
const oauthStart = Object.keys(openapiDocument.paths!).find((path) => openapiDocument.paths![path]?.servers)!;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace());
  responses = new OpenAPIBackend({
    definition: structuredClone(openapiDocument) as never,
    apiRoot: '/v1',
    quick: true,
    customizeAjv: (_ajv, options) => {
      const ajv = new Ajv2020({ ...options, strict: false });
      addFormats.default(ajv);
      return ajv as never;
    },
  });
  await responses.init();
});
afterAll(() => service.stop());

async function expectDocumented(operationId: string, response: Response) {
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  const result = responses.validateResponse(body, operationId, response.status);
  expect(result.errors ?? [], `${operationId} ${response.status}: ${text.slice(0, 300)}`).toEqual([]);
}

describe('OpenAPI document', () => {
  it('is routed from a list of operations built once, as openapi-backend builds it afresh on every match', async () => {
    const backend = await createBackend(service.services);
    const operations = backend.router.getOperations();
    expect(backend.router.getOperations()).toBe(operations);
    expect((operations as { operationId?: string }[]).map((operation) => operation.operationId).sort()).toEqual(Object.keys(operationHandlers).sort());
    const matched = backend.router.matchOperation({ method: 'get', path: '/v1/posts/p1', headers: {} });
    expect(matched && operations).toContain(matched);
    // Unpatched, the router hands out a new list each time (lodash over the document), two or three times a request.
    const unpatched = new OpenAPIBackend({ definition: structuredClone(v1Document) as never, apiRoot: '/v1', quick: true });
    await unpatched.init();
    expect(unpatched.router.getOperations()).not.toBe(unpatched.router.getOperations());
  });

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(openapiDocument) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openapiDocument.openapi).toBe('3.1.0');
  });

  it('is served at /v1/openapi.json and /v1/openapi.yaml without a key', async () => {
    const json = await fetch(`${service.url}/v1/openapi.json`);
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
    const served = await json.json();
    const base = service.services.config.publicBaseUrl;
    expect(JSON.parse(JSON.stringify(served).replaceAll(`"url":"${base}/`, '"url":"/'))).toEqual(openapiDocument);
    const yaml = await fetch(`${service.url}/v1/openapi.yaml`);
    expect(parse(await yaml.text())).toEqual(served);
  });

  it('names its servers by PUBLIC_BASE_URL, absolute, so a client generated from it works outside a browser (Node)', async () => {
    const served = await (await fetch(`${service.url}/v1/openapi.json`)).json();
    const base = service.services.config.publicBaseUrl;
    expect(served.servers).toEqual([{ url: `${base}/v1` }]);
    expect(served.paths[oauthStart].servers).toEqual([expect.objectContaining({ url: `${base}/` })]);
    expect(parse(await (await fetch(`${service.url}/v1/openapi.yaml`)).text()).servers).toEqual([{ url: `${base}/v1` }]);
  });

  it('has no property whose value is null, the mark of a description cut at an unquoted comma', () => {
    const nullProperties: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, child] of Object.entries(value)) {
        if (child === null && !Array.isArray(value)) nullProperties.push(`${path}/${key}`);
        walk(child, `${path}/${key}`);
      }
    };
    walk(openapiDocument, '#');
    expect(nullProperties).toEqual([]);
  });

  it("routes under /v1 every operation but the OAuth browser's start and callback and the short links, which have servers of their own", () => {
    const ownServers = Object.entries(openapiDocument.paths ?? {})
      .filter(([, item]) => item?.servers)
      .map(([path]) => path);
    expect(ownServers.sort()).toEqual(['/l/{code}', '/oauth/callback/{provider}', '/oauth/start/{provider}']);
    // The sign-in (served at /auth/* and /v1/auth/*, integratorConsistency.test.ts) is its own express route, not openapi-backend's.
    expect(Object.keys(v1Document.paths ?? {})).not.toContain('/auth/login');
  });

  it('has a handler for every /v1 operation, and documents every handler', () => {
    const documented = Object.values(v1Document.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).flatMap((operation) =>
        typeof operation === 'object' && operation && 'operationId' in operation ? [operation.operationId] : [],
      ),
    );
    expect(documented.sort()).toEqual(Object.keys(operationHandlers).sort());
  });

  it('describes the real answers, errors included', async () => {
    // The check itself can fail: an answer that does not match is reported.
    expect(responses.validateResponse({ data: 'nope' }, 'listProviders', 200).errors?.length).toBeGreaterThan(0);
    const account = await connectSandbox(service.services, acme.workspaceId);
    await expectDocumented('listSocialAccounts', await fetch(`${service.url}/v1/social-accounts`, { headers: bearer(acme.ownerKey) }));
    await expectDocumented('listSocialAccounts', await fetch(`${service.url}/v1/social-accounts?limit=0`, { headers: bearer(acme.ownerKey) }));
    await expectDocumented('listSocialAccounts', await fetch(`${service.url}/v1/social-accounts`));
    await expectDocumented('getSocialAccount', await fetch(`${service.url}/v1/social-accounts/${account}`, { headers: bearer(acme.ownerKey) }));
    await expectDocumented('getSocialAccount', await fetch(`${service.url}/v1/social-accounts/${crypto.randomUUID()}`, { headers: bearer(acme.ownerKey) }));
    await expectDocumented('listProviders', await fetch(`${service.url}/v1/providers`, { headers: bearer(acme.ownerKey) }));

    const json = (body: unknown) => ({ method: 'POST', headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }), body: JSON.stringify(body) });
    const created = await fetch(
      `${service.url}/v1/posts`,
      json({ content: { caption: 'Documented' }, targets: [{ connectionId: account, placement: 'feed' }] }),
    );
    const post = (await created.clone().json()).data;
    await expectDocumented('createPost', created);
    await expectDocumented(
      'createPost',
      await fetch(`${service.url}/v1/posts`, json({ content: { caption: 'x'.repeat(501) }, targets: [{ connectionId: account, placement: 'feed' }] })),
    );
    await expectDocumented('getPost', await fetch(`${service.url}/v1/posts/${post.id}`, { headers: bearer(acme.ownerKey) }));
    await expectDocumented('listPosts', await fetch(`${service.url}/v1/posts?status=draft`, { headers: bearer(acme.ownerKey) }));
    await expectDocumented(
      'schedulePost',
      await fetch(`${service.url}/v1/posts/${post.id}/schedule`, json({ scheduledAt: new Date(Date.now() + 3_600_000).toISOString(), timezone: 'UTC' })),
    );
    await expectDocumented('publishPost', await fetch(`${service.url}/v1/posts/${post.id}/publish`, json({})));
    await expectDocumented('publishPost', await fetch(`${service.url}/v1/posts/${post.id}/publish`, json({})));
  });

  it('describes the dashboard sign-in answers', async () => {
    const password = 'documented password';
    const { email } = await addPerson(service.services, acme.workspaceId, 'admin', password);
    const signIn = (body: unknown) =>
      fetch(`${service.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await expectDocumented('signIn', await signIn({ email }));
    await expectDocumented('signIn', await signIn({ email, password: 'not the password' }));
    const signedIn = await signIn({ email, password });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    await expectDocumented('signIn', signedIn);
    await expectDocumented('getSession', await fetch(`${service.url}/auth/session`, { headers: { cookie } }));
    await expectDocumented('signOut', await fetch(`${service.url}/auth/logout`, { method: 'POST', headers: { cookie } }));
    await expectDocumented('getSession', await fetch(`${service.url}/auth/session`, { headers: { cookie } }));
  });
});
