// The calendar in headless Chromium, on a month of its own: each post with its network's icon and, where it has
// media, its thumbnail; the post's card opened from the keyboard (caption, time, accounts) and closed with Escape;
// the list view in time order; a post dragged to another day. Each view checked by axe-core and photographed at
// 1280 and 375 px; what a screen reader hears during a keyboard drag.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { connectSandbox } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

const timeZone = 'Europe/Berlin';
// Two months ahead: no other test's posts, and every post still in the future (only scheduled posts move).
const month = Temporal.Now.plainDateISO(timeZone).with({ day: 1 }).add({ months: 2 });
/** The day of the month of its `nth` Monday (1) … Sunday (7): the same column of the grid whatever today is. */
const nthWeekday = (nth: number, dayOfWeek: number) => 1 + ((dayOfWeek - month.dayOfWeek + 7) % 7) + 7 * (nth - 1);
// The grid's first and last columns, where a chip meets the page's edges.
const earlyDay = nthWeekday(1, 1);
const lateDay = nthWeekday(3, 7);
const movedDay = lateDay + 2;
const at = (day: number, hour: number) =>
  month.with({ day }).toPlainDateTime({ hour }).toZonedDateTime(timeZone).toInstant().toString({ smallestUnit: 'millisecond' });

let session: DashboardSession;
const ids: Record<'late' | 'early' | 'sameDayLater', string> = { late: '', early: '', sameDayLater: '' };

/** A picture uploaded through the API and processed (so it has a thumbnail). */
async function readyImage(): Promise<string> {
  const { api, service } = session;
  const png = await image('png', 120, 80);
  const started = (await api('POST', '/media/uploads', { filename: 'calendar.png', contentType: 'image/png', size: png.length })).body.data;
  const put = await fetch(started.uploadUrl.replace(service.services.config.publicBaseUrl, service.url), {
    method: 'PUT',
    headers: started.headers,
    body: new Uint8Array(png),
  });
  expect(put.status).toBe(200);
  expect((await api('POST', `/media/uploads/${started.id}/complete`)).status).toBe(202);
  for (let tries = 0; (await api('GET', `/media/${started.id}`)).body.data.status !== 'ready'; tries++) {
    if (tries === 300) throw new Error('the picture was not processed in 30 s');
    await sleep(100);
  }
  return started.id;
}

/** The page's graph requests not answered yet (the month's read, and the months either side read ahead). */
const pendingGraphRequests = new Set<unknown>();

beforeAll(async () => {
  session = await openDashboard({ timezoneId: timeZone });
  const { page } = session;
  page.on('request', (request) => new URL(request.url()).pathname === '/graphql' && pendingGraphRequests.add(request));
  page.on('requestfinished', (request) => pendingGraphRequests.delete(request));
  page.on('requestfailed', (request) => pendingGraphRequests.delete(request));
  const { api, service, workspace } = session;
  const account = await connectSandbox(service.services, workspace.workspaceId, 'calendar-sandbox');
  const picture = await readyImage();
  // Created out of time order: the calendar orders them.
  const planned = [
    { key: 'late', caption: 'Late in the month', when: at(lateDay, 15), mediaIds: [] },
    { key: 'early', caption: 'Early with a picture', when: at(earlyDay, 9), mediaIds: [picture] },
    { key: 'sameDayLater', caption: 'Same day, later', when: at(earlyDay, 17), mediaIds: [] },
  ] as const;
  for (const { key, caption, when, mediaIds } of planned) {
    const created = await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId: account, placement: 'feed' }] });
    expect(created.status).toBe(201);
    ids[key] = created.body.data.id;
    expect((await api('POST', `/posts/${ids[key]}/schedule`, { scheduledAt: when, timezone: timeZone })).status).toBe(200);
  }
}, 120_000);
afterAll(() => session?.close());

