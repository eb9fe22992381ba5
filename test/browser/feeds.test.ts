// The feeds page in headless Chromium: a feed added on the page is the feed the API stores; the API's refusal shows
// next to the field it names; a failing feed shows its reason; a feed is deleted after a confirmation. The page is
// also checked by axe-core and photographed at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../support/fixtures.ts';
import { startFeedHost, type FeedHost } from '../support/feedServer.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;
let host: FeedHost;

beforeAll(async () => {
  [session, host] = await Promise.all([openDashboard({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } }), startFeedHost()]);
});
afterAll(async () => {
  await session?.close();
  await host?.close();
});

describe('the feeds page', () => {
  it('shows the API’s refusal of a private address next to the URL field', async () => {
    const { page, service, workspace } = session;
    await connectSandbox(service.services, workspace.workspaceId, 'feed-account');
    await openPage(page, 'Feeds');
    await page.getByLabel('Feed URL').fill('https://10.1.2.3/feed.xml');
    await page.getByLabel(/@feed-account/).check();
    await page.getByRole('button', { name: 'Add feed' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.locator('.field:has(input[name="url"]) .field-error').textContent()).toMatch(/10\.1\.2\.3.*not a public address/);
  });

  it('adds a feed into a queue, stored as the page shows it, and shows a failing feed’s reason', async () => {
    const { page, api } = session;
    const queue = (await api('POST', '/queues', { name: 'Blog slots', timezone: 'Europe/Paris', slots: [{ day: 'tuesday', time: '10:00' }] })).body.data;
    host.feed('/blog.xml').failWith = { status: 500 };
    await page.reload();
    await page.getByLabel('Feed URL').fill(host.url('/blog.xml'));
    await page.getByLabel(/@feed-account/).check();
    await page.getByLabel('Posts in a queue').check();
    await page.getByLabel('Queue', { exact: true }).selectOption({ label: 'Blog slots' });
    await page.getByLabel('Caption template', { exact: true }).fill('New on the blog: {{title}} {{link}}');
    expect(await inspectPage(page, 'feed-form')).toEqual([]);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await page.getByRole('status').getByText('Feed added: it is read within a minute.').waitFor();
    await page.getByText('Waiting for its first read').waitFor();

    const { body } = await api('GET', '/feeds');
    expect(body.data).toEqual([
      expect.objectContaining({ url: host.url('/blog.xml'), mode: 'queue', queueId: queue.id, template: 'New on the blog: {{title}} {{link}}' }),
    ]);
    await session.service.services.feeds.poller.poll(body.data[0].id);
    await page.reload();
    await page.getByText('Failed once: The feed answered HTTP 500.').waitFor();
    expect(await inspectPage(page, 'feeds')).toEqual([]);

    await page.getByRole('button', { name: 'Delete feed' }).click();
    await page
      .getByRole('alertdialog', { name: `Delete the feed ${host.url('/blog.xml')}?` })
      .getByRole('button', { name: 'Delete feed' })
      .click();
    await page.getByText('No feeds yet.').waitFor();
    expect((await api('GET', '/feeds')).body.data).toEqual([]);
  });
});
