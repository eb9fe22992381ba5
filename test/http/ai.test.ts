// AI captions and credits against a local OpenAI-compatible server: rewrites, translations and hashtags within
// each network's rules, every error code of the AI table, scopes, credits charged only on success and atomically,
// the monthly renewal and ai.credits_low once.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace, keyFor } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '../support/openaiServer.ts';
import { setPlan } from '../../src/workspaces/workspaces.ts';
import { freePort } from '../../src/net.ts';

let standIn: OpenAiStandIn;
let service: TestService;
let unconfigured: TestService;

const aiEnv = (baseUrl: string) => ({
  AI_PROVIDER: 'openai',
  AI_BASE_URL: baseUrl,
  AI_API_KEY: 'sk-test-secret',
  AI_TEXT_MODEL: 'text-model',
  AI_VISION_MODEL: 'vision-model',
  AI_IMAGE_MODEL: 'image-model',
  AI_TIMEOUT_MS: '1000',
});

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  service = await startTestService(aiEnv(standIn.baseUrl));
  unconfigured = await startTestService({}, service.databaseUrl);
});
afterAll(async () => {
  await unconfigured.stop();
  await service.stop();
  await standIn.close();
});
beforeEach(() => {
  standIn.mode = 'ok';
  standIn.delayMs = 0;
  standIn.requests = [];
  standIn.reply = ({ schemaName, userText }) =>
    schemaName === 'alt_text' ? { altText: 'unused' } : { suggestions: [`First: ${userText}`, `Second: ${userText}`, `Third: ${userText}`] };
});

/** A pro workspace (500 credits, or `credits`) and its owner's API. */
async function workspace(credits?: number): Promise<{ api: Api; workspaceId: string; ownerKey: string }> {
  const created = await createWorkspace(service.services);
  if (credits !== undefined) await setPlan(service.services.db, { workspaceId: created.workspaceId, plan: 'pro', aiCredits: credits });
  return { api: apiFor(service.url, created.ownerKey), workspaceId: created.workspaceId, ownerKey: created.ownerKey };
}

const remaining = async (api: Api) => (await api('GET', '/ai')).body.data.credits.remaining;

describe('GET /ai', () => {
  it('shows the provider, the credits of the month and the cost of each action', async () => {
    const { api } = await workspace();
    const { status, body } = await api('GET', '/ai');
    expect(status).toBe(200);
    const now = new Date();
    expect(body.data).toEqual({
      available: true,
      provider: 'openai',
      credits: { remaining: 500, monthly: 500, resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString() },
      costs: { caption: 1, translate: 1, hashtags: 1, altText: 2, image: 10 },
    });
  });

  it('says AI is unavailable, with no provider, where it is not configured', async () => {
    const created = await createWorkspace(unconfigured.services);
    const { body } = await apiFor(unconfigured.url, created.ownerKey)('GET', '/ai');
    expect(body.data).toMatchObject({ available: false, provider: null });
  });
});

