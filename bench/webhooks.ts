// Section `webhooks`: deliveries from the real server process to receivers on this machine.
//  1. Delay from an event to its first delivery attempt at healthy endpoints, while one endpoint answers after 9 s
//     (after a second of warm-up).
//  2. Throughput: a burst of events fanned out to several healthy endpoints, deliveries per second.
import { createServer, type Server } from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { viaPool, type NewEvent } from '../src/events/outbox.ts';
import { benchRuntime, benchWorkspace, startChildServer, type Bench } from './support.ts';

interface Arrival {
  eventId: string;
  createdAt: number;
  at: number;
}

async function receiver(delayMs: number): Promise<{ url: string; arrivals: Arrival[]; server: Server }> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const envelope = JSON.parse(body) as { id: string; createdAt: string };
      arrivals.push({ eventId: envelope.id, createdAt: Date.parse(envelope.createdAt), at: Date.now() });
      setTimeout(() => res.end('ok'), delayMs);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, arrivals, server };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function waitUntil(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await sleep(50);
}

export async function webhooks(bench: Bench): Promise<void> {
  const env = { ...bench.serviceEnv, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '100000000' };
  const runtime = await benchRuntime(env);
  const server = await startChildServer('bin/server.ts', env);
  const receivers: Awaited<ReturnType<typeof receiver>>[] = [];
  try {
    const { services } = runtime;
    const { apiKey } = await benchWorkspace(services, 'hooks');
    const { actor } = await services.callers.resolve({ kind: 'apiKey', token: apiKey! });
    const addEndpoint = async (delayMs: number, events: string[]) => {
      const hook = await receiver(delayMs);
      receivers.push(hook);
      const response = await fetch(`${server.url}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: hook.url, events }),
      });
      if (response.status !== 201) throw new Error(`creating a webhook answered ${response.status}: ${await response.text()}`);
      return hook;
    };
    const emit = (type: NewEvent['type'], count: number) =>
      services.outbox.recordAll(
        viaPool(services.db.pool),
        Array.from({ length: count }, (_, i) => ({ workspaceId: actor.workspaceId, type, data: { postId: crypto.randomUUID(), n: i } })),
      );

    // 1. Latency with a slow endpoint (9 s per answer) subscribed to the same events.
    const slow = await addEndpoint(Number(process.env.BENCH_SLOW_MS ?? 9000), ['post.deleted']);
    const healthy = await Promise.all(Array.from({ length: 5 }, () => addEndpoint(0, ['post.deleted'])));
    const paced = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await emit('post.deleted', 1);
        await sleep(50);
      }
    };
    // A second of warm-up, as the HTTP sections have: the first deliveries to new endpoints (connections opened,
    // code compiled) are far slower than the rest, and are reported apart.
    const warmUp = 20;
    await paced(warmUp);
    await waitUntil(() => healthy.every((hook) => hook.arrivals.length >= warmUp), 30_000);
    const cold = healthy.flatMap((hook) => hook.arrivals.splice(0).map((arrival) => arrival.at - arrival.createdAt));
    console.log(`warm-up: ${warmUp} events at 20/s, first attempts max=${Math.max(...cold)} ms`);
    const events = 100;
    await paced(events);
    await waitUntil(() => healthy.every((hook) => hook.arrivals.length >= events), 30_000);
    const delays = healthy.flatMap((hook) => hook.arrivals.map((arrival) => arrival.at - arrival.createdAt)).sort((a, b) => a - b);
    console.log(`${events} events, 20/s, to 5 healthy endpoints and 1 answering after 9 s (${slow.arrivals.length} reached it so far)`);
    console.log(
      `delay from event to first attempt (healthy): p50=${percentile(delays, 50)} ms  p99=${percentile(delays, 99)} ms  max=${delays.at(-1)} ms  (${delays.length} deliveries; target p99 <= 100 ms)`,
    );

    // 2. Throughput: a burst fanned out to 10 healthy endpoints.
    const burstTargets = await Promise.all(Array.from({ length: 10 }, () => addEndpoint(0, ['connection.revoked'])));
    // Warmed as above: one event to each endpoint first.
    await emit('connection.revoked', 1);
    await waitUntil(() => burstTargets.every((hook) => hook.arrivals.length >= 1), 30_000);
    for (const hook of burstTargets) hook.arrivals.splice(0);
    const burst = 500;
    await emit('connection.revoked', burst);
    const expected = burst * burstTargets.length;
    await waitUntil(() => burstTargets.reduce((sum, hook) => sum + hook.arrivals.length, 0) >= expected, 120_000);
    const arrivals = burstTargets.flatMap((hook) => hook.arrivals).sort((a, b) => a.at - b.at);
    const seconds = ((arrivals.at(-1)?.at ?? 0) - (arrivals[0]?.createdAt ?? 0)) / 1000;
    console.log(
      `burst: ${burst} events x ${burstTargets.length} endpoints = ${arrivals.length}/${expected} deliveries in ${seconds.toFixed(2)} s from the events' time`,
    );
    console.log(`throughput: ${(arrivals.length / seconds).toFixed(0)} deliveries/s (target >= 1000); load average ${loadavg()[0]!.toFixed(2)}`);
  } finally {
    await server.stop();
    await runtime.stop();
    for (const hook of receivers) {
      hook.server.closeAllConnections();
      hook.server.close();
    }
  }
}
