// MCP clients of the SDK itself, and one walk through every tool that the HTTP and stdio tests both run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { image } from './mediaFiles.ts';

/** The contract's 24 tools, no more. */
export const toolNames = [
  'list_social_accounts',
  'get_provider_rules',
  'list_posts',
  'get_post',
  'create_post',
  'update_post',
  'delete_post',
  'validate_post',
  'publish_post',
  'schedule_post',
  'add_post_to_queue',
  'retry_post_target',
  'list_queues',
  'list_media',
  'get_media',
  'upload_media',
  'set_alt_text',
  'suggest_alt_text',
  'get_analytics',
  'get_ai_status',
  'write_caption',
  'translate_caption',
  'suggest_hashtags',
  'generate_image',
];

export async function httpClient(baseUrl: string, apiKey: string | null, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sps-test', version: '1.0.0' });
  const authorization: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { ...authorization, ...headers } } }));
  return client;
}

export type Structured = Record<string, any>;

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Calls a tool that must succeed; answers its structured result. */
export async function succeed(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  expect(result.content[0]).toMatchObject({ type: 'text' });
  return result.structuredContent as Structured;
}

/** The API error a refused tool call carries in its text. */
export function refusalOf(result: CallToolResult): { code: string; message: string; details?: { field: string; code: string; message: string }[] } {
  expect(result.isError).toBe(true);
  const text = result.content[0];
  if (text?.type !== 'text') throw new Error('a refusal is text');
  return JSON.parse(text.text).error;
}

/** A file server on 127.0.0.1 (allowed by WEBHOOK_ALLOWED_HOSTS in the tests) for upload_media from a URL. */
export async function fileServer(files: Record<string, { type: string; body: Buffer }>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Every tool, as an agent would chain them (ids from one tool feed the next); answers every result, for scans.
 * Needs a workspace with a connected sandbox account, AI_PROVIDER=sandbox, a queue id, and a JPEG at `fileUrl`.
 */
export async function exerciseEveryTool(client: Client, options: { connectionId: string; queueId: string; fileUrl: string }): Promise<CallToolResult[]> {
  const results: CallToolResult[] = [];
  const use = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(client, name, args);
    results.push(result);
    expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: 'text' });
    return result.structuredContent as Structured;
  };
  const { connectionId, queueId } = options;

  const accounts = (await use('list_social_accounts', { limit: 50 })).accounts;
  expect(accounts).toContainEqual(expect.objectContaining({ id: connectionId, provider: 'sandbox', settingOptions: [] }));
  expect((await use('get_provider_rules', { provider: 'sandbox' })).providers).toEqual([expect.objectContaining({ provider: 'sandbox' })]);

  const png = await image('png', 64, 48);
  const inline = (await use('upload_media', { base64: png.toString('base64'), filename: 'dot.png', contentType: 'image/png' })).media;
  expect(inline).toMatchObject({ status: 'ready', width: 64, height: 48, filename: 'dot.png' });
  const fetched = (await use('upload_media', { url: options.fileUrl })).media;
  expect(fetched).toMatchObject({ status: 'ready', filename: 'photo.jpg' });
  expect((await use('list_media', { type: 'image' })).media.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining([inline.id, fetched.id]));
  expect((await use('get_media', { mediaId: inline.id })).media.id).toBe(inline.id);
  expect((await use('suggest_alt_text', { mediaId: inline.id })).altText).not.toBe('');
  expect((await use('set_alt_text', { mediaId: inline.id, altText: 'A pink rectangle' })).media.altText).toBe('A pink rectangle');

  const body = { caption: 'Hello from an agent #mcp', mediaIds: [inline.id], targets: [{ connectionId, placement: 'feed' }] };
  expect(await use('validate_post', body)).toMatchObject({ valid: true, targets: [{ index: 0, connectionId, findings: [] }] });
  const idempotencyKey = `draft-${connectionId}`;
  const draft = (await use('create_post', { ...body, idempotencyKey })).post;
  expect(draft).toMatchObject({ status: 'draft', content: { caption: body.caption, mediaIds: [inline.id] } });
  expect((await use('create_post', { ...body, idempotencyKey })).post.id).toBe(draft.id);
  expect((await use('get_post', { postId: draft.id })).post.id).toBe(draft.id);
  expect((await use('update_post', { postId: draft.id, version: draft.version, caption: 'Changed by an agent' })).post.content.caption).toBe(
    'Changed by an agent',
  );
  const scheduledAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
  expect((await use('schedule_post', { postId: draft.id, scheduledAt, timezone: 'Europe/Berlin' })).post.status).toBe('scheduled');
  expect((await use('publish_post', { postId: draft.id })).post.status).toBe('publishing');
  expect((await use('list_posts', { status: ['publishing', 'published'], connectionId })).posts.map((p: { id: string }) => p.id)).toContain(draft.id);

  expect((await use('list_queues')).queues.map((q: { id: string }) => q.id)).toContain(queueId);
  const queued = (await use('create_post', { caption: 'Queued', targets: [{ connectionId, placement: 'feed' }] })).post;
  expect((await use('add_post_to_queue', { postId: queued.id, queueId })).post.status).toBe('scheduled');

  const failing = (await use('create_post', { caption: 'Fails [sandbox:fail]', targets: [{ connectionId, placement: 'feed' }] })).post;
  await use('publish_post', { postId: failing.id });
  await eventually(async () => expect((await succeed(client, 'get_post', { postId: failing.id })).post.status).toBe('failed'));
  expect((await use('retry_post_target', { postId: failing.id })).post.status).toBe('publishing');

  const doomed = (await use('create_post', { caption: 'Short-lived', targets: [{ connectionId, placement: 'feed' }] })).post;
  expect(await use('delete_post', { postId: doomed.id })).toEqual({ deleted: true, postId: doomed.id });
  const today = new Date().toISOString().slice(0, 10);
  expect(await use('get_analytics', { from: today, to: today, groupBy: 'provider' })).toMatchObject({ from: today, to: today, groupBy: 'provider' });

  expect((await use('get_ai_status')).available).toBe(true);
  expect((await use('write_caption', { caption: 'New shoes in store', count: 2 })).suggestions).toHaveLength(2);
  const story = 'Every morning at five the ovens are warm and the first dough has rested all night. '.repeat(6);
  const asThread = await use('write_caption', { caption: story, provider: 'bluesky', format: 'thread', count: 1 });
  expect(asThread.threads[0].parts.length).toBeGreaterThan(1);
  expect(asThread.threads[0].parts.join(' ').split(/\s+/)).toEqual(asThread.suggestions[0].trim().split(/\s+/));
  expect((await use('translate_caption', { caption: 'Good morning', targetLanguage: 'de' })).suggestions.length).toBeGreaterThan(0);
  expect((await use('suggest_hashtags', { caption: 'Coffee time', provider: 'sandbox' })).suggestions.length).toBeGreaterThan(0);
  expect((await use('generate_image', { prompt: 'A lighthouse at dawn' })).mediaId).toMatch(/^[0-9a-f-]{36}$/);
  return results;
}

/** Polls until `check` passes (publishing runs in the background); fails with its last error after 20 s. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
