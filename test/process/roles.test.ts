// Process roles on one database: an API process (SPS_ROLE=api) serves requests and runs no job; a worker
// (SPS_ROLE=worker) runs them and answers only its probes and /metrics. Both serve /metrics behind METRICS_TOKEN,
// and the worker's log lines about a job name the request that started it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';

const metricsToken = 'scrape-secret-0123456789';
let env: Record<string, string>;
let apiKey: string;
let connectionId: string;
const running: ServerProcess[] = [];

async function start(role: 'api' | 'worker') {
  const server = await startServerProcess({ ...env, SPS_ROLE: role });
  running.push(server);
  return server;
}

const scrape = (server: ServerProcess, token?: string) => fetch(`${server.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The value of one sample in Prometheus text, e.g. `sps_queue_jobs{queue="publish-target",state="ready"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  env = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'), METRICS_TOKEN: metricsToken, RATE_LIMIT_PER_MINUTE: '100000' };
  const setup = JSON.parse((await runCli(['setup', '--workspace', 'Roles', '--email', 'roles@example.test', '--json'], env)).stdout);
  apiKey = setup.apiKey;
  const connected = await runCli(['accounts', 'connect', '--workspace', setup.workspaceId, '--provider', 'sandbox', '--username', 'roles', '--json'], env);
  connectionId = JSON.parse(connected.stdout).connectionId;
});
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await Promise.all(running.map((server) => server.exited));
});

describe('API and worker processes', () => {
  it('split the work: the API enqueues, the worker publishes, and its log names the request', { timeout: 120_000 }, async () => {
    const apiProcess = await start('api');
    const api = apiFor(apiProcess.url, apiKey);
    const post = (await api('POST', '/posts', { content: { caption: 'Roles' }, targets: [{ connectionId, placement: 'feed' }] })).body.data;
    const requestId = 'roles-publish-request-1';
    expect((await api('POST', `/posts/${post.id}/publish`, undefined, { 'x-request-id': requestId })).status).toBe(202);

    // No process works the queue yet: the job waits, and both processes' metrics would say so.
    const before = await (await scrape(apiProcess, metricsToken)).text();
    expect(sample(before, 'sps_queue_jobs{queue="publish-target",state="ready"}')).toBe(1);
    expect(sample(before, 'sps_http_request_duration_seconds_count{method="POST",route="/v1/posts/{id}/publish",status="202"}')).toBe(1);
    expect(sample(before, 'sps_db_pool_connections{pool="database",state="max"}')).toBe(20);

    const worker = await start('worker');
    expect((await waitForPost(api, post.id, ['published'], 60_000)).status).toBe('published');
    const logged = worker
      .output()
      .split('\n')
      .filter((line) => line.includes('"target published"'))
      .map((line) => JSON.parse(line));
    expect(logged).toEqual([expect.objectContaining({ postId: post.id, requestId })]);

    const after = await (await scrape(worker, metricsToken)).text();
    expect(sample(after, 'sps_queue_jobs{queue="publish-target",state="ready"}')).toBe(0);
    expect(sample(after, 'sps_db_pool_connections{pool="database",state="max"}')).toBe(10);
    // The API process itself published nothing.
    expect(apiProcess.output()).not.toContain('"target published"');

    // A worker serves its probes, not the API.
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);
    const notServed = await fetch(`${worker.url}/v1/posts`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(notServed.status).toBe(404);
    expect((await notServed.json()).error.code).toBe('NOT_FOUND');
  });

  it('guards /metrics with METRICS_TOKEN, answering in the error shape', async () => {
    const [server] = running;
    const refused = await scrape(server!);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatchObject({ code: 'UNAUTHENTICATED', requestId: refused.headers.get('x-request-id') });
    expect((await scrape(server!, 'wrong-token')).status).toBe(401);
    const served = await scrape(server!, metricsToken);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
