// Links in the dashboard: the composer's link setting of a target (shorten, UTM parameters), made the workspace's
// default from there, published as the API publishes it; and the analytics chart showing the short links' clicks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSandboxItem } from '../../src/providers/sandbox/adapter.ts';
import { connectSandbox } from '../support/fixtures.ts';
import { waitForPost } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;

beforeAll(async () => {
  session = await openDashboard();
  await connectSandbox(session.service.services, session.workspace.workspaceId, 'links-sandbox');
});
afterAll(() => session?.close());

describe('links', () => {
  let published: string;

  it('shortens a target’s links with UTM parameters, saved as the workspace default from the composer', async () => {
    const { page, api, service } = session;
    await page.goto(`${dashboardOrigin}/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByLabel('Caption', { exact: true }).fill('Spring sale https://example.com/spring');
    await page.getByRole('button', { name: /^.+ \(@links-sandbox,/ }).click();
    await page.getByRole('button', { name: /@links-sandbox on / }).click();

    const links = page.getByRole('group', { name: 'Links' });
    await links.getByText('The workspace default applies').waitFor();
    await links.getByRole('checkbox', { name: 'Shorten links (counts clicks)' }).check();
    await links.getByLabel('UTM source').fill('dashboard');
    await links.getByText('This account’s own setting.').waitFor();
    await links.getByRole('button', { name: 'Make this the workspace default' }).click();
    await links.getByRole('status').getByText('Saved as the workspace default for new posts.').waitFor();
    expect((await api('GET', '/workspace/links')).body.data).toEqual({ shorten: true, utm: { source: 'dashboard' } });
    expect(await inspectPage(page, 'composer-links')).toEqual([]);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.waitForURL(/\/posts\/[0-9a-f-]{36}$/);
    const postId = page.url().split('/').at(-1)!;
    const target = (await waitForPost(api, postId, ['published'])).targets[0];
    published = (await findSandboxItem(service.services.db, target.remoteId))!.caption;
    expect(published).toMatch(new RegExp(`^Spring sale ${dashboardOrigin}/l/[A-Za-z0-9_-]{10}$`));
    const answer = await fetch(`${service.url}/l/${published.split('/l/')[1]}`, { redirect: 'manual' });
    expect(answer.headers.get('location')).toBe('https://example.com/spring?utm_source=dashboard');
  });

  it('shows the short link’s clicks in the analytics chart and its totals', async () => {
    const { page, service } = session;
    const code = published.split('/l/')[1]!;
    for (let i = 0; i < 2; i++) expect((await fetch(`${service.url}/l/${code}`, { redirect: 'manual' })).status).toBe(302);

    await openPage(page, 'Analytics');
    const totals = page.getByTestId('analytics-totals');
    await totals.waitFor();
    // The first visit was the test above's: three clicks in all.
    await expect.poll(async () => totals.locator('dt', { hasText: 'Clicks' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('3');
    await page.getByText('The chart’s figures as a table').click();
    const table = page.getByRole('table', { name: /^Metrics by day from/ });
    const headers = await table.getByRole('columnheader').allTextContents();
    const column = headers.indexOf('Clicks');
    const clicksByDay = await table.getByRole('row').evaluateAll((rows, index) => rows.slice(1).map((row) => row.children[index]?.textContent ?? ''), column);
    // The chart draws the same series as this table, its figures for screen readers.
    expect(clicksByDay.filter((clicks) => clicks !== '0')).toEqual(['3']);
  });
});
