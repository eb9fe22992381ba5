// Podman for the container tier: the image built from this checkout on a local Node base (test/container/base.sh),
// and containers run from it on the host's network (the outside PostgreSQL of the tests listens on 127.0.0.1).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { projectRoot } from '../support/processes.ts';

const run = promisify(execFile);
const big = { cwd: projectRoot, maxBuffer: 64 << 20 };

/** Runs podman; rejects with its stderr when it fails. */
export async function podman(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run('podman', args, big);
    return stdout.trim();
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`podman ${args.join(' ')} failed:\n${stderr || stdout || String(error)}`);
  }
}

/** The exit code of a podman command that may fail on purpose. */
export async function podmanStatus(...args: string[]): Promise<number> {
  try {
    await run('podman', args, big);
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? 1;
  }
}

/** Builds the image from the project folder (the context .dockerignore leaves) and says how long it took. */
export async function buildImage(tag: string): Promise<{ seconds: number }> {
  const { stdout: base } = await run('bash', ['test/container/base.sh'], big);
  const { stdout: hardLimit } = await run('bash', ['-c', 'ulimit -Hn'], big);
  const started = performance.now();
  // --format docker keeps HEALTHCHECK (the OCI format has none); a RUN gets 1,024 open files otherwise here.
  await podman(
    'build',
    '--format',
    'docker',
    '--network',
    'host',
    `--ulimit=nofile=${hardLimit.trim()}:${hardLimit.trim()}`,
    '--build-arg',
    `NODE_IMAGE=${base.trim()}`,
    '-t',
    tag,
    '.',
  );
  return { seconds: (performance.now() - started) / 1000 };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Waits until `url` answers 200; the milliseconds it took. */
export async function waitForReady(url: string, container: string, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const answer = await fetch(url).catch(() => null);
    if (answer?.ok) return performance.now() - started;
    if ((await podman('inspect', '--format', '{{.State.Running}}', container)) !== 'true') break;
    await sleep(100);
  }
  throw new Error(`${url} did not answer 200; the container's log:\n${await podman('logs', container).catch(String)}`);
}

/** Runs the operator CLI inside the container and parses its --json answer. */
export async function sps<T>(container: string, ...args: string[]): Promise<T> {
  return JSON.parse(await podman('exec', container, 'sps', ...args, '--json')) as T;
}
