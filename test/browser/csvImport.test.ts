// The calendar's CSV import in headless Chromium: a file with a bad row shows the dry run's findings by row and
// column and offers no import (nothing saved); the corrected file is ready, and importing it creates its posts.
// The dialog is checked by axe-core and photographed at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../support/fixtures.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;
const username = 'csv-dialog';

beforeAll(async () => {
  session = await openDashboard({ timezoneId: 'Europe/Berlin' });
  await connectSandbox(session.service.services, session.workspace.workspaceId, username);
}, 120_000);
afterAll(() => session?.close());

const file = (text: string) => ({ name: 'month.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('the CSV import dialog', () => {
  it('shows each bad row’s findings before anything is saved, then imports the corrected file', async () => {
    const { page, service } = session;
    const posts = () => service.services.db.prisma.post.count({ where: { workspaceId: session.workspace.workspaceId } });
    await openPage(page, 'Calendar');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import posts from a CSV file' });
    await dialog.waitFor();

    const before = await posts();
    const bad = `caption,accounts,scheduledAt\n"Fine, really",sandbox:${username},${inDays(2)}\nToo early,sandbox:${username},2020-01-01T09:00:00Z\nNobody,sandbox:nobody,\n`;
    await dialog.getByLabel('CSV file').setInputFiles(file(bad));
    await dialog.getByText('2 rows have problems').waitFor();
    const findings = dialog.getByRole('table', { name: 'Problems by row' });
    await expect(findings.getByRole('row').nth(1).textContent()).resolves.toMatch(/^3\s*scheduledAt\s*Must be in the future\.$/);
    await expect(findings.getByRole('row').nth(2).textContent()).resolves.toContain('sandbox:nobody');
    expect(await dialog.getByRole('button', { name: /^Import \d+ posts?$/ }).count()).toBe(0);
    expect(await posts()).toBe(before);
    expect(await inspectPage(page, 'csv-import-findings')).toEqual([]);

    const good = `caption,accounts,scheduledAt\n"Fine, really",sandbox:${username},${inDays(2)}\n"Two\nlines",sandbox:${username},\n`;
    await dialog.getByLabel('CSV file').setInputFiles(file(good));
    await dialog.getByText('All 2 rows are ready to import.').waitFor();
    expect(await posts()).toBe(before);
    await dialog.getByRole('button', { name: 'Import 2 posts' }).click();
    await dialog.getByText('Imported 2 posts.').waitFor();
    expect(await posts()).toBe(before + 2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
