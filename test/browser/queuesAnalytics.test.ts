// The queues and analytics pages in headless Chromium: a queue made on the page is the queue the API stores, and
// the analytics page shows what the sandbox network reported for posts published through the API, with the API's
// own CSV file. Each page is also checked by axe-core and photographed at 1280 and 375 px.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMetrics } from '../../src/analytics/collect.ts';
import { metricNames, zeroMetrics, type Metrics } from '../../src/analytics/metrics.ts';
import { bearer, connectSandbox } from '../support/fixtures.ts';
import { waitForPost } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;

beforeAll(async () => {
  session = await openDashboard({ timezoneId: 'America/New_York' });
});
afterAll(() => session?.close());

describe('the queues page', () => {
  let accountId: string;

  it('shows the API’s refusal of a queue without slots next to the slot editor', async () => {
    const { page, service, workspace } = session;
    accountId = await connectSandbox(service.services, workspace.workspaceId, 'queue-account');
    await openPage(page, 'Queues');
    await page.getByRole('button', { name: 'New queue' }).click();
    await page.getByLabel('Name').fill('Weekday mornings');
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('alert').waitFor();
    expect(
      await page
        .getByRole('group', { name: /Weekly slots/ })
        .locator('.field-error')
        .textContent(),
    ).toMatch(/\S/);
  });

  it('creates a queue with weekly slots in its time zone, by mouse and keyboard, stored as the page shows it', async () => {
    const { page, api } = session;
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    await page.getByLabel('New time').fill('09:30');
    await page.getByRole('button', { name: 'Add time' }).click();
    // The new row's first day has the focus: the keyboard ticks it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Monday at 9:30 AM');
    await page.keyboard.press('Space');
    await page.getByLabel('Wednesday at 9:30 AM').check();
    await page.getByLabel('New time').fill('17:00');
    await page.getByRole('button', { name: 'Add time' }).click();
    await page.getByLabel('Friday at 5:00 PM').check();
    await page.getByLabel(/@queue-account/).check();
    expect(await inspectPage(page, 'queue-form')).toEqual([]);

    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').getByText('Queue “Weekday mornings” created.').waitFor();
    await page.getByText('Mon 9:30 AM · Wed 9:30 AM · Fri 5:00 PM').waitFor();
    expect(await inspectPage(page, 'queues')).toEqual([]);

    const { body } = await api('GET', '/queues');
    expect(body.data).toEqual([
      expect.objectContaining({
        name: 'Weekday mornings',
        timezone: 'Europe/Paris',
        slots: [
          { day: 'monday', time: '09:30' },
          { day: 'wednesday', time: '09:30' },
          { day: 'friday', time: '17:00' },
        ],
        connectionIds: [accountId],
      }),
    ]);
  });

  it('renames a queue and removes a time, and deleting it says how many posts stay scheduled', async () => {
    const { page, api } = session;
    const queueId = (await api('GET', '/queues')).body.data[0].id;
    const post = (await api('POST', '/posts', { content: { caption: 'Queued' }, targets: [{ connectionId: accountId, placement: 'feed' }] })).body.data;
    expect((await api('POST', `/posts/${post.id}/queue`, { queueId })).status).toBe(200);

    await page.getByRole('button', { name: 'Change Weekday mornings' }).click();
    await page.getByLabel('Name').fill('Mornings');
    await page.getByRole('button', { name: 'Remove 5:00 PM' }).click();
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page
      .getByRole('status')
      .getByText(/Queue “Mornings” saved/)
      .waitFor();
    const changed = (await api('GET', '/queues')).body.data[0];
    expect([changed.name, changed.slots]).toEqual([
      'Mornings',
      [
        { day: 'monday', time: '09:30' },
        { day: 'wednesday', time: '09:30' },
      ],
    ]);

    await page.getByRole('button', { name: 'Delete Mornings' }).click();
    const confirmation = page.getByRole('alertdialog', { name: 'Delete the queue “Mornings”?' });
    expect(await confirmation.textContent()).toContain('The 1 post waiting in it stays scheduled at its time.');
    await confirmation.getByRole('button', { name: 'Delete queue' }).click();
    await page.getByRole('status').getByText('Queue “Mornings” deleted. 1 post stays scheduled at its time.').waitFor();
    expect((await api('GET', '/queues')).body.data).toEqual([]);
    expect((await api('GET', `/posts/${post.id}`)).body.data.status).toBe('scheduled');
  });
});

describe('the analytics page', () => {
  it('shows the totals the sandbox network reported for published posts, by day, network, account and post', async () => {
    const { page, api, service, workspace } = session;
    const account = await connectSandbox(service.services, workspace.workspaceId, 'measured-account');
    const expected: Metrics = zeroMetrics();
    const postIds: string[] = [];
    for (const caption of ['First measured', 'Second measured']) {
      const post = (await api('POST', '/posts', { content: { caption }, targets: [{ connectionId: account, placement: 'feed' }] })).body.data;
      await api('POST', `/posts/${post.id}/publish`);
      const target = (await waitForPost(api, post.id, ['published'])).targets[0];
      const reported = await service.services.adapters
        .get('sandbox')!
        .metrics({ id: account, provider: 'sandbox', username: 'x', remoteId: null, tokens: null }, target.remoteId);
      for (const name of metricNames) expected[name] += reported[name] ?? 0;
      // The metrics collection's first reading, run now rather than two minutes after publishing.
      const { db, adapters, secrets, logger } = service.services;
      await readMetrics({ db, adapters, secrets, logger }, [target.id], new Date());
      postIds.push(post.id);
    }

    await openPage(page, 'Analytics');
    const totals = page.getByTestId('analytics-totals');
    await totals.waitFor();
    const shown = Object.fromEntries(
      await Promise.all(metricNames.map(async (name, index) => [name, await totals.locator('dd').nth(index).textContent()] as const)),
    );
    expect(shown).toEqual(Object.fromEntries(metricNames.map((name) => [name, expected[name].toLocaleString('en-US')])));
    expect(
      await page
        .getByRole('img', { name: /^Metrics by day from/ })
        .locator('canvas')
        .count(),
    ).toBeGreaterThan(0);
    expect(await page.getByRole('table', { name: 'By network' }).getByRole('rowheader').allTextContents()).toEqual(['Sandbox (test network)']);
    expect(await page.getByRole('table', { name: 'By account' }).getByRole('rowheader').allTextContents()).toContain('measured-account (@measured-account)');
    // Each post named by its caption and its network's icon, linked to its page.
    const byPost = page.getByRole('table', { name: 'By post' });
    const postLinks = await byPost.getByRole('link').evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')]));
    expect(postLinks.sort()).toEqual([
      ['First measured', `/posts/${postIds[0]}`],
      ['Second measured', `/posts/${postIds[1]}`],
    ]);
    expect(await byPost.getByRole('rowheader').getByRole('img', { name: 'Sandbox' }).count()).toBe(2);
    expect(await inspectPage(page, 'analytics')).toEqual([]);
  });

  it('downloads the API’s CSV file of the period', async () => {
    const { page, service, workspace } = session;
    const [download, response] = await Promise.all([
      page.waitForEvent('download'),
      page.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/v1/analytics/export'),
      page.getByRole('button', { name: 'Download CSV by post' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/csv/);

    const query = new URL(response.url()).search;
    const fromApi = await fetch(`${service.url}/v1/analytics/export${query}`, { headers: bearer(workspace.ownerKey) });
    expect(download.suggestedFilename()).toMatch(/^analytics-post-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toBe(await fromApi.text());
    expect(csv.trim().split('\n')).toHaveLength(3); // the header and one row per published post
  });
});
