// LinkedIn end to end against its stand-in (test/support/linkedin.ts): connecting a member and the pages they
// administer in one authorization, publishing text, images with alt text and a video (processed before it is
// posted) as the member and as a page, a refused token, LinkedIn's throttling, and the look-up of an interrupted
// post step.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { startElsewhere } from '../support/elsewhere.ts';
import { image, video } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { LinkedInStandIn } from '../support/linkedin.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { LinkedInAdapter } from '../../src/providers/linkedin/adapter.ts';
import { littleText } from '../../src/providers/linkedin/littleText.ts';
import type { PublishRequest } from '../../src/providers/adapter.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';
import { authorizationRequest, exchangeCode } from '../../src/providers/oauth2.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/linkedin`;
const alice = { id: 'aB3xY9kQ', name: 'Alice Moreau', username: 'alice@example.test', profileImageUrl: 'https://media.licdn.com/alice.jpg' };
const pages = [
  { id: '2414183', localizedName: 'Acme Robotics', vanityName: 'acme-robotics' },
  // A content administrator may post as the page; an analyst may not.
  { id: '5515715', localizedName: 'Globex', vanityName: 'globex', role: 'CONTENT_ADMINISTRATOR' as const },
  { id: '6617717', localizedName: 'Initech', vanityName: 'initech', role: 'ANALYST' as const },
];

let linkedin: LinkedInStandIn;
let service: TestService;
let workspace: TestWorkspace;
let api: Api;
/** Connection ids: the member, then the pages. */
let member: string;
let acme: string;

beforeAll(async () => {
  // A Community Management app: the member and their pages (LINKEDIN_PRODUCTS=community-management).
  linkedin = await LinkedInStandIn.start({
    redirectUris: [callback],
    partBytes: 32 * 1024,
    processingPolls: 1,
    imageProcessingPolls: 1,
    products: 'community-management',
  });
  linkedin.signInAs(alice, pages);
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    ...linkedin.appSettings,
    LINKEDIN_VERSION: '202610',
    LINKEDIN_PRODUCTS: 'community-management',
    // Upload URLs are LinkedIn's word: they pass the SSRF guard only for hosts the operator allows.
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
  });
  workspace = await createWorkspace(service.services);
  api = apiFor(service.url, workspace.ownerKey);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await linkedin?.stop();
});

/** Connects through the service: the start link, LinkedIn's authorization, the callback. Answers the connection ids. */
async function connect(): Promise<{ ids: string[]; authorization: URL }> {
  const started = await api('POST', '/social-accounts/connect', { provider: 'linkedin' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const atLinkedIn = await fetch(authorization, { redirect: 'manual' });
  const back = await person.callback(atLinkedIn.headers.get('location')!);
  expect(back.status).toBe(302);
  return { ids: back.location!.searchParams.getAll('connectionId'), authorization };
}

async function uploadMedia(bytes: Buffer, filename: string, contentType: string, altText?: string): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename, contentType, size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  if (altText) expect((await api('PUT', `/media/${id}/alt-text`, { altText })).status).toBe(200);
  return id;
}

async function publish(connectionId: string, caption: string, mediaIds: string[] = [], settings: Record<string, unknown> = {}) {
  const created = await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId, placement: 'feed', settings }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await api('POST', `/posts/${created.body.data.id}/publish`);
  return (await waitForPost(api, created.body.data.id, ['published', 'failed'])).targets[0];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('connecting LinkedIn', () => {
  it('connects the member and each page they may post as (administrator, content administrator) in one authorization, as three active accounts', async () => {
    const { ids, authorization } = await connect();
    expect(authorization.origin + authorization.pathname).toBe(`${linkedin.authBaseUrl}/v2/authorization`);
    // Only what the Community Management API provides: LinkedIn refuses the authorization for any other scope.
    expect(authorization.searchParams.get('scope')).toBe('r_basicprofile w_member_social w_organization_social r_organization_social rw_organization_admin');
    // The secret travels in the token request's form (LinkedIn takes no HTTP Basic).
    const exchange = linkedin.oauth.requests.findLast((request) => request.path === '/oauth/v2/accessToken')!;
    expect(exchange.form).toMatchObject({ grant_type: 'authorization_code', client_secret: linkedin.oauth.clientSecret });
    expect(exchange.authorization).toBeUndefined();

    expect(ids).toHaveLength(3);
    const accounts = await Promise.all(ids.map(async (id) => (await api('GET', `/social-accounts/${id}`)).body.data));
    expect(accounts.map(({ provider, username, displayName, status }) => ({ provider, username, displayName, status }))).toEqual([
      { provider: 'linkedin', username: 'alice', displayName: 'Alice Moreau', status: 'ACTIVE' },
      { provider: 'linkedin', username: 'acme-robotics', displayName: 'Acme Robotics', status: 'ACTIVE' },
      { provider: 'linkedin', username: 'globex', displayName: 'Globex', status: 'ACTIVE' },
    ]);
    [member, acme] = ids as [string, string];
  });
});

describe("a page's visibility", () => {
  // LinkedIn takes CONNECTIONS from members only: "CONNECTIONS ... only for member authors" (Posts API, `visibility`:
  // https://learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api). A page's account says so at connect.
  it('refuses CONNECTIONS for a page when the post is made (422 on settings.visibility), and takes it for the member', async () => {
    const post = (connectionId: string) =>
      api('POST', '/posts', {
        content: { caption: 'Only for those close to us' },
        targets: [{ connectionId, placement: 'feed', settings: { visibility: 'CONNECTIONS' } }],
      });
    const refused = await post(acme);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'targets[0].settings.visibility' })]);
    const accepted = await post(member);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.data.targets[0].settings).toEqual({ visibility: 'CONNECTIONS' });
  });

  it("offers a page's settings form only the visibilities it may post with; the member's is the schema's", async () => {
    const calls = linkedin.requests.length;
    expect((await api('GET', `/social-accounts/${acme}/setting-options`)).body.data).toEqual({
      visibility: {
        choices: [
          { value: 'PUBLIC', label: 'Anyone' },
          { value: 'LOGGED_IN', label: 'LinkedIn members' },
        ],
        default: 'PUBLIC',
      },
    });
    expect((await api('GET', `/social-accounts/${member}/setting-options`)).body.data).toEqual({});
    // Known from the account itself: LinkedIn is not asked.
    expect(linkedin.requests.length).toBe(calls);
  });
});