describe('POST /ai/captions', () => {
  it('rewrites in a tone, asking the text model for JSON, and charges one credit', async () => {
    const { api } = await workspace();
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Our new shop opens Monday', tone: 'playful', count: 2 });
    expect(status).toBe(200);
    expect(body.data).toEqual({
      suggestions: ['First: Our new shop opens Monday', 'Second: Our new shop opens Monday'],
      creditsUsed: 1,
      creditsRemaining: 499,
    });
    const [sent] = standIn.requests;
    expect(sent).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test-secret' });
    expect(sent!.body.model).toBe('text-model');
    expect(sent!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'suggestions', strict: true } });
    expect(sent!.body.messages[0].content).toContain('playful');
    expect(await remaining(api)).toBe(499);
  });

  it('keeps only rewrites that fit the named network, counted as it counts', async () => {
    const { api } = await workspace();
    standIn.reply = () => ({ suggestions: ['x'.repeat(281), 'Short enough for X', `${'y'.repeat(250)} https://example.com/${'z'.repeat(100)}`] });
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hello', provider: 'x' });
    expect(status).toBe(200);
    // X counts a link as 23 characters: the third fits although it is longer than 280 as written.
    expect(body.data.suggestions).toEqual(['Short enough for X', `${'y'.repeat(250)} https://example.com/${'z'.repeat(100)}`]);
    expect(standIn.requests[0]!.body.messages[0].content).toContain('at most 280 characters');
  });

  it('translates with hashtags, mentions and links kept: the model sees placeholders, the answer has them back', async () => {
    const { api } = await workspace();
    const caption = 'Big news from @anna@social.example and @bob! Read https://example.com/a?b=1 #launch #café';
    standIn.reply = ({ userText }) => ({
      suggestions: [userText.replace('Big news from', 'Große Neuigkeiten von').replace('and', 'und').replace('Read', 'Lies')],
    });
    const { status, body } = await api('POST', '/ai/captions', { action: 'translate', caption, targetLanguage: 'de' });
    expect(status).toBe(200);
    expect(body.data.suggestions).toEqual(['Große Neuigkeiten von @anna@social.example und @bob! Lies https://example.com/a?b=1 #launch #café']);
    const sentText = standIn.requests[0]!.body.messages[1].content;
    expect(sentText).toBe('Big news from ⟦1⟧ and ⟦2⟧! Read ⟦3⟧ ⟦4⟧ ⟦5⟧');
    expect(standIn.requests[0]!.body.messages[0].content).toContain('"de"');
  });

  it('does not use (nor charge for) a translation that lost a hashtag', async () => {
    const { api } = await workspace();
    standIn.reply = () => ({ suggestions: ['Hallo ⟦1⟧', 'Hallo'] });
    const ok = await api('POST', '/ai/captions', { action: 'translate', caption: 'Hello #world', targetLanguage: 'de', count: 2 });
    expect(ok.body.data.suggestions).toEqual(['Hallo #world']);
    standIn.reply = () => ({ suggestions: ['Hallo Welt'] });
    const lost = await api('POST', '/ai/captions', { action: 'translate', caption: 'Hello #world', targetLanguage: 'de' });
    expect(lost.status).toBe(503);
    expect(lost.body.error.code).toBe('AI_UNAVAILABLE');
    expect(await remaining(api)).toBe(499);
  });

  it('suggests distinct hashtags, each starting with #, within the network’s hashtag limit', async () => {
    const { api } = await workspace();
    standIn.reply = () => ({ suggestions: ['#Sun', 'sun', '#beach', 'Beach', '#sea side', '#summer', '#holiday', '#waves', '#sand'] });
    const all = await api('POST', '/ai/captions', { action: 'hashtags', caption: 'A day at the sea #summer', count: 10 });
    expect(all.body.data.suggestions).toEqual(['#Sun', '#beach', '#sea', '#side', '#holiday', '#waves', '#sand']);
    const instagram = await api('POST', '/ai/captions', { action: 'hashtags', caption: 'A day at the sea', count: 10, provider: 'instagram' });
    expect(instagram.body.data.suggestions).toEqual(['#Sun', '#beach', '#sea', '#side', '#summer']);
    expect(instagram.body.data.creditsRemaining).toBe(498);
  });

  it('understands a server without structured output (one suggestion per line)', async () => {
    const { api } = await workspace();
    standIn.mode = 'plainText';
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect(status).toBe(200);
    expect(body.data.suggestions).toEqual(['First: Hi', 'Second: Hi', 'Third: Hi']);
  });

  it('asks again without response_format when a server refuses structured output', async () => {
    const { api } = await workspace();
    standIn.mode = 'noStructuredOutput';
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi', count: 2 });
    expect(status).toBe(200);
    expect(body.data.suggestions).toEqual(['First: Hi', 'Second: Hi']);
    expect(standIn.requests.map((request) => request.body.response_format?.type ?? null)).toEqual(['json_schema', null]);
  });

  it('refuses wrong input with 400 and details, before calling the model', async () => {
    const { api } = await workspace();
    const cases: [unknown, string][] = [
      [{ action: 'translate', caption: 'Hi' }, 'targetLanguage'],
      [{ action: 'translate', caption: 'Hi', targetLanguage: 'not a language' }, 'targetLanguage'],
      [{ action: 'rewrite', caption: 'Hi', provider: 'myspace' }, 'provider'],
      [{ action: 'rewrite', caption: 'Hi', count: 6 }, 'count'],
      [{ action: 'summarize', caption: 'Hi' }, 'action'],
      [{ action: 'rewrite', caption: '' }, 'caption'],
    ];
    for (const [input, field] of cases) {
      const { status, body } = await api('POST', '/ai/captions', input, { 'accept-language': 'de' });
      expect(status, JSON.stringify(input)).toBe(400);
      expect(body.error.code).toBe('INVALID_REQUEST');
      expect(body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    }
    expect(standIn.requests).toEqual([]);
  });
});

