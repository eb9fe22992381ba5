// Who may use an OAuth start link, and how the dashboard learns how a connection ended. Each "browser" is a cookie
// jar (OAuthBrowser). A flow started in the dashboard is bound to that signed-in session: its start link refuses any
// other browser, signed in or not. A flow started with an API key is meant to be handed to someone: its start link
// answers a page of ours naming the workspace and who asked, and goes to the network only when the visitor presses
// Continue (a POST carrying the page's confirmation, which a link-open or another site's form cannot). How each flow
// ended is read from the server by the `outcome` the callback adds to its redirect, by its starter only.
// The network is the RFC-conformant OAuth stand-in at X's paths (test/support/oauthNetwork.ts names its evidence).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { addPerson, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor } from '../support/posts.ts';
import { OAuthNetwork } from '../support/oauthNetwork.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { bindingCookie, confirmationCookie } from '../../rest/oauthCallback.ts';
import { sessionCookie } from '../../rest/authenticate.ts';
import { startLinkPolicy } from '../../rest/securityHeaders.ts';

const publicBaseUrl = 'https://sps.example.test';
const password = 'a long enough password';

let network: OAuthNetwork;
let service: TestService;
let agency: TestWorkspace;
let owner: { userId: string; email: string };
const browser = () => new OAuthBrowser(service.url, publicBaseUrl);

beforeAll(async () => {
  network = await new OAuthNetwork([`${publicBaseUrl}/oauth/callback/x`]).start();
  service = await startTestService({
    PUBLIC_BASE_URL: publicBaseUrl,
    X_CLIENT_ID: network.clientId,
    X_CLIENT_SECRET: network.clientSecret,
    X_API_BASE_URL: network.url,
    X_AUTH_BASE_URL: `${network.url}/i`,
    REDIRECT_ALLOWED_ORIGINS: 'https://app.agency.example',
  });
  agency = await createWorkspace(service.services);
  await service.services.db.pool.query(`UPDATE workspace SET name = 'Agentur <Nord>' WHERE id = $1`, [agency.workspaceId]);
  owner = await addPerson(service.services, agency.workspaceId, 'admin', password);
  await service.services.db.pool.query(`UPDATE app_user SET name = 'Ada Admin' WHERE id = $1`, [agency.ownerId]);
});
afterAll(async () => {
  await service.stop();
  await network.stop();
});

