// AI for media against a local OpenAI-compatible server: alt text from a reduced copy of the image, images generated
// into the media library, the in-flight cap shared by two server processes, and the offline sandbox provider.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';

const maxConcurrent = 2;
let standIn: OpenAiStandIn;
let service: TestService;
let secondProcess: TestService;
let sandbox: TestService;
let sharedDataDir: string;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  // Processes sharing a database share DATA_DIR (docs/configuration.md, MEDIA_MAX_UPLOAD_BYTES): either may run the other's media jobs.
  sharedDataDir = await mkdtemp(join(tmpdir(), 'sps-ai-'));
  const env = {
    AI_PROVIDER: 'openai',
    AI_BASE_URL: standIn.baseUrl,
    AI_VISION_MODEL: 'vision-model',
    AI_IMAGE_MODEL: 'image-model',
    AI_MAX_CONCURRENT: String(maxConcurrent),
    DATA_DIR: sharedDataDir,
  };
  service = await startTestService(env);
  secondProcess = await startTestService(env, service.databaseUrl);
  sandbox = await startTestService({ AI_PROVIDER: 'sandbox' });
});
afterAll(async () => {
  await sandbox.stop();
  await secondProcess.stop();
  await service.stop();
  await standIn.close();
  await rm(sharedDataDir, { recursive: true, force: true });
});
beforeEach(() => {
  standIn.mode = 'ok';
  standIn.requests = [];
  standIn.reply = ({ schemaName }) => (schemaName === 'alt_text' ? { altText: 'A red square on a plain background.' } : { suggestions: ['A caption'] });
});

async function workspace(on: TestService = service): Promise<Api> {
  return apiFor(on.url, (await createWorkspace(on.services)).ownerKey);
}

async function waitForMedia(api: Api, id: string) {
  for (let i = 0; i < 300; i++) {
    const { body } = await api('GET', `/media/${id}`);
    if (body.data.status === 'ready' || body.data.status === 'failed') return body.data;
    await sleep(100);
  }
  throw new Error(`media ${id} still processing`);
}

