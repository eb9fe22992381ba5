// The AI calls a person waits for, under load on server processes sharing a database: each process leases credits
// and in-flight places per workspace (src/ai/leases.ts, function ai_lease). Whatever the pace, nobody is served past
// the in-flight cap or the month's credits, every answered call is charged exactly once, what a process holds
// still counts as the workspace's, and it comes back: within seconds, when the process stops, or at the lease's
// expiry when the process died.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';
import { setPlan } from '../../src/workspaces/workspaces.ts';

const cap = 24;
let standIn: OpenAiStandIn;
let env: Record<string, string>;
let first: TestService;
let second: TestService;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  // A fast model: enough calls a second for a process to lease spare.
  standIn.delayMs = 10;
  env = { AI_PROVIDER: 'openai', AI_BASE_URL: standIn.baseUrl, AI_MAX_CONCURRENT: String(cap) };
  first = await startTestService(env);
  second = await startTestService(env, first.databaseUrl);
});
afterAll(async () => {
  await second.stop();
  await first.stop();
  await standIn.close();
});

async function workspaceWith(credits: number): Promise<{ workspaceId: string; ownerKey: string }> {
  const created = await createWorkspace(first.services);
  await setPlan(first.services.db, { workspaceId: created.workspaceId, plan: 'pro', aiCredits: credits });
  return created;
}

interface Tally {
  ok: number;
  busy: number;
  limit: number;
  other: string[];
}

/** `callers` callers on each API, each asking for captions until refused for credits or `until` has passed. */
async function callersOn(apis: Api[], callers: number, until = Number.POSITIVE_INFINITY): Promise<Tally> {
  const tally: Tally = { ok: 0, busy: 0, limit: 0, other: [] };
  const caller = async (api: Api) => {
    while (Date.now() < until) {
      const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Opening on Monday' });
      if (status === 200) tally.ok++;
      else if (status === 429 && body.error.code === 'AI_BUSY') {
        tally.busy++;
        await sleep(2);
      } else if (status === 402 && body.error.code === 'AI_LIMIT_REACHED') {
        tally.limit++;
        return;
      } else tally.other.push(`${status} ${body.error?.code}`);
    }
  };
  await Promise.all(apis.flatMap((api) => Array.from({ length: callers }, () => caller(api))));
  return tally;
}

const db = () => first.services.db.pool;
const leaseRows = async (workspaceId: string) =>
  (await db().query<{ cost: number; places: number }>(`SELECT cost, places FROM ai_request WHERE workspace_id = $1 AND action = 'lease'`, [workspaceId])).rows;
const storedRemaining = async (workspaceId: string) =>
  (await db().query<{ ai_credits_remaining: number }>('SELECT ai_credits_remaining FROM workspace WHERE id = $1', [workspaceId])).rows[0]!.ai_credits_remaining;
const charged = async (workspaceId: string) =>
  Number((await db().query(`SELECT coalesce(sum(cost), 0) AS sum FROM ai_request WHERE workspace_id = $1 AND status = 'settled'`, [workspaceId])).rows[0].sum);
const remainingOn = async (service: TestService, ownerKey: string) => (await apiFor(service.url, ownerKey)('GET', '/ai')).body.data.credits.remaining;

async function untilNoLease(workspaceId: string) {
  for (let waited = 0; (await leaseRows(workspaceId)).length; waited += 50) {
    if (waited > 10_000) throw new Error('a lease was still held after 10 s');
    await sleep(50);
  }
}

describe('leased credits and places', () => {
  it('on two processes at full pace: never more calls at once than the cap, never past the credits, each answer charged once', async () => {
    const { workspaceId, ownerKey } = await workspaceWith(400);
    standIn.mostInFlight = 0;
    // 40 callers for 24 places: some are refused with AI_BUSY until the credits run out.
    const tally = await callersOn([apiFor(first.url, ownerKey), apiFor(second.url, ownerKey)], 20);
    expect(tally.other).toEqual([]);
    expect(tally.ok).toBe(400);
    expect(tally.busy).toBeGreaterThan(0);
    expect(tally.limit).toBe(40);
    expect(standIn.mostInFlight).toBeLessThanOrEqual(cap);
    await untilNoLease(workspaceId);
    expect(await charged(workspaceId)).toBe(400);
    expect(await storedRemaining(workspaceId)).toBe(0);
    expect([await remainingOn(first, ownerKey), await remainingOn(second, ownerKey)]).toEqual([0, 0]);
  });

  it('at a steady pace a process holds spare credits, still shown as the workspace’s, and gives them back within seconds', async () => {
    const credits = 100_000;
    const { workspaceId, ownerKey } = await workspaceWith(credits);
    const tally = await callersOn([apiFor(first.url, ownerKey)], 4, Date.now() + 1500);
    expect(tally.other).toEqual([]);
    // No call is under way, and the process still holds credits (and possibly places) for the next second's calls.
    const [lease] = await leaseRows(workspaceId);
    expect(lease?.cost).toBeGreaterThan(0);
    expect(await storedRemaining(workspaceId)).toBeLessThan(credits - tally.ok);
    expect(await remainingOn(first, ownerKey)).toBe(credits - tally.ok);
    await untilNoLease(workspaceId);
    expect(await storedRemaining(workspaceId)).toBe(credits - tally.ok);
    expect(await charged(workspaceId)).toBe(tally.ok);
    expect(await remainingOn(second, ownerKey)).toBe(credits - tally.ok);
  });

  it('a process that stops writes its charges and gives back what it holds', async () => {
    const credits = 100_000;
    const { workspaceId, ownerKey } = await workspaceWith(credits);
    const third = await startTestService(env, first.databaseUrl);
    let tally: Tally;
    try {
      tally = await callersOn([apiFor(third.url, ownerKey)], 4, Date.now() + 1500);
    } finally {
      await third.stop();
    }
    expect(tally.other).toEqual([]);
    expect(await leaseRows(workspaceId)).toEqual([]);
    expect(await storedRemaining(workspaceId)).toBe(credits - tally.ok);
    expect(await charged(workspaceId)).toBe(tally.ok);
  });

  it('a dead process’s lease counts until its expiry, then its places and credits come back', async () => {
    const { workspaceId, ownerKey } = await workspaceWith(50);
    const api = apiFor(first.url, ownerKey);
    // What a process that died would leave: every place and 5 credits held, taken from the workspace's.
    const dead = await db().query<{ id: string }>(
      `WITH lease AS (
         INSERT INTO ai_request (id, workspace_id, action, cost, period, status, places, expires_at)
         VALUES (gen_random_uuid(), $1, 'lease', 5, date_trunc('month', now(), 'UTC'), 'reserved', $2, now() + interval '1 hour')
         RETURNING id)
       UPDATE workspace SET ai_credits_remaining = 45, ai_credits_period = date_trunc('month', now(), 'UTC') WHERE id = $1
       RETURNING (SELECT id FROM lease)`,
      [workspaceId, cap],
    );
    const busy = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect([busy.status, busy.body.error.code]).toEqual([429, 'AI_BUSY']);
    await db().query(`UPDATE ai_request SET expires_at = now() - interval '1 second' WHERE id = $1`, [dead.rows[0]!.id]);
    const served = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect(served.status).toBe(200);
    expect(served.body.data.creditsRemaining).toBe(49);
  });
});
