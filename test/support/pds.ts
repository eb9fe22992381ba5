// A real Bluesky PDS for tests and the bench: @atproto/pds with an in-memory PLC directory (@did-plc/server), on
// free ports, its SQLite files and blobs in a temporary folder. No AppView unless asked for (`appView`: the real one,
// appview.ts, for what only an AppView knows, such as the replies under a post); nothing a publisher calls needs one.
// Settings follow @atproto/dev-env's TestPds/TestPlc (packages/dev-env/src/pds.ts and plc.ts).
//
// It runs in a child process of its own (this file is also its entry point), which is what a PDS is anyway, and
// keeps better-sqlite3 (the PDS's database driver) out of test workers: better-sqlite3 12 on Node >= 24.19 aborts
// the process when the garbage collector finalizes one of its objects outside JavaScript
// (WiseLibs/better-sqlite3#1515; version 13 is built differently and does not). The child therefore keeps every
// database and statement it opens for its whole (short) life and ends without a final collection. Tests talk to it
// over HTTP only.
import { AtpAgent } from '@atproto/api';
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/net.ts';
import { addonLoadProblem, betterSqliteAddon } from './nativeAddon.ts';
import type { AppViewOptions, RunningAppView } from './appview.ts';

export interface PdsAccount {
  did: string;
  handle: string;
  password: string;
  appPassword: string;
  /** Signed in with the account password: for reading back what the service published. */
  agent: AtpAgent;
}

export interface TestPds {
  url: string;
  createAccount(name: string): Promise<PdsAccount>;
  /** With an AppView: resolves once it has indexed everything written to the PDS so far (its firehose is asynchronous). */
  appViewIndexed(): Promise<void>;
  close(): Promise<void>;
}

export interface PdsOptions {
  /** The PDS's own rate limits (off by default, so tests and the bench measure us, not them). */
  rateLimits?: boolean;
  /**
   * Answers record writes (putRecord, createRecord, applyWrites) this much later, after they are written: a network
   * that created the post but answers slowly, the case that tempts a duplicate when the caller dies meanwhile.
   */
  slowWritesMs?: number;
  /** Runs the real AppView (appview.ts) beside the PDS, which passes app.bsky.* reads on to it. */
  appView?: AppViewOptions;
}

const writeMethods = ['/xrpc/com.atproto.repo.putRecord', '/xrpc/com.atproto.repo.createRecord', '/xrpc/com.atproto.repo.applyWrites'];

const entryPoint = fileURLToPath(import.meta.url);

