// Running the real entry points as child processes, the way an operator does: compiled, as `npm start` and `sps`
// run them (dist/, which the process tier's globalSetup test/support/currentBuild.ts brings up to date: starting on
// plain JavaScript takes a second or more less than through tsx).
// When a test fails, the logs of every child its file started are printed (the processes' own errors are
// otherwise invisible: a test sees only the answers).
import { afterAll, beforeEach } from 'vitest';
import { freePort } from '../../src/net.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** What a child wrote to stdout and stderr, interleaved, keeping the last `limit` characters. */
class ChildOutput {
  private text = '';
  dropped = 0;

  constructor(private readonly limit: number) {}

  append(chunk: Buffer | string): void {
    this.text += chunk;
    if (this.text.length > this.limit) {
      this.dropped += this.text.length - this.limit;
      this.text = this.text.slice(-this.limit);
    }
  }

  toString(): string {
    return this.text;
  }
}

/** Kept per child: enough for a test to look for its lines; a failure prints the end of it. */
const outputLimit = 1 << 20;
const printedLimit = 20_000;

/** The children started by this test file (each file has its own module instance). */
const children: { label: string; child: ChildProcess; output: ChildOutput }[] = [];

function spawnRecorded(args: string[], options: { env: Record<string, string | undefined>; detached?: boolean }): { child: ChildProcess; output: ChildOutput } {
  const child = spawn(process.execPath, args, { cwd: projectRoot, detached: options.detached ?? false, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new ChildOutput(outputLimit);
  child.stdout!.on('data', (chunk) => output.append(chunk));
  child.stderr!.on('data', (chunk) => output.append(chunk));
  const role = options.env.SPS_ROLE ? ` SPS_ROLE=${options.env.SPS_ROLE}` : '';
  const command = args.filter((arg) => arg !== '--import' && arg !== 'tsx').join(' ');
  children.push({ label: `${command}${role} (pid ${child.pid})`, child, output });
  return { child, output };
}

function printChildLogs(): void {
  for (const { label, child, output } of children) {
    const ended = child.exitCode !== null || child.signalCode !== null ? `, ended: ${child.exitCode ?? child.signalCode}` : '';
    const text = output.toString();
    const omitted = output.dropped + Math.max(0, text.length - printedLimit);
    console.error(`--- output of ${label}${ended}${omitted ? `, first ${omitted} characters left out` : ''} ---\n${text.slice(-printedLimit)}`);
  }
}

beforeEach(({ onTestFailed }) => onTestFailed(printChildLogs));
// A failing beforeAll fails the file's suite without running a test.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads fixtures from the first argument and requires a destructuring pattern there.
afterAll(({}, suite) => {
  if (suite.result?.state === 'fail' && !suite.tasks.some((task) => task.result?.state === 'fail')) printChildLogs();
});

/** A data folder of its own, so no test writes into the project's ./.data. */
export const scratchDataDir = () => mkdtempSync(join(tmpdir(), 'sps-process-'));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** `detached`: the server leads a process group of its own, as under a terminal (signal it with `process.kill(-pid)`). */
export async function startServerProcess(env: Record<string, string>, options: { detached?: boolean } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const { child, output } = spawnRecorded(['dist/bin/server.js'], {
    detached: options.detached,
    // A worker process (SPS_ROLE=worker) answers its probes on WORKER_PORT: the same free port.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      WORKER_PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: scratchDataDir(),
      ...env,
    },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Up to two minutes: a first start initialises the embedded cluster, and on a loaded 2-core machine five
  // processes starting at once took over a minute.
  // Only this child's word counts: another test's process may take the free port between its choice and this bind,
  // and would answer /readyz (and then 404 every id of this test's database) while this one fails to listen. The
  // child says it listens at level info; one started quieter (the soak test's warn) is taken at its /readyz word.
  let listening = ['warn', 'error', 'fatal', 'silent'].includes(env.LOG_LEVEL ?? 'info');
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    listening ||= output.toString().includes(`listening on http://localhost:${port}"`);
    const ready =
      listening &&
      (await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ));
    if (ready) return { url, child, output: () => output.toString(), exited };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

export function runCli(args: string[], env: Record<string, string>) {
  return runNode(['bin/sps.js', ...args], env);
}

/** Runs `node <args>` in the project until it exits, with a data folder of its own unless `env` names one. */
export function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { child } = spawnRecorded(args, { env: { ...process.env, DATA_DIR: scratchDataDir(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The server processes a test file starts; `killAll` (in afterAll) ends whichever still run. */
export class ServerProcesses {
  private readonly running: ServerProcess[] = [];

  async start(env: Record<string, string>): Promise<ServerProcess> {
    const server = await startServerProcess(env);
    this.running.push(server);
    return server;
  }

  /** Sends `signal` and waits for the process to end. */
  async stop(server: ServerProcess, signal: NodeJS.Signals): Promise<void> {
    server.child.kill(signal);
    await server.exited;
  }

  async killAll(): Promise<void> {
    for (const server of this.running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await Promise.all(this.running.map((server) => server.exited));
  }
}

/** A workspace set up as an operator does (`setup`), with sandbox accounts connected by `accounts connect`. */
export async function setupWithCli(
  env: Record<string, string>,
  workspace: { name: string; email: string; sandboxUsernames?: string[] },
): Promise<{ workspaceId: string; apiKey: string; connectionIds: string[] }> {
  const setup = JSON.parse((await runCli(['setup', '--workspace', workspace.name, '--email', workspace.email, '--json'], env)).stdout);
  const connectionIds: string[] = [];
  for (const username of workspace.sandboxUsernames ?? []) {
    const connected = await runCli(['accounts', 'connect', '--workspace', setup.workspaceId, '--provider', 'sandbox', '--username', username, '--json'], env);
    connectionIds.push(JSON.parse(connected.stdout).connectionId);
  }
  return { workspaceId: setup.workspaceId, apiKey: setup.apiKey, connectionIds };
}

/** Whether a process of this id still runs (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of a data folder's embedded PostgreSQL (its postmaster), from postmaster.pid. */
export function embeddedPostmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}
