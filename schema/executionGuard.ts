// Checks made once the document is valid and before anything is resolved, for every operation (after the text of its
// arguments, storableText.ts): the operation's cost within the limit, and the cost charged against the caller's rate
// limit. After execution: the answer within the size limit.
import type { Plugin } from 'graphql-yoga';
import { AppError, invalidRequest } from '../src/errors/appError.ts';
import { rateLimitHeaders } from '../src/ratelimit/limiter.ts';
import type { GraphContext } from './builder.ts';
import { operationCost } from './cost.ts';
import { asGraphQLError } from './graphqlErrors.ts';
import { graphLimits, requestWeight } from './limits.ts';

/** Charges a costly operation as several requests; answers the rate-limit headers to send. */
async function chargeCost(context: GraphContext, cost: number): Promise<Record<string, string> | undefined> {
  if (cost > graphLimits.maxCost) {
    throw invalidRequest([
      { field: 'query', code: 'maxCost', messageKey: 'detail.graphql.maxCost', params: { cost: Math.ceil(cost), limit: graphLimits.maxCost } },
    ]);
  }
  const weight = requestWeight(cost);
  // The request itself was counted when the caller was resolved; past the limit `charge` throws RATE_LIMITED.
  if (weight === 1) return undefined;
  return rateLimitHeaders(await context.services.callers.charge(context.actor, weight - 1));
}

function responseTooLarge(limit: number): AppError {
  return invalidRequest([{ field: 'query', code: 'responseTooLarge', messageKey: 'detail.graphql.responseTooLarge', params: { limit } }]);
}

export function executionGuard(): Plugin<GraphContext> {
  return {
    onExecute: async ({ args, setResultAndStopExecution }) => {
      const context = args.contextValue;
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      let headers: Record<string, string> | undefined;
      try {
        headers = await chargeCost(context, operationCost(args.schema, args.document, variables));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        setResultAndStopExecution({ errors: [asGraphQLError(error)] });
        return undefined;
      }
      const maxBytes = context.services.config.graphqlMaxResponseBytes;
      return {
        onExecuteDone: ({ result, setResult }) => {
          if (!('data' in result)) return;
          if (Buffer.byteLength(JSON.stringify(result)) > maxBytes) {
            setResult({ errors: [asGraphQLError(responseTooLarge(maxBytes))] });
          } else if (headers) {
            setResult({ ...result, extensions: { ...result.extensions, http: { headers } } });
          }
        },
      };
    },
  };
}
