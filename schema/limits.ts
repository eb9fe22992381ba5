// The limits of a GraphQL request (README "GraphQL limits"). The largest answer is a setting:
// GRAPHQL_MAX_RESPONSE_BYTES (config.ts).
export const graphLimits = {
  /** Levels of nested fields (introspection excepted). */
  maxDepth: 8,
  /** Aliases in one document. */
  maxAliases: 15,
  /** Lexical tokens in one document. */
  maxTokens: 2000,
  /** Directives in one document. */
  maxDirectives: 20,
  /**
   * Largest cost of one operation (schema/cost.ts): a page of 100 posts with everything about their targets (threads,
   * parts, first comments) and validation, as MCP's get/list tools ask, costs about 33,000.
   */
  maxCost: 40_000,
  /**
   * An operation counts as ceil(cost / costPerRequest) requests against the rate limit, at least one: 50 posts with
   * their targets and validation cost about 5,000.
   */
  costPerRequest: 5000,
  /** Largest request body, as REST's. */
  maxRequestBytes: 1024 * 1024,
} as const;

/** How many requests an operation of this cost counts as. */
export function requestWeight(cost: number): number {
  return Math.max(1, Math.ceil(cost / graphLimits.costPerRequest));
}
