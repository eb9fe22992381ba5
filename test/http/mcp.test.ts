// MCP over Streamable HTTP at /mcp, driven by the SDK's own client: the 24 tools, described for agents, each
// resolving through the graph with the caller's identity, refusals as isError results in the API's words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { call, exerciseEveryTool, fileServer, httpClient, refusalOf, succeed, toolNames } from '../support/mcp.ts';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';

let service: TestService;
let acme: TestWorkspace;
let connectionId: string;
let files: Awaited<ReturnType<typeof fileServer>>;
// One media store for every service of this file: any of their workers may process an upload.
const dataDir = mkdtempSync(join(tmpdir(), 'sps-mcp-'));

beforeAll(async () => {
  files = await fileServer({ '/photo.jpg': { type: 'image/jpeg', body: await image('jpeg', 80, 60) } });
  ({ service, acme } = await serviceWithWorkspace({ AI_PROVIDER: 'sandbox', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', DATA_DIR: dataDir }));
  connectionId = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(async () => {
  await service.stop();
  await files.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function rest(method: string, path: string, apiKey: string, body?: unknown, baseUrl = service.url) {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: bearer(apiKey, body ? { 'content-type': 'application/json' } : {}),
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('MCP over Streamable HTTP', () => {
  it('lists exactly the contract’s 24 tools, each with a title, description, input and output schemas and all four annotations', async () => {
    const client = await httpClient(service.url, acme.ownerKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...toolNames].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe('boolean');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('delete_post')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.get('list_posts')!.annotations).toMatchObject({ readOnlyHint: true });
    expect((byName.get('get_provider_rules')!.inputSchema.properties as any).provider.enum).toContain('bluesky');
    expect((byName.get('create_post')!.inputSchema.properties as any).idempotencyKey).toBeDefined();
    await client.close();
  });

  it('answers every tool for an agent chaining their ids, with a text summary beside the structured result', async () => {
    const queue = await rest('POST', '/queues', acme.ownerKey, { name: 'Mornings', timezone: 'Europe/Berlin', slots: [{ day: 'monday', time: '09:00' }] });
    const client = await httpClient(service.url, acme.ownerKey);
    const results = await exerciseEveryTool(client, { connectionId, queueId: queue.body.data.id, fileUrl: `${files.url}/photo.jpg` });
    expect(results.length).toBeGreaterThan(24);
    await client.close();
  });

  it('pages lists with the cursor it answers', async () => {
    const workspace = await createWorkspace(service.services);
    const ids = [await connectSandbox(service.services, workspace.workspaceId), await connectSandbox(service.services, workspace.workspaceId)];
    const client = await httpClient(service.url, workspace.ownerKey);
    const first = await succeed(client, 'list_social_accounts', { limit: 1 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await succeed(client, 'list_social_accounts', { limit: 1, cursor: first.nextCursor });
    expect(second.nextCursor).toBeNull();
    expect([first.accounts[0].id, second.accounts[0].id].sort()).toEqual(ids.sort());
    await client.close();
  });

  it('refuses a call outside the key’s scopes as an isError result with REST’s code and localized message', async () => {
    const reader = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' });
    const client = await httpClient(service.url, reader.apiKey, { 'accept-language': 'de' });
    const refusal = refusalOf(await call(client, 'create_post', { caption: 'Nope', targets: [{ connectionId, placement: 'feed' }] }));
    expect(refusal.code).toBe('FORBIDDEN');
    expect(refusal.message).toBe('Der API-Schlüssel benötigt den Scope posts:write für createPost.');
    const restRefusal = await fetch(`${service.url}/v1/posts`, {
      method: 'POST',
      headers: bearer(reader.apiKey, { 'content-type': 'application/json', 'accept-language': 'de' }),
      body: JSON.stringify({ content: { caption: 'Nope' }, targets: [{ connectionId, placement: 'feed' }] }),
    });
    expect((await restRefusal.json()).error).toMatchObject({ code: refusal.code, message: refusal.message });
    await client.close();
  });

  it("answers values in the spelling its arguments take (REST's), so an answer can be passed back as it is", async () => {
    const client = await httpClient(service.url, acme.ownerKey);
    const { post } = await succeed(client, 'create_post', { caption: 'Spelled once', targets: [{ connectionId, placement: 'feed' }] });
    expect(post).toMatchObject({ status: 'draft', targets: [{ provider: 'sandbox', placement: 'feed', status: 'pending' }] });
    const again = await succeed(client, 'validate_post', { caption: 'Again', targets: [{ connectionId, placement: post.targets[0].placement }] });
    expect(again.targets).toEqual([expect.objectContaining({ placement: 'feed' })]);
    const listed = await succeed(client, 'list_posts', { status: [post.status], provider: post.targets[0].provider });
    expect(listed.posts.map((listedPost: { id: string }) => listedPost.id)).toContain(post.id);
    await client.close();
  });

  it('refuses bad arguments with details an agent can act on', async () => {
    const client = await httpClient(service.url, acme.ownerKey);
    const draft = (await succeed(client, 'create_post', { caption: 'Soon', targets: [{ connectionId, placement: 'feed' }] })).post;
    const refusal = refusalOf(
      await call(client, 'schedule_post', { postId: draft.id, scheduledAt: new Date(Date.now() + 3600_000).toISOString(), timezone: '+05:00' }),
    );
    expect(refusal.code).toBe('INVALID_REQUEST');
    expect(refusal.details).toEqual([expect.objectContaining({ field: 'timezone' })]);
    // The message itself says which field is wrong and why, not only how many are.
    expect(refusal.message).toContain(`timezone: ${refusal.details![0]!.message}`);

    const unknown = refusalOf(await call(client, 'get_post', { postId: '00000000-0000-4000-8000-000000000000' }));
    expect(unknown.code).toBe('NOT_FOUND');

    const badEnum = await call(client, 'list_posts', { status: ['lost'] });
    expect(badEnum.isError).toBe(true);
    expect(JSON.stringify(badEnum.content)).toContain('status');

    const noSource = refusalOf(await call(client, 'upload_media', { filename: 'x.png' }));
    expect(noSource.details).toEqual([expect.objectContaining({ field: 'url', code: 'oneOf' })]);
    const notBase64 = refusalOf(await call(client, 'upload_media', { base64: 'not base64!', filename: 'x.png', contentType: 'image/png' }));
    expect(notBase64.details).toEqual([expect.objectContaining({ field: 'base64', code: 'format' })]);
    await client.close();
  });

  it('fetches media from URLs under the webhook SSRF rules', async () => {
    const strict = await startTestService({ DATA_DIR: dataDir }, service.databaseUrl);
    try {
      const client = await httpClient(strict.url, acme.ownerKey);
      const refusal = refusalOf(await call(client, 'upload_media', { url: `${files.url}/photo.jpg` }));
      expect(refusal.details).toEqual([expect.objectContaining({ field: 'url', code: 'httpsRequired' })]);
      const loopback = refusalOf(await call(client, 'upload_media', { url: 'https://127.0.0.1/photo.jpg' }));
      expect(loopback.details).toEqual([expect.objectContaining({ field: 'url', code: 'privateAddress' })]);
      await client.close();
    } finally {
      await strict.stop();
    }
  });

  it('replays create_post for the same idempotencyKey and refuses it for other arguments', async () => {
    const client = await httpClient(service.url, acme.ownerKey);
    const args = { caption: 'Once only', targets: [{ connectionId, placement: 'feed' }], idempotencyKey: `once-${Date.now()}` };
    const first = (await succeed(client, 'create_post', args)).post;
    expect((await succeed(client, 'create_post', args)).post.id).toBe(first.id);
    expect(refusalOf(await call(client, 'create_post', { ...args, caption: 'Something else' })).code).toBe('CONFLICT');
    const listed = await succeed(client, 'list_posts', { limit: 100 });
    expect(listed.posts.filter((post: { content: { caption: string } }) => post.content.caption === 'Once only')).toHaveLength(1);
    await client.close();
  });

  it('answers 401 with WWW-Authenticate: Bearer naming the OAuth metadata without a valid key, in the API’s error shape', async () => {
    for (const headers of [{}, bearer('sps_not-a-key')]) {
      const response = await fetch(`${service.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer resource_metadata="http:\/\/localhost:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
      expect((await response.json()).error).toMatchObject({ code: 'UNAUTHENTICATED', requestId: expect.any(String) });
    }
    await expect(httpClient(service.url, null)).rejects.toThrow();
  });

  it('answers GET and DELETE with 405 (stateless: no event stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${service.url}/mcp`, { method, headers: bearer(acme.ownerKey) });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await response.json()).error.code).toBe('INVALID_REQUEST');
    }
  });

  it('refuses a Host header it does not serve (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${service.url}/mcp`);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'attacker.example', ...bearer(acme.ownerKey), 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('shares the rate limit with REST: once REST has spent it, /mcp answers 429; each POST is recorded', async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_MINUTE: '4', DATA_DIR: dataDir }, service.databaseUrl);
    const workspace = await createWorkspace(limited.services);
    try {
      const client = await httpClient(limited.url, workspace.ownerKey);
      await succeed(client, 'list_posts');
      let answer: Awaited<ReturnType<typeof rest>>;
      do answer = await rest('GET', '/posts', workspace.ownerKey, undefined, limited.url);
      while (answer.status === 200);
      expect(answer.status).toBe(429);
      const refused = await client.callTool({ name: 'list_posts', arguments: {} }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StreamableHTTPError);
      expect((refused as StreamableHTTPError).code).toBe(429);
      await client.close().catch(() => {});
    } finally {
      await limited.stop();
    }
    const recorded = await service.services.db.prisma.requestLog.findMany({ where: { workspaceId: workspace.workspaceId, route: '/mcp' } });
    expect(recorded.map((entry) => entry.status)).toContain(200);
  });

  it('never shows a provider token in any tool’s text or structured output', async () => {
    const workspace = await createWorkspace(service.services);
    const secrets = { accessToken: 'mastodon-access-token-SECRET-4f1c9', refreshToken: 'mastodon-refresh-token-SECRET-77aa' };
    await connectSocialAccount(service.services.db, service.services.secrets, service.services.adapters, service.services.outbox, {
      workspaceId: workspace.workspaceId,
      provider: 'mastodon',
      username: 'agent',
      remoteId: '1234',
      tokens: { ...secrets, extra: { instanceUrl: 'https://mastodon.example' } },
    });
    const sandboxId = await connectSandbox(service.services, workspace.workspaceId);
    const queue = await rest('POST', '/queues', workspace.ownerKey, { name: 'Evenings', timezone: 'UTC', slots: [{ day: 'friday', time: '18:00' }] });
    const client = await httpClient(service.url, workspace.ownerKey);
    const results = await exerciseEveryTool(client, { connectionId: sandboxId, queueId: queue.body.data.id, fileUrl: `${files.url}/photo.jpg` });
    const accounts = await succeed(client, 'list_social_accounts');
    expect(accounts.accounts.map((a: { provider: string }) => a.provider).sort()).toEqual(['mastodon', 'sandbox']);
    const everything = JSON.stringify([...results, accounts]);
    for (const token of Object.values(secrets)) expect(everything).not.toContain(token);
    await client.close();
  });
});
