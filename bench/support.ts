// What every bench section shares: the database, child server processes, and the load generator.
import { freePort } from '../src/net.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../src/db/server.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { startRuntime, type Services } from '../src/runtime.ts';
import { setupWorkspace } from '../src/workspaces/workspaces.ts';
import type { PlanName } from '../src/workspaces/plans.ts';

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** Handed to every section: a migrated database and the env every service process of the run shares. */
export interface Bench {
  databaseUrl: string;
  /** DATABASE_URL, a run-wide ENCRYPTION_KEY (so nothing is written under .data) and LOG_LEVEL=silent. */
  serviceEnv: Record<string, string>;
}

export type Section = (bench: Bench) => Promise<void>;

/** DATABASE_URL when set, else an embedded PostgreSQL in a fresh temporary folder, removed by stop(). */
export async function openBench(): Promise<Bench & { stop(): Promise<void> }> {
  let databaseUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!databaseUrl) {
    const dataDir = await mkdtemp(join(tmpdir(), 'sps-bench-'));
    const server = await startEmbeddedPostgres(dataDir);
    databaseUrl = server.url;
    stop = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  try {
    await applyMigrations(databaseUrl);
  } catch (error) {
    await stop();
    throw error;
  }
  const serviceEnv = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' };
  return { databaseUrl, serviceEnv, stop };
}

export interface ChildServer {
  url: string;
  pid: number;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/** A `node <script>` child (relative to the repo root; TypeScript through tsx), never left behind by this process. */
export interface ChildProcessHandle {
  child: ChildProcess;
  running(): boolean;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

export function spawnScript(
  script: string,
  options: { env?: Record<string, string>; nodeArgs?: string[]; stdout?: 'inherit' | 'pipe' } = {},
): ChildProcessHandle {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, script], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit'],
  });
  // Should this process die first (an uncaught error), the child is not left behind.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => {
    running = false;
    process.removeListener('exit', orphaned);
  });
  return {
    child,
    running: () => running,
    async stop() {
      if (running) child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** A script (bench/s3Server.ts, bench/openaiStandIn.ts) that serves in a child process, once it printed its settings as one JSON line. */
export async function startScriptService<Settings>(script: string, env: Record<string, string> = {}): Promise<Settings & { stop(): Promise<void> }> {
  const { child, stop } = spawnScript(script, { env, stdout: 'pipe' });
  const exited = once(child, 'exit').then(() => [null]);
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), exited])) as [string | null];
  if (line === null) throw new Error(`${script} exited before it served`);
  return { ...(JSON.parse(line) as Settings), stop };
}

/** Runs `<script>` (relative to the repo root, see spawnScript) on a free port; resolves once /healthz answers 200. */
export async function startChildServer(script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<ChildServer> {
  const port = await freePort();
  const { child, running, stop } = spawnScript(script, { env: { ...env, HOST: '127.0.0.1', PORT: String(port) }, nodeArgs });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const healthy = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return { url, pid: child.pid!, stop };
    if (!running() || Date.now() > deadline) {
      await stop();
      throw new Error(`${script} did not answer ${url}/healthz (${running() ? 'timed out' : `exited with ${child.exitCode ?? child.signalCode}`})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// autocannon ships no types (and @types/autocannon is not a dependency): the little used here, typed by hand.
/** An autocannon run: a promise of its end that reports each answer as it comes. */
interface AutocannonRun extends PromiseLike<unknown> {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, milliseconds: number) => void): this;
  on(event: 'reqError', listener: (error: Error) => void): this;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  pipelining: number;
  duration: number;
  headers: Record<string, string>;
  method?: string;
  body?: string;
}) => AutocannonRun;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
}

/** Enough connections to saturate a 2-core machine; one request in flight per connection. */
export const loadShape = { connections: 32, pipelining: 1, warmupSeconds: 2, seconds: 10 };

/** The value below which `share` (0..1) of the sorted values lie. */
function percentile(sorted: number[], share: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]! : Number.NaN;
}

/**
 * `connections` callers at once (GET, unless a request says otherwise) for a warm-up, whose answers are discarded,
 * then the measured seconds on the same connections: the figures are the warm server's, not those of callers all
 * opening connections and sending their first request in the same instant.
 */
export async function measure(
  url: string,
  headers: Record<string, string>,
  request: { method?: string; body?: string; connections?: number } = {},
): Promise<LoadFigures & { /** 2xx answers of the whole run, warm-up included. */ answered: number }> {
  const { connections = loadShape.connections, ...methodAndBody } = request;
  const run = autocannon({
    url,
    headers,
    ...methodAndBody,
    connections,
    pipelining: loadShape.pipelining,
    duration: loadShape.warmupSeconds + loadShape.seconds,
  });
  const latencies: number[] = [];
  let measuredFrom: number | null = null;
  let non2xx = 0;
  let errors = 0;
  let answered = 0;
  const warmedUp = setTimeout(() => (measuredFrom = performance.now()), loadShape.warmupSeconds * 1000);
  run.on('response', (_client, statusCode, _bytes, milliseconds) => {
    if (statusCode >= 200 && statusCode <= 299) answered++;
    if (measuredFrom === null) return;
    latencies.push(milliseconds);
    if (statusCode < 200 || statusCode > 299) non2xx++;
  });
  run.on('reqError', () => {
    if (measuredFrom !== null) errors++;
  });
  await run;
  clearTimeout(warmedUp);
  const seconds = (performance.now() - (measuredFrom ?? performance.now())) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), non2xx, errors, answered };
}

export function figuresLine(label: string, figures: LoadFigures, labelWidth = 58): string {
  return `${label.padEnd(labelWidth)} rps=${figures.rps.toFixed(0).padStart(6)}  p50=${figures.p50.toFixed(1).padStart(6)} ms  p99=${figures.p99.toFixed(1).padStart(6)} ms`;
}

/** The service's domain in the bench process, for setting up data (its jobs run in the server under test). */
export function benchRuntime(env: Record<string, string>) {
  return startRuntime(loadConfig(env), createLogger('silent'), { migrate: false, work: false });
}

/** A workspace of its own for a section, with its owner's API key. */
export async function benchWorkspace(services: Services, label: string, plan: PlanName = 'business'): Promise<{ workspaceId: string; apiKey: string }> {
  const run = `${label}-${process.pid}-${Date.now()}`;
  const { workspaceId, apiKey } = await setupWorkspace(services.db, { name: `bench-${run}`, email: `bench-${run}@example.test`, plan });
  if (!apiKey) throw new Error(`the ${plan} plan has API access`);
  return { workspaceId, apiKey };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc; 0 for one that is gone. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return 0;
  // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}
/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const clockTicksPerSecond = 100;

/** Resident memory of a process, from /proc. */
export async function rssBytes(pid: number): Promise<number> {
  return Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}
