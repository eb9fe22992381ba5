// The LinkedIn stand-in (test/support/linkedin.ts) kept honest: linkedin-api-client, LinkedIn's official client,
// encodes Rest.li 2.0 requests (URNs in paths and queries, List(...) parameters, the version and protocol headers) and
// reads the answers (x-restli-id, finder elements, action values) against it, and gets LinkedIn's errors where
// LinkedIn gives them. The client calls https://api.linkedin.com; an interceptor on its axios instance sends it here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestliClient } from 'linkedin-api-client';
import { LinkedInStandIn } from '../support/linkedin.ts';

const redirectUri = 'https://sps.example.test/oauth/callback/linkedin';
const versionString = '202610';
const alice = { id: 'aB3xY9kQ', name: 'Alice Moreau', username: 'alice@example.test' };
const bakery = { id: '5515715', localizedName: 'Moreau Bakery', vanityName: 'moreau-bakery' };
const member = `urn:li:person:${alice.id}`;
const page = `urn:li:organization:${bakery.id}`;
let linkedin: LinkedInStandIn;
let client: RestliClient;
let accessToken: string;

beforeAll(async () => {
  linkedin = await LinkedInStandIn.start({ redirectUris: [redirectUri] });
  linkedin.signInAs(alice, [bakery]);
  accessToken = await linkedin.accessToken(redirectUri, 'openid profile email w_member_social w_organization_social r_organization_social');
  client = new RestliClient();
  client.axiosInstance.interceptors.request.use((config) => ({ ...config, url: config.url?.replace('https://api.linkedin.com', linkedin.url) }));
});
afterAll(() => linkedin.stop());

const post = (author: string, commentary: string) => ({
  author,
  commentary,
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
  isReshareDisabledByAuthor: false,
});

