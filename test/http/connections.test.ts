// How the server treats its clients' connections between requests (rest/app.ts prepareServer).
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => (service = await startTestService()));
afterAll(() => service.stop());

/** Sends one GET /healthz on `socket` and reads its whole answer (the body is JSON, so it ends with `}`). */
async function healthz(socket: Socket): Promise<string> {
  socket.write('GET /healthz HTTP/1.1\r\nhost: localhost\r\nconnection: keep-alive\r\n\r\n');
  let answer = '';
  while (!answer.endsWith('}')) {
    const [chunk] = (await Promise.race([once(socket, 'data'), once(socket, 'end').then(() => [null])])) as [Buffer | null];
    if (chunk === null) throw new Error(`the server closed the connection; answer so far: ${JSON.stringify(answer)}`);
    answer += chunk.toString();
  }
  return answer;
}

describe('idle connections', () => {
  it('stay open longer than Node’s 5 s default, and the answer says for how long', { timeout: 20_000 }, async () => {
    const { port } = new URL(service.url);
    const socket = connect(Number(port), '127.0.0.1');
    try {
      await once(socket, 'connect');
      const first = await healthz(socket);
      expect(first.startsWith('HTTP/1.1 200')).toBe(true);
      expect(first.toLowerCase()).toContain('keep-alive: timeout=65');
      await sleep(6_000);
      expect((await healthz(socket)).startsWith('HTTP/1.1 200')).toBe(true);
    } finally {
      socket.destroy();
    }
  });
});
