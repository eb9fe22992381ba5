// The HTTP helper every network adapter calls through (src/providers/http.ts), against a local server that
// answers what each test scripts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/providers/adapter.ts';
import { NetworkHttp, retryAfterMs } from '../../src/providers/http.ts';
import { freePort } from '../../src/net.ts';
import { pourWithoutEnd, type Pouring } from '../support/endless.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (response: ServerResponse, seen: Seen) => void;

let server: Server;
let base: string;
let answers: Answer[] = [];
let seen: Seen[] = [];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() };
    seen.push(entry);
    const answer = answers.shift() ?? json(200, { ok: true });
    answer(response, entry);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  answers = [];
  seen = [];
});

const reasonOf = (body: unknown) => (typeof body === 'object' && body && 'error' in body ? String((body as { error: unknown }).error) : undefined);
const http = (options: Partial<ConstructorParameters<typeof NetworkHttp>[0]> = {}) =>
  new NetworkHttp({ network: 'Example', reasonOf, retryDelayMs: 10, ...options });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('NetworkHttp', () => {
  it('sends JSON with the bearer token and parses the JSON answer', async () => {
    answers = [json(200, { id: '7' })];
    const response = await http().send<{ id: string }>({
      method: 'POST',
      url: `${base}/things`,
      accessToken: 'secret-token',
      body: { json: { a: 1 } },
      headers: { 'idempotency-key': 'k1' },
    });
    expect(response).toMatchObject({ status: 200, body: { id: '7' } });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/things', body: '{"a":1}' });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer secret-token', 'content-type': 'application/json', 'idempotency-key': 'k1' });
  });

  it('sends multipart and form bodies', async () => {
    const form = new FormData();
    form.set('description', 'A cat');
    form.set('file', new Blob([Buffer.from('abc')], { type: 'image/png' }), 'cat.png');
    await http().send({ method: 'POST', url: `${base}/media`, body: { multipart: form } });
    expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('name="file"; filename="cat.png"');
    expect(seen[0]!.body).toContain('A cat');
    await http().send({ method: 'POST', url: `${base}/revoke`, body: { form: { token: 'a b' } } });
    expect(seen[1]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen[1]!.body).toBe('token=a+b');
  });

  it('re-sends a GET after 5xx answers and returns the answer that worked', async () => {
    answers = [json(503, { error: 'busy' }), json(502, { error: 'bad gateway' }), json(200, { ok: 1 })];
    const response = await http().send({ method: 'GET', url: `${base}/status` });
    expect(response.body).toEqual({ ok: 1 });
    expect(seen).toHaveLength(3);
  });

  it('re-sends a POST only when it is idempotent', async () => {
    answers = [json(500, { error: 'oops' }), json(200, { ok: 1 })];
    const once = await failure(http().send({ method: 'POST', url: `${base}/media`, body: { json: {} } }));
    expect(once).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true, message: 'oops' });
    expect(seen).toHaveLength(1);
    answers = [json(500, { error: 'oops' }), json(200, { ok: 1 })];
    seen = [];
    const response = await http().send({ method: 'POST', url: `${base}/statuses`, body: { json: {} }, idempotent: true });
    expect(response.body).toEqual({ ok: 1 });
    expect(seen).toHaveLength(2);
  });

  it('gives up after the retries with PROVIDER_UNAVAILABLE carrying the last reason', async () => {
    answers = [json(503, { error: 'a' }), json(503, { error: 'b' }), json(503, { error: 'still down' })];
    const error = await failure(http({ retries: 2 }).send({ method: 'GET', url: `${base}/x` }));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true, message: 'still down' });
    expect(seen).toHaveLength(3);
  });

  it('turns a refused connection into a transient PROVIDER_UNAVAILABLE after retrying', async () => {
    const port = await freePort();
    const error = await failure(http({ retries: 1 }).send({ method: 'GET', url: `http://127.0.0.1:${port}/` }));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
    expect(error.message).toBe('Example could not be reached (ECONNREFUSED).');
  });

  it('stops at its timeout with a transient PROVIDER_UNAVAILABLE', async () => {
    answers = [() => {}];
    const error = await failure(http({ timeoutMs: 200 }).send({ method: 'GET', url: `${base}/slow` }));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true, message: 'Example did not answer within 0.2 s.' });
  });

  it("rethrows the job signal's reason when the job is aborted", async () => {
    answers = [() => {}];
    const job = new AbortController();
    const pending = http().send({ method: 'GET', url: `${base}/slow`, signal: job.signal });
    job.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow('shutting down');
  });

  it("maps 4xx to PROVIDER_REJECTED with the network's own reason, permanent", async () => {
    answers = [json(422, { error: 'Validation failed: Text character limit of 500 exceeded' })];
    const error = await failure(http().send({ method: 'POST', url: `${base}/statuses`, body: { json: {} } }));
    expect(error).toMatchObject({
      code: 'PROVIDER_REJECTED',
      transient: false,
      tokenRejected: false,
      message: 'Validation failed: Text character limit of 500 exceeded',
    });
  });

  it('falls back to the status when the network gives no reason', async () => {
    answers = [(response) => response.writeHead(404).end('<html>not here</html>')];
    const error = await failure(http().send({ method: 'GET', url: `${base}/nothing` }));
    expect(error).toMatchObject({ code: 'PROVIDER_REJECTED', message: 'Example answered HTTP 404.' });
  });

  it('does not follow redirects: an API that moved is refused', async () => {
    answers = [(response) => response.writeHead(301, { location: 'https://elsewhere.example/' }).end()];
    const error = await failure(http().send({ method: 'GET', url: `${base}/moved` }));
    expect(error).toMatchObject({ code: 'PROVIDER_REJECTED', transient: false, message: 'Example answered HTTP 301.' });
  });

  it('returns accepted error statuses as results', async () => {
    answers = [json(404, { error: 'Record not found' })];
    const response = await http().send({ method: 'GET', url: `${base}/statuses/1`, accept: [404] });
    expect(response).toMatchObject({ status: 404, body: { error: 'Record not found' } });
  });

  it('marks 401 as a token the network refused', async () => {
    answers = [json(401, { error: 'The access token is invalid' })];
    const error = await failure(http().send({ method: 'GET', url: `${base}/me`, accessToken: 'revoked' }));
    expect(error).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', tokenRejected: true, transient: false, message: 'The access token is invalid' });
    expect(JSON.stringify(error)).not.toContain('revoked');
  });

  it('turns 429 into RATE_LIMITED_BY_PROVIDER with the wait until the reset, without re-sending', async () => {
    const reset = new Date(Date.now() + 90_000).toISOString();
    answers = [json(429, { error: 'Too many requests' }, { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })];
    const error = await failure(http().send({ method: 'GET', url: `${base}/x` }));
    expect(error).toMatchObject({ code: 'RATE_LIMITED_BY_PROVIDER', transient: true, message: 'Too many requests' });
    expect(error.retryAfterMs).toBeGreaterThan(80_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(90_000);
    expect(seen).toHaveLength(1);
  });
});

