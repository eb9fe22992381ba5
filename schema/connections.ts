// Domain pages as Relay connections: `first`/`after` map onto the domain's `limit`/`cursor`.
import { encodeCursor, type Page, type PageRequest, type Position } from '../src/pagination.ts';

export function pageRequest(args: { first?: number | null; after?: string | null }): PageRequest {
  return { limit: args.first ?? undefined, cursor: args.after ?? undefined };
}

export function toConnection<Row>(page: Page<Row>, positionOf: (row: Row) => Position) {
  const edges = page.data.map((node) => ({ node, cursor: encodeCursor(positionOf(node)) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.pagination.hasMore,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
