// The composer and the accounts page in headless Chromium: connecting Mastodon by naming the server, the composer's
// layout (previews beside the editor on a wide screen, a tab on a phone), accounts picked by their avatars, X's
// preview counting as X does, a file dropped onto the composer uploaded with its progress, a post with an own caption
// for one account and a network setting for another published to both, AI help for the caption (the local OpenAI
// stand-in), adding a post to a queue; each checked on the page and then through the API, each page checked by
// axe-core and photographed at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { connectSandbox, createWorkspace } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';
import { waitForPost, type Api } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
import { libraryImage } from './libraryImage.ts';
import { dashboardOrigin, openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;
let page: Page;
let api: Api;
let openAi: OpenAiStandIn;
let instance: MastodonStandIn;
let mastodonUsername: string;

beforeAll(async () => {
  openAi = await startOpenAiStandIn();
  instance = await MastodonStandIn.start({ processingPolls: 0 });
  mastodonUsername = `alice@${new URL(instance.url).host}`;
  session = await openDashboard({
    env: {
      AI_PROVIDER: 'openai',
      AI_BASE_URL: openAi.baseUrl,
      AI_API_KEY: 'sk-test-secret',
      AI_TEXT_MODEL: 'text-model',
      AI_VISION_MODEL: 'vision-model',
      AI_IMAGE_MODEL: 'image-model',
      // The Mastodon stand-in listens on 127.0.0.1 over http: the operator allows that host for people's network URLs.
      NETWORK_ALLOWED_HOSTS: '127.0.0.1',
      // TikTok's app is set up, but TikTok is not published to: it is offered nowhere.
      TIKTOK_CLIENT_ID: 'tiktok-client',
      TIKTOK_CLIENT_SECRET: 'tiktok-secret',
      // X's app is set up so an X account can be connected (from tokens below); nothing here publishes to X.
      X_CLIENT_ID: 'x-client',
      X_CLIENT_SECRET: 'x-secret',
    },
  });
  ({ page, api } = session);
  const { services } = session.service;
  await connectSandbox(services, session.workspace.workspaceId, 'composer-sandbox');
  await connectSocialAccount(services.db, services.secrets, services.adapters, services.outbox, {
    workspaceId: session.workspace.workspaceId,
    provider: 'x',
    username: 'composer_x',
    displayName: 'Composer X',
    tokens: { accessToken: 'not used: nothing is published to X here' },
  });
});
afterAll(async () => {
  await session?.close();
  await instance?.stop();
  await openAi?.close();
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The account's avatar in the composer's picker: a toggle button named by the account, its handle and network. */
const accountButton = (username: string): Locator => page.getByRole('button', { name: new RegExp(`^.+ \\(@${escaped(username)},`) });
/** Picks the account by its avatar: the post goes to it, and the button says so (pressed). */
async function pick(username: string) {
  await accountButton(username).click();
  expect(await accountButton(username).getAttribute('aria-pressed')).toBe('true');
}
/** The chosen account's panel, opened: placement, own caption, the network's settings. */
async function targetPanel(username: string): Promise<Locator> {
  const trigger = page.getByRole('button', { name: new RegExp(`@${escaped(username)} on `) });
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  return page.locator('.target').filter({ has: trigger });
}
const caption = () => page.getByLabel('Caption', { exact: true });
const box = async (locator: Locator) => (await locator.boundingBox())!;

/** A ready image in the workspace's library, added through the graph with the owner's key. */
/** A composer as a person opens it anew: nothing composed, the accounts and queues as they are now. */
async function openComposer() {
  await page.goto(`${dashboardOrigin}/compose`);
  await page.getByRole('heading', { name: 'New post' }).waitFor();
}

describe('the accounts page', () => {
  it('connects a Mastodon account by OAuth at the server the person names, showing the API’s detail next to the field', async () => {
    await openPage(page, 'Accounts');
    const form = page.getByRole('form', { name: 'Mastodon' });
    await form.getByRole('button', { name: 'Connect Mastodon' }).click();
    const server = form.getByLabel(/Your Mastodon server/);
    await expect.poll(() => server.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await server.getAttribute('aria-describedby')}`).textContent()).toMatch(/\S/);
    expect(await inspectPage(page, 'accounts-mastodon-refused')).toEqual([]);

    await server.fill(instance.url);
    await form.getByRole('button', { name: 'Connect Mastodon' }).click();
    // The instance approves at once and sends the person back to the dashboard.
    await page.waitForURL((url) => url.searchParams.has('connectionId'));
    await openPage(page, 'Accounts');
    await page.getByRole('cell', { name: `Alice (@${mastodonUsername})` }).waitFor();

    const accounts = (await api('GET', '/social-accounts')).body.data;
    expect(accounts.map((account: { provider: string; username: string }) => [account.provider, account.username])).toContainEqual([
      'mastodon',
      mastodonUsername,
    ]);
  });
});

describe('the people page', () => {
  it('shows the API’s detail next to the field it names', async () => {
    const { ownerId } = await createWorkspace(session.service.services);
    const { email } = await session.service.services.db.prisma.user.findUniqueOrThrow({ where: { id: ownerId } });
    await openPage(page, 'People');
    await page.getByLabel('Email').fill(email);
    const password = page.getByLabel('Password for a new person (optional)');
    await password.fill('a password for someone who has one');
    await page.getByRole('button', { name: 'Add person' }).click();
    // Someone with an account already keeps their password: the API names the field.
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await password.getAttribute('aria-describedby')}`).textContent()).toMatch(/\S/);
    expect(await inspectPage(page, 'people-refused')).toEqual([]);
  });
});

describe('the composer', () => {
  it('sets the previews beside the editor on a wide screen and as a tab on a phone, without sideways scrolling', async () => {
    await openComposer();
    await pick('composer-sandbox');
    const editor = page.locator('.composer-editor');
    const previews = page.getByRole('region', { name: 'Preview', exact: true });
    await page.getByRole('article', { name: '@composer-sandbox on Sandbox (test network) (feed)' }).waitFor();

    await page.setViewportSize({ width: 1280, height: 900 });
    const [wideEditor, widePreviews] = [await box(editor), await box(previews)];
    expect(widePreviews.x).toBeGreaterThanOrEqual(wideEditor.x + wideEditor.width);
    expect(widePreviews.y).toBeLessThan(wideEditor.y + 100);

    await page.setViewportSize({ width: 375, height: 900 });
    expect(await previews.isHidden()).toBe(true);
    await page.getByRole('tab', { name: 'Preview' }).click();
    const narrowPreviews = await box(previews);
    expect(narrowPreviews.x + narrowPreviews.width).toBeLessThanOrEqual(375);
    expect(await editor.isHidden()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('tab', { name: 'Write' }).click();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('picks accounts by their avatars, as toggle buttons that say whether they are chosen', async () => {
    await openComposer();
    const x = accountButton('composer_x');
    expect(await x.getAttribute('aria-pressed')).toBe('false');
    await x.focus();
    await page.keyboard.press('Enter');
    expect(await x.getAttribute('aria-pressed')).toBe('true');
    const preview = page.getByRole('article', { name: '@composer_x on X (feed)' });
    await preview.waitFor();
    await x.click();
    expect(await x.getAttribute('aria-pressed')).toBe('false');
    await preview.waitFor({ state: 'detached' });
  });

  it('counts X’s preview as X does while the person types, and marks what goes past 280', async () => {
    await openComposer();
    await pick('composer_x');
    const preview = page.getByRole('article', { name: '@composer_x on X (feed)' });
    await caption().pressSequentially('Spring 🌷 #sale @friend');
    // An emoji weighs 2 on X: 7 + 2 + 14.
    await preview.getByText('Counted as 23 of 280').waitFor();
    expect(await preview.locator('.preview-hashtag').textContent()).toBe('#sale');
    expect(await preview.locator('.preview-mention').textContent()).toBe('@friend');
    expect(await preview.getByRole('deletion').count()).toBe(0);

    await caption().fill(`${'日'.repeat(139)}本語 and more`);
    await preview.getByText('Counted as 291 of 280').waitFor();
    expect(await preview.getByRole('deletion').textContent()).toBe('語 and more');
    await preview.getByText('Cut off: 11 characters beyond the limit').waitFor();
    expect(await preview.locator('.preview-length').getAttribute('class')).toContain('over');
  });

  it('uploads a file dropped onto the composer, showing its progress, and shows it in the preview’s grid', async () => {
    await openComposer();
    await pick('composer-sandbox');
    await caption().fill('Dropped in');
    // Every label a progress bar shows, recorded as it changes: the upload is over in a moment.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        for (const bar of document.querySelectorAll('progress')) {
          const label = bar.labels?.[0]?.textContent;
          if (label && seen.at(-1) !== label) seen.push(label);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const bytes = (await image('png', 320, 240)).toString('base64');
    const dataTransfer = await page.evaluateHandle((base64) => {
      // As a file dragged from the desktop arrives: copy allowed, and an entry in the file system (a File made in
      // the page has none, and react-aria takes only items that have one).
      const entryOf = DataTransferItem.prototype.webkitGetAsEntry;
      DataTransferItem.prototype.webkitGetAsEntry = function (this: DataTransferItem) {
        return entryOf.call(this) ?? (this.kind === 'file' ? ({ isFile: true, isDirectory: false } as FileSystemEntry) : null);
      };
      const transfer = new DataTransfer();
      transfer.effectAllowed = 'all';
      const content = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([content], 'dropped.png', { type: 'image/png' }));
      return transfer;
    }, bytes);
    const zone = page.locator('.media-drop');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });

    const preview = page.getByRole('article', { name: '@composer-sandbox on Sandbox (test network) (feed)' });
    await preview.locator('.preview-media img').waitFor();
    await page.getByRole('region', { name: 'Media', exact: true }).getByText('dropped.png', { exact: true }).waitFor();
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen).toContain('Sending dropped.png');
    expect(seen).toContain('Checking and processing dropped.png…');
    expect(await inspectPage(page, 'composer-dropped')).toEqual([]);
  });
  it('publishes with an own caption for one account and a network setting for another, the API’s findings next to the setting', async () => {
    await openComposer();
    await caption().fill('Spring is here https://example.com/a/rather/long/path/to/the/announcement');
    await pick('composer-sandbox');
    await pick(mastodonUsername);

    const sandbox = await targetPanel('composer-sandbox');
    await targetPanel(mastodonUsername);
    await sandbox.getByRole('checkbox', { name: 'Own caption for @composer-sandbox' }).check();
    await sandbox.getByLabel(/^Caption for @composer-sandbox/).fill('Only on the sandbox');

    const settings = page.getByRole('group', { name: `Settings for @${mastodonUsername}, Mastodon` });
    await settings.getByLabel('Visibility').selectOption('unlisted');
    const warning = settings.getByLabel('Spoiler text');
    await warning.fill('w'.repeat(501));
    // The API's rule check names the setting; its message is shown under that field.
    await expect.poll(async () => warning.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    expect(await page.locator(`#${(await warning.getAttribute('aria-describedby'))!.split(' ').at(-1)}`).textContent()).toMatch(/500/);
    await warning.fill('Seasonal allergies');
    await expect.poll(async () => warning.getAttribute('aria-invalid'), { timeout: 10_000 }).toBeNull();

    // The preview counts the link as Mastodon does (23 characters) and shows it shortened.
    const preview = page.getByRole('article', { name: `@${mastodonUsername} on Mastodon (feed)` });
    await preview.getByText('Counted as 38 of 500').waitFor();
    expect(await preview.getByRole('link').textContent()).toBe('example.com/a/rather/l…');
    // Where the network's limit cuts the text, the preview marks what is beyond it.
    const sandboxPreview = page.getByRole('article', { name: '@composer-sandbox on Sandbox (test network) (feed)' });
    await sandbox.getByLabel(/^Caption for @composer-sandbox/).fill(`${'s'.repeat(498)} beyond`);
    await sandboxPreview.getByText('Cut off: 5 characters beyond the limit').waitFor();
    expect(await sandboxPreview.getByRole('deletion').textContent()).toBe('eyond');
    await sandbox.getByLabel(/^Caption for @composer-sandbox/).fill('Only on the sandbox');
    await sandboxPreview.getByText('Only on the sandbox').waitFor();
    expect(await inspectPage(page, 'composer-targets')).toEqual([]);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.waitForURL(/\/posts\/[0-9a-f-]+$/);
    const post = await waitForPost(api, page.url().split('/').at(-1)!, ['published']);
    const byProvider = Object.fromEntries(post.targets.map((target: { provider: string }) => [target.provider, target]));
    expect(byProvider.sandbox.override).toEqual({ caption: 'Only on the sandbox' });
    expect(byProvider.mastodon.override).toBeNull();
    expect(byProvider.mastodon.settings).toEqual({ visibility: 'unlisted', spoilerText: 'Seasonal allergies' });
    const status = [...instance.statuses.values()].at(-1)!;
    expect([status.text, status.visibility, status.spoilerText]).toEqual([post.content.caption, 'unlisted', 'Seasonal allergies']);
  });

  it('rewrites, translates and tags the caption with AI, showing the credits used and left', async () => {
    await openComposer();
    await caption().fill('Our spring sale starts today');
    await page.getByRole('button', { name: 'Rewrite the caption' }).click();
    await page.getByRole('button', { name: 'Use suggestion 1' }).click();
    expect(await caption().inputValue()).toMatch(/^First: /);
    const { remaining } = (await api('GET', '/ai')).body.data.credits;
    await page.getByText(new RegExp(`credits? used, ${new Intl.NumberFormat('en-US').format(remaining)} left`)).waitFor();
    expect(openAi.requests.at(-1)!.path).toBe('/v1/chat/completions');

    await caption().fill('Our spring sale starts today');
    await page.getByLabel('Translate into').selectOption('fr');
    const asked = openAi.requests.length;
    await page.getByRole('button', { name: 'Translate the caption' }).click();
    await page.getByRole('button', { name: 'Use suggestion 1' }).waitFor();
    expect(openAi.requests.length).toBe(asked + 1);
    expect(JSON.stringify(openAi.requests.at(-1)!.body)).toContain('the BCP 47 tag \\"fr\\"');

    await page.getByRole('button', { name: 'Suggest hashtags' }).click();
    const addTag = page.getByRole('button', { name: /^Add #/ }).first();
    const tag = (await addTag.textContent())!.replace(/^Add /, '');
    await addTag.click();
    expect(await caption().inputValue()).toBe(`Our spring sale starts today ${tag}`);
    expect(await inspectPage(page, 'composer-ai')).toEqual([]);
  });

  it('shows the API’s refusal of an AI request as the API gives it', async () => {
    openAi.mode = 'rateLimited';
    try {
      await openComposer();
      await caption().fill('Our spring sale starts today');
      await page.getByRole('button', { name: 'Rewrite the caption' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      const refusal = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Our spring sale starts today' });
      expect(refusal.body.error.code).toBe('AI_BUSY');
      expect(await alert.textContent()).toBe(refusal.body.error.message);
    } finally {
      openAi.mode = 'ok';
    }
  });

  it('attaches an image from the library with an AI-suggested alt text, previewed and published with the post', async () => {
    const mediaId = await libraryImage(session, 'lighthouse.png');
    await openComposer();
    await caption().fill('The lighthouse at dusk');
    await pick('composer-sandbox');
    await page.getByRole('button', { name: 'Add from the library' }).click();
    const library = page.getByRole('dialog', { name: 'Media library' });
    await library.getByRole('button', { name: 'Add lighthouse.png' }).click();
    await library.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'AI suggestion' }).click();
    const altText = page.getByLabel('Alt text for lighthouse.png');
    await expect.poll(() => altText.inputValue(), { timeout: 10_000 }).toBe('A small test picture in one colour.');
    await page.getByRole('button', { name: 'Save alt text' }).click();
    const preview = page.getByRole('article', { name: '@composer-sandbox on Sandbox (test network) (feed)' });
    await preview.getByRole('img', { name: 'A small test picture in one colour.' }).waitFor();
    expect(await inspectPage(page, 'composer-media')).toEqual([]);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.waitForURL(/\/posts\/[0-9a-f-]+$/);
    const post = await waitForPost(api, page.url().split('/').at(-1)!, ['published']);
    expect(post.content.mediaIds).toEqual([mediaId]);
    expect((await api('GET', `/media/${mediaId}`)).body.data.altText).toBe('A small test picture in one colour.');
  });

  it('adds a post to a queue: scheduled at the queue’s next slot', async () => {
    const queue = await api('POST', '/queues', {
      name: 'Weekday mornings',
      timezone: 'Europe/Berlin',
      slots: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, time: '09:00' })),
    });
    expect(queue.status).toBe(201);
    await openComposer();
    await caption().fill('Queued from the dashboard');
    await pick('composer-sandbox');
    await page.getByLabel('Queue', { exact: true }).selectOption({ label: 'Weekday mornings (Europe/Berlin)' });
    expect(await inspectPage(page, 'composer-queue')).toEqual([]);
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByTestId('post-status').getByText('Scheduled').waitFor();

    const post = (await api('GET', `/posts/${page.url().split('/').at(-1)}`)).body.data;
    expect([post.status, post.queueId, post.content.caption]).toEqual(['scheduled', queue.body.data.id, 'Queued from the dashboard']);
    expect(new Date(post.scheduledAt).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('networks offered to connect', () => {
  it('are those set up here: TikTok with its app, not Pinterest without one', async () => {
    await openPage(page, 'Accounts');
    await page.getByRole('button', { name: 'Connect TikTok', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Connect Pinterest', exact: true }).count()).toBe(0);
  });
});
