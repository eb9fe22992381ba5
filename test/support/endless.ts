// An answer without end (a hostile or broken host): after `head`, JSON-safe spaces written as fast as the
// connection takes them, until the reader hangs up. `sent()` counts every byte handed to the socket.
import type { ServerResponse } from 'node:http';

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
