// What the calendar costs the person: the requests a month shown and a step to the next month send (one operation
// for the month, its neighbours read ahead), and a refusal for too many requests waited out and retried once, with
// the page saying so. The rate limit is the service's default (120 a minute), shared by the person's key and session.
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { connectSandbox } from '../support/fixtures.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

const timeZone = 'Europe/Berlin';
const nextMonth = Temporal.Now.plainDateISO(timeZone).with({ day: 1 }).add({ months: 1 });

let session: DashboardSession;
let postId = '';
/** The /graphql requests the page sent, and how many have been answered. */
const graph = { sent: [] as Request[], answered: 0 };

beforeAll(async () => {
  session = await openDashboard({ timezoneId: timeZone, env: { RATE_LIMIT_PER_MINUTE: '120' } });
  const { api, service, workspace, page } = session;
  const account = await connectSandbox(service.services, workspace.workspaceId, 'requests-sandbox');
  const created = await api('POST', '/posts', { content: { caption: 'Next month’s post' }, targets: [{ connectionId: account, placement: 'feed' }] });
  postId = created.body.data.id;
  const scheduledAt = nextMonth.with({ day: 15 }).toPlainDateTime({ hour: 10 }).toZonedDateTime(timeZone).toInstant().toString({ smallestUnit: 'millisecond' });
  expect((await api('POST', `/posts/${postId}/schedule`, { scheduledAt, timezone: timeZone })).status).toBe(200);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/graphql') graph.sent.push(request);
  });
  page.on('requestfinished', (request) => {
    if (new URL(request.url()).pathname === '/graphql') graph.answered++;
  });
}, 60_000);
afterAll(() => session?.close());

/** Waits until the page has sent at least `count` graph requests since `from` and every one is answered. */
async function settled(from: number, count: number): Promise<number> {
  await expect.poll(() => graph.sent.length - from >= count && graph.answered === graph.sent.length, { timeout: 10_000 }).toBe(true);
  return graph.sent.length - from;
}

describe('the calendar’s requests', () => {
  it('shows a month with one request, reads the months either side ahead, and a step to the next month costs one', async () => {
    const { page } = session;
    await openPage(page, 'Accounts');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => graph.answered === graph.sent.length).toBe(true);
    const beforeLoad = graph.sent.length;
    await openPage(page, 'Calendar');
    await page.locator('.calendar[data-loaded="true"]').waitFor();
    // The month shown, then the previous and next month read ahead.
    expect(await settled(beforeLoad, 3)).toBe(3);

    const beforeNext = graph.sent.length;
    await page.getByRole('button', { name: 'Next' }).click();
    // Shown from what was read ahead: the post is there before any new request is answered.
    await page.locator(`[data-day="${nextMonth.with({ day: 15 })}"] [data-post-id="${postId}"]`).waitFor();
    // The month after it read ahead; the one before is the month just left, already read.
    expect(await settled(beforeNext, 1)).toBe(1);
  });

  it('waits out a refusal for too many requests, saying so, and sends the request once more', async () => {
    const { page, api } = session;
    // The person's allowance spent through their API key: the session shares it.
    let refused = false;
    for (let calls = 0; !refused && calls < 400; calls++) refused = (await api('GET', '/posts?limit=1')).status === 429;
    expect(refused).toBe(true);
    const refusals: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/graphql' && response.status() === 429) refusals.push(response.headers()['retry-after'] ?? '');
    });
    // The week view: days not read yet.
    await page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name: 'Week' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Too many requests for the moment: trying again in' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('shared by this dashboard and your API keys');
    await page.locator('.calendar-week[data-loaded="true"]').waitFor({ timeout: 10_000 });
    await notice.waitFor({ state: 'hidden' });
    expect(refusals.length).toBeGreaterThan(0);
    expect(Number(refusals[0])).toBeGreaterThanOrEqual(1);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
