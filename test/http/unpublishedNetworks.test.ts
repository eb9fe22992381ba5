// Networks this service does not publish to yet are offered nowhere (issue 25 item 1): GET /providers and GraphQL say
// `publishing: false`; connecting one is 409 PROVIDER_NOT_AVAILABLE even with the operator's app credentials set
// (TikTok's here); an account of one stored earlier is refused as a post's target by the dry run, create and change.
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
/** A TikTok account connected before connecting TikTok was refused, straight in the database. */
let tiktokAccountId: string;

beforeAll(async () => {
  service = await startTestService({ TIKTOK_CLIENT_ID: 'tiktok-client', TIKTOK_CLIENT_SECRET: 'tiktok-secret' });
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
  const account = await service.services.db.prisma.socialAccount.create({
    data: { workspaceId: acme.workspaceId, provider: 'tiktok', remoteId: '7312345678901234567', username: 'tiktok', displayName: 'TikTok', status: 'ACTIVE' },
  });
  tiktokAccountId = account.id;
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
    expect(publishing).toMatchObject({ bluesky: true, mastodon: true, sandbox: true, x: true, tiktok: false });
    // Its app credentials are set, but without an adapter its accounts cannot be connected here.
    expect(body.data.find((entry: any) => entry.provider === 'tiktok')).toMatchObject({ configured: false, publishing: false, connection: null });
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

describe('connecting', () => {
  it('is 409 PROVIDER_NOT_AVAILABLE for TikTok with its app credentials set, never the settings advice', async () => {
    for (const [path, body] of [
      ['/social-accounts/connect', { provider: 'tiktok' }],
      ['/social-accounts', { provider: 'tiktok', username: 'someone' }],
    ] as const) {
      const answer = await api('POST', path, body);
      expect(answer.status, `${path} ${body.provider}`).toBe(409);
      expect(answer.body.error.code).toBe('PROVIDER_NOT_AVAILABLE');
      expect(answer.body.error.message).not.toContain('CLIENT_ID');
    }
    expect((await api('POST', '/social-accounts/connect', { provider: 'tiktok' })).body.error.message).toBe(
      'Publishing to TikTok is not available on this installation yet.',
    );
    expect((await service.services.db.pool.query('SELECT count(*)::int AS n FROM oauth_authorization')).rows[0].n).toBe(0);
  });
});

describe('an account of such a network as a target', () => {
  const refusal = (index: number) =>
    expect.objectContaining({
      field: `targets[${index}].connectionId`,
      code: 'provider.publishing',
      message: 'Publishing to TikTok is not available on this installation yet.',
    });

  it('is a finding of the dry run, and create refuses it with 422 PROVIDER_VALIDATION_FAILED naming the target', async () => {
    const sandbox = await api('POST', '/social-accounts', { provider: 'sandbox', username: 'shop' });
    const post = {
      content: { caption: 'Hello' },
      targets: [
        { connectionId: sandbox.body.data.id, placement: 'feed' },
        { connectionId: tiktokAccountId, placement: 'video' },
      ],
    };
    const dryRun = await api('POST', '/posts/validate', post);
    expect(dryRun.body.data.valid).toBe(false);
    // TikTok's own rules (a video) are findings too; the refusal is among them.
    expect(dryRun.body.data.targets.map((target: any) => target.findings)).toEqual([[], expect.arrayContaining([refusal(1)])]);
    const created = await api('POST', '/posts', post);
    expect(created.status).toBe(422);
    expect(created.body.error).toMatchObject({ code: 'PROVIDER_VALIDATION_FAILED', details: expect.arrayContaining([refusal(1)]) });
  });

  it('change refuses it too', async () => {
    const sandbox = await api('POST', '/social-accounts', { provider: 'sandbox', username: 'shop' });
    expect(sandbox.status).toBe(201);
    const draft = await api('POST', '/posts', { content: { caption: 'Hello' }, targets: [{ connectionId: sandbox.body.data.id, placement: 'feed' }] });
    expect(draft.status).toBe(201);
    const changed = await api('PATCH', `/posts/${draft.body.data.id}`, { version: 1, targets: [{ connectionId: tiktokAccountId, placement: 'video' }] });
    expect(changed.status).toBe(422);
    expect(changed.body.error).toMatchObject({ code: 'PROVIDER_VALIDATION_FAILED', details: expect.arrayContaining([refusal(0)]) });
  });
});
