// The Content-Security-Policy in force in Chromium: a script injected into the dashboard (as a successful XSS would)
// does not run and is reported, while every page of the dashboard, a thumbnail on it, and GraphiQL work under their
// policies without one refusal.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { storageKeys } from '../../src/media/storage.ts';
import { image } from '../support/mediaFiles.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

let session: DashboardSession;

beforeAll(async () => {
  session = await openDashboard();
  // Every document the tab loads from now on records the policy's refusals.
  await session.page.addInitScript(() => {
    const refusals: string[] = [];
    Object.assign(window, { refusals });
    document.addEventListener('securitypolicyviolation', (event) => refusals.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
});
afterAll(() => session?.close());

const refusalsOf = (page: Page) => page.evaluate(() => (window as unknown as { refusals: string[] }).refusals);

describe('the dashboard’s policy', () => {
  it('runs no script injected into the page, inline or as a handler, and reports each', async () => {
    const { page } = session;
    await page.goto(`${dashboardOrigin}/calendar`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = "inline script"';
      document.body.append(script);
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="data:," onerror="window.injected = \'event handler\'">';
      document.body.append(holder);
    });
    await expect.poll(() => refusalsOf(page)).toEqual(expect.arrayContaining(['script-src-elem inline', 'script-src-attr inline']));
    expect(await page.evaluate(() => (window as unknown as { injected?: string }).injected)).toBeUndefined();
  });

  it('lets every page of the dashboard, and a thumbnail, load without a refusal', async () => {
    const { page, api, service } = session;
    const started = await api('POST', '/media/uploads', { filename: 'photo.webp', contentType: 'image/webp', size: 1 });
    const { id } = started.body.data;
    const picture = await image('webp', 64, 48);
    for (const key of [storageKeys.original(id), storageKeys.thumbnail(id)])
      await service.services.storage.write(key, Readable.from([picture]), picture.length);
    await service.services.db.prisma.media.update({
      where: { id },
      data: { status: 'ready', type: 'image', mimeType: 'image/webp', size: picture.length, width: 64, height: 48, hasThumbnail: true },
    });

    const paths = await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    expect(paths).toContain('/media');
    for (const path of paths) {
      await page.goto(`${dashboardOrigin}${path}`);
      await page.getByRole('main').waitFor();
      if (path === '/media')
        await expect
          .poll(() =>
            page
              .locator('img.thumbnail')
              .first()
              .evaluate((img) => (img as HTMLImageElement).naturalWidth),
          )
          .toBe(64);
      await page.waitForLoadState('networkidle');
      expect(await refusalsOf(page), path).toEqual([]);
    }
  });
});

describe('GraphiQL’s policy', () => {
  it('lets GraphiQL run a query without a refusal', async () => {
    const { page } = session;
    await page.goto(`${dashboardOrigin}/graphql`);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => page.locator('.graphiql-response').textContent(), { timeout: 15_000 }).toMatch(/UNAUTHENTICATED|workspaceId/);
    expect(await refusalsOf(page)).toEqual([]);
  });
});
