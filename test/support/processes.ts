// Running the real entry points (bin/server.ts, bin/cli.ts) as child processes, the way an operator does.
import { freePort } from '../../src/net.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

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
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/server.ts'], {
    cwd: projectRoot,
    detached: options.detached ?? false,
    // A worker process (SPS_ROLE=worker) answers its probes on WORKER_PORT: the same free port.
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), WORKER_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: scratchDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Up to a minute: a first start initialises the embedded cluster, which takes long on a busy machine.
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return { url, child, output: () => output, exited };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

export function runCli(args: string[], env: Record<string, string>) {
  return runNode(['--import', 'tsx', 'bin/cli.ts', ...args], env);
}

/** Runs `node <args>` in the project until it exits, with a data folder of its own unless `env` names one. */
export function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: scratchDataDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
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