describe('provider failures are AI errors, and nothing is charged', () => {
  const failures = [
    { mode: 'rateLimited', status: 429, code: 'AI_BUSY' },
    { mode: 'serverError', status: 503, code: 'AI_UNAVAILABLE' },
    { mode: 'unauthorized', status: 503, code: 'AI_UNAVAILABLE' },
    { mode: 'contentFilter', status: 422, code: 'AI_REFUSED' },
    { mode: 'refusal', status: 422, code: 'AI_REFUSED' },
    { mode: 'contentPolicy', status: 422, code: 'AI_REFUSED' },
  ] as const;
  for (const failure of failures) {
    it(`${failure.mode} → ${failure.status} ${failure.code}`, async () => {
      const { api } = await workspace();
      standIn.mode = failure.mode;
      const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hello' }, { 'accept-language': 'fr' });
      expect(status).toBe(failure.status);
      expect(body.error.code).toBe(failure.code);
      expect(body.error.message).toMatch(/rien n’a été décompté/);
      expect(await remaining(api)).toBe(500);
    });
  }

  it('passes on the provider’s Retry-After with its 429', async () => {
    const { api, ownerKey } = await workspace();
    standIn.mode = 'rateLimited';
    const response = await fetch(`${service.url}/v1/ai/captions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'rewrite', caption: 'Hello' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await remaining(api)).toBe(500);
  });

  it('a provider slower than AI_TIMEOUT_MS is 503 AI_UNAVAILABLE', async () => {
    const { api } = await workspace();
    standIn.delayMs = 3000;
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hello' });
    expect(status).toBe(503);
    expect(body.error.code).toBe('AI_UNAVAILABLE');
    expect(await remaining(api)).toBe(500);
  });

  it('an answer whose body stops halfway is 503 AI_UNAVAILABLE once AI_TIMEOUT_MS has passed', async () => {
    const { api } = await workspace();
    standIn.mode = 'stalledBody';
    const began = Date.now();
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hello' });
    expect(status).toBe(503);
    expect(body.error.code).toBe('AI_UNAVAILABLE');
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(await remaining(api)).toBe(500);
  });

  it('an answer without end is 503 AI_UNAVAILABLE once it passes 32 MiB, read no further', async () => {
    // A minute's timeout: the answer is cut off by its size, long before.
    const patient = await startTestService({ ...aiEnv(standIn.baseUrl), AI_TIMEOUT_MS: '60000' }, service.databaseUrl);
    try {
      const created = await createWorkspace(patient.services);
      const api = apiFor(patient.url, created.ownerKey);
      standIn.mode = 'endlessBody';
      standIn.endlessBytesSent = 0;
      const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hello' });
      expect(status).toBe(503);
      expect(body.error.code).toBe('AI_UNAVAILABLE');
      // The 32 MiB read and what the sockets' buffers took: the server was cut off, not read to its end.
      await vi.waitFor(() => expect(standIn.endlessBytesSent).toBeGreaterThan(0));
      expect(standIn.endlessBytesSent).toBeGreaterThan(32 * 1024 * 1024 - 64 * 1024);
      expect(standIn.endlessBytesSent).toBeLessThan(48 * 1024 * 1024);
      expect(await remaining(api)).toBe(500);
    } finally {
      await patient.stop();
    }
  });

  it('a refused connection is 503 AI_UNAVAILABLE', async () => {
    const closed = await startTestService(aiEnv(`http://127.0.0.1:${await freePort()}/v1`), service.databaseUrl);
    try {
      const created = await createWorkspace(closed.services);
      const api = apiFor(closed.url, created.ownerKey);
      const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hello' });
      expect(status).toBe(503);
      expect(body.error.code).toBe('AI_UNAVAILABLE');
      expect(await remaining(api)).toBe(500);
    } finally {
      await closed.stop();
    }
  });
});

describe('not configured, plans and scopes', () => {
  it('every AI action is 409 AI_NOT_CONFIGURED without AI_PROVIDER', async () => {
    const created = await createWorkspace(unconfigured.services);
    const api = apiFor(unconfigured.url, created.ownerKey);
    const answers = [
      await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' }),
      await api('POST', '/ai/images', { prompt: 'A lighthouse' }),
      await api('POST', '/media/00000000-0000-4000-8000-000000000000/alt-text/suggestion', {}),
    ];
    expect(answers.map((answer) => [answer.status, answer.body.error.code])).toEqual(Array(3).fill([409, 'AI_NOT_CONFIGURED']));
  });

  it('needs ai:write, plus posts:write for captions and media:write for images and alt text', async () => {
    const created = await createWorkspace(service.services);
    const key = async (scopes: string[]) => apiFor(service.url, (await keyFor(service.services, created.workspaceId, created.ownerId, { scopes })).apiKey);
    const aiOnly = await key(['ai:write']);
    const postsOnly = await key(['posts:write', 'media:write']);
    const captions = await key(['ai:write', 'posts:write']);
    const media = await key(['ai:write', 'media:write']);
    const caption = { action: 'rewrite', caption: 'Hi' };
    const image = { prompt: 'A lighthouse' };
    const unknownMedia = '/media/00000000-0000-4000-8000-000000000000/alt-text/suggestion';
    const scopeOf = (answer: { body: any }) => answer.body.error.message.match(/needs the (\S+) scope/)?.[1];
    expect((await aiOnly('GET', '/ai')).status).toBe(200);
    expect(scopeOf(await aiOnly('POST', '/ai/captions', caption))).toBe('posts:write');
    expect(scopeOf(await aiOnly('POST', '/ai/images', image))).toBe('media:write');
    expect(scopeOf(await postsOnly('POST', '/ai/captions', caption))).toBe('ai:write');
    expect(scopeOf(await postsOnly('GET', '/ai'))).toBe('ai:write');
    expect(scopeOf(await captions('POST', '/ai/images', image))).toBe('media:write');
    expect(scopeOf(await captions('POST', unknownMedia, {}))).toBe('media:write');
    expect((await captions('POST', '/ai/captions', caption)).status).toBe(200);
    // Past the scope check: the file does not exist (image generation itself is in aiMedia.test.ts).
    expect((await media('POST', unknownMedia, {})).status).toBe(404);
  });
});

describe('credits', () => {
  it('402 AI_LIMIT_REACHED when fewer credits are left than the action costs, without calling the model', async () => {
    const { api } = await workspace(0);
    const { status, body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect(status).toBe(402);
    expect(body.error.code).toBe('AI_LIMIT_REACHED');
    expect(body.error.message).toContain('this costs 1, 0 are left');
    expect(standIn.requests).toEqual([]);
  });

  it('with one credit left, two concurrent calls give one 200 and one 402', async () => {
    const { api } = await workspace(1);
    const release = standIn.hold();
    const calls = [api('POST', '/ai/captions', { action: 'rewrite', caption: 'A' }), api('POST', '/ai/captions', { action: 'rewrite', caption: 'B' })];
    // One reached the model and holds the last credit; the other was refused meanwhile.
    await standIn.received(1);
    const refused = await Promise.race(calls);
    expect([refused.status, refused.body.error?.code]).toEqual([402, 'AI_LIMIT_REACHED']);
    release();
    const statuses = (await Promise.all(calls)).map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 402]);
    expect(await remaining(api)).toBe(0);
  });

  it('a dead process’s reservations count until their expiry, then their places and credits come back', async () => {
    const { api, workspaceId } = await workspace(50);
    const { maxConcurrent } = service.services.config.ai;
    // What a process that died mid-call would leave: every place taken, a credit each, taken from the workspace's.
    await service.services.db.pool.query(
      `WITH reserved AS (
         INSERT INTO ai_request (id, workspace_id, action, cost, period, status, expires_at)
         SELECT gen_random_uuid(), $1, 'caption', 1, date_trunc('month', now(), 'UTC'), 'reserved', now() + interval '1 hour' FROM generate_series(1, $2)
         RETURNING cost)
       UPDATE workspace SET ai_credits_remaining = 50 - (SELECT sum(cost) FROM reserved), ai_credits_period = date_trunc('month', now(), 'UTC') WHERE id = $1`,
      [workspaceId, maxConcurrent],
    );
    const busy = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect([busy.status, busy.body.error.code]).toEqual([429, 'AI_BUSY']);
    expect(await remaining(api)).toBe(50 - maxConcurrent);
    await service.services.db.pool.query(`UPDATE ai_request SET expires_at = now() - interval '1 second' WHERE workspace_id = $1`, [workspaceId]);
    const served = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect(served.status).toBe(200);
    expect(served.body.data.creditsRemaining).toBe(49);
  });

  it('are reserved, charged and given back in durable commits: a PostgreSQL crash cannot lose a charge', async () => {
    const { workspaceId } = await workspace(5);
    const client = await service.services.db.pool.connect();
    const synchronousCommit = async () => (await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
    try {
      // In one transaction, so that a setting the functions made for their own commit would still show.
      await client.query('BEGIN');
      const seen = [await synchronousCommit()];
      const reserve = `SELECT request_id FROM ai_reserve($1::uuid, 'caption', 1, 4, 60000)`;
      const charged = (await client.query(reserve, [workspaceId])).rows[0].request_id;
      seen.push(await synchronousCommit());
      await client.query('SELECT ai_settle($1::uuid)', [charged]);
      seen.push(await synchronousCommit());
      await client.query('SELECT ai_release($1::uuid)', [(await client.query(reserve, [workspaceId])).rows[0].request_id]);
      seen.push(await synchronousCommit());
      await client.query('ROLLBACK');
      expect(seen).toEqual(['on', 'on', 'on', 'on']);
    } finally {
      client.release();
    }
  });

  it('are renewed in full at the start of a calendar month (UTC)', async () => {
    const { api, workspaceId } = await workspace(5);
    await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect(await remaining(api)).toBe(4);
    await service.services.db.pool.query(`UPDATE workspace SET ai_credits_period = date_trunc('month', now() - interval '1 month', 'UTC') WHERE id = $1`, [
      workspaceId,
    ]);
    expect(await remaining(api)).toBe(5);
    const { body } = await api('POST', '/ai/captions', { action: 'rewrite', caption: 'Hi' });
    expect(body.data.creditsRemaining).toBe(4);
  });

  it('emit ai.credits_low once, when a charge leaves less than 10 % of the month’s', async () => {
    const { api, workspaceId } = await workspace(20);
    const lowEvents = async () =>
      (await service.services.db.pool.query(`SELECT data FROM outbox_event WHERE workspace_id = $1 AND type = 'ai.credits_low'`, [workspaceId])).rows;
    for (let spent = 0; spent < 18; spent++) await api('POST', '/ai/captions', { action: 'hashtags', caption: 'Sun and sea' });
    expect(await remaining(api)).toBe(2);
    expect(await lowEvents()).toEqual([]);
    await api('POST', '/ai/captions', { action: 'hashtags', caption: 'Sun and sea' });
    await api('POST', '/ai/captions', { action: 'hashtags', caption: 'Sun and sea' });
    const events = await lowEvents();
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ type: 'AiCreditsLow', remaining: 1, monthly: 20, threshold: 2 });
  });
});

