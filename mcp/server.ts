// The MCP server of one caller: the 24 tools, each resolving through the GraphQL graph with the caller's context.
// A refused call is a tool result with isError (the API's code and localized message), never a protocol error.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GraphContext } from '../schema/builder.ts';
import { claimKey, releaseKey, storeAnswer } from '../src/idempotency/store.ts';
import { fingerprintOf } from '../src/idempotency/rules.ts';
import type { GraphRunner, Refusal } from './graph.ts';
import type { GraphTool } from './tool.ts';
import { asAppError, invalidRequest } from '../src/errors/appError.ts';
import { unstorableText } from '../src/text/storableText.ts';
import { localizeError } from '../src/errors/localize.ts';
import type { Language } from '../src/errors/messages.ts';
import { postTools } from './tools/posts.ts';
import { libraryTools } from './tools/library.ts';
import { toolJsonSchema } from './toolSchemas.ts';

const tools: readonly GraphTool[] = [...postTools, ...libraryTools];

const serverInfo = { name: 'social-publishing-service', version: '1.0.0' };
const instructions =
  'Publish to social networks. Start with list_social_accounts (account ids are the connectionId of post targets) and get_provider_rules; ' +
  'check a post with validate_post, create it with create_post (a draft), then publish_post, schedule_post or add_post_to_queue. ' +
  'Media: upload_media, then attach ready media ids. A refused call answers isError with the API code and a message saying what to change.';

/** The refusal for a known failure, a passing database failure included (503); null for the service's own faults. */
function refusalOf(error: unknown, language: Language, requestId: string): Refusal | null {
  const known = asAppError(error);
  return known.code === 'INTERNAL' ? null : { ...localizeError(known, language), requestId, status: known.httpStatus };
}

/** A tool's answer, and the HTTP status REST would have answered (for the request log). */
interface Answer {
  result: CallToolResult;
  status: number;
}

/**
 * The refusal in REST's error shape, so an agent reads the same code and details; its message names each field and
 * what is wrong with it after the summary, for a client that shows an agent only the message.
 */
function refused({ status, ...refusal }: Refusal): Answer {
  const fields = Array.isArray(refusal.details) ? (refusal.details as { field: string; message: string }[]) : [];
  const message = [refusal.message, ...fields.map((detail) => `${detail.field}: ${detail.message}`)].join(' ');
  return { result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { ...refusal, message } }) }] }, status };
}

async function callTool(tool: GraphTool, args: Record<string, unknown>, graph: GraphRunner, context: GraphContext): Promise<Answer> {
  const outcome = await graph(context, tool.document, tool.variables(args));
  if ('refusal' in outcome) return refused(outcome.refusal);
  const structuredContent = tool.result(outcome.data, args) as Record<string, unknown>;
  return { result: { structuredContent, content: [{ type: 'text', text: tool.summary(structuredContent) }] }, status: 200 };
}

/** As REST's Idempotency-Key: a retry with the same key and arguments gets the first result; other arguments, CONFLICT. */
async function callOnce(tool: GraphTool, key: string, args: Record<string, unknown>, graph: GraphRunner, context: GraphContext): Promise<Answer> {
  const { actor, services } = context;
  const { idempotencyKey: _, ...body } = args;
  const request = {
    workspaceId: actor.workspaceId,
    key,
    fingerprint: fingerprintOf({ caller: actor.apiKeyId ?? actor.userId, method: 'MCP', path: `tools/call ${tool.name}`, query: {}, body }),
  };
  const claim = await claimKey(services.db.pool, request);
  if (claim.kind === 'replay') return { result: JSON.parse(claim.answer.body.toString('utf8')) as CallToolResult, status: claim.answer.status };
  try {
    const answer = await callTool(tool, args, graph, context);
    if (answer.result.isError) await releaseKey(services.db.pool, request, claim.claimId);
    else await storeAnswer(services.db.pool, request, claim.claimId, { status: answer.status, headers: {}, body: Buffer.from(JSON.stringify(answer.result)) });
    return answer;
  } catch (error) {
    await releaseKey(services.db.pool, request, claim.claimId);
    throw error;
  }
}

export interface McpCaller {
  /** The context of a call: the HTTP transport's is fixed per request, stdio's resolves the key per call. */
  context(): Promise<GraphContext>;
  /** Words a refusal of the caller itself (unknown key, rate limit). */
  fallback(): { language: Language; requestId: string };
  /** Told of every call with a known caller (stdio records it in the request log; HTTP records its POST). */
  called?(context: GraphContext, tool: string, status: number, durationMs: number): void;
}

/** Built once: a server per request only registers them. */
const toolConfigs = new Map(
  tools.map((tool) => [
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: z.object(tool.input),
      outputSchema: z.object(tool.output),
      annotations: { title: tool.title, ...tool.annotations },
    },
  ]),
);

/** What tools/list answers: the SDK's listing, with the schemas in their portable spelling (toolSchemas.ts). */
const toolList: Tool[] = tools.map((tool) => {
  const { inputSchema, outputSchema, ...config } = toolConfigs.get(tool.name)!;
  return {
    name: tool.name,
    ...config,
    inputSchema: toolJsonSchema(inputSchema, 'input') as Tool['inputSchema'],
    outputSchema: toolJsonSchema(outputSchema, 'output') as Tool['outputSchema'],
    execution: { taskSupport: 'forbidden' },
  };
});

export function createMcpServer(graph: GraphRunner, caller: McpCaller): McpServer {
  const server = new McpServer(serverInfo, { instructions });
  for (const tool of tools) {
    const answer = async (args: Record<string, unknown>): Promise<Answer> => {
      let context: GraphContext;
      try {
        context = await caller.context();
      } catch (error) {
        const { language, requestId } = caller.fallback();
        const refusal = refusalOf(error, language, requestId);
        if (refusal) return refused(refusal);
        throw error;
      }
      const startedAt = performance.now();
      const key = tool.idempotencyKey?.(args);
      let answered: Answer;
      try {
        // Before the idempotency key is stored and the graph names the fields by its own arguments.
        const unstorable = unstorableText(args, 'arguments');
        if (unstorable.length) throw invalidRequest(unstorable);
        answered = key === undefined ? await callTool(tool, args, graph, context) : await callOnce(tool, key, args, graph, context);
      } catch (error) {
        const refusal = refusalOf(error, context.language, context.requestId);
        if (!refusal) throw error;
        answered = refused(refusal);
      }
      caller.called?.(context, tool.name, answered.status, performance.now() - startedAt);
      return answered;
    };
    server.registerTool(tool.name, toolConfigs.get(tool.name)!, async (args: Record<string, unknown>) => (await answer(args)).result);
  }
  // Replaces the handler registerTool installed, whose JSON schemas are zod's own spelling.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
  return server;
}
