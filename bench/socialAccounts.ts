// Section `social-accounts`: an authenticated GET /v1/social-accounts through the whole service (auth, rate limit
// counted in PostgreSQL, request log recorded), against bare node:http + pg running the same query.
// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the service process there.
import { isDeepStrictEqual } from 'node:util';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import { benchRuntime, benchWorkspace, figuresLine, loadShape, measure, startChildServer, type Bench, type ChildServer, type LoadFigures } from './support.ts';

const path = '/v1/social-accounts';
const accounts = 25;

/** A pro workspace with a full page of sandbox accounts, and its owner's API key. */
async function seed(bench: Bench): Promise<{ workspaceId: string; apiKey: string }> {
  const runtime = await benchRuntime(bench.serviceEnv);
  try {
    const { db, secrets, adapters, outbox } = runtime.services;
    const { workspaceId, apiKey } = await benchWorkspace(runtime.services, 'accounts', 'pro');
    for (let i = 0; i < accounts; i++) {
      await connectSocialAccount(db, secrets, adapters, outbox, { workspaceId, provider: 'sandbox', username: `bench-${i}` });
    }
    return { workspaceId, apiKey };
  } finally {
    await runtime.stop();
  }
}

async function fetchPage(server: ChildServer, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { headers });
  if (res.status !== 200) throw new Error(`${server.url}${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Starts the server, checks one response, loads it, stops it. */
async function loadServer(script: string, env: Record<string, string>, headers: Record<string, string>, nodeArgs: string[] = []) {
  const server = await startChildServer(script, env, nodeArgs);
  try {
    const page = await fetchPage(server, headers);
    const figures: LoadFigures = await measure(`${server.url}${path}`, headers);
    return { page, figures };
  } finally {
    await server.stop();
  }
}

export async function socialAccounts(bench: Bench): Promise<void> {
  const { workspaceId, apiKey } = await seed(bench);
  const headers = { authorization: `Bearer ${apiKey}` };
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  console.log(`${accounts} accounts per page, ${loadShape.connections} connections, ${loadShape.warmupSeconds} s warm-up, ${loadShape.seconds} s measured`);

  const service = await loadServer('bin/server.ts', { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000' }, headers, profile);
  console.log(figuresLine(`GET ${path} (auth + rate limit + request log)`, service.figures));
  const bare = await loadServer('bench/bareServer.ts', { DATABASE_URL: bench.databaseUrl, WORKSPACE_ID: workspaceId }, headers);
  console.log(figuresLine('bare node:http + pg (same query)', bare.figures));

  console.log(`ratio service/bare = ${(service.figures.rps / bare.figures.rps).toFixed(2)} (target >= 0.50)`);
  console.log(`service non-2xx responses: ${service.figures.non2xx}, connection errors: ${service.figures.errors}`);
  if (service.figures.non2xx || service.figures.errors)
    console.log('WARNING: the service did not answer every request with 2xx; its figures are not comparable');
  const page = service.page as { data?: unknown[] };
  if (page.data?.length !== accounts) console.log(`WARNING: the service listed ${page.data?.length ?? 0} accounts, not ${accounts}`);
  if (!isDeepStrictEqual(service.page, bare.page)) console.log('WARNING: the bare server and the service answered different bodies');
}
