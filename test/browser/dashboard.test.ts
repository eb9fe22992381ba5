// The dashboard in headless Chromium against the service in-process: what a social media manager does, checked
// on the page and then through the API. Every page is also checked by axe-core and photographed at 1280 and 375 px.
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { startTestService, type TestService } from '../support/service.ts';
import { connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { Receiver } from '../support/receiver.ts';
import { descriptionOf, launchBrowser, inspectPage, type Browser } from './chromium.ts';
import { typeDateTime } from './datePicker.ts';

const password = 'a long enough password';
const timeZone = 'Europe/Berlin';
let service: TestService;
let browser: Browser;
let workspace: TestWorkspace;
let email: string;
let api: Api;
let page: Page;
let receiver: Receiver;

beforeAll(async () => {
  if (!existsSync(new URL('../../web/dist/index.html', import.meta.url))) {
    throw new Error('The dashboard is not built: `npm install` builds it (or run `npx vite build --config web/vite.config.ts`).');
  }
  browser = await launchBrowser({ locale: 'en-US', timezoneId: timeZone });
  receiver = await new Receiver().start();
  service = await startTestService({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '0.5,0.5' });
  workspace = await createWorkspace(service.services, { password });
  email = (await service.services.db.prisma.user.findUniqueOrThrow({ where: { id: workspace.ownerId } })).email;
  api = apiFor(service.url, workspace.ownerKey);
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await receiver?.stop();
});

async function signIn(target: Page, withPassword: string) {
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(withPassword);
  await target.getByRole('button', { name: 'Sign in' }).click();
}

/** Picks the sandbox account in the composer, unless it is picked already (the composer keeps its state while open). */
async function chooseSandboxAccount() {
  const account = page.getByRole('button', { name: /\(@dashboard-sandbox,/ });
  if ((await account.getAttribute('aria-pressed')) !== 'true') await account.click();
}

async function openPage(name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
}

describe('the dashboard', () => {
  it('is served at / and on its own paths, while the API keeps its JSON 404', async () => {
    const index = await fetch(`${service.url}/calendar`, { headers: { accept: 'text/html' } });
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root">');
    const unknownApiPath = await fetch(`${service.url}/v1/nothing-here`, { headers: { accept: 'text/html', authorization: `Bearer ${workspace.ownerKey}` } });
    expect(unknownApiPath.status).toBe(404);
    expect((await unknownApiPath.json()).error.code).toBe('NOT_FOUND');
  });

  it('signs in, showing the API’s refusal of a wrong password first', async () => {
    await page.goto(service.url);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await inspectPage(page, 'sign-in')).toEqual([]);

    await signIn(page, 'not the password');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/\S/);

    await signIn(page, password);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByLabel('Workspace').inputValue()).toBe(workspace.workspaceId);
    expect(await page.getByText(email).isVisible()).toBe(true);
  });

  it('connects a sandbox account', async () => {
    await openPage('Accounts');
    await page.getByLabel('Username').fill('dashboard-sandbox');
    await page.getByRole('button', { name: 'Connect sandbox account' }).click();
    const row = page.getByRole('row', { name: /@dashboard-sandbox/ });
    await row.waitFor();
    await row.getByRole('img', { name: 'dashboard-sandbox on Sandbox' }).waitFor();
    expect(await row.locator('.badge').textContent()).toBe('Active');
    expect(await inspectPage(page, 'accounts')).toEqual([]);

    const { body } = await api('GET', '/social-accounts');
    expect(body.data.map((account: { username: string; provider: string }) => [account.provider, account.username])).toContainEqual([
      'sandbox',
      'dashboard-sandbox',
    ]);
  });

  it('disconnects an account only once the person confirms in a dialog', async () => {
    const id = await connectSandbox(service.services, workspace.workspaceId, 'to-disconnect');
    const statusOf = async () => (await api('GET', '/social-accounts')).body.data.find((account: { id: string }) => account.id === id).status;
    await page.reload();
    const row = page.getByRole('row', { name: /@to-disconnect/ });
    const dialog = page.getByRole('alertdialog', { name: 'Disconnect to-disconnect?' });

    await row.getByRole('button', { name: 'Disconnect to-disconnect' }).click();
    await dialog.waitFor();
    // The less harmful choice has the focus; Escape closes the dialog and gives the focus back (react-aria restores it
    // once the dialog is gone, a frame or so after it leaves the page).
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await expect.poll(focused).toBe('Cancel');
    expect(await inspectPage(page, 'accounts-disconnect-dialog')).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Disconnect to-disconnect');
    expect(await statusOf()).toBe('ACTIVE');

    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await row.locator('.badge', { hasText: 'Disconnected' }).waitFor();
    expect(await statusOf()).toBe('REVOKED');
    expect(await row.getByRole('button', { name: 'Disconnect to-disconnect' }).count()).toBe(0);
  });

  it('composes a post with a live count and publishes it to the sandbox', async () => {
    await openPage('Compose');
    await page.getByLabel('Caption', { exact: true }).fill('Hello from the dashboard');
    await chooseSandboxAccount();
    await page.getByText('24 characters of 500').waitFor();
    expect(await inspectPage(page, 'composer')).toEqual([]);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.waitForURL(/\/posts\/[0-9a-f-]+$/);
    const id = page.url().split('/').at(-1)!;
    await page.getByTestId('post-status').getByText('Published').waitFor();
    const link = page.getByRole('link', { name: /Open the post on/ });
    expect(await inspectPage(page, 'post-detail')).toEqual([]);

    const post = await waitForPost(api, id, ['published']);
    expect(post.content.caption).toBe('Hello from the dashboard');
    expect(await link.getAttribute('href')).toBe(post.targets[0].remoteUrl);
  });

  it('shows when and why a target waits (a quota used up, a network’s rate limit)', async () => {
    const account = (await api('GET', '/social-accounts')).body.data.find((entry: { username: string }) => entry.username === 'dashboard-sandbox');
    const created = await api('POST', '/posts', { content: { caption: 'Waiting for a quota' }, targets: [{ connectionId: account.id, placement: 'feed' }] });
    // The state the worker leaves a target in when its network's quota is used up (test/http/quotas.test.ts).
    const until = new Date('2030-01-02T03:04:00.000Z');
    await service.services.db.prisma.postTarget.updateMany({
      where: { postId: created.body.data.id },
      data: { waitingUntil: until, waitingReason: 'Quota used up: 100 posts per day.' },
    });
    await page.goto(`${service.url}/posts/${created.body.data.id}`);
    const waiting = page.getByTestId('target-waiting');
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain('Waiting until');
    expect(await waiting.textContent()).toContain('Quota used up: 100 posts per day.');
    expect(await waiting.textContent()).toContain('2030');
  });

  it('shows the API’s rule check as the caption grows too long, and refuses to publish it', async () => {
    await openPage('Compose');
    await chooseSandboxAccount();
    await page.getByLabel('Caption', { exact: true }).fill('x'.repeat(501));
    await page.locator('.counter.over').waitFor();
    // The account's panel says how many problems it holds; opened, it lists them.
    await page.locator('.target-summary').getByText('1 problem').waitFor();
    await page.locator('.target-trigger').first().click();
    await page.locator('.findings li').first().waitFor();
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('alert').waitFor();
    expect(page.url()).toMatch(/\/compose$/);
  });

  it('schedules a post in the person’s time zone, and dragging it to another day reschedules it', async () => {
    // Pinned to the grid's hardest place whatever today is: next month's second Sunday, in the last column (a post
    // there once overflowed the page), with room in the month for the drag two days on.
    const nextMonth = Temporal.Now.plainDateISO(timeZone).with({ day: 1 }).add({ months: 1 });
    const secondSunday = nextMonth.add({ days: 7 + ((7 - nextMonth.dayOfWeek) % 7) });
    const planned = secondSunday.toPlainDateTime({ hour: 9, minute: 30 });
    await openPage('Compose');
    await page.getByLabel('Caption', { exact: true }).fill('Planned for later');
    await chooseSandboxAccount();
    await typeDateTime(page, /Publish at/, planned);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByTestId('post-status').getByText('Scheduled').waitFor();
    const id = page.url().split('/').at(-1)!;
    const scheduled = (await api('GET', `/posts/${id}`)).body.data;
    expect(scheduled.status).toBe('scheduled');
    expect(scheduled.scheduledAt).toBe(planned.toZonedDateTime(timeZone).toInstant().toString({ smallestUnit: 'millisecond' }));

    await openPage('Calendar');
    await page.getByRole('button', { name: 'Next' }).click();
    const from = page.locator(`[data-day="${planned.toPlainDate()}"]`);
    const to = page.locator(`[data-day="${planned.toPlainDate().add({ days: 2 })}"]`);
    await from.locator(`[data-post-id="${id}"]`).waitFor();
    expect(await inspectPage(page, 'calendar-month')).toEqual([]);
    // As a person would, on a settled page: the month and the months either side read (a drag measured while they
    // re-render missed its drop in two CI runs).
    await page.waitForLoadState('networkidle');

    const handle = (await from.getByRole('button', { name: 'Move “Planned for later” to another day' }).boundingBox())!;
    const drop = (await to.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(drop.x + drop.width / 2, drop.y + drop.height / 2, { steps: 10 });
    await page.mouse.up();
    await to.locator(`[data-post-id="${id}"]`).waitFor();

    const moved = planned.add({ days: 2 }).toZonedDateTime(timeZone).toInstant().toString({ smallestUnit: 'millisecond' });
    await expect.poll(async () => (await api('GET', `/posts/${id}`)).body.data.scheduledAt).toBe(moved);

    await page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name: 'Week' }).click();
    await page.locator('.calendar-week').waitFor();
    expect(await inspectPage(page, 'calendar-week')).toEqual([]);
  });

  it('creates an API key shown once, which then works against the API', async () => {
    await openPage('API keys');
    await page.getByLabel('Name').fill('from the dashboard');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByTestId('new-key').inputValue();
    expect(shown).toMatch(/^\w+_\S+$/);
    expect(await inspectPage(page, 'api-keys')).toEqual([]);

    const withNewKey = await apiFor(service.url, shown)('GET', '/posts');
    expect(withNewKey.status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: 'from the dashboard', exact: true }).waitFor();
    expect(await page.getByTestId('new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(shown);

    // Revoke is its whole name; the key's name describes it.
    const row = page.getByRole('row').filter({ hasText: 'from the dashboard' });
    const revoke = row.getByRole('button', { name: 'Revoke', exact: true });
    expect(await descriptionOf(revoke)).toBe('from the dashboard');
    await revoke.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/^Revoked /).waitFor();
    expect((await apiFor(service.url, shown)('GET', '/posts')).status).toBe(401);
  });
});

