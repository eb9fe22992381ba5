// What a tool is: its description for agents (title, description, zod input and output, annotations) and the
// GraphQL operation it resolves through. mcp/server.ts turns each into a registered MCP tool.
import { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { enumValueName } from '../schema/enums.ts';
import { providerNames } from '../src/providers/catalog.ts';

export interface GraphTool<Input extends z.ZodRawShape = z.ZodRawShape, Output extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
  /** The GraphQL operation; its variables are `variables(args)`. */
  document: string;
  variables: (args: z.infer<z.ZodObject<Input>>) => Record<string, unknown>;
  /** The structured result, from the operation's data. */
  // biome-ignore lint/suspicious/noExplicitAny: a GraphQL answer's data is as untyped as the document string that asked for it
  result: (data: Record<string, any>, args: z.infer<z.ZodObject<Input>>) => z.infer<z.ZodObject<Output>>;
  /** One short line for agents that read text only. */
  summary: (result: z.infer<z.ZodObject<Output>>) => string;
  /** The argument holding an idempotency key (create_post), replayed as REST's Idempotency-Key is. */
  idempotencyKey?: (args: z.infer<z.ZodObject<Input>>) => string | undefined;
}

export function graphTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(tool: GraphTool<Input, Output>): GraphTool {
  return tool as unknown as GraphTool;
}

/** Annotations of a tool that only reads this service's data. */
export const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** REST's value (`partially_published`) as the graph's enum name (`PARTIALLY_PUBLISHED`). */
export const graphEnum = (value: string) => enumValueName(value);
export const graphEnumOrNull = (value: string | undefined) => (value === undefined ? undefined : enumValueName(value));

/** A network as tools name it where the graph answers a plain string (analytics' row keys): REST's `bluesky`. */
export const networkName = (graphName: string) => providerNames.find((name) => enumValueName(name) === graphName) ?? graphName;

/** A page of a Relay connection as tools answer it: the items and the cursor of the next page. */
export function pageOf<Item>(connection: { edges: { node: Item }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }) {
  return { items: connection.edges.map((edge) => edge.node), nextCursor: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null };
}

export const pageInput = {
  cursor: z.string().optional().describe('`nextCursor` of the previous page; omit for the first page.'),
  limit: z.number().int().min(1).max(100).optional().describe('Items per page, 1 to 100 (default 25).'),
};

export const pageVariables = (args: { cursor?: string; limit?: number }) => ({ after: args.cursor, first: args.limit ?? 25 });

export const nextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.');

const id = z.string();
export const accountShape = z.looseObject({
  id: id.describe('The connectionId used by create_post targets.'),
  provider: z.string(),
  username: z.string(),
  displayName: z.string(),
  status: z.string().describe('ACTIVE, NEEDS_RECONNECT or REVOKED.'),
  needsReconnect: z.boolean(),
});

export const mediaShape = z.looseObject({
  id,
  filename: z.string(),
  status: z.string().describe('uploading, processing, ready or failed.'),
  type: z.string().nullable(),
  mimeType: z.string().nullable(),
  size: z.number().describe('Bytes.'),
  width: z.number().nullable(),
  height: z.number().nullable(),
  durationMs: z.number().nullable(),
  altText: z.string().nullable(),
  url: z.string().nullable().describe('Signed file URL, valid for 1 hour.'),
});

export const postShape = z.looseObject({
  id,
  status: z
    .string()
    .describe(
      'draft, in_review, changes_requested, scheduled, publishing, published, partially_published or failed (in_review and changes_requested where the workspace requires approval).',
    ),
  version: z.number().int().describe('Pass to update_post.'),
  content: z.looseObject({ caption: z.string(), mediaIds: z.array(id) }),
  targets: z.array(
    z.looseObject({
      id,
      connectionId: id,
      provider: z.string().describe('The network, lower case as in REST (bluesky).'),
      placement: z.string(),
      status: z.string(),
    }),
  ),
  scheduledAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  actions: z.array(z.string()).describe('What the caller may do with the post now (update, schedule, publish, submit, approve, request_changes…).'),
  review: z
    .looseObject({ state: z.string().describe('in_review, approved, changes_requested or voided (an edit undid the approval).') })
    .nullable()
    .describe('Its review before publishing; null when never submitted nor approved.'),
  comments: z
    .array(z.looseObject({ kind: z.string().describe('comment, approved or changes_requested.'), text: z.string() }))
    .optional()
    .describe('The team’s latest comments and review decisions, newest first (get_post).'),
});

export const accountFields = 'id provider username displayName status needsReconnect connectedAt avatarUrl';
export const mediaFields = 'id filename status type mimeType format size width height durationMs altText url thumbnailUrl createdAt error { code message }';
/** A post as lists show it (REST's list shape): each target's rule findings only in postFields. */
export const postListFields = `id status actions review { state requestedBy decidedBy { userId name } decidedAt } version campaign content { caption mediaIds thread { caption mediaIds } } scheduledAt timezone publishedAt queueId createdAt updatedAt
  targets { id connectionId provider placement status settings remoteId remoteUrl parts { remoteId remoteUrl } firstComment { remoteId remoteUrl error { code message } }
    publishedAt waitingUntil waitingReason attempts error { code message } override { caption thread { caption mediaIds } } }`;
export const postFields = postListFields.replace(/ }$/, ' validation { valid problems { field code message } } }');

/** "1 post", "3 posts": tool summaries are English, for the agent reading them. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
