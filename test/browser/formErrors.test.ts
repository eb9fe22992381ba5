// A refused form in the person's words: the banner names each field to fix and what is wrong with it (not "1 field
// is wrong, see details"), the message also shows at its field, and both go once the person changes that field.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../support/fixtures.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;
let page: Page;

beforeAll(async () => {
  session = await openDashboard();
  page = session.page;
  await connectSandbox(session.service.services, session.workspace.workspaceId, 'errors-sandbox');
});
afterAll(() => session?.close());

describe('a refused form', () => {
  it('in the composer: no account chosen is said as such, at the accounts and in the banner, until one is chosen', async () => {
    await openPage(page, 'Compose');
    await page.getByLabel('Caption', { exact: true }).fill('Nowhere to go');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.locator('p').textContent()).toBe('Please check this field:');
    expect(await banner.getByRole('listitem').allTextContents()).toEqual(['Publish to: Choose at least one account to publish to.']);
    const accounts = page.getByRole('group', { name: 'Publish to' });
    expect(await accounts.locator('.field-error').textContent()).toBe('Choose at least one account to publish to.');
    expect(await inspectPage(page, 'form-errors-composer')).toEqual([]);

    await accounts.getByText('@errors-sandbox').click();
    await banner.waitFor({ state: 'detached' });
    expect(await accounts.locator('.field-error').count()).toBe(0);
  });

  it('in the queue form: the name asked for in the banner and by the field, gone once it is typed', async () => {
    await openPage(page, 'Queues');
    await page.getByRole('button', { name: 'New queue' }).click();
    await page.getByRole('button', { name: 'Save queue' }).click();
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.locator('p').textContent()).toMatch(/^Please check (this field|these \d fields):$/);
    expect(await banner.getByRole('listitem').allTextContents()).toContainEqual(expect.stringMatching(/^Name: \S/));
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill('Mornings');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    expect(
      await page
        .getByRole('alert')
        .getByRole('listitem')
        .filter({ hasText: /^Name: / })
        .count(),
    ).toBe(0);
  });
});
