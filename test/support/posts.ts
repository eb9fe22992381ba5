// Helpers for the posts tests: calling the API and waiting for background publishing to settle.
import { setTimeout as sleep } from 'node:timers/promises';
import { bearer } from './fixtures.ts';

export type Api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

export function apiFor(baseUrl: string, apiKey: string): Api {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${baseUrl}/v1${path}`, {
      method,
      headers: bearer(apiKey, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

/**
 * Polls GET /posts/{id} until its status is one of `statuses`. A 503 is asked again a second later, as the API
 * documents for a passing database failure (Retry-After: 1); any other error answer ends the wait, saying what it was.
 */
export async function waitForPost(api: Api, id: string, statuses: string[], timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api('GET', `/posts/${id}`);
    if (status === 503 && Date.now() < deadline) {
      await sleep(1000);
      continue;
    }
    if (status !== 200) throw new Error(`GET /posts/${id} answered ${status}: ${JSON.stringify(body)}`);
    if (statuses.includes(body.data.status)) return body.data;
    if (Date.now() > deadline) throw new Error(`post ${id} is ${body.data.status}, not ${statuses.join('|')}: ${JSON.stringify(body.data.targets)}`);
    await sleep(100);
  }
}

/**
 * A file uploaded through the API and completed: its media id once processed. The upload URL names the service's
 * public base URL (`publicBaseUrl`), reached at `serviceUrl` in tests.
 */
export async function uploadMedia(
  api: Api,
  at: { publicBaseUrl: string; serviceUrl: string },
  file: { bytes: Buffer; filename: string; contentType: string },
  pollsAtMost = 300,
): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename: file.filename, contentType: file.contentType, size: file.bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(at.publicBaseUrl, at.serviceUrl), { method, headers, body: new Uint8Array(file.bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < pollsAtMost && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

export const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/** Publishes post `id` and answers its first target once the worker has made it wait, with how long from the request. */
export async function publishUntilWaiting(api: Api, id: string): Promise<{ target: any; waitedMs: number }> {
  const asked = Date.now();
  await api('POST', `/posts/${id}/publish`);
  let found: any;
  for (let i = 0; i < 100 && !found?.waitingUntil; i++, await sleep(100)) found = (await api('GET', `/posts/${id}`)).body.data.targets[0];
  return { target: found, waitedMs: Date.parse(found.waitingUntil) - asked };
}
