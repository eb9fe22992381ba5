// The media library: uploads of real files, checking and processing, alt text, search, deletion, signed file URLs,
// and media in posts against each network's rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;

beforeAll(async () => ({ service, acme, api } = await serviceWithWorkspace()));
afterAll(() => service.stop());

/** Starts an upload, PUTs the bytes to the signed URL, completes it, and waits for processing to end. */
async function upload(filename: string, contentType: string, bytes: Buffer, as: Api = api) {
  const started = await as('POST', '/media/uploads', { filename, contentType, size: bytes.length });
  expect(started.status).toBe(201);
  const { id, uploadUrl, method, headers } = started.body.data;
  const put = await fetch(uploadUrl.replace(service.services.config.publicBaseUrl, service.url), { method, headers, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  const completed = await as('POST', `/media/uploads/${id}/complete`);
  expect(completed.status).toBe(202);
  expect(completed.body.data.status).toBe('processing');
  for (let i = 0; i < 300; i++) {
    const { body } = await as('GET', `/media/${id}`);
    if (body.data.status === 'ready' || body.data.status === 'failed') return body.data;
    await sleep(100);
  }
  throw new Error(`media ${id} still processing`);
}

const local = (url: string) => url.replace(service.services.config.publicBaseUrl, service.url);

describe('uploads end ready with their details, or failed with a reason', () => {
  it('takes PNG, JPEG, WebP and GIF images, with dimensions, format and a thumbnail', async () => {
    for (const [format, mime, type] of [
      ['png', 'image/png', 'image'],
      ['jpeg', 'image/jpeg', 'image'],
      ['webp', 'image/webp', 'image'],
      ['gif', 'image/gif', 'gif'],
    ] as const) {
      const media = await upload(`picture.${format}`, 'application/octet-stream', await image(format, 640, 480));
      expect(media, format).toMatchObject({ status: 'ready', type, mimeType: mime, format, width: 640, height: 480, durationMs: null, error: null });
      const thumbnail = await fetch(local(media.thumbnailUrl));
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      expect((await thumbnail.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('takes an MP4 made by ffmpeg, with duration, dimensions, codecs and a poster frame', async () => {
    const media = await upload('clip.mp4', 'video/mp4', await video(360, 640, 2));
    expect(media).toMatchObject({ status: 'ready', type: 'video', mimeType: 'video/mp4', format: 'mp4', width: 360, height: 640 });
    expect(media.durationMs).toBeGreaterThanOrEqual(1900);
    expect(media.durationMs).toBeLessThanOrEqual(2200);
    expect(media.codecs).toEqual(expect.arrayContaining(['h264', 'aac']));
    expect((await fetch(local(media.thumbnailUrl))).status).toBe(200);
  });

  it('fails a truncated image, a truncated video and a text file named .jpg, saying why', async () => {
    const png = await image('png', 800, 600);
    const truncatedPng = await upload('cut.png', 'image/png', png.subarray(0, Math.floor(png.length / 2)));
    expect(truncatedPng).toMatchObject({ status: 'failed', error: { code: 'corrupt' }, thumbnailUrl: null, url: null });
    const mp4 = await video(320, 240, 2);
    const truncatedMp4 = await upload('cut.mp4', 'video/mp4', mp4.subarray(0, 2000));
    expect(truncatedMp4).toMatchObject({ status: 'failed', error: { code: 'corrupt' } });
    const text = await upload('holiday.jpg', 'image/jpeg', Buffer.from('Dear diary, this is not a picture at all.\n'.repeat(20)));
    expect(text).toMatchObject({
      status: 'failed',
      error: { code: 'unknownType', message: 'The content is not a known image or video format, whatever its name says.' },
    });
    const pdf = await upload('report.jpg', 'image/jpeg', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 32)]));
    expect(pdf).toMatchObject({ status: 'failed', error: { code: 'unsupportedType', message: 'No network takes application/pdf files.' } });
  });

  it('records media.ready and media.failed events', async () => {
    const events = await service.services.db.prisma.outboxEvent.findMany({ where: { workspaceId: acme.workspaceId, type: { startsWith: 'media.' } } });
    expect(events.filter((event) => event.type === 'media.ready').length).toBeGreaterThanOrEqual(5);
    expect(events.find((event) => event.type === 'media.failed')?.data).toMatchObject({ type: 'MediaFailed', error: { code: expect.any(String) } });
  });
});

describe('upload rules', () => {
  it('refuses more bytes than declared, a wrong signature, and completing before all bytes arrived', async () => {
    const started = (await api('POST', '/media/uploads', { filename: 'a.png', contentType: 'image/png', size: 10 })).body.data;
    const png = { 'content-type': 'image/png' };
    const tooMany = await fetch(local(started.uploadUrl), { method: 'PUT', headers: png, body: new Uint8Array(11) });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.details[0]).toEqual({ field: 'body', code: 'tooLarge', message: 'The body is larger than 10 bytes.' });
    const forged = await fetch(local(started.uploadUrl).replace(/signature=[^&]+/, 'signature=forged'), {
      method: 'PUT',
      headers: { ...png, 'accept-language': 'de' },
      body: new Uint8Array(10),
    });
    expect(forged.status).toBe(403);
    expect((await forged.json()).error).toEqual({
      code: 'FORBIDDEN',
      message: 'Die Upload-URL oder das Token ist ungültig oder abgelaufen: bitte einen neuen Upload starten.',
      requestId: forged.headers.get('x-request-id'),
    });
    const early = await api('POST', `/media/uploads/${started.id}/complete`);
    expect(early.status).toBe(400);
    expect(early.body.error.details[0]).toMatchObject({ field: 'upload', code: 'incomplete', message: 'Received 0 of 10 bytes: send the rest first.' });
    const huge = await api('POST', '/media/uploads', { filename: 'huge.mp4', contentType: 'video/mp4', size: 5 * 1024 ** 3 });
    expect(huge.status).toBe(400);
    expect(huge.body.error.details[0].field).toBe('size');
  });

  it('takes one whole file, of the declared Content-Type, per upload URL', async () => {
    const started = (await api('POST', '/media/uploads', { filename: 'b.png', contentType: 'image/png', size: 10 })).body.data;
    const put = (headers: Record<string, string>, bytes: number) => fetch(local(started.uploadUrl), { method: 'PUT', headers, body: new Uint8Array(bytes) });

    const otherType = await put({ 'content-type': 'image/jpeg' }, 10);
    expect(otherType.status).toBe(400);
    expect((await otherType.json()).error.details).toEqual([
      { field: 'content-type', code: 'contentTypeMismatch', message: 'Must be image/png, the type declared when the upload started.' },
    ]);
    expect((await put({}, 10)).status).toBe(400);
    const short = await put({ 'content-type': 'image/png' }, 4);
    expect(short.status).toBe(400);
    expect((await short.json()).error.details).toEqual([
      { field: 'body', code: 'incomplete', message: 'The body has 4 of the 10 bytes declared: send the whole file in one request.' },
    ]);

    const stored = await put({ 'content-type': 'Image/PNG; charset=binary' }, 10);
    expect(stored.status).toBe(200);
    expect((await stored.json()).data).toEqual({ id: started.id, receivedBytes: 10 });
    const again = await put({ 'content-type': 'image/png' }, 10);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({
      code: 'CONFLICT',
      message: 'This upload already has its file: complete it, or start a new upload to send another file.',
    });
  });

  it('serves files only through unexpired signed URLs, and not another workspace’s', async () => {
    const media = await upload('signed.png', 'image/png', await image('png', 100, 100));
    expect((await fetch(local(media.url))).status).toBe(200);
    expect((await fetch(local(media.url).replace(/signature=[^&]+/, 'signature=nope'))).status).toBe(404);
    expect((await fetch(local(media.url).replace(/expires=\d+/, 'expires=1'))).status).toBe(404);
    const other = await createWorkspace(service.services);
    expect((await apiFor(service.url, other.ownerKey)('GET', `/media/${media.id}`)).status).toBe(404);
    const reader = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    const refused = await apiFor(service.url, reader.apiKey)('POST', '/media/uploads', { filename: 'x.png', contentType: 'image/png', size: 1 });
    expect(refused.body.error.message).toBe('API key needs the media:write scope for startUpload.');
  });
});

describe('the library', () => {
  it('saves, searches and clears alt text within the networks’ limits', async () => {
    const media = await upload('sunset-over-lake.png', 'image/png', await image('png', 300, 200));
    const saved = await api('PUT', `/media/${media.id}/alt-text`, { altText: 'A red sky over a still lake' });
    expect(saved.body.data.altText).toBe('A red sky over a still lake');
    expect((await api('GET', '/media?q=STILL LAKE')).body.data.map((m: { id: string }) => m.id)).toEqual([media.id]);
    expect((await api('GET', '/media?q=sunset-over')).body.data.map((m: { id: string }) => m.id)).toEqual([media.id]);
    const tooLong = await api('PUT', `/media/${media.id}/alt-text`, { altText: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details[0]).toMatchObject({ field: 'altText', code: 'maxLength' });
    expect((await api('PUT', `/media/${media.id}/alt-text`, { altText: null })).body.data.altText).toBeNull();
    const writer = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: ['media:write'] });
    const onlyWrite = await apiFor(service.url, writer.apiKey)('PUT', `/media/${media.id}/alt-text`, { altText: 'Set with media:write alone' });
    expect(onlyWrite.status).toBe(200);
  });

  it('filters by type and status and pages', async () => {
    const listed = await api('GET', '/media?type=video&status=ready&limit=1');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].type).toBe('video');
    expect((await api('GET', '/media?status=failed&limit=100')).body.data.every((m: { status: string }) => m.status === 'failed')).toBe(true);
    expect((await api('GET', '/media?type=audio')).status).toBe(400);
  });
});