export async function startPds(options: PdsOptions = {}): Promise<TestPds> {
  // Node runs this file itself (type stripping): loading the PDS through tsx would take a third longer.
  const child = spawn(process.execPath, [entryPoint], {
    env: { ...process.env, NODE_ENV: 'production', SPS_TEST_PDS: JSON.stringify(options) },
    // The IPC channel closes when this process ends, however it ends: the child then stops too.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors = (errors + chunk).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('PDS ')) resolve(line.slice(4));
    });
    void exited.then(() => reject(new Error(`the PDS did not start:\n${errors}`)));
  });

  let asked = 0;
  return {
    url,
    appViewIndexed() {
      const id = ++asked;
      return new Promise<void>((resolve, reject) => {
        const answered = (message: { indexed?: number; error?: string }) => {
          if (message.indexed !== id) return;
          child.off('message', answered);
          if (message.error) reject(new Error(message.error));
          else resolve();
        };
        child.on('message', answered);
        child.send({ index: id });
      });
    },
    async createAccount(name) {
      const agent = new AtpAgent({ service: url });
      const handle = `${name}.test`;
      const password = randomBytes(12).toString('hex');
      await agent.createAccount({ handle, email: `${name}@example.test`, password });
      const { data } = await agent.com.atproto.server.createAppPassword({ name: 'sps' });
      return { did: agent.assertDid, handle, password, appPassword: data.password, agent };
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The child: starts PLC and PDS, prints `PDS <url>`, and stops both (and removes its folder) on SIGTERM. */
async function runPds(options: PdsOptions): Promise<void> {
  // An addon built for another Node fails deep inside the PDS's start; say so at once, with the command that fixes it.
  const problem = addonLoadProblem('better-sqlite3', betterSqliteAddon());
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  keepSqliteObjects();
  const { PDS } = await import('@atproto/pds');
  const { PlcServer, Database: PlcDatabase } = await import('@did-plc/server');
  const folder = await mkdtemp(join(tmpdir(), 'sps-pds-'));
  const plcPort = await freePort();
  const plc = PlcServer.create({ db: PlcDatabase.mock(), port: plcPort });
  await plc.start();
  const port = await freePort();
  const appView = options.appView ? await (await import('./appview.ts')).startAppView(options.appView, `http://localhost:${plcPort}`, port) : null;
  const rotationKey = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ format: 'jwk' });
  const pds = await PDS.fromEnv({
    devMode: true,
    port,
    hostname: 'localhost',
    dataDirectory: folder,
    blobstoreDiskLocation: join(folder, 'blobs'),
    blobUploadLimit: 100 * 1024 * 1024,
    didPlcUrl: `http://localhost:${plcPort}`,
    plcRotationKeyK256PrivateKeyHex: Buffer.from(rotationKey.d!, 'base64url').toString('hex'),
    jwtSecret: randomBytes(16).toString('hex'),
    adminPassword: randomBytes(16).toString('hex'),
    serviceHandleDomains: ['.test'],
    // Without an AppView or a moderation service, requests the PDS would pass on to them fail, as they should here.
    bskyAppViewUrl: appView?.url ?? 'https://appview.invalid',
    bskyAppViewDid: appView?.did ?? 'did:example:invalid',
    modServiceUrl: 'https://moderator.invalid',
    modServiceDid: 'did:example:invalid',
    inviteRequired: false,
    disableSsrfProtection: true,
    rateLimitsEnabled: options.rateLimits ?? false,
  });
  const server = await pds.start();
  if (options.slowWritesMs) answerWritesLate(server, options.slowWritesMs);
  if (appView) answerIndexRequests(appView, () => pds.ctx.sequencer.curr());
  process.stdout.write(`PDS http://localhost:${port}\n`);
  const stop = async () => {
    await appView?.close();
    await pds.destroy();
    await plc.destroy();
    await rm(folder, { recursive: true, force: true });
    // Not process.exit(): its teardown would finalize the kept objects.
    process.kill(process.pid, 'SIGKILL');
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
}

/** `{index: id}` from the test: answered `{indexed: id}` once the AppView has caught up with the PDS. */
function answerIndexRequests(appView: RunningAppView, lastSeq: () => Promise<number | null>): void {
  process.on('message', (message: { index?: number }) => {
    if (message.index === undefined) return;
    appView.indexed(lastSeq).then(
      () => process.send!({ indexed: message.index }),
      (error: Error) => process.send!({ indexed: message.index, error: error.message }),
    );
  });
}

function answerWritesLate(server: Server, delayMs: number): void {
  const [handle] = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (writeMethods.some((path) => request.url?.startsWith(path))) {
      const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
      response.end = ((...args: unknown[]) => {
        setTimeout(() => end(...args), delayMs);
        return response;
      }) as ServerResponse['end'];
    }
    handle!(request, response);
  });
}

/** Every better-sqlite3 database and statement stays referenced, so the collector never finalizes one. */
function keepSqliteObjects(): void {
  const Database = createRequire(import.meta.url)('better-sqlite3') as { prototype: { prepare: (this: object, sql: string) => object } };
  const kept = new Set<object>();
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function keptPrepare(sql) {
    const statement = prepare.call(this, sql);
    kept.add(this).add(statement);
    return statement;
  };
}

if (process.argv[1] === entryPoint) await runPds(JSON.parse(process.env.SPS_TEST_PDS ?? '{}'));
