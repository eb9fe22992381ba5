// Starting the service as an operator does: a Node that is too old is refused by every entry point before
// anything loads, a port in use is reported instead of answered by another program, and the first start says
// what to do next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { freePort } from '../../src/net.ts';
import { minimumNodeVersion, unsupportedNodeMessage } from '../../bin/supportedNode.js';
import { createTestDatabase } from '../support/database.ts';
import { nextSteps } from '../../bin/startMessages.ts';
import { projectRoot, runNode, scratchDataDir, startServerProcess } from '../support/processes.ts';

const encryptionKey = Buffer.alloc(32, 5).toString('base64');
let env: Record<string, string>;

beforeAll(async () => {
  env = { DATABASE_URL: await createTestDatabase(), ENCRYPTION_KEY: encryptionKey, LOG_LEVEL: 'info', HOST: '127.0.0.1' };
});

describe('the Node.js version', () => {
  it("is checked against package.json's engines", () => {
    const engines = JSON.parse(readFileSync(`${projectRoot}/package.json`, 'utf8')).engines.node;
    expect(engines).toBe(`>=${minimumNodeVersion()}`);
    expect(minimumNodeVersion()).toBe('22.22.2');
    expect(unsupportedNodeMessage('22.22.2')).toBeNull();
    expect(unsupportedNodeMessage('22.23.0')).toBeNull();
    expect(unsupportedNodeMessage('24.15.0')).toBeNull();
    expect(unsupportedNodeMessage('22.22.1')).toContain('needs Node.js 22.22.2 or newer');
    expect(unsupportedNodeMessage('20.20.2')).toContain('this is Node.js 20.20.2');
  });

  // A preload pretends to be Node 22.12, the version that used to crash inside undici at start.
  const oldNode = ['--import', `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '22.12.0' })`];
  const entryPoints = {
    'server (npm start)': ['dist/bin/server.js'],
    'CLI (npm run cli)': ['dist/bin/cli.js', 'setup', '--workspace', 'Old', '--email', 'old@acme.test'],
    'sps bin': ['bin/sps.js', 'setup', '--workspace', 'Old', '--email', 'old@acme.test'],
    'migrations (npm run db:migrate)': ['dist/bin/migrate.js'],
  };
  for (const [name, args] of Object.entries(entryPoints)) {
    it(`is refused by the ${name} with a clear message before anything else runs`, async () => {
      const dataDir = scratchDataDir();
      const result = await runNode([...oldNode, ...args], { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(unsupportedNodeMessage('22.12.0'));
      expect(result.stdout).toBe('');
      // No embedded database was started, no key generated.
      expect(readdirSync(dataDir)).toEqual([]);
    });
  }
});

describe('a port already in use', () => {
  let occupant: Server;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    occupant = createServer((socket) => socket.end('another program\n'));
    await new Promise<void>((resolve) => occupant.listen(port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => occupant.close(() => resolve())));

  it('stops the service with a message naming the port and the PORT setting', async () => {
    const result = await runNode(['dist/bin/server.js'], { ...env, PORT: String(port) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Port ${port} is already in use on 127.0.0.1`);
    expect(result.stderr).toContain(`PORT=${port + 1} npm start`);
    expect(result.stderr).not.toContain('listening on');
  });
});

describe('the first start', () => {
  it('says how to create a workspace while there is none, and always where the API is described', async () => {
    const fresh = await startServerProcess(env);
    fresh.child.kill('SIGTERM');
    await fresh.exited;
    expect(fresh.output()).toContain('No workspace yet. Create one, with its owner and an API key: npx sps setup --workspace');
    expect(fresh.output()).toContain('/v1/openapi.json');
    expect(fresh.output()).toContain('/graphql');
  });

  it('leaves out the workspace hint once a workspace exists', () => {
    const steps = nextSteps({ publicBaseUrl: 'http://localhost:3000', hasWorkspace: true });
    expect(steps).toEqual([
      'API reference: http://localhost:3000/v1/openapi.json (or .yaml); GraphQL, with GraphiQL in a browser: http://localhost:3000/graphql',
    ]);
  });
});
