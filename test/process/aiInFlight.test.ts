// The cap on AI requests in flight per workspace (AI_MAX_CONCURRENT) holds across server processes: two real
// processes on one database, one slow model, more callers than places. The places live in PostgreSQL
// (ai_reserve), so neither process can hand out one the other already gave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

const maxInFlight = 3;
let databaseUrl: string;
let standIn: OpenAiStandIn;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  standIn = await startOpenAiStandIn();
  const env = {
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '100000',
    AI_PROVIDER: 'openai',
    AI_BASE_URL: standIn.baseUrl,
    AI_API_KEY: 'sk-test-secret',
    AI_MAX_CONCURRENT: String(maxInFlight),
  };
  servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
});
afterAll(async () => {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
  await standIn?.close();
});

const rewrite = (server: ServerProcess, apiKey: string) =>
  fetch(`${server.url}/v1/ai/captions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'rewrite', caption: 'Our shop opens on Monday' }),
  }).then(async (response) => ({ status: response.status, code: response.ok ? null : ((await response.json()) as { error: { code: string } }).error.code }));

describe('the AI in-flight cap across two server processes', () => {
  it('lets exactly AI_MAX_CONCURRENT calls of a workspace through at once, whichever process they reach, and frees the places after', async () => {
    const setup = await runCli(['setup', '--workspace', 'inflight', '--email', 'inflight@example.test', '--plan', 'business', '--json'], { DATABASE_URL: databaseUrl });
    const apiKey = JSON.parse(setup.stdout).apiKey as string;
    const release = standIn.hold();
    const [a, b] = servers as [ServerProcess, ServerProcess];
    let refused = 0;
    const calls = [a, b, a, b, a, b, a, b].map((server) =>
      rewrite(server, apiKey).then((answer) => {
        if (answer.status !== 200) refused += 1;
        return answer;
      }),
    );
    // The model holds the calls that got a place; the others must all be refused before any place comes free.
    await standIn.received(maxInFlight);
    for (const deadline = Date.now() + 30_000; refused < 8 - maxInFlight && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const answers = await Promise.all(calls);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(maxInFlight);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual(Array.from({ length: 8 - maxInFlight }, () => ({ status: 429, code: 'AI_BUSY' })));
    expect(standIn.requests).toHaveLength(maxInFlight);

    const afterwards = await Promise.all([rewrite(a, apiKey), rewrite(b, apiKey)]);
    expect(afterwards.map((answer) => answer.status)).toEqual([200, 200]);
  });
});
