// Section `startup`: how long each entry point takes to be of use, on an existing database, run from the compiled
// output (dist/, what `sps`, `sps mcp` and `npm start` run) beside the same sources compiled on the fly by tsx (how
// they all ran before): `sps --help` (target <= 1 s), MCP over stdio answering `initialize` (<= 3 s; the MCP
// Inspector gives up after 15 s) and the server answering GET /readyz (<= 5 s). The two alternate, three runs each.
// Beside the wall time, the CPU time the process had used by then (user + system, from /proc): on a loaded machine
// the wall time measures the queue for the cores, the CPU time what the start itself costs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../src/net.ts';
import { requireCurrentBuild } from '../test/support/compiledOutput.ts';
import { benchRuntime, benchWorkspace, repoRoot, spawnScript, type Bench } from './support.ts';

const runs = 3;

type Env = Record<string, string>;

interface EntryPoint {
  label: string;
  targetSeconds: number;
  compiled: string[];
  onTheFly: string[];
  /** From spawning `node <args>` until it is of use. */
  time(args: string[], env: Env): Promise<Timing>;
}

/** Milliseconds of wall time, and of CPU time the process used. */
interface Timing {
  wall: number;
  cpu: number;
}

/** CPU time (user + system, ms) from a /proc/<pid>/stat: its own (fields 14, 15) or its reaped children's (16, 17). */
function cpuMs(stat: string, of: 'self' | 'children'): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, system] = of === 'self' ? [fields[11], fields[12]] : [fields[13], fields[14]];
  // Clock ticks: 100 per second on Linux.
  return (Number(user) + Number(system)) * 10;
}
const cpuOf = (pid: number) => cpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'), 'self');
const reapedChildrenCpu = () => cpuMs(readFileSync('/proc/self/stat', 'utf8'), 'children');

/** Until the process ends, successfully. */
async function timeToExit(args: string[], env: Env): Promise<Timing> {
  const cpuBefore = reapedChildrenCpu();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'ignore' });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return { wall: performance.now() - started, cpu: reapedChildrenCpu() - cpuBefore };
}

/** Until its answer to `initialize` arrives on stdout, as an MCP client waits for it. */
async function timeToInitialize(args: string[], env: Env): Promise<Timing> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = once(child, 'exit');
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  };
  child.stdin!.write(`${JSON.stringify(initialize)}\n`);
  try {
    for await (const line of createInterface({ input: child.stdout! })) {
      if ((JSON.parse(line) as { id?: number }).id === 1) return { wall: performance.now() - started, cpu: cpuOf(child.pid!) };
    }
    throw new Error(`node ${args.join(' ')} ended without answering initialize`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Until GET /readyz answers 200 (polled every 20 ms). */
async function timeToReady([script]: string[], env: Env): Promise<Timing> {
  const port = await freePort();
  const started = performance.now();
  const server = spawnScript(script!, { env: { ...env, HOST: '127.0.0.1', PORT: String(port) } });
  try {
    for (;;) {
      if (
        await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (res) => res.ok,
          () => false,
        )
      )
        return { wall: performance.now() - started, cpu: cpuOf(server.child.pid!) };
      if (!server.running()) throw new Error(`${script} exited before it was ready`);
      await sleep(20);
    }
  } finally {
    await server.stop();
  }
}

const entryPoints: EntryPoint[] = [
  { label: 'sps --help', targetSeconds: 1, compiled: ['bin/sps.js', '--help'], onTheFly: ['--import', 'tsx', 'bin/cli.ts', '--help'], time: timeToExit },
  {
    label: 'sps mcp (stdio): initialize answered',
    targetSeconds: 3,
    compiled: ['bin/sps.js', 'mcp'],
    onTheFly: ['--import', 'tsx', 'bin/mcp.ts'],
    time: timeToInitialize,
  },
  { label: 'npm start: GET /readyz answered', targetSeconds: 5, compiled: ['dist/bin/server.js'], onTheFly: ['bin/server.ts'], time: timeToReady },
];

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

const median = (times: number[]) => times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)]!;
const range = (times: number[]) => `${seconds(median(times))} s (${seconds(Math.min(...times))}–${seconds(Math.max(...times))})`;
const summary = (timings: Timing[]) => `${range(timings.map((t) => t.wall)).padEnd(22)} CPU ${range(timings.map((t) => t.cpu))}`;

export async function startup(bench: Bench): Promise<void> {
  requireCurrentBuild();
  const runtime = await benchRuntime(bench.serviceEnv);
  let apiKey: string;
  try {
    ({ apiKey } = await benchWorkspace(runtime.services, 'startup'));
  } finally {
    await runtime.stop();
  }
  const env = { ...bench.serviceEnv, SPS_API_KEY: apiKey };
  console.log(`median (range) of ${runs} runs; load average before: ${load()}`);
  for (const entry of entryPoints) {
    const compiled: Timing[] = [];
    const onTheFly: Timing[] = [];
    for (let run = 0; run < runs; run++) {
      compiled.push(await entry.time(entry.compiled, env));
      onTheFly.push(await entry.time(entry.onTheFly, env));
    }
    const met = median(compiled.map((t) => t.wall)) <= entry.targetSeconds * 1000;
    console.log(`${entry.label} (target <= ${entry.targetSeconds} s: ${met ? 'met' : 'NOT met'})`);
    console.log(`  compiled  ${summary(compiled)}`);
    console.log(`  tsx       ${summary(onTheFly)}`);
  }
  console.log(`load average after: ${load()}`);
}