/**
 * An answer without end (a hostile host naming itself a network): JSON bytes written as fast as the connection
 * takes them, until it is closed; `sent` counts what was written and `closed` resolves when the reader hung up.
 */
function endless(declaredLength?: number) {
  let pouring: Pouring | undefined;
  const answer: Answer = (response) => {
    pouring = pourWithoutEnd(response, '{"padding":"', declaredLength ? { 'content-length': String(declaredLength) } : {});
  };
  /** The bytes sent once the reader hung up. */
  const sentWhenClosed = async () => {
    await pouring!.closed;
    return pouring!.sent();
  };
  return { answer, sentWhenClosed };
}

const MiB = 1024 * 1024;

describe('answers past NETWORK_ANSWER_MAX_BYTES (4 MiB by default)', () => {
  it('reads an endless answer only to the limit, then hangs up: a permanent PROVIDER_UNAVAILABLE saying so', async () => {
    const { sentWhenClosed, answer } = endless();
    answers = [answer];
    const error = await failure(http().send({ method: 'GET', url: `${base}/api/v2/instance` }));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: false });
    expect(error.message).toBe('Example answered with more than 4,194,304 bytes; the answer was not read.');
    // What the sockets' buffers took besides the 4 MiB read: the host was cut off, not read to its end.
    const sent = await sentWhenClosed();
    expect(sent).toBeGreaterThan(4 * MiB);
    expect(sent).toBeLessThan(12 * MiB);
  });

  it('refuses an answer declaring a longer length before reading any of it', async () => {
    const { sentWhenClosed, answer } = endless(400 * MiB);
    answers = [answer];
    expect(await failure(http().send({ method: 'GET', url: `${base}/.well-known/oauth-authorization-server` }))).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      transient: false,
    });
    expect(await sentWhenClosed()).toBeLessThan(8 * MiB);
  });

  it('caps the answers the OAuth and atproto clients read through its fetch the same way', async () => {
    const { sentWhenClosed, answer } = endless();
    answers = [answer];
    const response = await http().fetch(`${base}/oauth/token`, { method: 'POST' });
    await expect(response.json()).rejects.toMatchObject({ name: 'AnswerTooLarge', limit: 4 * MiB });
    const sent = await sentWhenClosed();
    expect(sent).toBeGreaterThan(4 * MiB);
    expect(sent).toBeLessThan(12 * MiB);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T01:00:00.000Z');

  it('reads Retry-After in seconds and as an HTTP date', () => {
    expect(retryAfterMs({ 'retry-after': '120' }, now)).toBe(120_000);
    expect(retryAfterMs({ 'retry-after': 'Sun, 22 Nov 2026 01:00:30 GMT' }, now)).toBe(30_000);
  });

  it('reads the RateLimit header fields', () => {
    expect(retryAfterMs({ ratelimit: '"default";r=0;t=42' }, now)).toBe(42_000);
    expect(retryAfterMs({ ratelimit: 'limit=100, remaining=0, reset=7' }, now)).toBe(7000);
    expect(retryAfterMs({ 'ratelimit-reset': '15' }, now)).toBe(15_000);
    // atproto's PDS sends RateLimit-Reset as a Unix time.
    expect(retryAfterMs({ 'ratelimit-reset': String(now / 1000 + 45) }, now)).toBe(45_000);
  });

  it('reads X-RateLimit-Reset as an ISO timestamp, Unix seconds or milliseconds, or seconds left', () => {
    expect(retryAfterMs({ 'x-ratelimit-reset': '2026-11-22T01:05:00.000Z' }, now)).toBe(300_000);
    expect(retryAfterMs({ 'x-ratelimit-reset': String(now / 1000 + 60) }, now)).toBe(60_000);
    expect(retryAfterMs({ 'x-ratelimit-reset': String(now + 5000) }, now)).toBe(5000);
    expect(retryAfterMs({ 'x-ratelimit-reset': '30' }, now)).toBe(30_000);
    // X spells it with a second hyphen.
    expect(retryAfterMs({ 'x-rate-limit-reset': String(now / 1000 + 60) }, now)).toBe(60_000);
  });

  it('never answers a negative wait, and nothing without a header', () => {
    expect(retryAfterMs({ 'x-ratelimit-reset': '2026-11-22T00:59:00.000Z' }, now)).toBe(0);
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});