describe('publishing to LinkedIn', () => {
  it('posts text as the member, its reserved characters escaped, once, with the feed URL', async () => {
    const caption = 'Launch (beta) at 50% off_now, ask @team [link] #product';
    const before = linkedin.posts.size;
    const target = await publish(member, caption, [], { visibility: 'CONNECTIONS' });
    expect(target).toMatchObject({ status: 'published', attempts: 1, remoteUrl: `https://www.linkedin.com/feed/update/${target.remoteId}/` });
    expect(linkedin.posts.size).toBe(before + 1);
    expect(linkedin.posts.get(target.remoteId)).toMatchObject({
      author: `urn:li:person:${alice.id}`,
      // LinkedIn reads the whole caption back: nothing was taken for a mention or a template.
      text: caption,
      visibility: 'CONNECTIONS',
    });
    const versions = linkedin.requests.filter((request) => request.path.startsWith('/rest/')).map((request) => request.version);
    expect(new Set(versions)).toEqual(new Set(['202610']));
  });

  it('posts two images with their alt text as a multi-image post of the page, once LinkedIn says they are AVAILABLE', async () => {
    const files = [await image('png', 64, 48), await image('jpeg', 48, 64)];
    const mediaIds = [await uploadMedia(files[0]!, 'a.png', 'image/png', 'A red square'), await uploadMedia(files[1]!, 'b.jpg', 'image/jpeg', 'Another')];
    const target = await publish(acme, 'Two pictures from the page', mediaIds);
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.linkedin.com/feed/update/${target.remoteId}/` });
    const post = linkedin.posts.get(target.remoteId)!;
    expect(post.author).toBe(`urn:li:organization:${pages[0]!.id}`);
    expect(post.content?.multiImage?.images.map((entry) => entry.altText)).toEqual(['A red square', 'Another']);
    const uploaded = post.content!.multiImage!.images.map((entry) => linkedin.images.get(entry.id)!);
    expect(uploaded.map((entry) => ({ owner: entry.owner, sha256: entry.sha256, status: entry.status }))).toEqual(
      files.map((file) => ({ owner: post.author, sha256: sha256(file), status: 'AVAILABLE' })),
    );
  });

  it("posts the member's image after one status check's wait, as a member's token may not read its images", async () => {
    const file = await image('png', 40, 40);
    const mediaId = await uploadMedia(file, 'c.png', 'image/png');
    const target = await publish(member, 'A picture of mine', [mediaId]);
    expect(target).toMatchObject({ status: 'published', attempts: 1 });
    const post = linkedin.posts.get(target.remoteId)!;
    expect(linkedin.images.get(post.content!.media!.id)).toMatchObject({ owner: `urn:li:person:${alice.id}`, status: 'AVAILABLE', sha256: sha256(file) });
  });

  it("sends the member's token to no upload URL outside LinkedIn's hosts: the post fails saying so", async () => {
    const elsewhere = await startElsewhere();
    linkedin.uploadsAt = elsewhere.url;
    try {
      const mediaId = await uploadMedia(await image('png', 32, 32), 'away.png', 'image/png');
      const target = await publish(acme, 'An image whose upload URL is elsewhere', [mediaId]);
      expect(target).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_UNAVAILABLE' } });
      expect(target.error.message).toContain("which is not one of its own hosts; the account's token is not sent there");
      expect(elsewhere.authorizations).toEqual([]);
    } finally {
      linkedin.uploadsAt = null;
      await elsewhere.stop();
    }
  });

  it('uploads a video in parts, waits while LinkedIn processes it, then posts it once', async () => {
    const bytes = await video(320, 240, 3);
    const mediaId = await uploadMedia(bytes, 'clip.mp4', 'video/mp4');
    const target = await publish(member, 'A clip', [mediaId]);
    expect(target).toMatchObject({ status: 'published', remoteUrl: `https://www.linkedin.com/feed/update/${target.remoteId}/` });
    const post = linkedin.posts.get(target.remoteId)!;
    const uploaded = linkedin.videos.get(post.content!.media!.id)!;
    expect(uploaded.size).toBe(bytes.length);
    expect(uploaded.parts.length).toBeGreaterThan(1);
    expect(uploaded.parts.map((part) => part.received)).toEqual(uploaded.parts.map(() => 1));
    // Asked while processing (the target waited for the status check), then available, then posted.
    const polls = linkedin.requests.filter((request) => request.path === `/rest/videos/${encodeURIComponent(post.content!.media!.id)}`);
    expect(polls.length).toBeGreaterThanOrEqual(2);
  });

  it('refreshes a refused token once and publishes; a refused refresh leaves the account to reconnect', async () => {
    const refreshes = () => linkedin.oauth.requests.filter((request) => request.form.grant_type === 'refresh_token').length;
    const before = refreshes();
    linkedin.expireTokens();
    const target = await publish(member, 'After a refresh');
    expect(target.status).toBe('published');
    expect(refreshes()).toBe(before + 1);

    linkedin.expireTokens();
    linkedin.oauth.revoked.add((await storedTokens(member)).refreshToken!);
    const refused = await publish(member, 'Not any more');
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'ACCOUNT_NEEDS_RECONNECT' } });
    expect(refreshes()).toBe(before + 2);
    expect((await api('GET', `/social-accounts/${member}`)).body.data).toMatchObject({ status: 'NEEDS_RECONNECT' });
    member = (await connect()).ids[0]!;
  });

  it("waits after LinkedIn's throttling, which names no time, for 30 s or more", async () => {
    const before = linkedin.posts.size;
    linkedin.throttleNext = 1;
    const created = await api('POST', '/posts', { content: { caption: 'Throttled', mediaIds: [] }, targets: [{ connectionId: member, placement: 'feed' }] });
    const asked = Date.now();
    await api('POST', `/posts/${created.body.data.id}/publish`);
    let target: any;
    for (let i = 0; i < 100 && !target?.waitingUntil; i++, await sleep(100)) target = (await api('GET', `/posts/${created.body.data.id}`)).body.data.targets[0];
    expect(target).toMatchObject({ error: { code: 'RATE_LIMITED_BY_PROVIDER' }, waitingReason: expect.stringContaining('throttle') });
    expect(Date.parse(target.waitingUntil) - asked).toBeGreaterThanOrEqual(30_000);
    expect(Date.parse(target.waitingUntil) - asked).toBeLessThan(62_000);
    expect(linkedin.posts.size).toBe(before);
  });
});

