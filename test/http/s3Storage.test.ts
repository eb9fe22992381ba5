// Media in an S3-compatible store (MEDIA_STORAGE=s3, against s3rver): signed PUTs and tus uploads stream into
// multipart uploads, processing reads from the store, files are served by presigned GETs, deletion removes the
// objects, and a store failing mid-upload answers a clear 503 and leaves nothing half-visible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import type { Api } from '../support/posts.ts';
import { image, video } from '../support/mediaFiles.ts';
import { storageKeys, TooLargeError } from '../../src/media/storage.ts';
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

/** The SigV4 signature of a presigned GET, computed by the steps of AWS's documentation ("Authenticating Requests: Using Query Parameters"). */
function sigV4QuerySignature(url: URL, secret: string): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature').map(([name, value]) => `${encode(name)}=${encode(value)}`).sort().join('&');
  const canonicalRequest = ['GET', url.pathname, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const [date, region, service] = url.searchParams.get('X-Amz-Credential')!.split('/').slice(1);
  const scope = [date, region, service, 'aws4_request'].join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', url.searchParams.get('X-Amz-Date'), scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const key = [date!, region!, service!, 'aws4_request'].reduce<Buffer>((hmacKey, part) => createHmac('sha256', hmacKey).update(part).digest(), Buffer.from(`AWS4${secret}`));
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

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

async function completeAndWait(id: string) {
  expect((await api('POST', `/media/uploads/${id}/complete`)).status).toBe(202);
  for (let i = 0; i < 300; i++) {
    const { body } = await api('GET', `/media/${id}`);
    if (body.data.status === 'ready' || body.data.status === 'failed') return body.data;
    await sleep(100);
  }
  throw new Error(`media ${id} still processing`);
}

describe('signed PUT uploads into the bucket', () => {
  it('stores an image, processes it from the store and serves it by a presigned GET', async () => {
    const png = await image('png', 640, 480);
    const started = await start('picture.png', 'image/png', png.length);
    expect((await put(started, png)).status).toBe(200);
    expect(await stored(storageKeys.original(started.id))).toEqual(png);

    const media = await completeAndWait(started.id);
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
    const file = await fetch(presigned);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(png));

    // s3rver does not check SigV4 signatures: the test does, as AWS documents them.
    expect(presigned.searchParams.get('X-Amz-Signature')).toBe(sigV4QuerySignature(presigned, s3.env.S3_SECRET_ACCESS_KEY!));
    const thumbnail = await fetch(local(media.thumbnailUrl));
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
  });

  it('processes a video (ffprobe and the poster frame read a copy from the store)', async () => {
    const mp4 = await video(320, 240, 2);
    const started = await start('clip.mp4', 'video/mp4', mp4.length);
    expect((await put(started, mp4)).status).toBe(200);
    const media = await completeAndWait(started.id);
    expect(media).toMatchObject({ status: 'ready', type: 'video', format: 'mp4', width: 320, height: 240 });
    expect(media.codecs).toEqual(expect.arrayContaining(['h264']));
  });

  it('refuses a second file for the same upload, and a body longer or shorter than declared, keeping nothing of it', async () => {
    const png = await image('png', 64, 64);
    const first = await start('one.png', 'image/png', png.length);
    expect((await put(first, png)).status).toBe(200);
    const again = await put(first, png);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('CONFLICT');

    const short = await start('short.png', 'image/png', png.length - 10);
    const tooLong = await put(short, png);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.details[0]).toMatchObject({ field: 'body', code: 'tooLarge' });
    expect(await service.services.storage.size(storageKeys.original(short.id))).toBeNull();

    const long = await start('long.png', 'image/png', png.length + 10);
    const tooShort = await put(long, png);
    expect(tooShort.status).toBe(400);
    expect((await tooShort.json()).error.details[0]).toMatchObject({ field: 'body', code: 'incomplete' });
    expect(await service.services.storage.size(storageKeys.original(long.id))).toBeNull();
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

describe('a store failing mid-upload', () => {
  // A file up to S3_SINGLE_PUT_MAX_BYTES goes up in one PUT; a larger one in parts (here the second of an odd size,
  // so the file must arrive intact across a part's end).
  it.each([
    ['one PUT', singlePutBytesAtMost, [null]],
    ['two parts', partBytesAtLeast + 3 * MiB + 5, [1, 2]],
  ])('a file sent in %s: answers 503 STORAGE_UNAVAILABLE, shows nothing of the file, and takes it whole once the store is back', async (_, size, partNumbers) => {
    const bytes = randomBytes(size);
    const started = await start('big.bin', 'application/octet-stream', bytes.length);
    const key = storageKeys.original(started.id);
    s3.failWrites(true);
    try {
      const failed = await put(started, bytes);
      expect(failed.status).toBe(503);
      const body = await failed.json();
      expect(body.error).toMatchObject({ code: 'STORAGE_UNAVAILABLE', message: 'The media store failed or could not be reached; nothing of the file was kept. Send it again shortly.' });
      expect(body.error.requestId).toBe(failed.headers.get('x-request-id'));
    } finally {
      s3.failWrites(false);
    }
    expect(await service.services.storage.size(storageKeys.original(started.id))).toBeNull();
    const incomplete = await api('POST', `/media/uploads/${started.id}/complete`);
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error.details[0]).toMatchObject({ field: 'upload', code: 'incomplete' });

    const sentBefore = s3.requests.length;
    expect((await put(started, bytes)).status).toBe(200);
    const written = s3.requests.slice(sentBefore).filter((request) => request.key === key && request.method === 'PUT');
    expect(written.map((request) => request.partNumber)).toEqual(partNumbers);
    expect(sha256(await stored(key))).toBe(sha256(bytes));
  });
});

describe('tus uploads into the bucket', () => {
  it('stores a 20 MiB file sent in three parts, resumable from the offset the server reports', async () => {
    const total = 20 * MiB;
    const bytes = randomBytes(total);
    const started = await start('parts.bin', 'application/octet-stream', total);
    const { endpoint, headers: tokenHeaders, metadata } = started.resumable;
    const tus = { 'tus-resumable': '1.0.0', ...tokenHeaders };
    const encoded = Object.entries(metadata as Record<string, string>).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`).join(',');
    const created = await fetch(local(endpoint), { method: 'POST', headers: { ...tus, 'upload-length': String(total), 'upload-metadata': encoded } });
    expect(created.status).toBe(201);
    const location = local(created.headers.get('location')!);
    expect(location).toBe(`${service.url}/uploads/tus/${started.id}`);

    // A second file for the same upload is refused while the first is on its way.
    const second = await fetch(local(endpoint), { method: 'POST', headers: { ...tus, 'upload-length': String(total), 'upload-metadata': encoded } });
    expect(second.status).toBe(409);

    for (const [from, to] of [[0, 8 * MiB], [8 * MiB, 16 * MiB], [16 * MiB, total]] as const) {
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