describe('webhooks in the dashboard', () => {
  it('adds an endpoint with its secret shown once, sends a test event and replays its delivery', async () => {
    await openPage('Webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByTestId('webhook-secret').inputValue();
    receiver.secrets = [secret];
    expect(await inspectPage(page, 'webhooks')).toEqual([]);

    // Short labels; the endpoint's address is each button's description, not repeated in its name.
    const endpoint = page.locator('.endpoints li').filter({ hasText: receiver.url });
    const sendTest = endpoint.getByRole('button', { name: 'Send a test event', exact: true });
    expect(await descriptionOf(sendTest)).toBe(receiver.url);
    await sendTest.click();
    const [first] = await receiver.waitFor(1);
    expect(first!.verifiedBy.ours).toEqual([secret]);

    await endpoint.getByRole('button', { name: 'Deliveries', exact: true }).click();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: 'Replay webhook.test' }).click();
    const [, replayed] = await receiver.waitFor(2);
    expect(replayed!.envelope.id).toBe(first!.envelope.id);
    // A replay is a new delivery of the same event.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.locator('[data-delivery-id]').count()).toBe(2);
    await page.getByText('1 attempt', { exact: false }).first().waitFor();
    expect(await inspectPage(page, 'webhook-deliveries')).toEqual([]);
  });
});

