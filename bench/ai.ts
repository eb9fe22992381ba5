// Section `ai`: what the service adds to an AI call. 20 concurrent callers ask for caption rewrites through the
// service (auth, rate limit, validation, credit reservation and charge, in-flight cap, request log) and, in
// the same run, straight from the same local OpenAI-compatible stand-in (test/support/openaiServer.ts in a process
// of its own, bench/openaiStandIn.ts), which answers after a fixed delay like a fast model. Overhead = service
// latency - direct latency, at p50 and p99.
import { setPlan } from '../src/workspaces/workspaces.ts';
import { benchRuntime, benchWorkspace, figuresLine, loadShape, measure, startChildServer, startScriptService, type Bench } from './support.ts';

const callers = 20;
const modelDelayMs = 100;

export async function ai(bench: Bench): Promise<void> {
  const runtime = await benchRuntime(bench.serviceEnv);
  let workspace: { workspaceId: string; apiKey: string };
  try {
    workspace = await benchWorkspace(runtime.services, 'ai', 'business');
    await setPlan(runtime.services.db, { workspaceId: workspace.workspaceId, plan: 'business', aiCredits: 100_000_000 });
  } finally {
    await runtime.stop();
  }
  const standIn = await startScriptService<{ baseUrl: string }>('bench/openaiStandIn.ts', { STAND_IN_DELAY_MS: String(modelDelayMs) });
  const server = await startChildServer('bin/server.ts', {
    ...bench.serviceEnv,
    RATE_LIMIT_PER_MINUTE: '100000000',
    AI_PROVIDER: 'openai',
    AI_BASE_URL: standIn.baseUrl,
    AI_MAX_CONCURRENT: String(callers * 2),
  });
  let service: Awaited<ReturnType<typeof measure>>;
  try {
    console.log(
      `${callers} concurrent callers, stand-in model answering after ${modelDelayMs} ms, ${loadShape.warmupSeconds} s warm-up, ${loadShape.seconds} s measured`,
    );
    const json = { 'content-type': 'application/json' };
    const caption = JSON.stringify({ action: 'rewrite', caption: 'Our new shop opens on Monday, come by! #opening', tone: 'friendly' });
    const probe = await fetch(`${server.url}/v1/ai/captions`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${workspace.apiKey}` },
      body: caption,
    });
    if (probe.status !== 200) throw new Error(`POST /v1/ai/captions answered ${probe.status}: ${await probe.text()}`);
    const direct = await measure(`${standIn.baseUrl}/chat/completions`, json, {
      method: 'POST',
      connections: callers,
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Rewrite this caption.' },
          { role: 'user', content: 'Our new shop opens on Monday' },
        ],
      }),
    });
    service = await measure(
      `${server.url}/v1/ai/captions`,
      { ...json, authorization: `Bearer ${workspace.apiKey}` },
      { method: 'POST', connections: callers, body: caption },
    );
    console.log(figuresLine('POST /v1/ai/captions through the service', service));
    console.log(figuresLine('the same stand-in called directly', direct));
    const overhead = { p50: service.p50 - direct.p50, p99: service.p99 - direct.p99 };
    console.log(`overhead per AI call: p50 ${overhead.p50.toFixed(1)} ms, p99 ${overhead.p99.toFixed(1)} ms`);
    if (service.non2xx || service.errors) console.log(`WARNING: the service answered ${service.non2xx} non-2xx and had ${service.errors} connection errors`);
  } finally {
    await server.stop();
    await standIn.stop();
  }
  // Each call the model answered is charged before it is answered: those answered (the probe too), and the calls
  // under way when the callers stopped listening, at most one per caller.
  const check = await benchRuntime(bench.serviceEnv);
  try {
    const { rows } = await check.services.db.pool.query<{ charged: number }>(
      'SELECT 100000000 - ai_credits_remaining AS charged FROM workspace WHERE id = $1',
      [workspace.workspaceId],
    );
    const answered = service.answered + 1;
    const { charged } = rows[0]!;
    const expected = charged >= answered && charged <= answered + callers;
    console.log(`credits charged: ${charged} for ${answered} answered calls and up to ${callers} cut off at the end${expected ? '' : ' (WRONG)'}`);
  } finally {
    await check.stop();
  }
}
