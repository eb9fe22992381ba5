// The calendar's days as a person uses them: captions readable in a month's cells (two lines, then "…"); a day from
// today on written for with its "+" (or a click on its empty space, in the week at the hour clicked), the composer
// proposing a time on it; the week in hours, each post in its hour's row, opened at the working hours; each view
// checked at 1280 and 375 px.
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

/** The week of the posts, in hours. */
async function showWeekOfPosts() {
  const { page } = session;
  await showMonth(3);
  await page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name: 'Week' }).click();
  // The week of the day shown (today's day three months on, as Next steps a month); on to the week of the posts.
  const monday = (date: Temporal.PlainDate) => date.subtract({ days: date.dayOfWeek - 1 });
  const shown = today.add({ months: 1 }).add({ months: 1 }).add({ months: 1 });
  const weeks = monday(postDay).since(monday(shown)).days / 7;
  const step = page.getByRole('button', { name: weeks < 0 ? 'Previous' : 'Next' });
  for (let done = 0; done < Math.abs(weeks); done++) await step.click();
  await page.locator(`.calendar-week [data-day="${postDay}"] [data-post-id]`).first().waitFor();
}

/** The composer's "Publish at" as the en-US field shows it: its day, hour (1 to 12) and AM/PM. */
async function proposedAt(): Promise<{ day: number; hour: number; pm: boolean }> {
  const segment = (name: string) => session.page.getByRole('group', { name: /Publish at/ }).getByRole('spinbutton', { name: new RegExp(`^${name}`, 'i') });
  return {
    day: Number(await segment('day').getAttribute('aria-valuenow')),
    hour: Number(await segment('hour').getAttribute('aria-valuenow')) % 12,
    pm: (await segment('AM/PM').textContent()) === 'PM',
  };
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

describe('writing a post for a day', () => {
  it('opens the composer from a day’s "+" with the post proposed at 09:00 on that day, and schedules it there', async () => {
    const { page, api } = session;
    await showMonth(3);
    const day = postDay.add({ days: 2 });
    await page.getByRole('link', { name: `Write a post for ${dayName(day)}` }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    expect(new URL(page.url()).searchParams.get('day')).toBe(day.toString());
    await page.getByLabel('Caption', { exact: true }).fill('Written for a day');
    await page.getByRole('button', { name: /^.+ \(@days-sandbox,/ }).click();
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByTestId('post-status').getByText('Scheduled').waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    expect((await api('GET', `/posts/${id}`)).body.data).toMatchObject({ scheduledAt: at(day, 9), timezone: timeZone });
  });

  it('opens the composer from a click on a day’s empty space; today proposes the next full hour or 09:00', async () => {
    const { page } = session;
    await showMonth(0);
    const cell = page.locator(`[data-day="${today}"]`);
    await cell.scrollIntoViewIfNeeded();
    const box = (await cell.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 4);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    expect(new URL(page.url()).searchParams.get('day')).toBe(today.toString());
    const now = Temporal.Now.zonedDateTimeISO(timeZone);
    const nextHour = now.round({ smallestUnit: 'hour', roundingMode: 'floor' }).add({ hours: 1 });
    const proposed = nextHour.hour > 9 || !nextHour.toPlainDate().equals(today) ? nextHour : today.toZonedDateTime({ timeZone, plainTime: '09:00' });
    expect(await proposedAt()).toEqual({ day: proposed.day, hour: proposed.hour % 12, pm: proposed.hour >= 12 });
  });

  it('offers no post for a day gone', async () => {
    const { page } = session;
    await showMonth(-1);
    const past = today.with({ day: 1 }).subtract({ months: 1 }).with({ day: 15 });
    expect(
      await page
        .locator(`[data-day="${past}"]`)
        .getByRole('link', { name: /^Write a post for / })
        .count(),
    ).toBe(0);
    expect(await page.getByRole('link', { name: `Write a post for ${dayName(past)}` }).count()).toBe(0);
  });
});

describe('the week', () => {
  it('places each post in its hour’s row, opens at the working hours, and stacks the days at 375 px', async () => {
    const { page } = session;
    await showWeekOfPosts();
    const day = page.locator(`.calendar-week [data-day="${postDay}"]`);
    await day.locator(`[data-post-id="${ids.evening}"]`).waitFor();
    const hourOf = (id: string) => day.locator(`[data-post-id="${id}"]`).evaluate((chip) => chip.closest('.hour')?.getAttribute('data-hour'));
    expect([await hourOf(ids.long), await hourOf(ids.short), await hourOf(ids.evening)]).toEqual(['9', '10', '21']);
    // The rows are the week's: an hour starts at the same height in every day.
    const top = async (date: Temporal.PlainDate, hour: number) => (await page.locator(`[data-day="${date}"] .hour[data-hour="${hour}"]`).boundingBox())!.y;
    expect(await top(postDay.add({ days: postDay.dayOfWeek === 7 ? -1 : 1 }), 10)).toBeCloseTo(await top(postDay, 10), 0);
    // Opened at 08:00: the night hours above, scrolled past.
    const grid = page.locator('.calendar-week');
    expect(await grid.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    const [gridTop, eight] = [(await grid.boundingBox())!.y, await top(postDay, 8)];
    expect(eight - gridTop).toBeGreaterThan(0);
    expect(eight - gridTop).toBeLessThan(100);
    expect(await inspectPage(page, 'calendar-week-hours')).toEqual([]);

    await page.setViewportSize({ width: 375, height: 900 });
    const days = page.locator('.calendar-week [data-day]');
    const [first, second] = [await days.nth(0).boundingBox(), await days.nth(1).boundingBox()];
    expect(second!.y).toBeGreaterThan(first!.y + first!.height - 2);
    // Only the hours with posts show.
    expect(await day.locator('.hour:visible').count()).toBe(3);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('writes a post for the hour clicked in the week', async () => {
    const { page } = session;
    await showWeekOfPosts();
    const day = postDay.add({ days: postDay.dayOfWeek === 7 ? -1 : 1 });
    await page.locator(`.calendar-week [data-day="${day}"] .hour[data-hour="15"]`).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ day: day.toString(), hour: '15' });
    expect(await proposedAt()).toEqual({ day: day.day, hour: 3, pm: true });
  });
});