describe('GraphQL, for the dashboard', () => {
  const graphql = async (ownerKey: string, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return response.json() as Promise<{ data?: any; errors?: { extensions: { code: string } }[] }>;
  };

  it('has the ai status and the caption mutation, with the same credits and error codes', async () => {
    const { ownerKey, api } = await workspace(1);
    const status = await graphql(ownerKey, '{ ai { available provider credits { remaining monthly } costs { altText image } } }');
    expect(status.data.ai).toEqual({ available: true, provider: 'openai', credits: { remaining: 1, monthly: 1 }, costs: { altText: 2, image: 10 } });
    const mutation =
      'mutation($caption: String!) { suggestCaptions(action: HASHTAGS, caption: $caption, provider: INSTAGRAM, count: 2) { suggestions creditsUsed creditsRemaining } }';
    standIn.reply = () => ({ suggestions: ['#one', '#two', '#three'] });
    const first = await graphql(ownerKey, mutation, { caption: 'Hi' });
    expect(first.data.suggestCaptions).toEqual({ suggestions: ['#one', '#two'], creditsUsed: 1, creditsRemaining: 0 });
    const second = await graphql(ownerKey, mutation, { caption: 'Hi' });
    expect(second.errors?.[0]?.extensions.code).toBe('AI_LIMIT_REACHED');
    expect(await remaining(api)).toBe(0);
  });
});
