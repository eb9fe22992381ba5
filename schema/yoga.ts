// graphql-yoga serving the domain graph. The caller is resolved before yoga runs (as for /v1), so the
// context only carries it along. Every answer, from a refused transport to a resolver's error, is in the API's
// error shape (graphqlErrors.ts); requests are bounded by graphql-armor and executionGuard.ts (limits.ts).
import { createYoga, type Plugin } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError } from 'graphql';
import { graphSchema } from './index.ts';
import type { GraphContext } from './builder.ts';
import { graphqlErrorBody, markRefusal, statusRuleOf, toGraphQLError } from './graphqlErrors.ts';
import { executionGuard } from './executionGuard.ts';
import { storableText } from './storableText.ts';
import { graphLimits } from './limits.ts';
import { AppError, invalidRequest } from '../src/errors/appError.ts';
import type { Logger } from '../src/logger.ts';

const graphqlEndpoint = '/graphql';
const graphqlResponseMediaType = 'application/graphql-response+json';

/**
 * A client that names no media type (no Accept, or only wildcards) gets the GraphQL over HTTP one, with its statuses
 * (yoga would pick application/json): the spec allows it since 2025. One that asks for application/json gets that.
 */
function acceptsAnyJson(request: Request): boolean {
  const accepted = (request.headers.get('accept') ?? '').split(',').map((range) => range.split(';')[0]!.trim().toLowerCase());
  return accepted.every((range) => range === '' || range === '*/*' || range === 'application/*');
}

type DocumentLimit = 'maxDepth' | 'maxAliases' | 'maxTokens' | 'maxDirectives';

/** graphql-armor's limits on the document; a refusal is 400 INVALID_REQUEST naming the limit. */
function documentLimits(): Plugin {
  const limit = (code: DocumentLimit) => ({
    n: graphLimits[code],
    onReject: [
      (_context: unknown, error: GraphQLError) =>
        markRefusal(error, invalidRequest([{ field: 'query', code, messageKey: `detail.graphql.${code}`, params: { limit: graphLimits[code] } }])),
    ],
  });
  return EnvelopArmorPlugin({
    // A fragment is not a level of nesting: a query built from fragments has the depth of the same query written out.
    maxDepth: { ...limit('maxDepth'), flattenFragments: true },
    maxAliases: limit('maxAliases'),
    maxTokens: limit('maxTokens'),
    maxDirectives: limit('maxDirectives'),
    // Cost depends on the variables: measured at execution (executionGuard.ts).
    costLimit: { enabled: false },
    // The schema is public (introspection, schema.graphql): "Did you mean …?" hints only help.
    blockFieldSuggestion: { enabled: false },
  }) as Plugin;
}

/**
 * A document nested so deeply that graphql-js's recursive parser runs out of stack before it counts past the token
 * limit (thousands of `[`) has more tokens than the limit allows: refused as such, not as a failure of ours.
 */
function parserDepthGuard(): Plugin {
  return {
    onParse: ({ parseFn, setParseFn }) => {
      setParseFn((source, options) => {
        try {
          return parseFn(source, options);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          const refusal = new GraphQLError(error.message);
          markRefusal(
            refusal,
            invalidRequest([{ field: 'query', code: 'maxTokens', messageKey: 'detail.graphql.maxTokens', params: { limit: graphLimits.maxTokens } }]),
          );
          throw refusal;
        }
      });
    },
  };
}

/**
 * Every error of every answer in the API's shape, in the caller's language. `contextOf` is the same function that
 * builds the GraphQL context: the caller is known for every request yoga answers (GraphiQL's page needs none).
 */
function apiErrors<ServerContext extends object>(
  logger: Logger,
  contextOf: (serverContext: ServerContext) => GraphContext,
): Plugin<GraphContext, ServerContext> {
  const refusal = (error: AppError, serverContext: ServerContext, fetchAPI: { Response: typeof Response }) => {
    const { language, requestId } = contextOf(serverContext);
    return fetchAPI.Response.json(graphqlErrorBody(error, language, requestId), { status: error.httpStatus, headers: error.headers });
  };
  return {
    // Only the endpoint itself: yoga would answer anything below it with an empty 404.
    onRequest: ({ request, url, serverContext, endResponse, fetchAPI }) => {
      if (url.pathname === graphqlEndpoint) return;
      endResponse(refusal(new AppError('NOT_FOUND', 'routeNotFound', { method: request.method, path: url.pathname }), serverContext, fetchAPI));
    },
    // No parser takes the request (another content type, another method): yoga would answer with an empty body.
    onRequestParse: ({ request, requestParser, serverContext, endResponse, fetchAPI }) => {
      if (requestParser) return;
      const allowed = ['GET', 'POST'];
      const error = allowed.includes(request.method)
        ? new AppError('INVALID_REQUEST', 'graphqlMediaType', {}, { status: 415 })
        : new AppError(
            'INVALID_REQUEST',
            'methodNotAllowed',
            { method: request.method, path: graphqlEndpoint, allowed: allowed.join(', ') },
            {
              status: 405,
              headers: { Allow: allowed.join(', ') },
            },
          );
      endResponse(refusal(error, serverContext, fetchAPI));
    },
    onResultProcess: ({ request, result, setResult, resultProcessor, setResultProcessor, serverContext }) => {
      if (resultProcessor && acceptsAnyJson(request)) setResultProcessor(resultProcessor, graphqlResponseMediaType);
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.length) return;
      const { language, requestId } = contextOf(serverContext);
      const hasData = 'data' in result && result.data !== undefined;
      const errors = result.errors.map((error) =>
        toGraphQLError(error as GraphQLError, language, requestId, statusRuleOf(error as GraphQLError, hasData), (cause) =>
          logger.error({ err: cause, requestId }, 'graphql request failed'),
        ),
      );
      setResult({ ...result, errors });
    },
  };
}

let graphiql: Promise<string> | undefined;

/**
 * GraphiQL from our own dependencies (no CDN), with a first tab that says how to authenticate. Rendered when a
 * browser first opens /graphql: @graphql-yoga/render-graphiql is 9 MB of JavaScript no other request needs.
 */
export function graphiqlPage(): Promise<string> {
  graphiql ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) =>
    renderGraphiQL({
      title: 'Social Publishing Service graph',
      defaultQuery: [
        '# Authenticate in the Headers tab below, with an API key:',
        '#   { "Authorization": "Bearer sps_..." }',
        '# or, signed in to the dashboard in this browser, with the workspace id:',
        '#   { "x-workspace-id": "<workspace id>" }',
        '{',
        '  viewer { workspaceId role scopes }',
        '}',
        '',
      ].join('\n'),
      headers: JSON.stringify({ Authorization: 'Bearer <your API key>' }, null, 2),
      credentials: 'same-origin',
    }),
  );
  return graphiql;
}

export function createGraphHandler<ServerContext extends object>(logger: Logger, contextOf: (serverContext: ServerContext) => GraphContext) {
  return createYoga<ServerContext, GraphContext>({
    schema: graphSchema,
    graphqlEndpoint,
    context: (initial) => contextOf(initial),
    // Masking happens in apiErrors, which knows the caller's language.
    maskedErrors: false,
    logging: false,
    landingPage: false,
    maxRequestBodySize: graphLimits.maxRequestBytes,
    graphiql: true,
    renderGraphiQL: graphiqlPage,
    // yoga's default answers every Origin, with credentials: CORS is the HTTP app's (rest/cors.ts).
    cors: false,
    plugins: [documentLimits(), parserDepthGuard(), storableText(), executionGuard(), apiErrors(logger, contextOf)],
  });
}
