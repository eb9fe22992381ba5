// The domain graph: every type module registers itself on the builder; this assembles them.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/viewer.ts';
import './types/access.ts';
import './types/socialAccounts.ts';
import './types/providers.ts';
import './types/requestLog.ts';
import './types/posts.ts';
import './types/review.ts';
import './types/media.ts';
import './types/mediaImports.ts';
import './types/webhooks.ts';
import './types/queues.ts';
import './types/feeds.ts';
import './types/ai.ts';
import './types/links.ts';
import './types/inbox.ts';

export const graphSchema = builder.toSchema();

/** The graph's SDL, as `npm run schema:print` writes it to schema/schema.graphql (input of codegen.ts). */
export function printGraphSchema(): string {
  return `${printSchema(lexicographicSortSchema(graphSchema))}\n`;
}