/** The status and LinkedIn's error body of a call the client rejects. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const error = (await call.then(
    () => null,
    (caught: unknown) => caught,
  )) as { response?: { status: number; data: Record<string, unknown> } } | null;
  expect(error?.response).toBeDefined();
  return { status: error!.response!.status, body: error!.response!.data };
}

describe('the LinkedIn stand-in, through linkedin-api-client', () => {
  it('answers who the member is and the pages they administer', async () => {
    const me = await client.get({ resourcePath: '/userinfo', accessToken });
    expect(me.data).toMatchObject({ sub: alice.id, email: alice.username });
    const acls = await client.finder({
      resourcePath: '/organizationAcls',
      finderName: 'roleAssignee',
      queryParams: { role: 'ADMINISTRATOR', state: 'APPROVED' },
      accessToken,
      versionString,
    });
    expect(acls.data.elements).toEqual([expect.objectContaining({ organization: page, role: 'ADMINISTRATOR', state: 'APPROVED' })]);
  });

  it('creates a post named by x-restli-id, finds it by author, and takes a comment on it that it lists', async () => {
    const created = await client.create({ resourcePath: '/posts', entity: post(page, 'Fresh bread at 7'), accessToken, versionString });
    expect(created.createdEntityId).toMatch(/^urn:li:share:\d+$/);
    const urn = created.createdEntityId as string;
    const found = await client.finder({ resourcePath: '/posts', finderName: 'author', queryParams: { author: page, count: 10 }, accessToken, versionString });
    expect(found.data.elements.map((element) => element.id)).toContain(urn);

    const comment = await client.create({
      resourcePath: '/socialActions/{id}/comments',
      pathKeys: { id: urn },
      entity: { actor: page, object: urn, message: { text: 'Menu: https://moreau.example' } },
      accessToken,
      versionString,
    });
    expect(comment.createdEntityId).toMatch(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/);
    const comments = await client.getAll({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: urn }, accessToken, versionString });
    expect(comments.data.elements).toEqual([
      expect.objectContaining({
        actor: page,
        commentUrn: comment.createdEntityId,
        object: urn,
        message: expect.objectContaining({ text: 'Menu: https://moreau.example' }),
      }),
    ]);

    const statistics = await client.finder({
      resourcePath: '/organizationalEntityShareStatistics',
      finderName: 'organizationalEntity',
      queryParams: { organizationalEntity: page, shares: [urn] },
      accessToken,
      versionString,
    });
    expect(statistics.data.elements).toEqual([expect.objectContaining({ organizationalEntity: page, share: urn })]);
  });

  it('nests a comment under a first-level one, lists either a page at a time, and forgets a deleted comment and what is under it', async () => {
    const { createdEntityId: urn } = await client.create({ resourcePath: '/posts', entity: post(page, 'Open on Sunday'), accessToken, versionString });
    const comment = (text: string, under: string, parentComment?: string) =>
      client.create({
        resourcePath: '/socialActions/{id}/comments',
        pathKeys: { id: under },
        entity: { actor: page, object: urn, message: { text }, ...(parentComment ? { parentComment } : {}) },
        accessToken,
        versionString,
      });
    const first = (await comment('Which street?', urn as string)).createdEntityId as string;
    await comment('And which hours?', urn as string);
    const nested = (await comment('Rue Mouffetard', first, first)).createdEntityId as string;
    expect(nested).toMatch(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/);
    // One level only: nothing nests under a nested comment.
    expect((await refusal(comment('Deeper', nested, nested))).status).toBe(422);

    const page1 = await client.getAll({
      resourcePath: '/socialActions/{id}/comments',
      pathKeys: { id: urn },
      queryParams: { start: 0, count: 1 },
      accessToken,
      versionString,
    });
    expect(page1.data.paging).toMatchObject({ start: 0, count: 1, total: 2 });
    expect(page1.data.elements).toEqual([
      expect.objectContaining({
        $URN: first,
        commentUrn: first,
        created: expect.objectContaining({ time: expect.any(Number) }),
        commentsSummary: expect.objectContaining({ aggregatedTotalComments: 1 }),
      }),
    ]);
    const under = await client.getAll({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: first }, accessToken, versionString });
    expect(under.data.elements).toEqual([
      expect.objectContaining({ commentUrn: nested, parentComment: first, object: urn, message: expect.objectContaining({ text: 'Rue Mouffetard' }) }),
    ]);

    await client.delete({
      resourcePath: '/socialActions/{id}/comments/{commentId}',
      pathKeys: { id: urn, commentId: /,(\d+)\)$/.exec(first)![1] },
      queryParams: { actor: page },
      accessToken,
      versionString,
    });
    const left = await client.getAll({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: urn }, accessToken, versionString });
    expect(left.data.elements.map((element) => element.message.text)).toEqual(['And which hours?']);
    expect((await refusal(client.getAll({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: first }, accessToken, versionString }))).status).toBe(
      404,
    );

    // A page's comments are read with r_organization_social only.
    const writeOnly = await linkedin.accessToken(redirectUri, 'openid w_organization_social');
    expect(
      await refusal(client.getAll({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: urn }, accessToken: writeOnly, versionString })),
    ).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED' } });
  });

  it('initializes an image upload for the member and hands out its upload URL', async () => {
    const initialized = await client.action({
      resourcePath: '/images',
      actionName: 'initializeUpload',
      data: { initializeUploadRequest: { owner: member } },
      accessToken,
      versionString,
    });
    expect(initialized.data.value).toMatchObject({ image: expect.stringMatching(/^urn:li:image:/), uploadUrl: expect.stringContaining('/upload/image/') });
  });

  it("answers LinkedIn's errors: another author, a version not active, an unknown token, throttling", async () => {
    expect(
      await refusal(client.create({ resourcePath: '/posts', entity: post('urn:li:organization:1', 'Not mine'), accessToken, versionString })),
    ).toMatchObject({
      status: 403,
      body: { code: 'ACCESS_DENIED' },
    });
    expect(await refusal(client.create({ resourcePath: '/posts', entity: post(member, 'Bad version'), accessToken, versionString: '2026' }))).toMatchObject({
      status: 426,
      body: { code: 'NONEXISTENT_VERSION' },
    });
    expect(await refusal(client.get({ resourcePath: '/userinfo', accessToken: 'not-a-token' }))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_ACCESS_TOKEN' },
    });
    linkedin.throttleNext = 1;
    expect((await refusal(client.create({ resourcePath: '/posts', entity: post(member, 'Throttled'), accessToken, versionString }))).status).toBe(429);
  });
});