describe('an interrupted post step', () => {
  const adapter = () =>
    new LinkedInAdapter({
      app: { clientId: linkedin.oauth.clientId, clientSecret: linkedin.oauth.clientSecret, apiBaseUrl: linkedin.url, authBaseUrl: linkedin.authBaseUrl },
      redirectUri: callback,
      version: '202610',
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });

  async function request(caption: string): Promise<PublishRequest> {
    const accessToken = await linkedin.accessToken(callback);
    return {
      account: { id: 'a', provider: 'linkedin', username: 'alice', remoteId: `urn:li:person:${alice.id}`, tokens: { accessToken } },
      placement: 'feed',
      caption,
      media: [],
      thread: [],
      firstComment: null,
      settings: {},
      idempotencyKey: crypto.randomUUID(),
      checkpoint: keptCheckpoint({ done: {}, started: 'post' }),
      signal: new AbortController().signal,
    };
  }

  it('finds the post the interrupted attempt made instead of posting again', async () => {
    const first = await adapter().publish(await request('Made (once)'));
    const before = linkedin.posts.size;
    const again = await adapter().publish(await request('Made (once)'));
    expect(again).toEqual(first);
    expect(linkedin.posts.size).toBe(before);
  });

  it('posts when the look-up finds nothing', async () => {
    const before = linkedin.posts.size;
    const outcome = await adapter().publish(await request(`Not there yet ${crypto.randomUUID()}`));
    expect(outcome.status).toBe('published');
    expect(linkedin.posts.size).toBe(before + 1);
  });
});

