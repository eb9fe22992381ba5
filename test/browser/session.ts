// A signed-in dashboard for a browser test. The service runs in-process under its public address (PUBLIC_BASE_URL
// http://dashboard.test), which Chromium resolves to the test port, so the URLs the API signs and answers (upload
// URLs, thumbnails, published items) work in the page as they do for a user. A new workspace's owner is signed in.
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { launchBrowser, type Browser } from './chromium.ts';

export const dashboardOrigin = 'http://dashboard.test';
const password = 'a long enough password';

export interface DashboardSession {
  service: TestService;
  browser: Browser;
  /** A tab on the dashboard, signed in as the workspace's owner. */
  page: Page;
  workspace: TestWorkspace;
  /** The REST API with the owner's key, to check what the page did. */
  api: Api;
  close(): Promise<void>;
}

export async function openDashboard(options: { env?: Record<string, string>; locale?: string; timezoneId?: string } = {}): Promise<DashboardSession> {
  if (!existsSync(new URL('../../web/dist/index.html', import.meta.url))) {
    throw new Error('The dashboard is not built: `npm install` builds it (or run `npx vite build --config web/vite.config.ts`).');
  }
  const service = await startTestService({ PUBLIC_BASE_URL: dashboardOrigin, ...options.env });
  const browser = await launchBrowser({
    locale: options.locale ?? 'en-US',
    timezoneId: options.timezoneId ?? 'Europe/Berlin',
    hostResolverRules: `MAP ${new URL(dashboardOrigin).host}:80 ${new URL(service.url).host}`,
  });
  const close = async () => {
    await browser.close();
    await service.stop();
  };
  try {
    const workspace = await createWorkspace(service.services, { password });
    const { email } = await service.services.db.prisma.user.findUniqueOrThrow({ where: { id: workspace.ownerId } });
    const page = await browser.context.newPage();
    await page.goto(dashboardOrigin);
    // Signed in by the same call the sign-in page makes, whatever the page's language.
    const status = await page.evaluate(
      async (credentials) =>
        (await fetch('/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })).status,
      { email, password },
    );
    if (status !== 204) throw new Error(`Signing in answered ${status}`);
    await page.reload();
    await page.locator('nav').first().waitFor();
    return { service, browser, page, workspace, api: apiFor(service.url, workspace.ownerKey), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Follows the main navigation's link named `name`. */
export async function openPage(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}