async function upload(api: Api, filename: string, bytes: Buffer, complete = true) {
  const started = await api('POST', '/media/uploads', { filename, contentType: 'application/octet-stream', size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(service.services.config.publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  if (!complete) return id as string;
  await api('POST', `/media/uploads/${id}/complete`);
  return (await waitForMedia(api, id)).id as string;
}

const remaining = async (api: Api) => (await api('GET', '/ai')).body.data.credits.remaining;

describe('POST /media/{id}/alt-text/suggestion', () => {
  it('sends a reduced JPEG copy (at most 1024 px) to the vision model, answers in the language asked, saves nothing', async () => {
    const api = await workspace();
    const original = await image('png', 3000, 2000);
    const id = await upload(api, 'big.png', original);
    const { status, body } = await api('POST', `/media/${id}/alt-text/suggestion`, { language: 'fr' });
    expect(status).toBe(200);
    expect(body.data).toEqual({ altText: 'A red square on a plain background.', creditsUsed: 2, creditsRemaining: 498 });
    const [sent] = standIn.requests;
    expect(sent!.body.model).toBe('vision-model');
    expect(sent!.body.messages[0].content).toContain('"fr"');
    const url: string = sent!.body.messages[1].content[0].image_url.url;
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const received = Buffer.from(url.slice('data:image/jpeg;base64,'.length), 'base64');
    expect(await sharp(received).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 683 });
    expect(received.length).toBeLessThan(original.length);
    expect((await api('GET', `/media/${id}`)).body.data.altText).toBeNull();
  });

  it('without language, describes in the Accept-Language; a long answer is cut to 1,000 characters', async () => {
    const api = await workspace();
    const id = await upload(api, 'small.jpg', await image('jpeg', 200, 100));
    standIn.reply = () => ({ altText: 'word '.repeat(400) });
    const { body } = await api('POST', `/media/${id}/alt-text/suggestion`, undefined, { 'accept-language': 'de-DE,de;q=0.9' });
    expect(standIn.requests[0]!.body.messages[0].content).toContain('"de"');
    expect([...body.data.altText].length).toBeLessThanOrEqual(1000);
    expect(body.data.altText.endsWith('…')).toBe(true);
    // A small image is sent at its own size, never enlarged.
    const url: string = standIn.requests[0]!.body.messages[1].content[0].image_url.url;
    expect(await sharp(Buffer.from(url.split(',')[1]!, 'base64')).metadata()).toMatchObject({ width: 200, height: 100 });
  });

  it('409 CONFLICT for a file that is not ready, 422 VALIDATION_FAILED for a video, 404 for another workspace’s file', async () => {
    const api = await workspace();
    const pending = await upload(api, 'pending.png', await image('png', 64, 64), false);
    const notReady = await api('POST', `/media/${pending}/alt-text/suggestion`, {});
    expect([notReady.status, notReady.body.error.code]).toEqual([409, 'CONFLICT']);
    const clip = await upload(api, 'clip.mp4', await video(160, 120, 1));
    const notImage = await api('POST', `/media/${clip}/alt-text/suggestion`, {});
    expect([notImage.status, notImage.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    const foreign = await api('POST', `/media/${await upload(await workspace(), 'other.png', await image('png', 64, 64))}/alt-text/suggestion`, {});
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(standIn.requests).toEqual([]);
    expect(await remaining(api)).toBe(500);
  });
});

describe('POST /ai/images', () => {
  it('202 with a media file that becomes ready through the media pipeline, source ai; 10 credits once ready', async () => {
    const api = await workspace();
    const { status, body } = await api('POST', '/ai/images', { prompt: 'A lighthouse at dusk', size: '1024x1536' });
    expect(status).toBe(202);
    const media = await waitForMedia(api, body.data.mediaId);
    expect(media).toMatchObject({ status: 'ready', source: 'ai', type: 'image', format: 'png', width: 1024, height: 1536, error: null });
    expect(media.thumbnailUrl).toEqual(expect.any(String));
    expect(standIn.requests[0]).toMatchObject({
      path: '/v1/images/generations',
      body: { model: 'image-model', prompt: 'A lighthouse at dusk', size: '1024x1536', response_format: 'b64_json' },
    });
    expect(await remaining(api)).toBe(490);
    const events = await service.services.db.pool.query(`SELECT type FROM outbox_event WHERE data->>'mediaId' = $1`, [media.id]);
    expect(events.rows.map((row) => row.type)).toEqual(['media.ready']);
  });

  it('a refused generation fails the file with the reason (media.failed) and charges nothing', async () => {
    const api = await workspace();
    standIn.mode = 'contentPolicy';
    const { body } = await api('POST', '/ai/images', { prompt: 'Something the filter declines' });
    const media = await waitForMedia(api, body.data.mediaId);
    expect(media).toMatchObject({ status: 'failed', source: 'ai', error: { code: 'AI_REFUSED' } });
    expect(await remaining(api)).toBe(500);
    const events = await service.services.db.pool.query(`SELECT type, data FROM outbox_event WHERE data->>'mediaId' = $1`, [media.id]);
    expect(events.rows).toMatchObject([{ type: 'media.failed', data: { error: { code: 'AI_REFUSED' } } }]);
  });

  it('refuses an empty prompt and an unknown size with 400 details', async () => {
    const api = await workspace();
    const { status, body } = await api('POST', '/ai/images', { prompt: '', size: '10x10' });
    expect(status).toBe(400);
    expect(body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['prompt', 'size']);
  });
});

describe('the in-flight cap (AI_MAX_CONCURRENT) is shared by server processes', () => {
  it('429 AI_BUSY with Retry-After past the cap, on either process; places are given back on success and failure', async () => {
    const created = await createWorkspace(service.services);
    const first = apiFor(service.url, created.ownerKey);
    const second = apiFor(secondProcess.url, created.ownerKey);
    const release = standIn.hold();
    const running = [first('POST', '/ai/captions', { action: 'rewrite', caption: 'A' }), first('POST', '/ai/captions', { action: 'rewrite', caption: 'B' })];
    await standIn.received(maxConcurrent);
    const busy = await fetch(`${secondProcess.url}/v1/ai/captions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'rewrite', caption: 'C' }),
    });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await busy.json()).error.code).toBe('AI_BUSY');
    // Another workspace is not held up: its call reaches the provider.
    running.push((await workspace(secondProcess))('POST', '/ai/captions', { action: 'rewrite', caption: 'D' }));
    await standIn.received(maxConcurrent + 1);
    release();
    expect((await Promise.all(running)).map((answer) => answer.status)).toEqual([200, 200, 200]);
    standIn.mode = 'serverError';
    const failed = await Promise.all([
      second('POST', '/ai/captions', { action: 'rewrite', caption: 'E' }),
      second('POST', '/ai/captions', { action: 'rewrite', caption: 'F' }),
    ]);
    expect(failed.map((answer) => answer.status)).toEqual([503, 503]);
    standIn.mode = 'ok';
    const after = await Promise.all([
      second('POST', '/ai/captions', { action: 'rewrite', caption: 'G' }),
      first('POST', '/ai/captions', { action: 'rewrite', caption: 'H' }),
    ]);
    expect(after.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await remaining(first)).toBe(496);
  });
});

describe('the sandbox provider (AI_PROVIDER=sandbox)', () => {
  it('is shown as such and answers offline, deterministically', async () => {
    const api = await workspace(sandbox);
    expect((await api('GET', '/ai')).body.data).toMatchObject({ available: true, provider: 'sandbox' });
    const caption = { action: 'translate', caption: 'Hello #world', targetLanguage: 'es' };
    const first = await api('POST', '/ai/captions', caption);
    expect(first.body.data.suggestions).toEqual(['[sandbox es 1] Hello #world']);
    expect((await api('POST', '/ai/captions', caption)).body.data.suggestions).toEqual(first.body.data.suggestions);
    const { body } = await api('POST', '/ai/images', { prompt: 'A lighthouse' });
    expect(await waitForMedia(api, body.data.mediaId)).toMatchObject({ status: 'ready', source: 'ai', width: 1024, height: 1024 });
    expect(standIn.requests).toEqual([]);
  });
});
