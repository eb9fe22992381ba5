// GET /v1/social-accounts/{id}/setting-options (and MCP list_social_accounts) against the Pinterest and TikTok stand-ins: the account's boards (every
// page of them), the creator's privacy levels and switches, `{}` for a network without per-account choices, 404 for
// another workspace's account, a refused token refreshed once, then the account to reconnect (409), and a network
// that cannot answer (503). No token is ever in an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { httpClient } from '../support/mcp.ts';
import { PinterestStandIn } from '../support/pinterest.ts';
import { TikTokStandIn } from '../support/tiktok.ts';
import type { NetworkUser } from '../support/oauthNetwork.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';

const publicBaseUrl = 'https://publisher.example';
const pinner: NetworkUser = { id: '549755885175', name: 'Alice Bakes', username: 'alicebakes', profileImageUrl: 'https://i.pinimg.com/alice.jpg' };
const creator: NetworkUser = {
  id: '-000OkPQZ9rQvD2Cz7hLgqgR',
  name: 'Mara Quill',
  username: 'maraquill',
  profileImageUrl: 'https://p16.tiktokcdn.example/m.jpeg',
};
/** More boards than Pinterest's largest page (250): the list comes in two pages. */
const boards = Array.from({ length: 260 }, (_, index) => ({ id: String(900_000_000_000 + index), name: `Board ${index + 1}` }));

let pinterest: PinterestStandIn;
let tiktok: TikTokStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
let pinterestAccount: string;
let tiktokAccount: string;

const options = (id: string, as: Api = api) => as('GET', `/social-accounts/${id}/setting-options`);

async function storedTokens(connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}

/** No token the account holds appears anywhere in an answer. */
async function expectNoTokenIn(answer: unknown, connectionId: string): Promise<void> {
  const { accessToken, refreshToken } = await storedTokens(connectionId);
  const text = JSON.stringify(answer);
  expect(text).not.toContain(accessToken);
  if (refreshToken) expect(text).not.toContain(refreshToken);
}

beforeAll(async () => {
  pinterest = await PinterestStandIn.start([`${publicBaseUrl}/oauth/callback/pinterest`]);
  tiktok = await TikTokStandIn.start([`${publicBaseUrl}/oauth/callback/tiktok`]);
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    ...pinterest.env,
    TIKTOK_CLIENT_ID: tiktok.oauth.clientId,
    TIKTOK_CLIENT_SECRET: tiktok.oauth.clientSecret,
    TIKTOK_API_BASE_URL: tiktok.url,
    TIKTOK_AUTH_BASE_URL: tiktok.url,
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
  });
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
  pinterest.signInAs(pinner, boards);
  pinterestAccount = await connectByOAuth(service, publicBaseUrl, api, 'pinterest');
  tiktok.signInAs(creator, { privacyLevels: ['FOLLOWER_OF_CREATOR', 'PUBLIC_TO_EVERYONE', 'SELF_ONLY'], duetDisabled: true });
  tiktokAccount = await connectByOAuth(service, publicBaseUrl, api, 'tiktok');
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await pinterest?.stop();
  await tiktok?.stop();
});

