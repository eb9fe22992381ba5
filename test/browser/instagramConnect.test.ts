// The accounts page offering Instagram's two ways of connecting where both apps are set up, in Chromium, end to end
// against the Meta stand-in (test/support/meta.ts names its evidence): Instagram Login connects an account without a
// Facebook Page through www.instagram.com's authorization and comes back to the page, which says so; Facebook Login
// stays offered beside it. Each state is checked by axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaStandIn } from '../support/meta.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, openPage, type DashboardSession } from './session.ts';

let meta: MetaStandIn;
let session: DashboardSession;

beforeAll(async () => {
  meta = await MetaStandIn.start({ redirectUris: [`${dashboardOrigin}/oauth/callback/instagram`] });
  session = await openDashboard({
    env: {
      FACEBOOK_CLIENT_ID: meta.clientId,
      FACEBOOK_CLIENT_SECRET: meta.clientSecret,
      FACEBOOK_API_BASE_URL: meta.url,
      FACEBOOK_AUTH_BASE_URL: meta.url,
      INSTAGRAM_CLIENT_ID: meta.instagramClientId,
      INSTAGRAM_CLIENT_SECRET: meta.instagramClientSecret,
      INSTAGRAM_API_BASE_URL: meta.instagramUrl,
      INSTAGRAM_AUTH_BASE_URL: meta.instagramUrl,
      INSTAGRAM_TOKEN_BASE_URL: meta.instagramUrl,
    },
  });
});
afterAll(async () => {
  await session?.close();
  await meta?.stop();
});

describe('connecting Instagram from the accounts page', () => {
  it('offers Facebook Login and Instagram Login, and connects an account without a Facebook Page with the latter', async () => {
    const { page } = session;
    await openPage(page, 'Accounts');
    const facebookLogin = page.getByRole('button', { name: 'Connect Instagram with Facebook Login (an account linked to a Facebook Page)' });
    const instagramLogin = page.getByRole('button', { name: 'Connect Instagram with Instagram Login (no Facebook Page needed)' });
    await instagramLogin.waitFor();
    expect(await facebookLogin.count()).toBe(1);
    expect(await inspectPage(page, 'accounts-instagram-methods')).toEqual([]);

    await instagramLogin.click();
    await page.getByRole('status').filter({ hasText: 'Account connected.' }).waitFor();
    await page.getByRole('row', { name: /@moreau\.bakery/ }).waitFor();
    // It went through Instagram's own authorization, not Facebook's dialog.
    expect(meta.requests.some((request) => request.path === '/instagram/oauth/authorize')).toBe(true);
    expect(meta.requests.some((request) => request.path === '/dialog/oauth')).toBe(false);
    const accounts = (await session.api('GET', '/social-accounts')).body.data;
    expect(accounts).toEqual([expect.objectContaining({ provider: 'instagram', username: 'moreau.bakery', connectionMethod: 'instagram_login' })]);
  });
});
