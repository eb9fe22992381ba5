// Idempotency keys hold across server processes: the key is claimed in PostgreSQL, so a retry sent to another
// process replays the first answer, and concurrent requests to both run once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

let databaseUrl: string;
let servers: ServerProcess[] = [];
let apiKey: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const env = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
  servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  const setup = await runCli(['setup', '--workspace', 'Idempotent', '--email', 'idempotent@example.test', '--json'], { DATABASE_URL: databaseUrl });
  apiKey = JSON.parse(setup.stdout).apiKey;
}, 180_000);
afterAll(async () => {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
});

const queue = (name: string) => ({ name, timezone: 'Europe/Berlin', slots: [{ day: 'monday', time: '09:00' }] });

async function createQueue(server: ServerProcess, key: string, name: string) {
  const response = await fetch(`${server.url}/v1/queues`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(queue(name)),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
}

async function queuesNamed(name: string): Promise<number> {
  const response = await fetch(`${servers[0]!.url}/v1/queues?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { data: { name: string }[] };
  return body.data.filter((item) => item.name === name).length;
}

describe('two server processes', () => {
  it('replay on one the answer the other gave, and refuse the key for another body', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const first = await createQueue(a, 'retry-elsewhere', 'Sent twice');
    expect(first.status).toBe(201);
    const retry = await createQueue(b, 'retry-elsewhere', 'Sent twice');
    expect(retry).toEqual({ status: 201, replayed: 'true', text: first.text });
    expect((await createQueue(b, 'retry-elsewhere', 'Another body')).status).toBe(409);
    expect(await queuesNamed('Sent twice')).toBe(1);
  });

  it('run a request sent to both at once only once', async () => {
    const answers = await Promise.all(
      servers.flatMap((server) => [createQueue(server, 'both-at-once', 'Raced'), createQueue(server, 'both-at-once', 'Raced')]),
    );
    const ran = answers.filter((answer) => answer.status === 201 && answer.replayed === null);
    expect(ran).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate !== ran[0])) {
      expect(answer.status === 409 || (answer.replayed === 'true' && answer.text === ran[0]!.text), JSON.stringify(answer)).toBe(true);
    }
    expect(await queuesNamed('Raced')).toBe(1);
  });
});
