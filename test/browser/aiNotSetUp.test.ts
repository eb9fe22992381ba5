// A service without AI (no AI_PROVIDER, GET /v1/ai `available: false`): the composer and the media cards offer no
// AI action and no credits, and say that AI is not set up and how to set it up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { image } from '../support/mediaFiles.ts';
import { openDashboard, openPage, type DashboardSession } from './session.ts';

let session: DashboardSession;

beforeAll(async () => {
  session = await openDashboard({ env: { AI_PROVIDER: '' } });
  const { api, service } = session;
  expect((await api('GET', '/ai')).body.data.available).toBe(false);
  const png = await image('png', 40, 40);
  const started = (await api('POST', '/media/uploads', { filename: 'no-ai.png', contentType: 'image/png', size: png.length })).body.data;
  await fetch(started.uploadUrl.replace(service.services.config.publicBaseUrl, service.url), {
    method: 'PUT',
    headers: started.headers,
    body: new Uint8Array(png),
  });
  expect((await api('POST', `/media/uploads/${started.id}/complete`)).status).toBe(202);
});
afterAll(() => session?.close());

describe('AI not set up', () => {
  it('the composer says so, and how, instead of offering AI actions and credits', async () => {
    const { page } = session;
    await openPage(page, 'Compose');
    const ai = page.getByRole('region', { name: 'AI help' });
    await ai.getByText('AI is not set up on this server.', { exact: false }).waitFor();
    expect(await ai.textContent()).toContain('AI_PROVIDER');
    expect(await ai.getByRole('button').count()).toBe(0);
    expect(await ai.textContent()).not.toMatch(/credits/i);
  });

  it('a media card offers no AI alt text, and says why', async () => {
    const { page } = session;
    await openPage(page, 'Media');
    const card = page.getByRole('article', { name: 'no-ai.png' });
    await card.getByText('AI suggestions are not set up on this server (AI_PROVIDER).').waitFor();
    expect(await card.getByRole('button', { name: 'AI suggestion' }).count()).toBe(0);
  });
});
