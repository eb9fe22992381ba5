// Section `graph`: the dashboard's post list as one GraphQL query (30 posts with their targets, the targets'
// accounts and the posts' media) against the REST calls that fetch the same (the posts page, the accounts and the
// media library, sent at once as a browser would), through the real server process. Each "load" is one dashboard
// fetch; the same closed loop drives both, so the figures compare. BENCH_CPU_PROF=<dir> profiles the server.
import { readFile } from 'node:fs/promises';
import { createPost } from '../src/posts/posts.ts';
import { connectSocialAccount } from '../src/accounts/socialAccounts.ts';
import type { Actor } from '../src/access/actor.ts';
import { scopes } from '../src/access/scopes.ts';
import { benchRuntime, benchWorkspace, figuresLine, loadShape, startChildServer, type Bench, type LoadFigures } from './support.ts';

const posts = 30;
const accounts = 10;
const filesPerPost = 2;

const dashboardQuery = `query Dashboard($first: Int!) {
  posts(first: $first) { edges { node {
    id status content { caption mediaIds } scheduledAt
    targets { id status placement remoteUrl account { id provider username displayName avatarUrl } }
    media { id filename type width height altText thumbnailUrl }
  } } }
}`;

/** A business workspace with 30 posts, each going to 2 of 10 sandbox accounts with 2 ready images. */
async function seed(bench: Bench): Promise<string> {
  const runtime = await benchRuntime(bench.serviceEnv);
  try {
    const { db, secrets, adapters, outbox } = runtime.services;
    const { workspaceId, apiKey } = await benchWorkspace(runtime.services, 'graph');
    const owner = await db.prisma.membership.findFirstOrThrow({ where: { workspaceId } });
    const actor: Actor = {
      workspaceId,
      userId: owner.userId,
      role: 'owner',
      apiKeyId: null,
      grantedScopes: new Set(scopes),
      plan: { plan: 'business', planExpiresAt: null },
    };
    const connectionIds: string[] = [];
    for (let i = 0; i < accounts; i++) {
      connectionIds.push(
        (await connectSocialAccount(db, secrets, adapters, outbox, { workspaceId, provider: 'sandbox', username: `graph-${i}` })).connectionId,
      );
    }
    // Files as processing leaves them (the bench runs no jobs): ready images.
    const files = await db.prisma.media.createManyAndReturn({
      data: Array.from({ length: posts * filesPerPost }, (_, i) => ({
        workspaceId,
        createdById: owner.userId,
        status: 'ready',
        type: 'image',
        filename: `photo-${i}.png`,
        declaredType: 'image/png',
        mimeType: 'image/png',
        format: 'png',
        size: 200_000n,
        width: 1080,
        height: 1080,
        altText: `Photo ${i}`,
        uploadExpiresAt: new Date(),
      })),
    });
    for (let i = 0; i < posts; i++) {
      await createPost(db, actor, {
        content: { caption: `Dashboard post ${i}`, mediaIds: files.slice(i * filesPerPost, (i + 1) * filesPerPost).map((file) => file.id) },
        targets: [0, 1].map((k) => ({ connectionId: connectionIds[(i + k) % accounts]!, placement: 'feed' })),
      });
    }
    return apiKey;
  } finally {
    await runtime.stop();
  }
}

/** CPU time the process has used, in ms (utime + stime from /proc, in clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * `loadShape.connections` callers, each starting its next load when the last one answered; latency per load, and
 * the server's CPU time per load (which other work on the machine does not inflate as it does latency).
 */
async function closedLoop(pid: number, load: () => Promise<void>): Promise<LoadFigures & { cpuMsPerLoad: number }> {
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: loadShape.connections }, async () => {
        while (performance.now() < until) {
          const began = performance.now();
          await load();
          latencies.push(performance.now() - began);
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  };
  await run(loadShape.warmupSeconds);
  const cpuBefore = await cpuMs(pid);
  const latencies = await run(loadShape.seconds);
  const cpuMsPerLoad = ((await cpuMs(pid)) - cpuBefore) / latencies.length;
  const at = (fraction: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]!;
  return { rps: latencies.length / loadShape.seconds, p50: at(0.5), p99: at(0.99), non2xx: 0, errors: 0, cpuMsPerLoad };
}

async function json(response: Response): Promise<any> {
  if (response.status !== 200) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

export async function graph(bench: Bench): Promise<void> {
  const apiKey = await seed(bench);
  const headers = { authorization: `Bearer ${apiKey}` };
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const server = await startChildServer('bin/server.ts', { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000' }, profile);
  try {
    const graphLoad = async () => {
      const body = await json(
        await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
          body: JSON.stringify({ query: dashboardQuery, variables: { first: posts } }),
        }),
      );
      if (body.errors) throw new Error(`the graph answered errors: ${JSON.stringify(body.errors)}`);
      return body.data.posts.edges.map((edge: { node: { id: string } }) => edge.node.id) as string[];
    };
    const restLoad = async () => {
      const [page] = await Promise.all(
        [`/v1/posts?limit=${posts}`, '/v1/social-accounts?limit=100', '/v1/media?limit=100'].map(async (path) =>
          json(await fetch(`${server.url}${path}`, { headers })),
        ),
      );
      return (page.data as { id: string }[]).map((post) => post.id);
    };
    const [viaGraph, viaRest] = [await graphLoad(), await restLoad()];
    if (viaGraph.length !== posts || viaGraph.join() !== viaRest.join()) throw new Error('the graph and REST listed different posts');

    console.log(
      `${posts} posts × 2 targets (10 accounts) × ${filesPerPost} images, ${loadShape.connections} callers, ${loadShape.warmupSeconds} s warm-up, ${loadShape.seconds} s measured`,
    );
    const graphFigures = await closedLoop(server.pid, async () => void (await graphLoad()));
    console.log(`${figuresLine('POST /graphql dashboard query (one request)', graphFigures)}  server CPU ${graphFigures.cpuMsPerLoad.toFixed(1)} ms/load`);
    const restFigures = await closedLoop(server.pid, async () => void (await restLoad()));
    console.log(
      `${figuresLine('REST: GET posts + social-accounts + media (at once)', restFigures)}  server CPU ${restFigures.cpuMsPerLoad.toFixed(1)} ms/load`,
    );
    console.log(
      `ratio graph/REST = ${(graphFigures.rps / restFigures.rps).toFixed(2)} loads/s (target >= 1.00), p99 ${graphFigures.p99.toFixed(1)} ms vs ${restFigures.p99.toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
  }
}
