// Every action the API offers on a post, from the dashboard, in headless Chromium: a draft opened from its page in the
// composer, edited and saved; scheduled and rescheduled to a date and time; duplicated into a new draft opened in the
// composer; deleted after a confirmation dialog; a stale version refused with the API's message and a reload; and the
// post page of a failed post at 375 px (no sideways scroll, the reason wrapped by words, Retry in view); the post page's
// "Publish at" styled without the composer loaded first; a scheduled post published now only after a dialog naming its
// accounts. Each checked through the API; the pages checked by axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { connectSandbox } from '../support/fixtures.ts';
import { waitForPost, type Api } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
import { typeDateTime } from './datePicker.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

const timeZone = 'Europe/Berlin';
let session: DashboardSession;
let page: Page;
let api: Api;
let connectionId: string;

beforeAll(async () => {
  session = await openDashboard({ timezoneId: timeZone });
  ({ page, api } = session);
  connectionId = await connectSandbox(session.service.services, session.workspace.workspaceId, 'actions-sandbox');
});
afterAll(() => session?.close());

async function createDraft(caption: string): Promise<string> {
  const created = await api('POST', '/posts', { content: { caption }, targets: [{ connectionId, placement: 'feed' }] });
  expect(created.status).toBe(201);
  return created.body.data.id;
}
const caption = () => page.getByLabel('Caption', { exact: true });
/** Long enough for a page's code to load on a busy machine. */
const loaded = { timeout: 15_000 };
const openPost = (id: string) => page.goto(`${dashboardOrigin}/posts/${id}`);
/** A wall-clock time in the person's zone, next month (always in the future), as the API answers it (UTC, ms). */
const nextMonthAt = (day: number, hour: number, minute: number) =>
  Temporal.Now.plainDateISO(timeZone).with({ day: 1 }).add({ months: 1 }).with({ day }).toPlainDateTime({ hour, minute });
const instantOf = (at: Temporal.PlainDateTime) => at.toZonedDateTime(timeZone).toInstant().toString({ smallestUnit: 'millisecond' });

describe('post actions, one post after the other', () => {
  let id: string;

  it('opens a draft from its page in the composer and saves an edit at its version', async () => {
    id = await createDraft('First words');
    await openPost(id);
    await page.getByTestId('post-status').getByText('Draft').waitFor();
    expect(await inspectPage(page, 'post-actions-draft')).toEqual([]);

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit post' }).waitFor();
    await expect.poll(() => caption().inputValue(), loaded).toBe('First words');
    await caption().fill('Edited words');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(`${dashboardOrigin}/posts/${id}`);
    const saved = (await api('GET', `/posts/${id}`)).body.data;
    expect([saved.content.caption, saved.status, saved.version]).toEqual(['Edited words', 'draft', 2]);
  });

  it('schedules the post at a date and time in the person’s time zone, then reschedules it', async () => {
    await page.getByTestId('post-status').getByText('Draft').waitFor();
    const planned = nextMonthAt(10, 9, 30);
    await typeDateTime(page, /Publish at/, planned);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByTestId('post-status').getByText('Scheduled').waitFor();
    expect((await api('GET', `/posts/${id}`)).body.data).toMatchObject({ status: 'scheduled', scheduledAt: instantOf(planned), timezone: timeZone });

    const moved = nextMonthAt(12, 14, 45);
    await typeDateTime(page, /Publish at/, moved);
    await page.getByRole('button', { name: 'Reschedule', exact: true }).click();
    await expect.poll(async () => (await api('GET', `/posts/${id}`)).body.data.scheduledAt, loaded).toBe(instantOf(moved));
  });

  it('duplicates the post into a new draft, opened in the composer', async () => {
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await page.waitForURL(/\/posts\/[^/]+\/edit$/);
    const copyId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    expect(copyId).not.toBe(id);
    await expect.poll(() => caption().inputValue(), loaded).toBe('Edited words');
    const copy = (await api('GET', `/posts/${copyId}`)).body.data;
    expect([copy.status, copy.content.caption, copy.targets.map((target: { connectionId: string }) => target.connectionId)]).toEqual([
      'draft',
      'Edited words',
      [connectionId],
    ]);
    expect(await inspectPage(page, 'post-actions-edit')).toEqual([]);
  });

  it('deletes the post after a confirmation dialog', async () => {
    await openPost(id);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this post?' });
    await dialog.waitFor();
    expect(await inspectPage(page, 'post-actions-delete-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete post' }).click();
    await page.waitForURL(`${dashboardOrigin}/calendar`);
    expect((await api('GET', `/posts/${id}`)).status).toBe(404);
  });
});

