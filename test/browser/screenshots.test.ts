// Every page of the dashboard at 1280 and 375 px, in the light and the dark theme, each checked as it is
// photographed: no serious or critical axe-core violation, no horizontal scrolling, no script error. The photographs
// go to test/browser/artifacts/<page>-<theme>-<width>.png, which git ignores (a test never rewrites committed files).
// A workspace with a sandbox account, a queue and posts in several states, so no page is empty but the empty ones;
// each page must first show its heading.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import en from '../../src/i18n/en.json' with { type: 'json' };
import { connectSandbox } from '../support/fixtures.ts';
import { inSeconds, waitForPost } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
import { dashboardOrigin, openDashboard, type DashboardSession } from './session.ts';

let session: DashboardSession;
let postId: string;

beforeAll(async () => {
  session = await openDashboard();
  const { api, service, workspace } = session;
  const connectionId = await connectSandbox(service.services, workspace.workspaceId, 'team-sandbox');
  const targets = [{ connectionId, placement: 'feed' }];
  const create = async (caption: string) => (await api('POST', '/posts', { content: { caption }, targets })).body.data.id as string;

  await create('Draft: our autumn collection, in three photos');
  const scheduled = await create('Tomorrow: the team’s favourite #coffee spots');
  await api('POST', `/posts/${scheduled}/schedule`, { scheduledAt: inSeconds(26 * 3600), timezone: 'Europe/Berlin' });
  postId = await create('We are live! Read the launch notes at https://example.com/launch #launch');
  await api('POST', `/posts/${postId}/publish`);
  await waitForPost(api, postId, ['published']);
  await api('POST', '/queues', {
    name: 'Weekday mornings',
    timezone: 'Europe/Berlin',
    slots: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, time: '09:00' })),
    connectionIds: [connectionId],
  });
});
afterAll(() => session?.close());

/** What is wrong with the page at both widths in both themes (the system's setting, which the dashboard follows). */
async function inspectThemes(page: Page, name: string): Promise<string[]> {
  const scriptErrors: string[] = [];
  const onError = (error: Error) => scriptErrors.push(`script error: ${error.message}`);
  page.on('pageerror', onError);
  const problems: string[] = [];
  try {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      problems.push(...(await inspectPage(page, `${name}-${theme}`)).map((problem) => `${theme}: ${problem}`));
    }
  } finally {
    page.off('pageerror', onError);
    await page.emulateMedia({ colorScheme: 'light' });
  }
  return [...problems, ...scriptErrors];
}

const pages: { name: string; path: () => string; heading: string | RegExp }[] = [
  { name: 'calendar', path: () => '/calendar', heading: /\d{4}/ },
  { name: 'compose', path: () => '/compose', heading: en['composer.title'] },
  { name: 'post', path: () => `/posts/${postId}`, heading: en['post.title'] },
  { name: 'queues', path: () => '/queues', heading: en['queues.title'] },
  { name: 'media', path: () => '/media', heading: en['media.title'] },
  { name: 'analytics', path: () => '/analytics', heading: en['analytics.title'] },
  { name: 'accounts', path: () => '/accounts', heading: en['accounts.title'] },
  { name: 'people', path: () => '/people', heading: en['people.title'] },
  { name: 'api-keys', path: () => '/api-keys', heading: en['keys.title'] },
  { name: 'webhooks', path: () => '/webhooks', heading: en['webhooks.title'] },
  { name: 'request-log', path: () => '/request-log', heading: en['log.title'] },
  { name: 'ai-credits', path: () => '/ai-credits', heading: en['credits.title'] },
];

describe('every page, photographed and checked', () => {
  for (const { name, path, heading } of pages) {
    it(`shows ${name} without problems, light and dark, at 1280 and 375 px`, async () => {
      const { page } = session;
      await page.goto(`${dashboardOrigin}${path()}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await inspectThemes(page, name)).toEqual([]);
    });
  }

  it('shows the sign-in page without problems, light and dark, at 1280 and 375 px', async () => {
    const { page } = session;
    await page.evaluate(() => fetch('/auth/logout', { method: 'POST' }));
    await page.goto(dashboardOrigin);
    await page.getByRole('heading', { level: 1, name: en['signIn.title'] }).waitFor();
    expect(await inspectThemes(page, 'sign-in')).toEqual([]);
    expect(await page.getByRole('navigation').count()).toBe(0);
  });
});