describe("an account's setting options", () => {
  it("lists every one of the Pinterest account's boards by name for boardId, following Pinterest's bookmarks", async () => {
    const answer = await options(pinterestAccount);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(Object.keys(answer.body.data)).toEqual(['boardId']);
    expect(answer.body.data.boardId.choices).toEqual(boards.map((board) => ({ value: board.id, label: board.name })));
    const pages = pinterest.requests.filter((request) => request.path.startsWith('/v5/boards?'));
    expect(pages).toHaveLength(2);
    expect(pages[1]!.path).toContain('bookmark=');
    await expectNoTokenIn(answer.body, pinterestAccount);
  });

  it("gives the TikTok creator's privacy levels in TikTok's order with no default (the person chooses), and the switches, off, the creator turned off", async () => {
    const answer = await options(tiktokAccount);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      privacyLevel: {
        choices: [
          { value: 'FOLLOWER_OF_CREATOR', label: 'Followers' },
          { value: 'PUBLIC_TO_EVERYONE', label: 'Everyone' },
          { value: 'SELF_ONLY', label: 'Only me' },
        ],
      },
      allowComments: { default: false },
      allowDuet: { default: false, unavailable: 'The creator turned duets off on TikTok.' },
      allowStitch: { default: false },
    });
    await expectNoTokenIn(answer.body, tiktokAccount);
  });

  it('answers the same through the graph (SocialAccount.settingOptions) and MCP (each account of list_social_accounts)', async () => {
    const query = 'query($id: ID!) { socialAccount(id: $id) { settingOptions { name choices { value label } default unavailable dependsOn } } }';
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { id: tiktokAccount } }),
    });
    const { data, errors } = await response.json();
    expect(errors).toBeUndefined();
    expect(data.socialAccount.settingOptions).toEqual([
      { name: 'privacyLevel', choices: expect.arrayContaining([{ value: 'SELF_ONLY', label: 'Only me' }]), default: null, unavailable: null, dependsOn: [] },
      { name: 'allowComments', choices: null, default: false, unavailable: null, dependsOn: [] },
      { name: 'allowDuet', choices: null, default: false, unavailable: 'The creator turned duets off on TikTok.', dependsOn: [] },
      { name: 'allowStitch', choices: null, default: false, unavailable: null, dependsOn: [] },
    ]);
    const client = await httpClient(service.url, workspace.ownerKey);
    try {
      const result = await client.callTool({ name: 'list_social_accounts', arguments: { limit: 100 } });
      expect(result.isError).toBeFalsy();
      const { accounts } = result.structuredContent as { accounts: { id: string; provider: string; settingOptions: unknown[] }[] };
      expect(accounts.find((account) => account.id === pinterestAccount)).toMatchObject({
        provider: 'pinterest',
        settingOptions: [
          { name: 'boardId', choices: boards.map((board) => ({ value: board.id, label: board.name })), default: null, unavailable: null, dependsOn: [] },
        ],
      });
      expect(accounts.find((account) => account.id === tiktokAccount)?.settingOptions).toEqual(data.socialAccount.settingOptions);
      const withoutNetworks = await client.callTool({ name: 'list_social_accounts', arguments: { settingOptions: false } });
      const listed = (withoutNetworks.structuredContent as { accounts: Record<string, unknown>[] }).accounts;
      expect(listed.map((account) => account.id)).toEqual(expect.arrayContaining([pinterestAccount, tiktokAccount]));
      expect(listed.every((account) => !('settingOptions' in account))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers {} for a network without per-account choices', async () => {
    const sandbox = await connectSandbox(service.services, workspace.workspaceId);
    expect(await options(sandbox)).toMatchObject({ status: 200, body: { data: {} } });
  });

  it("is 404 for another workspace's account, asking no network", async () => {
    const other = await createWorkspace(service.services);
    const asOther = apiFor(service.url, other.ownerKey);
    const before = pinterest.requests.length + tiktok.requests.length;
    for (const id of [pinterestAccount, tiktokAccount, 'not-an-id']) {
      const answer = await options(id, asOther);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
    expect(pinterest.requests.length + tiktok.requests.length).toBe(before);
  });

  it('is 503 PROVIDER_UNAVAILABLE with the network’s reason when it throttles', async () => {
    pinterest.throttleNext = 10;
    try {
      const answer = await options(pinterestAccount);
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(answer.body.error.message).toContain('Pinterest');
    } finally {
      pinterest.throttleNext = 0;
    }
  });

  it.each([
    ['pinterest', () => pinterest, () => pinterestAccount],
    ['tiktok', () => tiktok, () => tiktokAccount],
  ] as const)(
    '%s: a refused token is refreshed once and the read made again; a refused refresh leaves the account to reconnect (409)',
    async (_network, network, account) => {
      network().oauth.expireAccessTokens();
      const refreshed = await options(account());
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      expect(Object.keys(refreshed.body.data).length).toBeGreaterThan(0);

      network().oauth.expireAccessTokens();
      network().oauth.revoked.add((await storedTokens(account())).refreshToken!);
      const refused = await options(account());
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('CONFLICT');
      expect(refused.body.error.message).toMatch(/reconnect/);
      await expectNoTokenIn(refused.body, account());
      expect((await api('GET', `/social-accounts/${account()}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT', needsReconnect: true });
      const again = await options(account());
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
    },
  );
});