describe('media in posts', () => {
  it('checks count, kind, aspect ratio and duration per placement, and refuses media that is not ready', async () => {
    const account = await connectSandbox(service.services, acme.workspaceId);
    const picture = await upload('square.png', 'image/png', await image('png', 500, 500));
    const clip = await upload('vertical.mp4', 'video/mp4', await video(360, 640, 2));
    const reelWithImage = await api('POST', '/posts', {
      content: { caption: 'Reel', mediaIds: [picture.id] },
      targets: [{ connectionId: account, placement: 'reel' }],
    });
    expect(reelWithImage.status).toBe(422);
    expect(reelWithImage.body.error.details[0]).toMatchObject({
      field: 'targets[0].mediaIds[0]',
      code: 'media.kind',
      message: 'A reel does not take image files.',
    });
    const mixed = await api('POST', '/posts', {
      content: { caption: 'Mixed', mediaIds: [picture.id, clip.id] },
      targets: [{ connectionId: account, placement: 'feed' }],
    });
    expect(mixed.body.error.details.map((d: { code: string }) => d.code)).toEqual(['media.mixed']);
    const reel = await api('POST', '/posts', { content: { caption: 'Reel', mediaIds: [clip.id] }, targets: [{ connectionId: account, placement: 'reel' }] });
    expect(reel.status).toBe(201);
    expect(reel.body.data.media).toEqual([expect.objectContaining({ id: clip.id, type: 'video' })]);

    const pending = (await api('POST', '/media/uploads', { filename: 'later.png', contentType: 'image/png', size: 5 })).body.data;
    const notReady = await api('POST', '/posts', {
      content: { caption: 'x', mediaIds: [pending.id] },
      targets: [{ connectionId: account, placement: 'feed' }],
    });
    expect(notReady.body.error.details[0]).toMatchObject({ field: 'content.mediaIds[0]', code: 'mediaNotReady' });

    expect((await api('DELETE', `/media/${clip.id}`)).status).toBe(409);
    await api('POST', `/posts/${reel.body.data.id}/publish`);
    for (let i = 0; i < 100 && (await api('GET', `/posts/${reel.body.data.id}`)).body.data.status !== 'published'; i++) await sleep(100);
    const published = (await api('GET', `/posts/${reel.body.data.id}`)).body.data;
    expect((await api('DELETE', `/media/${clip.id}`)).status).toBe(204);
    expect((await api('GET', `/media/${clip.id}`)).status).toBe(404);
    // The network keeps its copy; the published post no longer names a file that is gone.
    const after = (await api('GET', `/posts/${reel.body.data.id}`)).body.data;
    expect(after.content.mediaIds).toEqual([]);
    expect(after.media).toEqual([]);
    expect(after.version).toBe(published.version + 1);
    expect(after.status).toBe('published');
  });
});
