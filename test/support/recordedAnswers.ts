// A network that answers every request with one recorded answer (status, headers, body as the network wrote it), so
// domain tests can feed a network's real answers through its adapter's classification: what the worker then does
// (reconnect, wait until when, retry, refuse with which message) is the ProviderError the call throws.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { ProviderError } from '../../src/providers/adapter.ts';

export interface RecordedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** The body as the network sent it: an object is written as JSON, text as it is; none where absent. */
  body?: unknown;
}

export class RecordedNetwork {
  /** What every request from now on is answered with. */
  next: RecordedAnswer = { status: 200, body: {} };
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<RecordedNetwork> {
    const network: RecordedNetwork = new RecordedNetwork(
      createServer((request, response) => {
        request.resume();
        const { status, headers, body } = network.next;
        const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
        response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers }).end(text);
      }),
    );
    await new Promise<void>((resolve) => network.#server.listen(0, '127.0.0.1', resolve));
    return network;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

type ApiOptions = { baseUrl: string; timeoutMs: number; allowedHosts: Set<string>; retryDelayMs: number };

/** A recorded network for the test file's tests, and a network's API client calling it (retrying at once). */
export function recordedNetworkFor<T>(client: (options: ApiOptions) => T): { readonly network: RecordedNetwork; readonly api: T } {
  const held = {} as { network: RecordedNetwork; api: T };
  beforeAll(async () => {
    held.network = await RecordedNetwork.start();
    held.api = client({ baseUrl: held.network.url, timeoutMs: 5_000, allowedHosts: new Set(), retryDelayMs: 1 });
  });
  afterAll(() => held.network?.stop());
  return held;
}

/** The error a call threw, or a failure if it succeeded. */
export async function refusalOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('The call succeeded.');
}

/** What the adapter made of an answer: what the worker then does, and what the person is told. */
export interface Classified {
  code: string;
  transient: boolean;
  retryAfterMs?: number;
  message: string;
}

/** The ProviderError `call` fails with, as the worker reads it. */
export async function classification(call: Promise<unknown>): Promise<Classified> {
  const error = await refusalOf(() => call);
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return { code: error.code, transient: error.transient, retryAfterMs: error.retryAfterMs, message: error.message };
}