describe('the frame', () => {
  afterEach(() => page.setViewportSize({ width: 1280, height: 900 }));

  it('groups the pages in the sidebar and switches to the dark theme, kept after a reload', async () => {
    const navigation = page.getByRole('navigation', { name: 'Main' });
    const groups = {
      Publish: ['Calendar', 'Compose', 'Inbox', 'Queues', 'Feeds', 'Media'],
      Insights: ['Analytics'],
      Settings: ['Accounts', 'People', 'API keys', 'Webhooks', 'Request log', 'AI credits'],
    };
    for (const [group, links] of Object.entries(groups)) {
      expect(await navigation.getByRole('group', { name: group }).getByRole('link').allTextContents()).toEqual(links);
    }
    expect(await navigation.getByRole('link').count()).toBe(Object.values(groups).flat().length);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? null);
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const light = await background();
    await page.getByRole('switch', { name: 'Dark theme' }).click();
    expect(await theme()).toBe('dark');
    expect(await background()).not.toBe(light);
    expect(await inspectPage(page, 'frame-dark')).toEqual([]);
    await page.reload();
    await page.getByRole('switch', { name: 'Dark theme', checked: true }).waitFor();
    expect(await theme()).toBe('dark');
    await page.getByRole('switch', { name: 'Dark theme' }).click();
    expect(await theme()).toBe('light');
  });

  it('puts the pages, the workspace and the theme in a menu on small screens', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    // The menu's code is loaded only on small screens: its button (a menu trigger) works once it has come.
    const menuButton = page.locator('.topbar').getByRole('button', { name: 'Menu', expanded: false });
    await menuButton.and(page.locator('[aria-haspopup]')).waitFor();
    await menuButton.click();
    const menu = page.getByRole('menu', { name: 'Menu' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitemradio', { checked: true }).count()).toBe(1);
    await menu.getByRole('menuitem', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/webhooks');

    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('menuitem', { name: 'Dark theme' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('menuitem', { name: 'Light theme' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  }, 120_000);
});

describe('people, the request log and AI credits', () => {
  it('adds a person as an editor and makes them a viewer', async () => {
    const colleague = `colleague-${Date.now()}@example.test`;
    await openPage('People');
    await page.getByLabel('Email').fill(colleague);
    await page.getByLabel('Role', { exact: true }).selectOption('EDITOR');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('cell', { name: colleague, exact: true }).waitFor();
    await page.getByLabel(`Role of ${colleague}`).selectOption('VIEWER');
    // Remove is its whole name; the person's email describes it.
    const remove = page.getByRole('row').filter({ hasText: colleague }).getByRole('button', { name: 'Remove', exact: true });
    expect(await descriptionOf(remove)).toBe(colleague);
    expect(await inspectPage(page, 'people')).toEqual([]);

    const user = await service.services.db.prisma.user.findUniqueOrThrow({ where: { email: colleague } });
    await expect
      .poll(async () => (await service.services.db.prisma.membership.findFirstOrThrow({ where: { workspaceId: workspace.workspaceId, userId: user.id } })).role)
      .toBe('viewer');
  });

  it('lists the workspace’s recent calls, the dashboard’s own among them', async () => {
    await openPage('Request log');
    await page.getByRole('cell', { name: 'POST /graphql' }).first().waitFor();
    expect(await inspectPage(page, 'request-log')).toEqual([]);
  });

  it('shows the plan and the AI credits left', async () => {
    await openPage('AI credits');
    const { remaining, monthly } = (await api('GET', '/ai')).body.data.credits;
    const number = new Intl.NumberFormat('en-US');
    await page.getByText(`${number.format(remaining)} of ${number.format(monthly)}`).waitFor();
    await page.getByText('pro', { exact: true }).waitFor();
    expect(await inspectPage(page, 'ai-credits')).toEqual([]);
  });
});

describe('the dashboard in German', () => {
  it('speaks the browser’s language, and shows the API’s messages in it', async () => {
    const german = await launchBrowser({ locale: 'de-DE', timezoneId: timeZone });
    try {
      const tab = await german.context.newPage();
      await tab.goto(service.url);
      await tab.getByRole('heading', { name: 'Anmelden' }).waitFor();
      await tab.getByRole('button', { name: 'Anmelden' }).click();
      // The API answers the empty form with its details, in German, next to the fields.
      const detail = tab.locator(`#${(await tab.getByLabel('E-Mail').and(tab.locator('[aria-describedby]')).getAttribute('aria-describedby'))!}`);
      await detail.waitFor();
      expect(await detail.textContent()).not.toBe('');
      expect(await tab.getByRole('alert').textContent()).not.toMatch(/invalid|required/i);
    } finally {
      await german.close();
    }
  });
});