/** A browser signed in to the dashboard as `email`. */
async function signedIn(email: string): Promise<OAuthBrowser> {
  const login = await fetch(`${service.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(204);
  const token = /sps_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
  const signed = browser();
  signed.keep(sessionCookie, token);
  return signed;
}

/** A GraphQL request as the dashboard sends it from `signed`'s browser (its session cookie, the workspace header). */
async function dashboardGraph(signed: OAuthBrowser, query: string, variables: Record<string, unknown> = {}, language = 'en') {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `${sessionCookie}=${signed.cookie(sessionCookie, '/')!.value}`,
      'x-workspace-id': agency.workspaceId,
      'accept-language': language,
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as any;
}

async function startInDashboard(signed: OAuthBrowser): Promise<string> {
  const started = await dashboardGraph(signed, 'mutation { startAccountConnection(provider: X) { authorizationUrl } }');
  return started.data.startAccountConnection.authorizationUrl;
}

async function startWithKey(redirectUri?: string): Promise<{ authorizationUrl: string; state: string }> {
  const started = await apiFor(service.url, agency.ownerKey)('POST', '/social-accounts/connect', { provider: 'x', ...(redirectUri ? { redirectUri } : {}) });
  expect(started.status).toBe(201);
  return started.body.data;
}

/** Follows the network's authorization (the stand-in authorizes at once) back to our callback, in `by`. */
async function finishAt(by: OAuthBrowser, authorizationAtNetwork: URL) {
  const back = (await fetch(authorizationAtNetwork, { redirect: 'manual' })).headers.get('location')!;
  return by.callback(back);
}

/** The workspace's accounts (the stand-in signs everyone in as the same person: a later flow reconnects the same account). */
const accountIds = async () =>
  (await service.services.db.pool.query('SELECT id FROM social_account WHERE workspace_id = $1', [agency.workspaceId])).rows.map((row) => row.id);

describe('a start link started in the dashboard', () => {
  it('refuses a browser without that session (403, no cookie, not used up), and opens in the session that started it', async () => {
    const starter = await signedIn(owner.email);
    const link = await startInDashboard(starter);
    const before = await accountIds();

    for (const other of [browser(), await signedIn((await addPerson(service.services, agency.workspaceId, 'owner', password)).email)]) {
      const refused = await other.visit(link, { 'accept-language': 'de' });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('location')).toBeNull();
      expect(refused.headers.getSetCookie().join()).not.toContain(bindingCookie);
      const { error } = await refused.json();
      expect(error).toMatchObject({ code: 'FORBIDDEN', details: [expect.objectContaining({ field: 'state', code: 'otherSession' })] });
      expect(error.message).toMatch(/Dashboard-Sitzung/);
    }

    const atNetwork = await starter.start(link);
    expect(atNetwork.origin).toBe(network.url);
    expect(await accountIds()).toEqual(before);
    const back = await finishAt(starter, atNetwork);
    expect(back.location!.pathname).toBe('/accounts');
    expect(await accountIds()).toEqual(back.location!.searchParams.getAll('connectionId'));
  });
});

describe('a start link started with an API key', () => {
  it('answers another browser a localized page naming the workspace and who asked, under a CSP that runs nothing, with no secret', async () => {
    const { authorizationUrl, state } = await startWithKey();
    const visitor = browser();
    const page = await visitor.visit(authorizationUrl, { 'accept-language': 'fr-CH, de;q=0.5' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(startLinkPolicy(network.url, null));
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; .*form-action 'self' http:\/\/127\.0\.0\.1:\d+; frame-ancestors 'none'$/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('location')).toBeNull();
    const html = await page.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Agentur &lt;Nord&gt;');
    expect(html).toContain('Ada Admin');
    expect(html).toMatch(/<form method="post">[\s\S]*<button type="submit">Continuer vers X<\/button>/);
    expect(html).not.toContain(state);
    expect(html).not.toContain(network.url);
    expect(visitor.cookie(bindingCookie, '/oauth/callback/x')).toBeUndefined();
    const confirmation = visitor.cookie(confirmationCookie, '/oauth/start/x')!;
    expect(confirmation).toMatchObject({ httpOnly: true, sameSite: 'strict', secure: true });
    expect(html).toContain(`value="${confirmation.value}"`);
  });

  it('lets Continue’s redirects end at the redirectUri’s origin: the network may send the browser straight back', async () => {
    const { authorizationUrl } = await startWithKey('https://app.agency.example/connected');
    const page = await browser().visit(authorizationUrl);
    expect(page.headers.get('content-security-policy')).toBe(startLinkPolicy(network.url, 'https://app.agency.example'));
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:\d+ https:\/\/app\.agency\.example;/);
  });

  it('refuses a confirmation of the same length in characters but not in bytes (403, not a 500)', async () => {
    const { authorizationUrl } = await startWithKey();
    const visitor = browser();
    await visitor.visit(authorizationUrl);
    const confirmation = visitor.cookie(confirmationCookie, '/oauth/start/x')!.value;
    const refused = await visitor.visit(authorizationUrl, {}, { confirmation: `é${confirmation!.slice(1)}` });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('FORBIDDEN');
  });

  it('goes to the network only on Continue from that page: a post without its confirmation is refused and uses nothing up', async () => {
    const { authorizationUrl } = await startWithKey();
    const visitor = browser();
    const html = await (await visitor.visit(authorizationUrl)).text();
    // Another site's form posting to the link: the SameSite=Strict confirmation cookie is not sent with it.
    const forged = await browser().visit(authorizationUrl, {}, { confirmation: /value="([^"]+)"/.exec(html)![1]! });
    expect(forged.status).toBe(403);
    expect((await forged.json()).error.code).toBe('FORBIDDEN');
    expect((await visitor.visit(authorizationUrl, {}, { confirmation: 'guessed' })).status).toBe(403);

    const continued = await visitor.continueOn(authorizationUrl, html);
    expect(continued.status).toBe(303);
    const atNetwork = new URL(continued.headers.get('location')!);
    expect(atNetwork.origin).toBe(network.url);
    expect(visitor.cookie(bindingCookie, '/oauth/callback/x')).toBeDefined();
    // Opened once: whoever comes next finds nothing.
    expect((await browser().visit(authorizationUrl)).status).toBe(400);
    const [connected] = (await finishAt(visitor, atNetwork)).location!.searchParams.getAll('connectionId');
    expect(await accountIds()).toContain(connected);
  });
});

describe("a connection's outcome", () => {
  const outcomeQuery = 'query($id: ID!) { connectionOutcome(id: $id) { provider connectionIds error message } }';

  it('is read from the server by the redirect’s `outcome`, by the person who started it only, in their language', async () => {
    const starter = await signedIn(owner.email);
    const connected = await finishAt(starter, await starter.start(await startInDashboard(starter)));
    const outcome = connected.location!.searchParams.get('outcome')!;
    expect((await dashboardGraph(starter, outcomeQuery, { id: outcome })).data.connectionOutcome).toEqual({
      provider: 'X',
      connectionIds: connected.location!.searchParams.getAll('connectionId'),
      error: null,
      message: null,
    });

    network.deny = true;
    try {
      const refused = await finishAt(starter, await starter.start(await startInDashboard(starter)));
      const read = await dashboardGraph(starter, outcomeQuery, { id: refused.location!.searchParams.get('outcome') }, 'es');
      expect(read.data.connectionOutcome).toMatchObject({ provider: 'X', connectionIds: [], error: 'access_denied', message: expect.stringMatching(/X/) });
      expect(read.data.connectionOutcome.message).not.toBe(refused.location!.searchParams.get('error_description'));
    } finally {
      network.deny = false;
    }

    const colleague = await signedIn((await addPerson(service.services, agency.workspaceId, 'owner', password)).email);
    expect((await dashboardGraph(colleague, outcomeQuery, { id: outcome })).data.connectionOutcome).toBeNull();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'Your account was hacked: call 555-0100']) {
      expect((await dashboardGraph(starter, outcomeQuery, { id })).data.connectionOutcome).toBeNull();
    }
  });
});
