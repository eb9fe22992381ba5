// An answer without end (a hostile or broken host): after `head`, JSON-safe spaces written as fast as the
// connection takes them, until the reader hangs up. `sent()` counts every byte handed to the socket. `startFlood`
// is a host answering every request so.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Pouring {
  sent(): number;
  /** Resolves when the connection closed (the reader hung up). */
  closed: Promise<void>;
}

export function pourWithoutEnd(response: ServerResponse, head = '', headers: Record<string, string> = {}): Pouring {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const closed = new Promise<void>((resolve) => response.on('close', () => resolve()));
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.write(head);
  const pour = () => {
    while (!response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) break;
    }
  };
  response.on('drain', pour);
  pour();
  return { sent: () => sent, closed };
}

export interface Flood {
  url: string;
  /** Requests answered so far. */
  readonly answered: number;
  /** Every byte sent, once each answer's reader hung up. */
  sentWhenClosed(): Promise<number>;
  stop(): Promise<void>;
}

/** A host on 127.0.0.1 answering every request without end. */
export async function startFlood(): Promise<Flood> {
  const pourings: Pouring[] = [];
  const server = createServer((_request, response) => void pourings.push(pourWithoutEnd(response)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get answered() {
      return pourings.length;
    },
    async sentWhenClosed() {
      await Promise.all(pourings.map((pouring) => pouring.closed));
      return pourings.reduce((sum, pouring) => sum + pouring.sent(), 0);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
