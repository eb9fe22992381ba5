// Review before publishing from the dashboard, in headless Chromium: the owner turns on "Review before publishing"
// on the People page; an editor's submitted post shows its review panel on the post's page, with Approve and Request
// changes (a request without a comment refused with the API's message), the decisions among the comments, and the
// calendar's "Needs review only" filter; then a review link made there opened as a client would, at 375 px, and the
// post approved from it by name. Each checked through the API; the pages checked by axe-core at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addPerson, connectSandbox, keyFor } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { setUserRole } from '../../src/workspaces/workspaces.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

let session: DashboardSession;
let page: Page;
let owner: Api;
let editor: Api;
let connectionId: string;
const loaded = { timeout: 15_000 };

beforeAll(async () => {
  session = await openDashboard();
  ({ page, api: owner } = session);
  const { workspaceId } = session.workspace;
  connectionId = await connectSandbox(session.service.services, workspaceId, 'review-sandbox');
  const person = await addPerson(session.service.services, workspaceId, 'admin');
  const { apiKey } = await keyFor(session.service.services, workspaceId, person.userId);
  await setUserRole(session.service.services.db, { workspaceId, userId: person.userId, role: 'editor' });
  editor = apiFor(session.service.url, apiKey);
});
afterAll(() => session?.close());

async function submittedDraft(caption: string): Promise<string> {
  const created = await editor('POST', '/posts', { content: { caption }, targets: [{ connectionId, placement: 'feed' }] });
  expect(created.status).toBe(201);
  expect((await editor('POST', `/posts/${created.body.data.id}/submit`)).status).toBe(200);
  return created.body.data.id;
}

describe('review from the dashboard', () => {
  let id: string;

  it('turns on review before publishing on the People page', async () => {
    await page.goto(`${dashboardOrigin}/people`);
    const toggle = page.getByRole('checkbox', { name: 'Review before publishing' });
    await toggle.waitFor(loaded);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(async () => (await owner('GET', '/workspace')).body.data.approvalRequired, loaded).toBe(true);
  });

  it('asks for changes, then approves, from the post’s page', async () => {
    id = await submittedDraft('Autumn collection, out Friday');
    await page.goto(`${dashboardOrigin}/posts/${id}`);
    await page.getByTestId('review-state').getByText('Waiting for review').waitFor(loaded);
    await page.getByTestId('post-status').getByText('In review').waitFor();
    expect(await inspectPage(page, 'review-in-review')).toEqual([]);

    await page.getByRole('button', { name: 'Request changes' }).click();
    await page
      .getByRole('alert')
      .getByText(/Comment on your decision/)
      .first()
      .waitFor(loaded);
    expect((await owner('GET', `/posts/${id}`)).body.data.status).toBe('in_review');
    await page.getByLabel('Comment on your decision').fill('Name the shop');
    await page.getByRole('button', { name: 'Request changes' }).click();
    await page.getByTestId('post-status').getByText('Changes requested').waitFor(loaded);
    await page.getByTestId('review-comments').getByText('Name the shop').waitFor();
    expect((await owner('GET', `/posts/${id}`)).body.data.status).toBe('changes_requested');

    const { version } = (await editor('GET', `/posts/${id}`)).body.data;
    await editor('PATCH', `/posts/${id}`, { version, content: { caption: 'Autumn collection at Alma’s, out Friday' } });
    await editor('POST', `/posts/${id}/submit`);
    await page.reload();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('review-state').getByText('Approved').waitFor(loaded);
    expect((await owner('GET', `/posts/${id}`)).body.data).toMatchObject({ status: 'draft', review: { state: 'approved' } });
  });

  it('shows only the posts that need review with the calendar’s filter', async () => {
    const waiting = await submittedDraft('Waiting for the boss');
    await editor('POST', '/posts', { content: { caption: 'Just a draft' }, targets: [{ connectionId, placement: 'feed' }] });
    await page.goto(`${dashboardOrigin}/calendar`);
    await page.getByRole('radio', { name: 'List' }).check();
    await page.getByText('Just a draft').first().waitFor(loaded);
    await page.getByRole('checkbox', { name: 'Needs review only' }).check();
    await page.getByText('Waiting for the boss').first().waitFor(loaded);
    expect(await page.getByText('Just a draft').count()).toBe(0);
    expect(waiting).toBeTruthy();
  });
});

describe('review from a review link', () => {
  it('is made on the post’s page, read at 375 px and approved by name', async () => {
    const id = await submittedDraft('Winter sale #sale https://example.com/winter');
    await page.goto(`${dashboardOrigin}/posts/${id}`);
    await page.getByRole('button', { name: 'Create a review link' }).click(loaded);
    const url = await page.getByTestId('review-link-url').inputValue();
    expect(url).toMatch(/^http:\/\/dashboard\.test\/review\/rvw_/);

    const client = await session.browser.context.newPage();
    await client.setViewportSize({ width: 375, height: 800 });
    await client.goto(url);
    await client.getByRole('heading', { name: 'Review a post' }).waitFor(loaded);
    await client.getByText('#sale').waitFor();
    expect(await inspectPage(client, 'review-link-page')).toEqual([]);
    await client.setViewportSize({ width: 375, height: 800 });
    await client.getByLabel('Your name').fill('Clara Client');
    await client.getByLabel('Comment').fill('Perfect');
    await client.getByRole('button', { name: 'Approve' }).click();
    await client.getByRole('status').getByText('you approved the post').waitFor(loaded);
    expect(await inspectPage(client, 'review-link-approved')).toEqual([]);
    await client.close();
    expect((await owner('GET', `/posts/${id}`)).body.data).toMatchObject({ review: { state: 'approved', decidedBy: { name: 'Clara Client' } } });
  });
});
