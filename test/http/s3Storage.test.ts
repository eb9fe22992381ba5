// Media in an S3-compatible store (MEDIA_STORAGE=s3, against s3rver): clients send files straight to the bucket
// through presigned PUTs (whole, or in parts past the single-PUT limit) whose signature binds the length and type,
// complete checks what the bucket holds, tus uploads and the service's own writes stream into it, processing reads
// from it, files are served by presigned GETs, deletion removes the objects, and a store failing mid-upload answers
// a clear 503 and leaves nothing half-visible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { presignedSignature, startTestS3, type TestS3 } from '../support/s3.ts';
import type { Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { storageKeys, StorageUnavailableError, TooLargeError } from '../../src/media/storage.ts';
import { partBytesAtLeast } from '../../src/media/s3Storage.ts';

const MiB = 1024 * 1024;

const singlePutBytesAtMost = 8 * MiB;
let s3: TestS3;
let service: TestService;
let api: Api;

beforeAll(async () => {
  s3 = await startTestS3();
  // Files over 8 MiB go up in parts here (S3_SINGLE_PUT_MAX_BYTES; 5 GB by default), so both ways are tried.
  ({ service, api } = await serviceWithWorkspace({ ...s3.env, S3_SINGLE_PUT_MAX_BYTES: String(singlePutBytesAtMost) }));
});
afterAll(async () => {
  await service?.stop();
  await s3?.stop();
});

const local = (url: string) => url.replace(service.services.config.publicBaseUrl, service.url);
const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function stored(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of service.services.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function start(filename: string, contentType: string, size: number) {
  const started = await api('POST', '/media/uploads', { filename, contentType, size });
  expect(started.status).toBe(201);
  return started.body.data;
}

async function put(started: { uploadUrl: string; method: string; headers: Record<string, string> }, bytes: Buffer) {
  return fetch(local(started.uploadUrl), { method: started.method, headers: started.headers, body: new Uint8Array(bytes) });
}

/** The bucket's refusal of a presigned request, by its S3 error code. */
async function bucketRefusal(answer: Response) {
  return { status: answer.status, code: /<Code>([^<]+)<\/Code>/.exec(await answer.text())?.[1] };
}

async function completeAndWait(id: string) {
  expect((await api('POST', `/media/uploads/${id}/complete`)).status).toBe(202);
  for (let i = 0; i < 300; i++) {
    const { body } = await api('GET', `/media/${id}`);
    if (body.data.status === 'ready' || body.data.status === 'failed') return body.data;
    await sleep(100);
  }
  throw new Error(`media ${id} still processing`);
}

describe('presigned PUTs straight to the bucket', () => {
  it('takes an image into the bucket without the service, processes it from there and serves it by a presigned GET', async () => {
    const png = await image('png', 640, 480);
    const started = await start('picture.png', 'image/png', png.length);
    // The upload URL is the bucket's, presigned for a key beside the file's (complete copies it over), expiring with the upload.
    const uploadUrl = new URL(started.uploadUrl);
    expect(uploadUrl.origin).toBe(s3.endpoint);
    expect(uploadUrl.pathname).toBe(`/${s3.bucket}/uploads/${started.id}.incoming`);
    expect(uploadUrl.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const signedAt = Date.parse(uploadUrl.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
    expect(Math.abs(signedAt + Number(uploadUrl.searchParams.get('X-Amz-Expires')) * 1000 - Date.parse(started.expiresAt))).toBeLessThan(2000);
    expect(started).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/png' }, maxBytes: png.length, parts: null });

    const sentBefore = s3.requests.length;
    const sent = await fetch(started.uploadUrl, { method: started.method, headers: started.headers, body: new Uint8Array(png) });
    expect(sent.status).toBe(200);
    expect(s3.requests.slice(sentBefore)).toEqual([{ method: 'PUT', key: `${storageKeys.original(started.id)}.incoming`, partNumber: null }]);

    const media = await completeAndWait(started.id);
    expect(await stored(storageKeys.original(started.id))).toEqual(png);
    expect(await service.services.storage.size(`${storageKeys.original(started.id)}.incoming`)).toBeNull();
    expect(media).toMatchObject({ status: 'ready', type: 'image', format: 'png', width: 640, height: 480 });
    expect(await service.services.storage.size(storageKeys.thumbnail(started.id))).toBeGreaterThan(0);

    // The service's signed URL sends the fetcher to the bucket, with a presigned GET that expires as it does.
    const answer = await fetch(local(media.url), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const presigned = new URL(answer.headers.get('location')!);
    expect(presigned.origin).toBe(s3.endpoint);
    expect(presigned.pathname).toBe(`/${s3.bucket}/uploads/${started.id}`);
    expect(presigned.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    const expiresIn = Number(presigned.searchParams.get('X-Amz-Expires'));
    expect(expiresIn).toBeGreaterThan(3500);
    expect(expiresIn).toBeLessThanOrEqual(3600);
    expect(presigned.searchParams.get('X-Amz-Signature')).toBe(presignedSignature('GET', presigned, { host: presigned.host }));
    const file = await fetch(presigned);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(png));
    const thumbnail = await fetch(local(media.thumbnailUrl));
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
  });

  it('is refused by the bucket for another type or length than declared, and complete refuses the upload until the file is there', async () => {
    const png = await image('png', 64, 64);
    const started = await start('picture.png', 'image/png', png.length);
    const send = (headers: Record<string, string>, bytes: Buffer) => fetch(started.uploadUrl, { method: 'PUT', headers, body: new Uint8Array(bytes) });
    expect(await bucketRefusal(await send({ 'content-type': 'image/jpeg' }, png))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await bucketRefusal(await send(started.headers, png.subarray(10)))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await bucketRefusal(await send(started.headers, Buffer.concat([png, Buffer.alloc(10)])))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await service.services.storage.size(storageKeys.original(started.id))).toBeNull();
    const early = await api('POST', `/media/uploads/${started.id}/complete`);
    expect(early.status).toBe(400);
    expect(early.body.error.details[0]).toMatchObject({ field: 'upload', code: 'incomplete' });

    expect((await send(started.headers, png)).status).toBe(200);
    expect(await completeAndWait(started.id)).toMatchObject({ status: 'ready', format: 'png' });
  });

  it('serves and publishes the bytes it checked: the upload URL sent again after processing changes nothing', async () => {
    const png = await image('png', 64, 64);
    const started = await start('picture.png', 'image/png', png.length);
    expect((await put(started, png)).status).toBe(200);
    const media = await completeAndWait(started.id);
    expect(media).toMatchObject({ status: 'ready', type: 'image', format: 'png' });

    // The presigned URL still takes a body of the signed length and type (a presigned URL cannot be revoked)…
    const html = Buffer.concat([Buffer.from('<html><script>alert(1)</script>'), Buffer.alloc(png.length)]).subarray(0, png.length);
    expect((await put(started, html)).status).toBe(200);
    // …but nothing reads where it writes: the file served (and sent to networks) is still the checked PNG.
    const answer = await fetch(local(media.url), { redirect: 'manual' });
    const served = await fetch(answer.headers.get('location')!);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(png));
    expect(await stored(storageKeys.original(started.id))).toEqual(png);
    expect((await api('GET', `/media/${started.id}`)).body.data).toMatchObject({ status: 'ready', format: 'png', size: png.length });
    // Deleting the media removes what the late PUT left too.
    expect((await api('DELETE', `/media/${started.id}`)).status).toBe(204);
    expect(await service.services.storage.size(`${storageKeys.original(started.id)}.incoming`)).toBeNull();
  });

  it('processes a video (ffprobe and the poster frame read a copy from the store)', async () => {
    const mp4 = await video(320, 240, 2);
    const started = await start('clip.mp4', 'video/mp4', mp4.length);
    expect((await put(started, mp4)).status).toBe(200);
    const media = await completeAndWait(started.id);
    expect(media).toMatchObject({ status: 'ready', type: 'video', format: 'mp4', width: 320, height: 240 });
    expect(media.codecs).toEqual(expect.arrayContaining(['h264']));
  });

  it('keeps nothing of a body that runs past its declared length, even when the extra bytes come late', async () => {
    const key = storageKeys.original(randomUUID());
    // The declared 1,000 bytes, then a pause long enough for a store that had them all to complete the object.
    async function* overlong() {
      yield Buffer.alloc(1000, 1);
      await sleep(300);
      yield Buffer.alloc(10, 2);
    }
    await expect(service.services.storage.write(key, Readable.from(overlong()), 1000)).rejects.toBeInstanceOf(TooLargeError);
    expect(await service.services.storage.size(key)).toBeNull();
  });

  it('deletes the file and its thumbnail from the bucket with the media', async () => {
    const png = await image('png', 100, 100);
    const started = await start('gone.png', 'image/png', png.length);
    await put(started, png);
    await completeAndWait(started.id);
    expect((await api('DELETE', `/media/${started.id}`)).status).toBe(204);
    expect(await service.services.storage.size(storageKeys.original(started.id))).toBeNull();
    expect(await service.services.storage.size(storageKeys.thumbnail(started.id))).toBeNull();
  });
});

describe('files past the single-PUT limit', () => {
  it('go to the bucket in presigned parts, in any order, completed from the parts the bucket lists', async () => {
    const bytes = randomBytes(2 * singlePutBytesAtMost + 5);
    const started = await start('parts.bin', 'application/octet-stream', bytes.length);
    const key = storageKeys.original(started.id);
    const { partBytes, parts } = started.parts;
    expect(partBytes).toBe(singlePutBytesAtMost);
    expect(parts.map((part: { partNumber: number; bytes: number }) => [part.partNumber, part.bytes])).toEqual([
      [1, partBytes],
      [2, partBytes],
      [3, 5],
    ]);
    const sendPart = (
      part: { partNumber: number; url: string; method: string; headers: Record<string, string> },
      body = bytes.subarray((part.partNumber - 1) * partBytes, part.partNumber * partBytes),
    ) => fetch(part.url, { method: part.method, headers: part.headers, body: new Uint8Array(body) });
    for (const part of parts) expect(new URL(part.url).origin).toBe(s3.endpoint);

    const sentBefore = s3.requests.length;
    expect(await bucketRefusal(await sendPart(parts[2], bytes.subarray(0, 6)))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect((await sendPart(parts[2])).status).toBe(200);
    expect((await sendPart(parts[0])).status).toBe(200);
    const missing = await api('POST', `/media/uploads/${started.id}/complete`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0]).toMatchObject({
      field: 'upload',
      code: 'incomplete',
      message: `Received ${(partBytes + 5).toLocaleString('en')} of ${bytes.length.toLocaleString('en')} bytes: send the rest first.`,
    });
    expect(await service.services.storage.size(key)).toBeNull();

    expect((await sendPart(parts[1])).status).toBe(200);
    const written = s3.requests.slice(sentBefore).filter((request) => request.key === key && request.method === 'PUT');
    expect(written.map((request) => request.partNumber)).toEqual([3, 3, 1, 2]);
    expect((await completeAndWait(started.id)).status).toBe('failed');
    expect(sha256(await stored(key))).toBe(sha256(bytes));
    expect(await service.services.storage.size(`${key}.multipart`)).toBeNull();
    // Complete ended the multipart upload: its part URLs, though signed for longer, write nothing any more.
    expect(await bucketRefusal(await sendPart(parts[0], randomBytes(partBytes)))).toEqual({ status: 404, code: 'NoSuchUpload' });
    expect(sha256(await stored(key))).toBe(sha256(bytes));
  });

  it('also go whole to the service’s own upload URL, which streams them to the bucket in parts; a store failing meanwhile answers 503 STORAGE_UNAVAILABLE and keeps nothing', async () => {
    // Here the second part is of an odd size, so the file must arrive intact across a part's end.
    const bytes = randomBytes(partBytesAtLeast + 3 * MiB + 5);
    const started = await start('big.bin', 'application/octet-stream', bytes.length);
    expect(started.uploadUrl.startsWith(`${service.services.config.publicBaseUrl}/uploads/${started.id}?`)).toBe(true);
    const key = storageKeys.original(started.id);
    s3.failWrites(true);
    try {
      const failed = await put(started, bytes);
      expect(failed.status).toBe(503);
      const body = await failed.json();
      expect(body.error).toMatchObject({
        code: 'STORAGE_UNAVAILABLE',
        message: 'The media store failed or could not be reached; nothing of the file was kept. Send it again shortly.',
      });
      expect(body.error.requestId).toBe(failed.headers.get('x-request-id'));
    } finally {
      s3.failWrites(false);
    }
    expect(await service.services.storage.size(key)).toBeNull();
    const incomplete = await api('POST', `/media/uploads/${started.id}/complete`);
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error.details[0]).toMatchObject({ field: 'upload', code: 'incomplete' });

    const sentBefore = s3.requests.length;
    expect((await put(started, bytes)).status).toBe(200);
    const written = s3.requests.slice(sentBefore).filter((request) => request.key === key && request.method === 'PUT');
    expect(written.map((request) => request.partNumber)).toEqual([1, 2]);
    expect(sha256(await stored(key))).toBe(sha256(bytes));
    expect((await api('POST', `/media/uploads/${started.id}/complete`)).status).toBe(202);
    expect(await service.services.storage.size(`${key}.multipart`)).toBeNull();
  });
});

describe('a store failing while the service writes one PUT (thumbnails, imports)', () => {
  it('fails with StorageUnavailableError and shows nothing of the file', async () => {
    const key = storageKeys.original(randomUUID());
    s3.failWrites(true);
    try {
      await expect(service.services.storage.write(key, Readable.from([randomBytes(1000)]), 1000)).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      s3.failWrites(false);
    }
    expect(await service.services.storage.size(key)).toBeNull();
  });
});

describe('tus uploads into the bucket', () => {
  it('stores a 20 MiB file sent in three parts, resumable from the offset the server reports', async () => {
    const total = 20 * MiB;
    const bytes = randomBytes(total);
    const started = await start('parts.bin', 'application/octet-stream', total);
    const { endpoint, headers: tokenHeaders, metadata } = started.resumable;
    const tus = { 'tus-resumable': '1.0.0', ...tokenHeaders };
    const encoded = Object.entries(metadata as Record<string, string>)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');
    const created = await fetch(local(endpoint), { method: 'POST', headers: { ...tus, 'upload-length': String(total), 'upload-metadata': encoded } });
    expect(created.status).toBe(201);
    const location = local(created.headers.get('location')!);
    expect(location).toBe(`${service.url}/uploads/tus/${started.id}`);

    // A second file for the same upload is refused while the first is on its way.
    const second = await fetch(local(endpoint), { method: 'POST', headers: { ...tus, 'upload-length': String(total), 'upload-metadata': encoded } });
    expect(second.status).toBe(409);

    for (const [from, to] of [
      [0, 8 * MiB],
      [8 * MiB, 16 * MiB],
      [16 * MiB, total],
    ] as const) {
      const head = await fetch(location, { method: 'HEAD', headers: tus });
      expect(Number(head.headers.get('upload-offset'))).toBe(from);
      // Nothing is readable under the file's key before the last part lands.
      expect(await service.services.storage.size(storageKeys.original(started.id))).toBeNull();
      const patch = await fetch(location, {
        method: 'PATCH',
        headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(from) },
        body: new Uint8Array(bytes.subarray(from, to)),
      });
      expect(patch.status).toBe(204);
      expect(Number(patch.headers.get('upload-offset'))).toBe(to);
    }
    expect(sha256(await stored(storageKeys.original(started.id)))).toBe(sha256(bytes));
    expect(await service.services.storage.size(`${storageKeys.original(started.id)}.info`)).toBeNull();
    const media = await completeAndWait(started.id);
    expect(media).toMatchObject({ status: 'failed', error: { code: 'unknownType' } });
  });
});
