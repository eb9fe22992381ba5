// A real webhook receiver on 127.0.0.1: it verifies every delivery twice (our documented HMAC scheme, and the
// `standardwebhooks` library) and answers as told (status, delay, redirect).
import { createServer, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  at: number;
  headers: Record<string, string>;
  body: string;
  envelope: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  /** Which of the receiver's secrets verified the delivery, by each scheme. */
  verifiedBy: { ours: string[]; standard: string[] };
}

export type Answer = { status?: number; delayMs?: number; location?: string };

export class Receiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  #answers: Answer[] = [];
  #fallback: Answer = { status: 200 };
  #server!: Server;
  url = '';

  /** Answers for the next deliveries, in order; afterwards `fallback`. */
  answer(...answers: Answer[]) {
    this.#answers.push(...answers);
    return this;
  }

  always(answer: Answer) {
    this.#fallback = answer;
    return this;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        this.received.push({ at: Date.now(), headers, body, envelope: JSON.parse(body), verifiedBy: this.#verify(headers, body) });
        const answer = this.#answers.shift() ?? this.#fallback;
        setTimeout(() => {
          if (answer.location) res.setHeader('location', answer.location);
          res.statusCode = answer.status ?? 200;
          res.end(`answered ${answer.status ?? 200}`);
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  #verify(headers: Record<string, string>, body: string) {
    const ours = this.secrets.filter((secret) => {
      const expected = Buffer.from(`v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${headers['x-post-timestamp']}.${body}`).digest('hex')}`);
      return (headers['x-post-signature'] ?? '').split(' ').some((given) => given.length === expected.length && timingSafeEqual(Buffer.from(given), expected));
    });
    const standard = this.secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    return { ours, standard };
  }

  ofType(type: string) {
    return this.received.filter((delivery) => delivery.envelope.type === type);
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline)
        throw new Error(`received ${this.received.length} deliveries, expected ${count}: ${this.received.map((r) => r.envelope.type).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.received;
  }

  async stop() {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