describe('metrics', () => {
  it("reads a page's post statistics, and none for a member's posts", async () => {
    const adapter = new LinkedInAdapter({
      app: { clientId: linkedin.oauth.clientId, clientSecret: linkedin.oauth.clientSecret, apiBaseUrl: linkedin.url, authBaseUrl: linkedin.authBaseUrl },
      redirectUri: callback,
      version: '202610',
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });
    const tokens = { accessToken: await linkedin.accessToken(callback) };
    const page = { id: 'p', provider: 'linkedin', username: 'acme-robotics', remoteId: `urn:li:organization:${pages[0]!.id}`, tokens };
    const pagePost = [...linkedin.posts.values()].find((post) => post.author === page.remoteId)!;
    expect(await adapter.metrics(page, pagePost.id)).toEqual({ impressions: 60, reach: 40, clicks: 5, likes: 7, comments: 3, shares: 2 });
    const person = { ...page, remoteId: `urn:li:person:${alice.id}` };
    const calls = linkedin.requests.length;
    expect(await adapter.metrics(person, [...linkedin.posts.keys()][0]!)).toEqual({});
    expect(linkedin.requests.length).toBe(calls);
  });
});

describe('little text', () => {
  it('escapes every reserved character and keeps hashtags', () => {
    expect(littleText('a|b{c}d@e[f]g(h)i<j>k\\l*m_n~o #tag x#y #')).toBe('a\\|b\\{c\\}d\\@e\\[f\\]g\\(h\\)i\\<j\\>k\\\\l\\*m\\_n\\~o #tag x\\#y \\#');
  });
});

async function storedTokens(connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}

describe('the set-ups of a LinkedIn app (LINKEDIN_PRODUCTS)', () => {
  let shareApp: LinkedInStandIn;
  beforeAll(async () => {
    shareApp = await LinkedInStandIn.start({ redirectUris: [callback], products: 'share' });
    shareApp.signInAs(alice, pages);
  });
  afterAll(() => shareApp.stop());

  const adapterFor = (standIn: LinkedInStandIn, products?: 'share' | 'community-management') =>
    new LinkedInAdapter({
      app: { clientId: standIn.oauth.clientId, clientSecret: standIn.oauth.clientSecret, apiBaseUrl: standIn.url, authBaseUrl: standIn.authBaseUrl },
      redirectUri: callback,
      version: '202610',
      products,
      timeoutMs: 5000,
      allowedHosts: new Set(['127.0.0.1']),
    });

  /** The authorization as the service runs it: LinkedIn's redirect back, and what the connector makes of it. */
  async function authorize(adapter: LinkedInAdapter) {
    if (adapter.connector.method !== 'oauth2') throw new Error('LinkedIn connects through OAuth');
    const app = await adapter.connector.prepare({ redirectUri: callback });
    const { url } = await authorizationRequest(app, 'state');
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    if (!back.searchParams.has('code')) return { url, back, accounts: null };
    const tokens = await exchangeCode(app, 'LinkedIn', back.searchParams, null, 5000);
    return { url, back, accounts: await adapter.connector.identities(tokens, { redirectUri: callback }) };
  }

  it('share (the default): asks only for what Sign In with LinkedIn and Share on LinkedIn provide, and connects the member', async () => {
    const { url, accounts } = await authorize(adapterFor(shareApp));
    expect(url.searchParams.get('scope')).toBe('openid profile email w_member_social');
    expect(accounts?.map(({ identity }) => identity)).toEqual([
      { remoteId: `urn:li:person:${alice.id}`, username: alice.username, displayName: alice.name, avatarUrl: alice.profileImageUrl },
    ]);
  });

  it('LinkedIn refuses an app asked for scopes its products do not provide: a Share app asked for the pages', async () => {
    const { back, accounts } = await authorize(adapterFor(shareApp, 'community-management'));
    expect(back.searchParams.get('error')).toBe('unauthorized_scope_error');
    expect(accounts).toBeNull();
  });

  it('a grant without w_member_social is refused at connect, naming it, before any account is made', async () => {
    shareApp.oauth.ungrantable = 'left-out';
    shareApp.oauth.grantable = ['openid', 'profile', 'email'];
    try {
      const failure = await authorize(adapterFor(shareApp)).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'PROVIDER_REJECTED', message: expect.stringContaining('w_member_social') });
    } finally {
      shareApp.oauth.grantable = ['openid', 'profile', 'email', 'w_member_social'];
      shareApp.oauth.ungrantable = 'refused';
    }
  });
});
