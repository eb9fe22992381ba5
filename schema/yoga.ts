// graphql-yoga serving the domain graph. The caller is resolved before yoga runs (as for /v1), so the
// context only carries it along.
import { createYoga, type Plugin } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import { graphSchema } from './index.ts';
import type { GraphContext } from './builder.ts';
import { toGraphQLError } from './graphqlErrors.ts';
import type { Logger } from '../src/logger.ts';

function domainErrors(logger: Logger): Plugin<GraphContext> {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: ({ result, setResult }) => {
        if (!('errors' in result) || !result.errors?.length) return;
        const context = args.contextValue as GraphContext;
        const errors = result.errors.map((error) =>
          toGraphQLError(error as GraphQLError, context.language, context.requestId, (cause) =>
            logger.error({ err: cause, requestId: context.requestId }, 'graphql resolver failed'),
          ),
        );
        setResult({ ...result, errors });
      },
    }),
  };
}

export function createGraphHandler<ServerContext extends object>(
  logger: Logger,
  contextOf: (serverContext: ServerContext) => GraphContext,
) {
  return createYoga<ServerContext, GraphContext>({
    schema: graphSchema,
    graphqlEndpoint: '/graphql',
    context: (initial) => contextOf(initial),
    // Masking happens in domainErrors, which knows the caller's language.
    maskedErrors: false,
    logging: false,
    landingPage: false,
    graphiql: { title: 'Social Publishing Service graph' },
    plugins: [domainErrors(logger)],
  });
}
