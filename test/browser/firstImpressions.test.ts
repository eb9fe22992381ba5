// What a new person notices first: the product's name on the sign-in page; on the calendar, today marked (for screen
// readers too) and an empty month saying what to do; the request log without the dashboard's own calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

const timeZone = 'Europe/Berlin';
let session: DashboardSession;

beforeAll(async () => {
  session = await openDashboard({ timezoneId: timeZone });
});
afterAll(() => session?.close());

describe('a new workspace', () => {
  it('marks today and says what to do in an empty month', async () => {
    const { page } = session;
    await openPage(page, 'Calendar');
    await page.locator('.calendar[data-loaded="true"]').waitFor();
    const today = Temporal.Now.plainDateISO(timeZone).toString();
    const marked = page.locator('[aria-current="date"]');
    expect(await marked.getAttribute('data-day')).toBe(today);
    expect(await marked.textContent()).toContain('Today, ');
    await page.getByText(/^No posts in /).waitFor();
    expect(await page.getByRole('link', { name: 'Write a post', exact: true }).count()).toBe(1);
    expect(await inspectPage(page, 'calendar-empty')).toEqual([]);
  });

  it('filters the request log: the dashboard’s own calls hidden, or only what failed', async () => {
    const { page, api } = session;
    expect((await api('GET', '/posts?limit=1')).status).toBe(200);
    expect((await api('GET', '/posts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    await openPage(page, 'Request log');
    const rows = page.locator('main tbody tr');
    const calls = () => rows.locator('code').first().textContent();
    await expect.poll(async () => (await page.locator('main tbody').textContent())?.includes('Dashboard')).toBe(true);
    await page.getByLabel('Hide the dashboard’s own calls').check();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.locator('main tbody').textContent()).not.toContain('Dashboard');
    await page.getByLabel('Only refused and failed calls').check();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await calls()).toMatch(/^GET \/v1\/posts\//);
    expect(await inspectPage(page, 'request-log-filtered')).toEqual([]);
  });

  it('names the product on the sign-in page', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('main').textContent()).toMatch(/^Social publishing/);
    expect(await inspectPage(page, 'sign-in')).toEqual([]);
  });
});
