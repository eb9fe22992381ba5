// The calendar's days as a person uses them: captions readable in a month's cells (two lines, then "…"), checked at
// 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { connectSandbox } from '../support/fixtures.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

const timeZone = 'Europe/Berlin';
const today = Temporal.Now.plainDateISO(timeZone);
// Three months ahead: a month of this file's own posts, all still in the future.
const month = today.with({ day: 1 }).add({ months: 3 });
const postDay = month.with({ day: 15 });
const longCaption =
  'A caption long enough to need more than one line in a day of the month: what the post says should be readable before it is opened, not cut after a few words.';
const at = (day: Temporal.PlainDate, hour: number, minute = 0) =>
  day.toPlainDateTime({ hour, minute }).toZonedDateTime(timeZone).toInstant().toString({ smallestUnit: 'millisecond' });
const dayName = (day: Temporal.PlainDate) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(day.toZonedDateTime('UTC').epochMilliseconds);

let session: DashboardSession;
const ids = { long: '', short: '', evening: '' };

beforeAll(async () => {
  session = await openDashboard({ timezoneId: timeZone });
  const { api, service, workspace } = session;
  const account = await connectSandbox(service.services, workspace.workspaceId, 'days-sandbox');
  const planned = [
    { key: 'long', caption: longCaption, when: at(postDay, 9, 30) },
    { key: 'short', caption: 'Short', when: at(postDay, 10) },
    { key: 'evening', caption: 'In the evening', when: at(postDay, 21, 15) },
  ] as const;
  for (const { key, caption, when } of planned) {
    const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: account, placement: 'feed' }] });
    expect(created.status).toBe(201);
    ids[key] = created.body.data.id;
    expect((await api('POST', `/posts/${ids[key]}/schedule`, { scheduledAt: when, timezone: timeZone })).status).toBe(200);
  }
}, 120_000);
afterAll(() => session?.close());

async function showMonth(steps: number) {
  const { page } = session;
  await page.goto(`${dashboardOrigin}/calendar`);
  await page.locator('.calendar[data-loaded="true"]').waitFor();
  const button = page.getByRole('button', { name: steps < 0 ? 'Previous' : 'Next' });
  for (let step = 0; step < Math.abs(steps); step++) await button.click();
  await page.locator('.calendar[data-loaded="true"]').waitFor();
}

describe('a month’s cells', () => {
  it('show two lines of a long caption, then "…", without widening the page', async () => {
    const { page } = session;
    await showMonth(3);
    const link = (id: string) => page.locator(`[data-post-id="${id}"] .chip-link`);
    await link(ids.long).waitFor();
    const [long, short] = [await link(ids.long).boundingBox(), await link(ids.short).boundingBox()];
    // One line of the short caption; two of the long one, and the rest of it clamped away.
    expect(long!.height / short!.height).toBeCloseTo(2, 0);
    expect(await link(ids.long).evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    expect(await inspectPage(page, 'calendar-month-captions')).toEqual([]);
  });
});
