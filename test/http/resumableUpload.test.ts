// A 1 GiB upload in parts over the tus protocol, one part cut off mid-way and sent again from the offset the
// server reports: the stored file is byte for byte the one sent (SHA-256), and no part of it was held in memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import type { Api } from '../support/posts.ts';
import { storageKeys } from '../../src/media/storage.ts';

const MiB = 1024 * 1024;
const total = 1024 * MiB;
const part = 64 * MiB;

let service: TestService;
let api: Api;

beforeAll(async () => ({ service, api } = await serviceWithWorkspace()));
afterAll(() => service.stop());

/** Deterministic bytes of the file between two offsets (1 MiB blocks, each a digest of its number repeated). */
function bytes(from: number, to: number): Readable {
  const block = (index: number) => {
    const digest = createHash('sha256').update(`block ${index}`).digest();
    // Filled by doubling what is written: concatenating 32,768 copies cost the test half a minute of CPU per run.
    const filled = Buffer.allocUnsafe(MiB);
    digest.copy(filled);
    for (let length = digest.length; length < MiB; length *= 2) filled.copy(filled, length, 0, Math.min(length, MiB - length));
    return filled;
  };
  async function* chunks() {
    for (let offset = from; offset < to; ) {
      const index = Math.floor(offset / MiB);
      const start = offset - index * MiB;
      const end = Math.min(MiB, to - index * MiB);
      yield block(index).subarray(start, end);
      offset += end - start;
    }
  }
  return Readable.from(chunks());
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// A gibibyte each way: minutes on a busy machine.
describe('resumable upload (tus 1.0)', { timeout: 240_000 }, () => {
  it('stores a 1 GiB file sent in parts, one of them interrupted and resent', async () => {
    const started = (await api('POST', '/media/uploads', { filename: 'big.bin', contentType: 'application/octet-stream', size: total })).body.data;
    const { endpoint, headers: tokenHeaders, metadata } = started.resumable;
    const local = (url: string) => url.replace(service.services.config.publicBaseUrl, service.url);
    const tus = { 'tus-resumable': '1.0.0', ...tokenHeaders };
    const encoded = Object.entries(metadata as Record<string, string>)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');

    const forged = await fetch(local(endpoint), {
      method: 'POST',
      headers: { ...tus, 'x-upload-token': '1.nope', 'upload-length': String(total), 'upload-metadata': encoded },
    });
    expect(forged.status).toBe(403);
    const created = await fetch(local(endpoint), { method: 'POST', headers: { ...tus, 'upload-length': String(total), 'upload-metadata': encoded } });
    expect(created.status).toBe(201);
    const location = local(created.headers.get('location')!);
    expect(location).toMatch(new RegExp(`/uploads/tus/${started.id}$`));

    const patch = (offset: number, body: Readable, signal?: AbortSignal) =>
      fetch(location, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: Readable.toWeb(body) as ReadableStream,
        duplex: 'half',
        signal,
      } as RequestInit);
    const serverOffset = async () => Number((await fetch(location, { method: 'HEAD', headers: tus })).headers.get('upload-offset'));

    let offset = 0;
    let interrupted = false;
    while (offset < total) {
      const end = Math.min(total, offset + part);
      if (!interrupted && offset >= 3 * part) {
        // The connection drops after about 20 MiB of this part.
        interrupted = true;
        const abort = new AbortController();
        let sent = 0;
        const cut = bytes(offset, end).on('data', (chunk: Buffer) => {
          sent += chunk.length;
          if (sent > 20 * MiB) abort.abort();
        });
        await expect(patch(offset, cut, abort.signal)).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const resumedAt = await serverOffset();
        expect(resumedAt).toBeGreaterThanOrEqual(offset);
        expect(resumedAt).toBeLessThan(end);
        offset = resumedAt;
        continue;
      }
      const response = await patch(offset, bytes(offset, end));
      expect(response.status).toBe(204);
      offset = Number(response.headers.get('upload-offset'));
      expect(offset).toBe(end);
    }
    expect(interrupted).toBe(true);

    const completed = await api('POST', `/media/uploads/${started.id}/complete`);
    expect(completed.status).toBe(202);
    expect(await sha256(service.services.storage.read(storageKeys.original(started.id)))).toBe(await sha256(bytes(0, total)));
  });
});

describe('tus answers', () => {
  async function startResumable(size: number) {
    const started = (await api('POST', '/media/uploads', { filename: 'small.bin', contentType: 'application/octet-stream', size })).body.data;
    const { endpoint, headers: tokenHeaders, metadata } = started.resumable;
    const local = (url: string) => url.replace(service.services.config.publicBaseUrl, service.url);
    const encoded = Object.entries(metadata as Record<string, string>)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');
    const tus = { 'tus-resumable': '1.0.0', ...tokenHeaders };
    const create = (headers: Record<string, string> = {}) =>
      fetch(local(endpoint), { method: 'POST', headers: { ...tus, 'upload-length': String(size), 'upload-metadata': encoded, ...headers } });
    return { started, tus, local, create };
  }

  it('refuses in the API’s error shape, with requestId, in the caller’s language, keeping the status tus clients act on', async () => {
    const { tus, local, create } = await startResumable(8);
    const forged = await create({ 'x-upload-token': '1.nope', 'accept-language': 'fr' });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await forged.json()).error).toEqual({
      code: 'FORBIDDEN',
      message: 'L’URL ou le jeton d’envoi est invalide ou expiré : démarrez un nouvel envoi.',
      requestId: forged.headers.get('x-request-id'),
    });

    const noVersion = await create({ 'tus-resumable': '' });
    expect(noVersion.status).toBe(412);
    expect((await noVersion.json()).error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'tus-resumable', code: 'tusVersion' }],
      requestId: expect.any(String),
    });

    const created = await create();
    expect(created.status).toBe(201);
    const location = local(created.headers.get('location')!);
    const wrongOffset = await fetch(location, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '4', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(4),
    });
    expect(wrongOffset.status).toBe(409);
    expect(wrongOffset.headers.get('tus-resumable')).toBe('1.0.0');
    expect((await wrongOffset.json()).error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('HEAD'), requestId: expect.any(String) });

    const unknown = await fetch(location.replace(/[^/]+$/, '00000000-0000-4000-8000-000000000000'), {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(1),
    });
    expect(unknown.status).toBe(403);
    expect((await unknown.json()).error.code).toBe('FORBIDDEN');
  });

  it('refuses a second file for an upload whose file the signed PUT already stored', async () => {
    const { started, create } = await startResumable(8);
    const put = await fetch(started.uploadUrl.replace(service.services.config.publicBaseUrl, service.url), {
      method: 'PUT',
      headers: started.headers,
      body: new Uint8Array(8),
    });
    expect(put.status).toBe(200);
    const second = await create();
    expect(second.status).toBe(409);
    expect((await second.json()).error.code).toBe('CONFLICT');
    expect(await service.services.storage.size(storageKeys.original(started.id))).toBe(8);
  });
});