describe('post actions', () => {
  it('shows the API’s refusal of a stale version and reloads the post as it is now', async () => {
    const id = await createDraft('Before');
    await page.goto(`${dashboardOrigin}/posts/${id}/edit`);
    await expect.poll(() => caption().inputValue(), loaded).toBe('Before');
    // Someone else saves the post meanwhile.
    expect((await api('PATCH', `/posts/${id}`, { version: 1, content: { caption: 'Changed elsewhere' } })).status).toBe(200);

    await caption().fill('Mine');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The post changed since you read it' });
    await alert.waitFor();
    expect(page.url()).toBe(`${dashboardOrigin}/posts/${id}/edit`);
    await alert.getByRole('button', { name: 'Reload the post' }).click();
    await expect.poll(() => caption().inputValue(), loaded).toBe('Changed elsewhere');
    await expect.poll(() => alert.count()).toBe(0);

    await caption().fill('Mine, after reading it again');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(`${dashboardOrigin}/posts/${id}`);
    expect((await api('GET', `/posts/${id}`)).body.data.content.caption).toBe('Mine, after reading it again');
  });

  it('fits a failed post’s page into 375 px: no sideways scroll, the reason wrapped by words, Retry in view', async () => {
    const id = await createDraft(`[sandbox:fail] ${'A caption long enough to wrap over several lines on a phone. '.repeat(3)}`);
    expect((await api('POST', `/posts/${id}/publish`)).status).toBe(202);
    await waitForPost(api, id, ['failed']);

    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await openPost(id);
      const retry = page.getByRole('button', { name: /^Retry / });
      await retry.waitFor();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
      const reason = page.locator('.post-target-reason');
      // Wrapped by words: the reason's box spans most of the card, not a column one letter wide.
      expect((await reason.boundingBox())!.width).toBeGreaterThan(200);
      await retry.scrollIntoViewIfNeeded();
      const button = (await retry.boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(0);
      expect(button.x + button.width).toBeLessThanOrEqual(375);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    expect(await inspectPage(page, 'post-actions-failed')).toEqual([]);
  });

  it('styles the post page’s “Publish at” when the page is opened first, before the composer ever was', async () => {
    const id = await createDraft('Opened straight from a link');
    await openPost(id);
    const field = page.locator('.schedule-field');
    await field.waitFor();
    // Its own stylesheet, not the composer's lazily loaded one: a bordered row, not an unstyled block.
    const style = await field.evaluate((element) => ({ display: getComputedStyle(element).display, border: getComputedStyle(element).borderTopStyle }));
    expect(style).toEqual({ display: expect.stringMatching(/flex$/), border: 'solid' });
  });

  it('asks before publishing a scheduled post now, naming the accounts it goes to, and keeps the button secondary', async () => {
    const id = await createDraft('Planned, then sent early');
    const planned = nextMonthAt(20, 8, 0);
    expect((await api('POST', `/posts/${id}/schedule`, { scheduledAt: instantOf(planned), timezone: timeZone })).status).toBe(200);
    await openPost(id);
    await page.getByTestId('post-status').getByText('Scheduled').waitFor();
    const publishNow = page.getByRole('button', { name: 'Publish now', exact: true });
    expect(await publishNow.getAttribute('class')).toContain('button-secondary');
    expect(await page.locator('.post-toolbar .button-primary').count()).toBe(0);

    await publishNow.click();
    const dialog = page.getByRole('alertdialog', { name: /^Publish now, not at / });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(['actions-sandbox (@actions-sandbox) on Sandbox']);
    expect(await inspectPage(page, 'post-actions-publish-now-dialog')).toEqual([]);
    // Cancelled: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api('GET', `/posts/${id}`)).body.data.status).toBe('scheduled');

    await publishNow.click();
    await dialog.getByRole('button', { name: 'Publish now' }).click();
    await waitForPost(api, id, ['published']);
  });
});
