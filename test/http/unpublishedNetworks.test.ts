// Networks this service does not publish to yet are offered nowhere (issue 25 item 1): GET /providers and GraphQL say
// `publishing: false`; connecting one is 409 PROVIDER_NOT_AVAILABLE even with the operator's app credentials set (X's
// here); an account of one stored earlier is refused as a post's target by the dry run, create and change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { enumValueName } from '../../schema/enums.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
/** An X account connected before connecting X was refused, straight in the database. */
let xAccountId: string;

beforeAll(async () => {
  service = await startTestService({ X_CLIENT_ID: 'x-client', X_CLIENT_SECRET: 'x-secret' });
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
  const account = await service.services.db.prisma.socialAccount.create({
    data: { workspaceId: acme.workspaceId, provider: 'x', remoteId: '2244994945', username: 'XDevelopers', displayName: 'X Developers', status: 'ACTIVE' },
  });
  xAccountId = account.id;
});
afterAll(() => service.stop());

const published = ['bluesky', 'mastodon', 'sandbox'];

describe('GET /providers', () => {
  it('says which networks are published to: only those with a publishing adapter', async () => {
    const { body } = await api('GET', '/providers');
    const publishing = Object.fromEntries(body.data.map((entry: any) => [entry.provider, entry.publishing]));
    expect(
      Object.keys(publishing)
        .filter((provider) => publishing[provider])
        .sort(),
    ).toEqual(published);
    expect(publishing).toMatchObject({ x: false, linkedin: false });
    expect(body.data.find((entry: any) => entry.provider === 'x')).toMatchObject({ configured: true, publishing: false });
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
  it('is 409 PROVIDER_NOT_AVAILABLE for X with its app credentials set, and for LinkedIn without, never the settings advice', async () => {
    for (const [path, body] of [
      ['/social-accounts/connect', { provider: 'x' }],
      ['/social-accounts', { provider: 'x', username: 'someone' }],
      ['/social-accounts/connect', { provider: 'linkedin' }],
    ] as const) {
      const answer = await api('POST', path, body);
      expect(answer.status, `${path} ${body.provider}`).toBe(409);
      expect(answer.body.error.code).toBe('PROVIDER_NOT_AVAILABLE');
      expect(answer.body.error.message).not.toContain('CLIENT_ID');
    }
    expect((await api('POST', '/social-accounts/connect', { provider: 'x' })).body.error.message).toBe(
      'Publishing to X is not available on this installation yet.',
    );
    expect((await service.services.db.pool.query('SELECT count(*)::int AS n FROM oauth_authorization')).rows[0].n).toBe(0);
  });
});

describe('an account of such a network as a target', () => {
  const refusal = (index: number) =>
    expect.objectContaining({
      field: `targets[${index}].connectionId`,
      code: 'provider.publishing',
      message: 'Publishing to X is not available on this installation yet.',
    });

  it('is a finding of the dry run, and create refuses it with 422 PROVIDER_VALIDATION_FAILED naming the target', async () => {
    const sandbox = await api('POST', '/social-accounts', { provider: 'sandbox', username: 'shop' });
    const post = {
      content: { caption: 'Hello' },
      targets: [
        { connectionId: sandbox.body.data.id, placement: 'feed' },
        { connectionId: xAccountId, placement: 'feed' },
      ],
    };
    const dryRun = await api('POST', '/posts/validate', post);
    expect(dryRun.body.data.valid).toBe(false);
    expect(dryRun.body.data.targets.map((target: any) => target.findings)).toEqual([[], [refusal(1)]]);
    const created = await api('POST', '/posts', post);
    expect(created.status).toBe(422);
    expect(created.body.error).toMatchObject({ code: 'PROVIDER_VALIDATION_FAILED', details: [refusal(1)] });
  });

  it('change refuses it too', async () => {
    const sandbox = await api('POST', '/social-accounts', { provider: 'sandbox', username: 'shop' });
    expect(sandbox.status).toBe(201);
    const draft = await api('POST', '/posts', { content: { caption: 'Hello' }, targets: [{ connectionId: sandbox.body.data.id, placement: 'feed' }] });
    expect(draft.status).toBe(201);
    const changed = await api('PATCH', `/posts/${draft.body.data.id}`, { version: 1, targets: [{ connectionId: xAccountId, placement: 'feed' }] });
    expect(changed.status).toBe(422);
    expect(changed.body.error).toMatchObject({ code: 'PROVIDER_VALIDATION_FAILED', details: [refusal(0)] });
  });
});
