// MCP over stdio, as Claude Desktop, Claude Code or Cursor run it: the real `sps mcp` and `npm run mcp` commands (the
// compiled output in dist/) spawned by the SDK's StdioClientTransport, and the MCP Inspector's CLI listing the tools.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { connectSandbox, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { call, exerciseEveryTool, fileServer, refusalOf, succeed, toolNames } from '../support/mcp.ts';
import { projectRoot } from '../support/processes.ts';
import { requireCurrentBuild } from '../support/compiledOutput.ts';
import { createTestDatabase } from '../support/database.ts';

const run = promisify(execFile);
let service: TestService;
let acme: TestWorkspace;
let connectionId: string;
let files: Awaited<ReturnType<typeof fileServer>>;
// The stdio server and the test service share the database and the media store (either may process an upload).
const dataDir = mkdtempSync(join(tmpdir(), 'sps-mcp-stdio-'));
const serverEnv = () => ({
  DATABASE_URL: service.databaseUrl,
  DATA_DIR: dataDir,
  AI_PROVIDER: 'sandbox',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  LOG_LEVEL: 'info',
  REQUEST_LOG_FLUSH_MS: '50',
});

beforeAll(async () => {
  requireCurrentBuild();
  files = await fileServer({ '/photo.jpg': { type: 'image/jpeg', body: await image('jpeg', 80, 60) } });
  ({ service, acme } = await serviceWithWorkspace({ AI_PROVIDER: 'sandbox', DATA_DIR: dataDir }));
  connectionId = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(async () => {
  await service.stop();
  await files.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function stdioClient(command: string, args: string[], apiKey: string, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: projectRoot,
    env: { ...(process.env as Record<string, string>), ...serverEnv(), SPS_API_KEY: apiKey, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'sps-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('MCP over stdio', () => {
  it('`sps mcp` lists the 24 tools and answers every one, with logs on stderr only', async () => {
    const queue = await fetch(`${service.url}/v1/queues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mornings', timezone: 'UTC', slots: [{ day: 'tuesday', time: '08:00' }] }),
    });
    const { client, stderr } = await stdioClient(process.execPath, ['bin/sps.js', 'mcp'], acme.ownerKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...toolNames].sort());
    await exerciseEveryTool(client, { connectionId, queueId: (await queue.json()).data.id, fileUrl: `${files.url}/photo.jpg` });
    await client.close();
    expect(stderr()).toContain('MCP server on stdio');
  });

  it('`npm run mcp` resolves the key for each call: scopes refuse as isError, calls are recorded as MCP', async () => {
    const reader = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    const { client } = await stdioClient('npm', ['run', '-s', 'mcp'], reader.apiKey, { SPS_LANGUAGE: 'fr' });
    expect((await succeed(client, 'list_posts')).posts).toEqual(expect.any(Array));
    const refusal = refusalOf(await call(client, 'delete_post', { postId: '00000000-0000-4000-8000-000000000000' }));
    expect(refusal.code).toBe('FORBIDDEN');
    expect(refusal.message).toContain('posts:write');
    await client.close();
    const recorded = await service.services.db.prisma.requestLog.findMany({ where: { apiKeyId: reader.keyId }, orderBy: { id: 'asc' } });
    expect(recorded.map((entry) => [entry.method, entry.route, entry.status])).toEqual([
      ['MCP', 'tools/call list_posts', 200],
      ['MCP', 'tools/call delete_post', 403],
    ]);
  });

  it('exits with a clear message when SPS_API_KEY is missing or refused', async () => {
    const env = { ...process.env, ...serverEnv() };
    const missing = await run(process.execPath, ['bin/sps.js', 'mcp'], { cwd: projectRoot, env: { ...env, SPS_API_KEY: '' } }).catch((error) => error);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('SPS_API_KEY');
    const refused = await run(process.execPath, ['bin/sps.js', 'mcp'], { cwd: projectRoot, env: { ...env, SPS_API_KEY: 'sps_wrong' } }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('The API key is missing, mistyped, revoked or expired.');
  });

  it('exits with a clear message, creating nothing, when DATA_DIR or DATABASE_URL leads to no database of the service', async () => {
    // As an MCP client starts it when its configuration passes SPS_API_KEY but not the server's DATA_DIR.
    const { DATABASE_URL: _, ...environment } = { ...process.env, ...serverEnv(), SPS_API_KEY: acme.ownerKey };
    const elsewhere = join(dataDir, 'not-the-data-folder');
    const noDatabase = await run(process.execPath, ['bin/sps.js', 'mcp'], { cwd: projectRoot, env: { ...environment, DATA_DIR: elsewhere } }).catch(
      (error) => error,
    );
    expect(noDatabase.code).toBe(2);
    expect(noDatabase.stdout).toBe('');
    expect(noDatabase.stderr).toContain(`No database found: DATA_DIR (${elsewhere}) holds no database of this service`);
    expect(noDatabase.stderr).toContain('DATABASE_URL');
    expect(existsSync(elsewhere)).toBe(false);
    // A migrated database nobody set up (no workspace) is no installation either.
    const unused = await createTestDatabase();
    const noWorkspace = await run(process.execPath, ['bin/sps.js', 'mcp'], { cwd: projectRoot, env: { ...environment, DATABASE_URL: unused } }).catch(
      (error) => error,
    );
    expect(noWorkspace.code).toBe(2);
    expect(noWorkspace.stderr).toContain(`the database at DATABASE_URL (${new URL(unused).host}${new URL(unused).pathname}) has no workspace yet`);
  });

  it('is listed by the MCP Inspector CLI (offline, scripted), its tool schemas portable by its --strict checks', async () => {
    const env = Object.entries({ ...serverEnv(), SPS_API_KEY: acme.ownerKey }).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    const inspector = join(projectRoot, 'node_modules/.bin/mcp-inspector');
    // Starting the server can take longer than the inspector's 15 s default on a busy machine.
    const { stdout, stderr } = await run(
      process.execPath,
      [
        inspector,
        '--cli',
        ...env,
        '--cwd',
        projectRoot,
        '--connect-timeout',
        '50000',
        '--method',
        'tools/list',
        '--strict',
        process.execPath,
        'bin/sps.js',
        'mcp',
      ],
      { cwd: projectRoot, env: { ...process.env, MCP_CATALOG_PATH: join(dataDir, 'inspector.json') } },
    );
    expect(
      JSON.parse(stdout)
        .tools.map((tool: { name: string }) => tool.name)
        .sort(),
    ).toEqual([...toolNames].sort());
    // --strict reports every portability finding on stderr (warnings included) as `Error: tool …` / `Warning: tool …`.
    expect(stderr).not.toMatch(/(Error|Warning): tool "/);
  });
});
