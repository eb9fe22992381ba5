// Which networks are published to (issue 25 item 1), as GET /providers and GraphQL say it: the registry's. Since
// TikTok (issue 28) that is every network the service names; the refusals of a network not published to
// (409 PROVIDER_NOT_AVAILABLE, the target finding) have no network left to be shown with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { enumValueName } from '../../schema/enums.ts';
import { networks } from '../../src/providers/networks.ts';
import { publishes } from '../../src/providers/registry.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;

beforeAll(async () => {
  service = await startTestService({ TIKTOK_CLIENT_ID: 'tiktok-client', TIKTOK_CLIENT_SECRET: 'tiktok-secret' });
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
});
afterAll(() => service.stop());

/** Networks get publishing adapters one by one (src/providers/registry.ts): the list is the registry's. */
const published = networks
  .map((network) => network.name)
  .filter(publishes)
  .sort();

describe('GET /providers', () => {
  it('says which networks are published to: only those with a publishing adapter', async () => {
    const { body } = await api('GET', '/providers');
    const publishing = Object.fromEntries(body.data.map((entry: any) => [entry.provider, entry.publishing]));
    expect(
      Object.keys(publishing)
        .filter((provider) => publishing[provider])
        .sort(),
    ).toEqual(published);
    // Since TikTok (issue 28), every network the service names is published to.
    expect(published).toEqual(networks.map((network) => network.name).sort());
    expect(body.data.find((entry: any) => entry.provider === 'tiktok')).toMatchObject({ configured: true, publishing: true });
  });

  it('GraphQL providers says the same', async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(acme.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ query: '{ providers { provider publishing } }' }),
    });
    const { data } = (await response.json()) as any;
    expect(
      data.providers
        .filter((entry: any) => entry.publishing)
        .map((entry: any) => entry.provider)
        .sort(),
    ).toEqual(published.map(enumValueName));
  });
});
