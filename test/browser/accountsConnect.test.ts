// The accounts page connecting an OAuth network in Chromium, end to end through the service's start link and
// callback, against the RFC-conformant OAuth stand-in at X's paths (test/support/oauthNetwork.ts names its
// evidence): how the connection ended is what the service says for the flow the address names, never text from the
// address. And every network is listed: one the operator has not set up says what to set (owners and admins) or
// whom to ask (others), with its docs page served by the service. Each state is checked by axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPerson } from '../support/fixtures.ts';
import { OAuthNetwork } from '../support/oauthNetwork.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, openPage, type DashboardSession } from './session.ts';

let network: OAuthNetwork;
let session: DashboardSession;

beforeAll(async () => {
  network = await new OAuthNetwork([`${dashboardOrigin}/oauth/callback/x`]).start();
  session = await openDashboard({
    env: { X_CLIENT_ID: network.clientId, X_CLIENT_SECRET: network.clientSecret, X_API_BASE_URL: network.url, X_AUTH_BASE_URL: `${network.url}/i` },
  });
});
afterAll(async () => {
  await session?.close();
  await network?.stop();
});

const outcomeShown = () => session.page.locator('[role="alert"], [role="status"]').filter({ hasText: /\S/ });

describe('the accounts page after a connection', () => {
  it('shows nothing for an address with its own words, whatever outcome it names', async () => {
    const { page } = session;
    const crafted = new URLSearchParams({
      error: 'invalid_request',
      error_description: 'Your account was suspended: call 555-0100',
      connectionId: 'one',
      outcome: '00000000-0000-4000-8000-000000000000',
    });
    await page.goto(`${dashboardOrigin}/accounts?${crafted}`);
    await page.getByRole('button', { name: 'Connect X', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('555-0100').count()).toBe(0);
    expect(await outcomeShown().count()).toBe(0);
  });

  it("says what the service says of the flow: the accounts connected, or the network's refusal", async () => {
    const { page } = session;
    await openPage(page, 'Accounts');
    await page.getByRole('button', { name: 'Connect X', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Account connected.' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('row', { name: /@/ }).first().waitFor();

    network.deny = true;
    try {
      await page.getByRole('button', { name: 'Connect X', exact: true }).click();
      const refusal = page.getByRole('alert').filter({ hasText: /^X did not authorize the connection \(.+\); nothing was connected\.$/ });
      await refusal.waitFor();
      expect(new URL(page.url()).search).toBe('');
      expect(await inspectPage(page, 'accounts-connection-refused')).toEqual([]);
    } finally {
      network.deny = false;
    }
  });
});

describe('a start link started with an API key, in a browser', () => {
  it('asks first, on an accessible page, and Continue goes on to the network and back', async () => {
    const { page, api } = session;
    const started = await api('POST', '/social-accounts/connect', { provider: 'x' });
    await page.goto(started.body.data.authorizationUrl);
    await page.getByRole('heading', { name: 'Connect your X account' }).waitFor();
    expect(await inspectPage(page, 'oauth-start-link')).toEqual([]);
    await page.getByRole('button', { name: 'Continue to X' }).click();
    // Back on the accounts page of the owner who started it (signed in here): the service says how it went.
    await page.getByRole('status').filter({ hasText: 'Account connected.' }).waitFor();
  });
});

describe('networks not set up on this installation', () => {
  it('are listed with the settings to set for an owner, and the docs page the service serves', async () => {
    const { page } = session;
    await openPage(page, 'Accounts');
    const unconfigured = page.getByRole('region', { name: 'Not set up on this installation' });
    const linkedin = unconfigured.getByRole('listitem').filter({ hasText: 'LinkedIn' });
    await linkedin.waitFor();
    expect(await linkedin.textContent()).toContain('LINKEDIN_CLIENT_ID, LINKEDIN_CLIENT_SECRET');
    const guide = linkedin.getByRole('link', { name: 'How to set up LinkedIn' });
    expect(await guide.getAttribute('href')).toBe('/docs/networks/linkedin.md');
    // X is set up: offered, not listed here.
    expect(await unconfigured.getByRole('listitem').filter({ hasText: /^X/ }).count()).toBe(0);
    expect(await inspectPage(page, 'accounts-unconfigured')).toEqual([]);

    const fetched = (path: string) =>
      page.evaluate(async (target) => {
        const response = await fetch(target);
        return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
      }, path);
    const docs = await fetched((await guide.getAttribute('href'))!);
    expect(docs).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/plain/), text: expect.stringContaining('LINKEDIN_CLIENT_ID') });
    expect((await fetched('/docs/networks/..%2Fapi.md')).status).toBe(404);
  });

  it('ask an editor to turn to their administrator, naming no setting', async () => {
    const { page, service, workspace } = session;
    const editor = await addPerson(service.services, workspace.workspaceId, 'editor', 'a long enough password');
    const status = await page.evaluate(async (email) => {
      await fetch('/auth/logout', { method: 'POST' });
      const body = JSON.stringify({ email, password: 'a long enough password' });
      return (await fetch('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status;
    }, editor.email);
    expect(status).toBe(204);
    await page.goto(`${dashboardOrigin}/accounts`);
    const linkedin = page.getByRole('region', { name: 'Not set up on this installation' }).getByRole('listitem').filter({ hasText: 'LinkedIn' });
    await linkedin.waitFor();
    expect(await linkedin.textContent()).toContain('ask your administrator');
    expect(await linkedin.textContent()).not.toContain('LINKEDIN_CLIENT_ID');
    expect(await linkedin.getByRole('link', { name: 'How to set up LinkedIn' }).count()).toBe(1);
    expect(await inspectPage(page, 'accounts-unconfigured-editor')).toEqual([]);
  });
});
