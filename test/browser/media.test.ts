// The media library page in headless Chromium: upload a real PNG with visible progress, alt text typed and suggested
// by the AI (a local OpenAI stand-in), search, filters, "More", and delete; each checked on the page and then
// through the API. The page is checked by axe-core and photographed at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longestAltText } from '../../src/media/limits.ts';
import { connectSandbox } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';
import { inspectPage } from './chromium.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

const suggestion = 'A raspberry-red rectangle on its own.';
let standIn: OpenAiStandIn;
let session: DashboardSession;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  standIn.reply = () => ({ altText: suggestion });
  session = await openDashboard({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: standIn.baseUrl, AI_VISION_MODEL: 'vision-model' } });
});
afterAll(async () => {
  await session?.close();
  await standIn?.close();
});

async function mediaIdOf(filename: string): Promise<string> {
  const { body } = await session.api('GET', `/media?q=${encodeURIComponent(filename)}`);
  return body.data.find((media: { filename: string }) => media.filename === filename).id;
}

describe('the media library page', () => {
  it('uploads an image with progress and stores the alt text typed, then the one the AI suggests', async () => {
    const { page, api } = session;
    await openPage(page, 'Media');
    // The bytes are held on their way, so that the progress of sending is seen before it ends.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/uploads/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Upload a file').setInputFiles({ name: 'red-square.png', mimeType: 'image/png', buffer: await image('png', 640, 480) });
    await page.getByRole('progressbar', { name: 'Sending red-square.png' }).waitFor();
    release();
    const done = page.getByRole('progressbar', { name: 'red-square.png is ready' });
    await done.waitFor();
    expect(await done.evaluate((bar: HTMLProgressElement) => bar.value === bar.max && bar.max > 0)).toBe(true);
    await page.unrouteAll();

    const card = page.getByRole('article', { name: 'red-square.png' });
    const thumbnail = card.locator('img.thumbnail');
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const id = await mediaIdOf('red-square.png');
    expect((await api('GET', `/media/${id}`)).body.data).toMatchObject({ status: 'ready', type: 'image', width: 640, height: 480 });

    const altText = card.getByLabel('Alt text for red-square.png');
    const tooLong = 'x'.repeat(longestAltText() + 1);
    await altText.fill(tooLong);
    await card.getByRole('button', { name: 'Save alt text' }).click();
    const refusal = (await api('PUT', `/media/${id}/alt-text`, { altText: tooLong })).body.error;
    await card.locator('.field-error').getByText(refusal.details[0].message).waitFor();
    expect(await altText.getAttribute('aria-invalid')).toBe('true');

    await altText.fill('A red square');
    await card.getByRole('button', { name: 'Save alt text' }).click();
    await card.getByRole('status').getByText('Alt text saved.').waitFor();
    expect(await altText.getAttribute('aria-invalid')).toBeNull();
    expect((await api('GET', `/media/${id}`)).body.data.altText).toBe('A red square');

    await card.getByRole('button', { name: 'AI suggestion' }).click();
    await card
      .getByRole('status')
      .getByText(/Suggested for 2 credits/)
      .waitFor();
    expect(await altText.inputValue()).toBe(suggestion);
    expect(standIn.requests.at(-1)?.path).toBe('/v1/chat/completions');
    expect((await api('GET', `/media/${id}`)).body.data.altText).toBe('A red square');
    await card.getByRole('button', { name: 'Save alt text' }).click();
    await card.getByRole('status').getByText('Alt text saved.').waitFor();
    expect((await api('GET', `/media/${id}`)).body.data.altText).toBe(suggestion);
    expect(await thumbnail.getAttribute('alt')).toBe(suggestion);
    expect(await inspectPage(page, 'media')).toEqual([]);
  });

  it('searches, filters and pages through the files', async () => {
    const { page, api } = session;
    // Uploads started and never sent: 25 of them, with the image above, make two pages.
    for (let index = 1; index <= 25; index++) {
      const { status } = await api('POST', '/media/uploads', { filename: `pending-${index}.jpg`, contentType: 'image/jpeg', size: 1000 });
      expect(status).toBe(201);
    }
    await page.reload();
    const cards = page.locator('main article');
    await page.getByRole('article', { name: 'pending-25.jpg' }).waitFor();
    expect(await cards.count()).toBe(24);
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('article', { name: 'red-square.png' }).waitFor();
    expect(await cards.count()).toBe(26);
    expect(await page.getByRole('button', { name: 'More' }).count()).toBe(0);

    await page.getByLabel('Status').selectOption({ label: 'Ready' });
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByRole('article', { name: 'red-square.png' }).waitFor();
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await page.getByLabel('Type').selectOption({ label: 'Video' });
    await page.getByText('No files.').waitFor();
    await page.getByLabel('Type').selectOption({ label: 'All' });

    // Alt texts are searched too.
    await page.getByLabel('Search names and alt texts').fill('raspberry');
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByRole('article', { name: 'red-square.png' }).waitFor();
    await page.getByLabel('Search names and alt texts').fill('pending-1');
    await expect.poll(() => cards.count()).toBe(11);
    await page.getByLabel('Search names and alt texts').fill('');
    await expect.poll(() => cards.count()).toBe(24);
  });

  it('shows the API’s refusal to delete a file a draft uses, and deletes it once the draft is gone', async () => {
    const { page, api, service, workspace } = session;
    const id = await mediaIdOf('red-square.png');
    const connectionId = await connectSandbox(service.services, workspace.workspaceId);
    const draft = await api('POST', '/posts', { content: { caption: 'With a picture', mediaIds: [id] }, targets: [{ connectionId, placement: 'feed' }] });
    expect(draft.status).toBe(201);
    const refusal = (await api('DELETE', `/media/${id}`)).body.error;
    expect(refusal.code).toBe('CONFLICT');

    await page.getByLabel('Search names and alt texts').fill('red-square');
    const card = page.getByRole('article', { name: 'red-square.png' });
    await expect.poll(() => page.locator('main article').count()).toBe(1);
    const confirmDelete = async () => {
      await card.getByRole('button', { name: 'Delete red-square.png' }).click();
      await page.getByRole('alertdialog', { name: 'Delete red-square.png for good?' }).getByRole('button', { name: 'Delete for good' }).click();
    };
    await confirmDelete();
    await card.getByRole('alert').waitFor();
    expect(await card.getByRole('alert').textContent()).toBe(refusal.message);
    expect((await api('GET', `/media/${id}`)).status).toBe(200);

    expect((await api('DELETE', `/posts/${draft.body.data.id}`)).status).toBe(204);
    await confirmDelete();
    await page.getByText('No files.').waitFor();
    expect((await api('GET', `/media/${id}`)).status).toBe(404);
  });
});
