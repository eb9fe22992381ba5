// The composer on one screen: the media library in a dialog (not inline as tiles), the drop zone's own localized
// button instead of the browser's "Choose file", the actions in one bar that stays in view, the previews beside the
// editor on a wide screen and a tab on a phone; and the people and API keys tables as cards at 375 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../support/fixtures.ts';
import { inspectPage } from './chromium.ts';
import { libraryImage } from './libraryImage.ts';
import { dashboardOrigin, openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;
let page: Page;
const libraryFiles = 8;

beforeAll(async () => {
  session = await openDashboard();
  page = session.page;
  await connectSandbox(session.service.services, session.workspace.workspaceId, 'layout-sandbox');
  for (let index = 0; index < libraryFiles; index++) await libraryImage(session, `library-${index}.png`, 64, 48);
}, 120_000);
afterAll(() => session?.close());

/** The composer with its account chosen, at `width` px. */
async function composeAt(width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${dashboardOrigin}/compose`);
  await page.getByRole('heading', { name: 'New post' }).waitFor();
  await page.getByRole('button', { name: /\(@layout-sandbox,/ }).click();
  await page.getByLabel('Caption', { exact: true }).fill('One screen');
}
const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);

describe('the composer', () => {
  afterAll(() => page.setViewportSize({ width: 1280, height: 900 }));

  it('keeps the library in a dialog and offers its own upload button, not the browser’s file input', async () => {
    await composeAt(1280);
    expect(await page.getByRole('button', { name: /^Add library-/ }).count()).toBe(0);
    expect(await page.locator('input[type="file"]:visible').count()).toBe(0);
    await page.getByRole('button', { name: 'Upload files' }).waitFor();

    await page.getByRole('button', { name: 'Add from the library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media library' });
    await dialog.getByRole('button', { name: 'Add library-3.png' }).click();
    expect(await dialog.getByRole('button', { name: 'library-3.png (added)' }).isDisabled()).toBe(true);
    expect(await inspectPage(page, 'composer-library-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByLabel('Alt text for library-3.png').waitFor();
  });

  it('fits one screen at 1280 px: the previews beside the editor, the actions in view', async () => {
    await composeAt(1280);
    // About one window (900 px): it was a long form with the whole library inline.
    expect(await pageHeight()).toBeLessThanOrEqual(1100);
    const editor = (await page.locator('.composer-editor').boundingBox())!;
    const previews = (await page.getByRole('region', { name: 'Preview', exact: true }).boundingBox())!;
    expect(previews.x).toBeGreaterThanOrEqual(editor.x + editor.width);
    const bar = (await page.locator('.composer-bar').boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(900);
    await page.getByRole('button', { name: 'Publish now' }).waitFor();
  });

  it('at 375 px: the editor and the previews are two tabs, and the actions stay in view', async () => {
    await composeAt(375);
    // It was 2,900 px tall.
    expect(await pageHeight()).toBeLessThanOrEqual(1500);
    const tabs = page.getByRole('tablist', { name: 'Write or preview' });
    expect(await tabs.getByRole('tab', { name: 'Write' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('region', { name: 'Preview', exact: true }).isHidden()).toBe(true);
    const bar = page.locator('.composer-bar');
    const inView = async () => {
      const box = (await bar.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 900;
    };
    expect(await inView()).toBe(true);
    expect(await inspectPage(page, 'composer-phone')).toEqual([]);
    await page.setViewportSize({ width: 375, height: 900 });

    await tabs.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('article', { name: /@layout-sandbox on Sandbox/ }).waitFor();
    expect(await page.getByLabel('Caption', { exact: true }).isHidden()).toBe(true);
    expect(await inView()).toBe(true);
    // The caption typed is kept across the tabs.
    await tabs.getByRole('tab', { name: 'Write' }).click();
    expect(await page.getByLabel('Caption', { exact: true }).inputValue()).toBe('One screen');
  });
});

describe('tables at 375 px', () => {
  it('shows people and API keys as cards, each value under its column’s name, without sideways scrolling', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const [name, heading] of [
      ['People', 'People'],
      ['API keys', 'API keys'],
    ] as const) {
      await openPage(page, name);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      const table = page.locator('table.card-table');
      await table.locator('tbody tr').first().waitFor();
      await page.setViewportSize({ width: 375, height: 900 });
      expect(
        await table
          .locator('tbody tr')
          .first()
          .evaluate((row) => getComputedStyle(row).display),
      ).toBe('block');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await inspectPage(page, `${name.toLowerCase().replace(' ', '-')}-cards`)).toEqual([]);
    }
  });
});
