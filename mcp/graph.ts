// Runs a tool's GraphQL operation in-process through the same yoga pipeline as /graphql (document limits, the
// NUL check, the cost charged against the rate limit, scope checks), with the caller's context. Only the HTTP
// layer is skipped: the caller was resolved (and the request counted) by the MCP transport. Results come back in the
// API's spelling (apiSpelling.ts).
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { GraphContext } from '../schema/builder.ts';
import { toGraphQLError } from '../schema/graphqlErrors.ts';
import { createGraphHandler } from '../schema/yoga.ts';
import { inApiSpelling } from './apiSpelling.ts';
import type { Logger } from '../src/logger.ts';

/** A refusal as REST words it: the API's code, localized message and field details. */
export interface Refusal {
  code: string;
  message: string;
  details?: unknown;
  requestId: string;
  /** REST's HTTP status for the same refusal (not shown to agents; the request log records it). */
  status: number;
}

export type GraphOutcome = { data: Record<string, unknown> } | { refusal: Refusal };

export type GraphRunner = (context: GraphContext, source: string, variables: Record<string, unknown>) => Promise<GraphOutcome>;

export function graphRunner(logger: Logger): GraphRunner {
  const yoga = createGraphHandler<{ graphContext: GraphContext }>(logger, ({ graphContext }) => graphContext);
  return async (context, source, variables) => {
    const run = yoga.getEnveloped({ graphContext: context } as never);
    const refuse = (errors: readonly GraphQLError[]): GraphOutcome => {
      const error = toGraphQLError(errors[0]!, context.language, context.requestId, 'http', (cause) =>
        logger.error({ err: cause, requestId: context.requestId }, 'mcp tool failed'),
      );
      const { code, details, http } = error.extensions as { code: string; details?: unknown; http: { status: number } };
      return { refusal: { code, message: error.message, ...(details ? { details } : {}), requestId: context.requestId, status: http.status } };
    };
    let document: ReturnType<typeof run.parse>;
    try {
      document = run.parse(source);
    } catch (error) {
      return refuse([error instanceof GraphQLError ? error : new GraphQLError(String(error))]);
    }
    const invalid = run.validate(run.schema, document);
    if (invalid.length) return refuse(invalid);
    const contextValue = await run.contextFactory();
    const result = (await run.execute({ schema: run.schema, document, contextValue, variableValues: variables })) as ExecutionResult;
    if (result.errors?.length) return refuse(result.errors);
    return { data: inApiSpelling(run.schema, document, (result.data ?? {}) as Record<string, unknown>) };
  };
}
