// A webhook attempt that gets no answer is logged with a stable, human reason (refused, timed out, TLS failure and
// why), never the error's raw text: OpenSSL's messages carry its source paths.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';

let service: TestService;
let api: Api;
const servers: Server[] = [];

async function listening(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  service = await startTestService({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '500' });
  api = apiFor(service.url, (await createWorkspace(service.services)).ownerKey);
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await service.stop();
});

/** Sends a test event to `url` and returns the error its first attempt logged. */
async function firstAttemptError(url: string): Promise<string> {
  const endpoint = (await api('POST', '/webhooks', { url })).body.data;
  expect((await api('POST', `/webhooks/${endpoint.id}/test`)).status).toBe(202);
  for (;;) {
    const [delivery] = (await api('GET', `/webhooks/${endpoint.id}/deliveries`)).body.data;
    if (delivery?.attemptLog.length) return delivery.attemptLog[0].error;
    await sleep(50);
  }
}

it('logs a refused connection as such', async () => {
  const closed = createHttpServer();
  const port = await listening(closed);
  await new Promise((resolve) => closed.close(resolve));
  expect(await firstAttemptError(`http://127.0.0.1:${port}/hook`)).toBe('Connection refused.');
});

it('logs a receiver that does not answer in time with the time it had', async () => {
  const port = await listening(createHttpServer(() => {}));
  expect(await firstAttemptError(`http://127.0.0.1:${port}/hook`)).toBe('No answer within 0.5 s.');
});

it('names the TLS failure without OpenSSL’s source paths', async () => {
  const plain = await listening(createHttpServer((_req, res) => res.end('not TLS')));
  expect(await firstAttemptError(`https://127.0.0.1:${plain}/hook`)).toBe('TLS handshake failed: wrong version number.');

  const tls = {
    cert: readFileSync(new URL('../support/tls/expired-cert.pem', import.meta.url)),
    key: readFileSync(new URL('../support/tls/expired-key.pem', import.meta.url)),
  };
  const expired = await listening(createHttpsServer(tls, (_req, res) => res.end('ok')));
  expect(await firstAttemptError(`https://127.0.0.1:${expired}/hook`)).toBe('TLS handshake failed: certificate has expired.');
});
