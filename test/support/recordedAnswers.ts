// A local server that answers every request with the answer recorded for it, byte for byte as the network sent it
// (status, headers, body), for the unit tests that feed a network's real answers through its adapter's
// classification (test/domain/*Answers.test.ts). Each recorded answer names its source where it is used.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '../../src/providers/adapter.ts';

export interface RecordedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** JSON (sent as application/json unless `headers` say otherwise), or text as it is. */
  body?: unknown;
}

export class RecordedAnswers {
  url = '';
  /** What the next request is answered with. */
  next: RecordedAnswer = { status: 204 };
  readonly #server: Server = createServer((req, res) => {
    req.resume().on('end', () => {
      const { status, headers = {}, body } = this.next;
      const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json', ...headers }).end(text);
    });
  });

  static async start(): Promise<RecordedAnswers> {
    const answers = new RecordedAnswers();
    await new Promise<void>((resolve) => answers.#server.listen(0, '127.0.0.1', resolve));
    answers.url = `http://127.0.0.1:${(answers.#server.address() as AddressInfo).port}`;
    return answers;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
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
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return { code: error.code, transient: error.transient, retryAfterMs: error.retryAfterMs, message: error.message };
}
