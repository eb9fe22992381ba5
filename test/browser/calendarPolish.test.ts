// What a new person notices first: the product's name on the sign-in page; on the calendar, today marked (for screen
// readers too) and an empty month saying what to do.
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

describe('the calendar of a new workspace', () => {
  it('marks today and says what to do in an empty month', async () => {
    const { page } = session;
    await openPage(page, 'Calendar');
    await page.locator('.calendar[data-loaded="true"]').waitFor();
    const today = Temporal.Now.plainDateISO(timeZone).toString();
    const marked = page.locator('[aria-current="date"]');
    expect(await marked.getAttribute('data-day')).toBe(today);
    expect(await marked.textContent()).toContain('Today, ');
    await page.getByText(/^No posts in /).waitFor();
    expect(await page.getByRole('link', { name: 'Write a post' }).count()).toBe(1);
    expect(await inspectPage(page, 'calendar-empty')).toEqual([]);
  });

  it('names the product on the sign-in page', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('main').textContent()).toMatch(/^Social publishing/);
    expect(await inspectPage(page, 'sign-in')).toEqual([]);
  });
});
