// The cap on AI requests in flight per workspace (AI_MAX_CONCURRENT) and the month's credits hold across server
// processes: two real processes on one database, more callers than places. The places and credits live in
// PostgreSQL (ai_reserve, ai_settle), so neither process can hand out one the other already gave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
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
}, 180_000);
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

/** Runs `query` on the processes' database, on a connection of its own. */
async function inDatabase<T>(query: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await query(db);
  } finally {
    await db.end();
  }
}

describe('the AI in-flight cap and credits across two server processes', () => {
  it('lets exactly AI_MAX_CONCURRENT calls of a workspace through at once, whichever process they reach, and frees the places after', async () => {
    const setup = await runCli(['setup', '--workspace', 'inflight', '--email', 'inflight@example.test', '--plan', 'business', '--json'], {
      DATABASE_URL: databaseUrl,
    });
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
  }, 180_000);

  it('with 40 callers on the two processes at full pace: the cap is never passed, every credit is used once, each answer charged once', async () => {
    const credits = 60;
    const setup = await runCli(['setup', '--workspace', 'fullpace', '--email', 'fullpace@example.test', '--plan', 'business', '--json'], {
      DATABASE_URL: databaseUrl,
    });
    const { workspaceId, apiKey } = JSON.parse(setup.stdout) as { workspaceId: string; apiKey: string };
    // What `sps plans set --ai-credits` does, without starting one more process on a loaded machine.
    await inDatabase((db) => db.query('UPDATE workspace SET ai_credits_monthly = $2, ai_credits_remaining = $2 WHERE id = $1', [workspaceId, credits]));
    standIn.requests = [];
    standIn.mostInFlight = 0;
    standIn.delayMs = 10;
    // Each caller asks for captions until refused for credits: 429 AI_BUSY (the cap is full) means try again.
    const tally = { ok: 0, busy: 0, limit: 0, other: [] as string[] };
    const caller = async (server: ServerProcess) => {
      for (;;) {
        const { status, code } = await rewrite(server, apiKey);
        if (status === 200) tally.ok++;
        else if (status === 429 && code === 'AI_BUSY') {
          tally.busy++;
          await sleep(5);
        } else if (status === 402 && code === 'AI_LIMIT_REACHED') return void tally.limit++;
        else tally.other.push(`${status} ${code}`);
      }
    };
    await Promise.all(servers.flatMap((server) => Array.from({ length: 20 }, () => caller(server))));
    standIn.delayMs = 0;
    expect(tally.other).toEqual([]);
    expect(tally.ok).toBe(credits);
    expect(tally.busy).toBeGreaterThan(0);
    expect(tally.limit).toBe(40);
    expect(standIn.mostInFlight).toBeLessThanOrEqual(maxInFlight);
    expect(standIn.requests).toHaveLength(credits);

    const ledger = await inDatabase(async (db) => {
      const { rows } = await db.query(
        `SELECT (SELECT coalesce(sum(cost), 0) FROM ai_request WHERE workspace_id = $1 AND status = 'settled')::int AS charged,
                (SELECT count(*) FROM ai_request WHERE workspace_id = $1 AND status = 'reserved')::int AS reserved,
                ai_credits_remaining AS remaining
         FROM workspace WHERE id = $1`,
        [workspaceId],
      );
      return rows[0];
    });
    expect(ledger).toEqual({ charged: credits, reserved: 0, remaining: 0 });
    const shown = await Promise.all(
      servers.map(async (server) => {
        const response = await fetch(`${server.url}/v1/ai`, { headers: { authorization: `Bearer ${apiKey}` } });
        return ((await response.json()) as { data: { credits: { remaining: number } } }).data.credits.remaining;
      }),
    );
    expect(shown).toEqual([0, 0]);
  }, 180_000);
});
