// The composer's thread editor in headless Chromium: a thread of three parts after the caption, composed for an X
// account (X takes threads) with a part moved up and one added and removed; each network's preview shows the parts as
// a chain counted against its limit, or, for the sandbox (no threads), that the thread will be refused there. The draft
// saved is checked through the API (its parts in order) and opened again in the composer (the parts are back).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { connectSandbox } from '../support/fixtures.ts';
import type { Api } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

let session: DashboardSession;
let page: Page;
let api: Api;

beforeAll(async () => {
  // X's app is set up so an X account can be connected from tokens; nothing here publishes.
  session = await openDashboard({ env: { X_CLIENT_ID: 'x-client', X_CLIENT_SECRET: 'x-secret' } });
  ({ page, api } = session);
  const { services } = session.service;
  await connectSandbox(services, session.workspace.workspaceId, 'thread-sandbox');
  await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
    workspaceId: session.workspace.workspaceId,
    provider: 'x',
    username: 'thread_x',
    displayName: 'Thread X',
    tokens: { accessToken: 'not used: nothing is published to X here' },
  });
});
afterAll(() => session?.close());

/** Long enough for a page's code to load on a busy machine. */
const loaded = { timeout: 15_000 };
const accountButton = (username: string) => page.getByRole('button', { name: new RegExp(`^.+ \\(@${username},`) });
const part = (number: number) => page.getByLabel(`Part ${number}`, { exact: true });
const partCaptions = () => Promise.all([2, 3, 4].map((number) => part(number).inputValue()));

describe('the thread editor', () => {
  let id: string;

  it('composes a thread of three parts, reorders one, previews it per network and saves it as a draft', async () => {
    await page.goto(`${dashboardOrigin}/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor(loaded);
    await accountButton('thread_x').click();
    await accountButton('thread-sandbox').click();
    await page.getByLabel('Caption', { exact: true }).fill('A thread, first');
    for (const [index, text] of ['Second', 'Third', 'Fourth 🌷'].entries()) {
      await page.getByRole('button', { name: 'Add to thread' }).click();
      await part(index + 2).fill(text);
    }
    expect(await partCaptions()).toEqual(['Second', 'Third', 'Fourth 🌷']);
    expect(await page.getByRole('button', { name: 'Move part 2 up' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Move part 4 down' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Move part 4 up' }).click();
    expect(await partCaptions()).toEqual(['Second', 'Fourth 🌷', 'Third']);
    await page.getByRole('button', { name: 'Add to thread' }).click();
    await part(5).fill('Gone again');
    await page.getByRole('button', { name: 'Remove part 5' }).click();
    await part(5).waitFor({ state: 'detached' });

    // X counts each part against its 280, the emoji as 2; the chain is in the parts' new order.
    const xPreview = page.getByRole('article', { name: '@thread_x on X (feed)' });
    const chain = xPreview.getByRole('listitem');
    await expect.poll(() => chain.count()).toBe(3);
    expect(await chain.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(['Part 2 of 4', 'Part 3 of 4', 'Part 4 of 4']);
    expect(await xPreview.getByRole('listitem', { name: 'Part 3 of 4' }).getByText('Counted as 9 of 280').count()).toBe(1);
    expect(await xPreview.getByRole('listitem', { name: 'Part 4 of 4' }).getByText('Counted as 5 of 280').count()).toBe(1);
    const sandboxPreview = page.getByRole('article', { name: /^@thread-sandbox on / });
    await sandboxPreview.getByText(/does not take threads in \w+: the post will be refused there/).waitFor();
    expect(await sandboxPreview.getByRole('listitem').count()).toBe(0);
    expect(await inspectPage(page, 'thread-composer')).toEqual([]);

    // The draft goes to X only: the sandbox would refuse the thread.
    await accountButton('thread-sandbox').click();
    await page.getByRole('button', { name: 'Save draft', exact: true }).click();
    await page.waitForURL(/\/posts\/[^/]+$/, loaded);
    id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    const saved = (await api('GET', `/posts/${id}`)).body.data;
    expect(saved.status).toBe('draft');
    expect(saved.content.caption).toBe('A thread, first');
    expect(saved.content.thread.map((saved: { caption: string }) => saved.caption)).toEqual(['Second', 'Fourth 🌷', 'Third']);
  });

  it('opens the draft in the composer again with its parts in order', async () => {
    await page.goto(`${dashboardOrigin}/posts/${id}/edit`);
    await page.getByRole('heading', { name: 'Edit post' }).waitFor(loaded);
    await part(4).waitFor(loaded);
    expect(await partCaptions()).toEqual(['Second', 'Fourth 🌷', 'Third']);
    expect(await part(5).count()).toBe(0);
  });
});
