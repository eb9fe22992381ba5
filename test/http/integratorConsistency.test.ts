// One form of each thing per interface, for integrators (issue 25 item 6): a network's name lower case in every MCP
// result as in REST, and the Provider enum in every field and argument of the graph; placement required in MCP as in
// REST; the dashboard's sign-in also under /v1, where clients generated from the OpenAPI document (one base URL) call it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import { call, httpClient, succeed } from '../support/mcp.ts';
import { openapiDocument } from '../../rest/openapiDocument.ts';

let service: TestService;
let acme: TestWorkspace;
let connectionId: string;
let client: Client;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace());
  connectionId = await connectSandbox(service.services, acme.workspaceId);
  client = await httpClient(service.url, acme.ownerKey);
});
afterAll(async () => {
  await client.close();
  await service.stop();
});

describe('MCP', () => {
  it('names networks in lower case in every result, as REST does', async () => {
    const created = (await succeed(client, 'create_post', { caption: 'Lower case', targets: [{ connectionId, placement: 'feed' }] })).post;
    const listed = (await succeed(client, 'list_posts', { provider: 'sandbox' })).posts;
    const fetched = (await succeed(client, 'get_post', { postId: created.id })).post;
    const accounts = (await succeed(client, 'list_social_accounts')).accounts;
    const rules = (await succeed(client, 'get_provider_rules', { provider: 'sandbox' })).providers;
    const names = [created, ...listed, fetched].flatMap((post) => post.targets.map((target: { provider: string }) => target.provider));
    expect(new Set([...names, ...accounts.map((a: { provider: string }) => a.provider), ...rules.map((r: { provider: string }) => r.provider)])).toEqual(
      new Set(['sandbox']),
    );
  });

  it('says how each network connects, a credential network with its fields, as GET /providers does', async () => {
    const [telegram] = (await succeed(client, 'get_provider_rules', { provider: 'telegram' })).providers;
    expect(telegram.connection).toEqual({
      method: 'credentials',
      fields: [expect.objectContaining({ name: 'botToken', secret: true }), expect.objectContaining({ name: 'chat', secret: false })],
    });
    expect(telegram.placements[0].caption).toMatchObject({ maxLength: 4096, maxLengthWithMedia: 1024 });
  });

  it('requires each target’s placement, as REST does', async () => {
    const missing = await call(client, 'create_post', { caption: 'Where?', targets: [{ connectionId }] });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('placement');
  });
});

describe('GraphQL', () => {
  interface TypeRef {
    name: string | null;
    ofType: TypeRef | null;
  }
  interface Typed {
    name: string;
    type: TypeRef;
  }
  const namedType = (type: TypeRef): string | null => (type.ofType ? namedType(type.ofType) : type.name);

  it('names networks by its Provider enum in every field and argument, as posts’ targets do (AiStatus.provider is the AI vendor)', async () => {
    const ref = 'type { name ofType { name ofType { name ofType { name } } } }';
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({
        query: `{ __schema { types { name fields { name ${ref} args { name ${ref} } } inputFields { name ${ref} } } } }`,
      }),
    });
    const types: { name: string; fields: (Typed & { args: Typed[] })[] | null; inputFields: Typed[] | null }[] = (await response.json()).data.__schema.types;
    const typeOf = new Map<string, string | null>();
    for (const type of types.filter((candidate) => !candidate.name.startsWith('__'))) {
      for (const field of [...(type.fields ?? []), ...(type.inputFields ?? [])]) {
        typeOf.set(`${type.name}.${field.name}`, namedType(field.type));
        for (const arg of 'args' in field ? (field.args as Typed[]) : []) typeOf.set(`${type.name}.${field.name}(${arg.name})`, namedType(arg.type));
      }
    }
    const networks = [...typeOf].filter(([path, type]) => /\bprovider\)?$/.test(path) || type === 'Provider').map(([path]) => path);
    expect(networks).toEqual(
      expect.arrayContaining([
        'SocialAccount.provider',
        'ProviderRules.provider',
        'Mutation.addSocialAccount(provider)',
        'Mutation.startAccountConnection(provider)',
      ]),
    );
    expect(networks.filter((path) => path !== 'AiStatus.provider' && typeOf.get(path) !== 'Provider')).toEqual([]);
  });
});

describe('the dashboard sign-in under /v1', () => {
  it('answers /v1/auth/login and /v1/auth/session as /auth/* does', async () => {
    const person = await addPerson(service.services, acme.workspaceId, 'editor', 'a long enough password');
    const login = await fetch(`${service.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: person.email, password: 'a long enough password' }),
    });
    expect(login.status).toBe(204);
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const session = await fetch(`${service.url}/v1/auth/session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect((await session.json()).data.workspaces.map((w: { id: string }) => w.id)).toContain(acme.workspaceId);
  });

  it('is documented under the document’s one server: no path but the browser’s OAuth redirects and the short links has servers of its own', () => {
    const withServers = Object.entries(openapiDocument.paths ?? {})
      .filter(([, item]) => item?.servers)
      .map(([path]) => path);
    expect(withServers).toEqual(['/l/{code}', '/oauth/start/{provider}', '/oauth/callback/{provider}']);
    expect(Object.keys(openapiDocument.paths ?? {})).toEqual(expect.arrayContaining(['/auth/login', '/auth/logout', '/auth/session']));
  });
});
