// SIGTERM: the request in flight finishes, then the pool and the embedded PostgreSQL stop and the process exits 0.
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { alive, scratchDataDir, startServerProcess } from '../support/processes.ts';

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

describe('graceful shutdown', () => {
  it('finishes the request in flight, stops the embedded database, and exits 0', async () => {
    const dataDir = scratchDataDir();
    // The embedded database, not DATABASE_URL: this test is about stopping it.
    const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    const postgres = postmasterPid(dataDir);
    expect(alive(postgres)).toBe(true);

    // A request whose body is still arriving when SIGTERM comes.
    const { port } = new URL(server.url);
    const [head, tail] = ['{"email":"nobody@example.test",', '"password":"x1"}'];
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/auth/login',
          headers: { 'content-type': 'application/json', 'content-length': String(head.length + tail.length) },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(head);
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(tail), 300);
      }, 200);
    });
    const { status, body } = await answer;
    expect(status).toBe(401);
    expect(JSON.parse(body).error.code).toBe('UNAUTHENTICATED');
    expect(await server.exited).toBe(0);
    for (let i = 0; i < 50 && alive(postgres); i++) await sleep(100);
    expect(alive(postgres)).toBe(false);
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(dataDir);
    expect(server.output()).toMatch(/"msg":"stopped"/);
  });
});
