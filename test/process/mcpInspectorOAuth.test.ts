// The MCP Inspector's CLI signing in to /mcp with OAuth, as a person would run it: given only the URL, it registers
// itself, prints the authorization URL and listens on its loopback callback; the person (here: the same calls the
// dashboard's consent page makes) allows it, and the CLI lists the 24 tools with the token it got.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import type { TestWorkspace } from '../support/fixtures.ts';
import { toolNames } from '../support/mcp.ts';
import { decide, freePort, openAuthorization, ownerPassword, signIn, startOAuthService } from '../support/mcpOAuth.ts';
import { projectRoot } from '../support/processes.ts';

let service: TestService;
let base: string;
let workspace: TestWorkspace;
let email: string;
let dataDir: string;

beforeAll(async () => {
  ({ service, base, workspace, email } = await startOAuthService());
  dataDir = mkdtempSync(join(tmpdir(), 'sps-inspector-oauth-'));
});
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the MCP Inspector CLI with OAuth', () => {
  it('registers, sends the person to the consent page, and lists the 24 tools once allowed', async () => {
    const callbackUrl = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    const cli = spawn(
      process.execPath,
      [
        join(projectRoot, 'node_modules/.bin/mcp-inspector'),
        '--cli',
        `${base}/mcp`,
        '--method',
        'tools/list',
        '--callback-url',
        callbackUrl,
        '--client-config',
        join(dataDir, 'client.json'),
      ],
      {
        cwd: dataDir,
        // No terminal here: the Inspector's documented switch to print (and not wait for a TTY) the authorization URL.
        env: {
          ...process.env,
          MCP_AUTO_OPEN_ENABLED: 'true',
          BROWSER: 'none',
          MCP_INSPECTOR_SECRET_STORE: 'memory',
          MCP_CATALOG_PATH: join(dataDir, 'catalog.json'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const authorizationUrl = await new Promise<URL>((resolve, reject) => {
      cli.stderr.on('data', (chunk) => {
        stderr += chunk;
        const match = /Please navigate to: (\S+)/.exec(stderr);
        if (match) resolve(new URL(match[1]!));
      });
      cli.on('exit', () => reject(new Error(`the Inspector ended without an authorization URL: ${stdout}${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => cli.on('exit', resolve));
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${base}/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const person = await signIn(base, email, ownerPassword, workspace.workspaceId);
    const consent = (await openAuthorization(authorizationUrl)).location!;
    const back = await decide(base, person, consent, { allow: true, preset: 'READ_ONLY' });
    expect(back.origin + back.pathname).toBe(callbackUrl);
    expect((await fetch(back)).ok).toBe(true);

    expect(await exited).toBe(0);
    expect(
      JSON.parse(stdout)
        .tools.map((tool: { name: string }) => tool.name)
        .sort(),
    ).toEqual([...toolNames].sort());
    const apps = await service.services.db.prisma.connectedApp.findMany({ where: { workspaceId: workspace.workspaceId }, include: { client: true } });
    expect(apps.map((app) => app.client.name)).toEqual(['MCP Inspector']);
  }, 120_000);
});
