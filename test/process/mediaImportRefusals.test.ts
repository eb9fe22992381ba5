// A media URL that answers badly is refused, and the server process that refused it keeps running: every way an
// import can be turned down (no length, not 200, too large, cut off mid-body) through GraphQL and MCP, each
// followed by a request to the same process. And a signed PUT its sender breaks off leaves nothing behind.
import { readdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { scratchDataDir, ServerProcesses, setupWithCli, type ServerProcess } from '../support/processes.ts';
import { apiFor } from '../support/posts.ts';
import { call, httpClient, refusalOf } from '../support/mcp.ts';

const maxUploadBytes = 1024;
const tries = 3;
const servers = new ServerProcesses();
let server: ServerProcess;
let apiKey: string;
let hostile: { url: string; close(): Promise<void> };
const dataDir = scratchDataDir();

/** A file host on 127.0.0.1 whose every path answers one of the ways an import must refuse. */
async function hostileFileServer(): Promise<{ url: string; close(): Promise<void> }> {
  const bytes = Buffer.alloc(256, 1);
  const http: Server = createServer((request, response) => {
    switch (request.url) {
      case '/chunked.jpg': // 200 with no Content-Length: the body comes in chunks and does not end at once.
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        response.write(bytes);
        return void setTimeout(() => response.end(bytes), 200);
      case '/missing.jpg':
        return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      case '/huge.jpg': // Declares more than the service takes, and starts sending it.
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(maxUploadBytes * 1024) });
        response.write(bytes);
        return void setTimeout(() => response.end(), 200);
      case '/cut.jpg': // Declares a size within the limit, then drops the connection halfway.
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(bytes.length * 2) });
        response.write(bytes);
        return void setTimeout(() => response.socket?.destroy(), 100);
      default:
        response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

beforeAll(async () => {
  hostile = await hostileFileServer();
  const env = {
    DATABASE_URL: await createTestDatabase(),
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '100000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    MEDIA_MAX_UPLOAD_BYTES: String(maxUploadBytes),
    DATA_DIR: dataDir,
  };
  ({ apiKey } = await setupWithCli(env, { name: 'Media imports', email: 'media-imports@example.test' }));
  server = await servers.start(env);
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await hostile?.close();
});

const refusals = [
  { path: '/chunked.jpg', detail: { field: 'url', code: 'lengthRequired' } },
  { path: '/missing.jpg', detail: { field: 'url', code: 'unreachable' } },
  { path: '/huge.jpg', detail: { field: 'url', code: 'maximum' } },
  { path: '/cut.jpg', detail: { field: 'url', code: 'unreachable' } },
];

/** The process answers another request, and has not exited (it would have printed why). */
async function expectStillRunning() {
  const health = await fetch(`${server.url}/healthz`);
  expect(health.status, server.output()).toBe(200);
  expect(server.child.exitCode, server.output()).toBeNull();
}

describe('refused media URL imports', () => {
  it.each(refusals)('GraphQL uploadMedia(url: $path) is refused with INVALID_REQUEST and the process keeps running', async ({ path, detail }) => {
    // Each a few times: whether an unhandled error ends the process depends on timing.
    for (let attempt = 0; attempt < tries; attempt++) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation Import($url: String!) { uploadMedia(url: $url) { id status } }', variables: { url: `${hostile.url}${path}` } }),
      }).then(
        (answer) => answer.json(),
        (error) => ({ fetchFailed: String(error) }),
      );
      expect(response.errors?.[0]?.extensions, `${JSON.stringify(response)}\n${server.output()}`).toMatchObject({
        code: 'INVALID_REQUEST',
        details: [expect.objectContaining(detail)],
      });
      await expectStillRunning();
    }
  });

  it.each(refusals)('MCP upload_media {url: $path} is refused with INVALID_REQUEST and the process keeps running', async ({ path, detail }) => {
    const client = await httpClient(server.url, apiKey);
    try {
      for (let attempt = 0; attempt < tries; attempt++) {
        const refusal = refusalOf(await call(client, 'upload_media', { url: `${hostile.url}${path}` }));
        expect(refusal.code).toBe('INVALID_REQUEST');
        expect(refusal.details).toEqual([expect.objectContaining(detail)]);
        await expectStillRunning();
      }
    } finally {
      await client.close().catch(() => {});
    }
  });
});

/** The partial files of writes under way in the media store (they are renamed or removed when a write ends). */
const partials = () => readdirSync(join(dataDir, 'media'), { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.part-'));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await sleep(100);
}

describe('a signed PUT its sender breaks off', () => {
  it('leaves no partial file, and the upload takes its file afterwards', async () => {
    const api = apiFor(server.url, apiKey);
    const started = (await api('POST', '/media/uploads', { filename: 'cut.png', contentType: 'image/png', size: 512 })).body.data;
    const uploadUrl = started.uploadUrl.replace(/^https?:\/\/[^/]+/, server.url);
    const put = request(uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png', 'content-length': 512 } });
    put.on('error', () => {});
    put.write(Buffer.alloc(100, 1));
    await until(() => partials().length > 0);
    expect(partials()).toHaveLength(1);
    put.destroy();
    // The write ends with the request (a store left waiting for the rest would keep its file open, and the file).
    await until(() => partials().length === 0);
    expect(partials()).toEqual([]);
    const whole = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(512) });
    expect(whole.status).toBe(200);
    await expectStillRunning();
  });
});
