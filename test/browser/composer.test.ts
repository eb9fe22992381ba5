// The composer and the accounts page in headless Chromium: connecting Mastodon by naming the server, a post with an
// own caption for one account and a network setting for another published to both, AI help for the caption (the
// local OpenAI stand-in), adding a post to a queue; each checked on the page and then through the API, each page
// checked by axe-core and photographed at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { bearer, connectSandbox, createWorkspace } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';
import { waitForPost, type Api } from '../support/posts.ts';
import { inspectPage } from './chromium.ts';
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
    },
  });
  ({ page, api } = session);
  await connectSandbox(session.service.services, session.workspace.workspaceId, 'composer-sandbox');
});
afterAll(async () => {
  await session?.close();
  await instance?.stop();
  await openAi?.close();
});

/** The account's row in the composer: the checkbox named by the account, and what appears once it is chosen. */
const targetRow = (username: string): Locator =>
  page.locator('.target').filter({ has: page.getByRole('checkbox', { name: new RegExp(`^\\S+ \\(@${username},`) }) });
const caption = () => page.getByLabel('Caption', { exact: true });

/** A ready image in the workspace's library, added through the graph with the owner's key. */
async function libraryImage(filename: string): Promise<string> {
  const response = await fetch(`${session.service.url}/graphql`, {
    method: 'POST',
    headers: bearer(session.workspace.ownerKey, { 'content-type': 'application/json' }),
    body: JSON.stringify({
      query:
        'mutation Add($base64: String!, $filename: String!) { uploadMedia(base64: $base64, filename: $filename, contentType: "image/png", waitSeconds: 10) { id status } }',
      variables: { base64: (await image('png', 640, 480)).toString('base64'), filename },
    }),
  });
  const { data } = await response.json();
  expect(data.uploadMedia.status).toBe('READY');
  return data.uploadMedia.id;
}

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
  it('publishes with an own caption for one account and a network setting for another, the API’s findings next to the setting', async () => {
    await openComposer();
    await caption().fill('Spring is here https://example.com/a/rather/long/path/to/the/announcement');
    await targetRow('composer-sandbox').getByRole('checkbox').first().check();
    await targetRow(mastodonUsername).getByRole('checkbox').first().check();

    const sandbox = targetRow('composer-sandbox');
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
    const mediaId = await libraryImage('lighthouse.png');
    await openComposer();
    await caption().fill('The lighthouse at dusk');
    await targetRow('composer-sandbox').getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Add lighthouse.png' }).click();
    await page.getByRole('button', { name: 'AI suggestion' }).click();
    const altText = page.getByLabel('Alt text for lighthouse.png');
    await expect.poll(() => altText.inputValue()).toBe('A small test picture in one colour.');
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
    await targetRow('composer-sandbox').getByRole('checkbox').first().check();
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