describe('the calendar', () => {
  it('shows each post of the month with its network’s icon, and a post with media with its thumbnail', async () => {
    const { page } = session;
    await openPage(page, 'Calendar');
    for (let step = 0; step < 2; step++) await page.getByRole('button', { name: 'Next' }).click();
    const early = page.locator(`[data-day="${month.with({ day: earlyDay })}"] [data-post-id="${ids.early}"]`);
    await early.waitFor();
    expect(await early.getByRole('img', { name: 'Sandbox' }).count()).toBe(1);
    const thumbnail = early.locator('img.post-thumbnail');
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const late = page.locator(`[data-day="${month.with({ day: lateDay })}"] [data-post-id="${ids.late}"]`);
    expect(await late.getByRole('img', { name: 'Sandbox' }).count()).toBe(1);
    expect(await late.locator('img.post-thumbnail').count()).toBe(0);
    // The day's posts in time order.
    expect(
      await page
        .locator(`[data-day="${month.with({ day: earlyDay })}"] [data-post-id]`)
        .evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-post-id'))),
    ).toEqual([ids.early, ids.sameDayLater]);
    expect(await inspectPage(page, 'calendar-posts-month')).toEqual([]);
  });

  it('opens a post’s card from the keyboard, with its caption, time and accounts, and Escape closes it', async () => {
    const { page } = session;
    // From a day's "+" (writing a post for that day), Tab goes on to the day's first post.
    await page
      .locator(`[data-day="${month.with({ day: earlyDay })}"]`)
      .getByRole('link', { name: /^Write a post for / })
      .focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-post-id]')?.getAttribute('data-post-id'))).toBe(ids.early);
    const card = page.getByRole('tooltip');
    await card.getByText('@calendar-sandbox').waitFor();
    expect(await card.textContent()).toContain('Early with a picture');
    expect(await card.textContent()).toContain('9:00 AM');
    expect(await card.textContent()).toContain('Scheduled');

    // The post's link is described by the card.
    await page.keyboard.press('Tab');
    const described = await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby'));
    expect(await page.evaluate((id) => document.getElementById(id!)?.textContent, described)).toContain('Early with a picture');
    expect(await inspectPage(page, 'calendar-post-card')).toEqual([]);

    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
  });

  it('lists the month’s posts in time order in the list view', async () => {
    const { page } = session;
    await page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name: 'List' }).click();
    const list = page.locator('.post-list');
    await list.locator(`[data-post-id="${ids.late}"]`).waitFor();
    expect(await list.locator('[data-post-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-post-id')))).toEqual([
      ids.early,
      ids.sameDayLater,
      ids.late,
    ]);
    expect(await list.getByRole('link').allTextContents()).toEqual(['Early with a picture', 'Same day, later', 'Late in the month']);
    expect(await list.getByRole('img', { name: 'Sandbox' }).count()).toBe(3);
    expect(await inspectPage(page, 'calendar-list')).toEqual([]);
  });

  it('moves a scheduled post to another day by dragging its handle, at the same time of day', async () => {
    const { page, api } = session;
    await page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name: 'Month' }).click();
    // As a person would, on the month once it is read: the drag starts on a settled page.
    await page.locator(`[data-day="${month.with({ day: lateDay })}"] [data-post-id="${ids.late}"]`).waitFor();
    await expect.poll(() => pendingGraphRequests.size).toBe(0);
    const to = page.locator(`[data-day="${month.with({ day: movedDay })}"]`);
    const handle = (await page.locator(`[data-post-id="${ids.late}"]`).getByRole('button', { name: 'Move “Late in the month” to another day' }).boundingBox())!;
    const drop = (await to.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(drop.x + drop.width / 2, drop.y + drop.height / 2, { steps: 10 });
    await page.mouse.up();
    await to.locator(`[data-post-id="${ids.late}"]`).waitFor();
    await expect.poll(async () => (await api('GET', `/posts/${ids.late}`)).body.data.scheduledAt).toBe(at(movedDay, 15));
  });

  it('tells a screen reader what a keyboard drag does, in words: the post by its caption, not its id', async () => {
    const { page } = session;
    const handle = page.locator(`[data-post-id="${ids.early}"]`).getByRole('button', { name: 'Move “Early with a picture” to another day' });
    const instructions = await handle.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${instructions}"]`).textContent()).toMatch(/^To move the post to another day, press Space or Enter/);
    await handle.focus();
    await page.keyboard.press('Space');
    const live = page.locator('[id^="DndLiveRegion"]');
    // Picked up, then at once over its own day, named as the grid names it.
    const day = month.with({ day: earlyDay }).toPlainDateTime().toZonedDateTime('UTC').toInstant().epochMilliseconds;
    const dayName = new Intl.DateTimeFormat('en-US', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(day);
    await expect.poll(() => live.textContent()).toBe(`“Early with a picture” is over ${dayName}.`);
    await page.keyboard.press('Escape');
    await expect.poll(() => live.textContent()).toBe('“Early with a picture” stays on its day.');
    expect(await live.textContent()).not.toContain(ids.early);
  });
});
