// Every error /graphql answers, in the API's shape: `extensions.code` carries the same code as REST (and
// `requestId`, `details` for a 400), the message follows the caller's language, the HTTP status is the code's.
// What the request itself got wrong (transport, syntax, validation, variables, limits) is INVALID_REQUEST;
// a passing database failure is SERVICE_UNAVAILABLE, anything else unexpected is masked as INTERNAL. Nothing else of the original error (stack, cause) is kept.
import { GraphQLError } from 'graphql';
import { AppError, asAppError, invalidRequest, isServiceFault } from '../src/errors/appError.ts';
import { localizeError } from '../src/errors/localize.ts';
import type { Language } from '../src/errors/messages.ts';
import { graphLimits } from './limits.ts';

/** Refusals raised as plain GraphQL errors by code we do not own (graphql-armor), with what they mean. */
const refusals = new WeakMap<GraphQLError, AppError>();

export function markRefusal(error: GraphQLError, meaning: AppError): void {
  refusals.set(error, meaning);
}

/** A GraphQL error carrying a domain error, for plugins that answer before or instead of execution. */
export function asGraphQLError(error: AppError): GraphQLError {
  return new GraphQLError(error.message, { originalError: error });
}

function isRequestError(error: GraphQLError): boolean {
  // Errors of a field (with a path) come from resolvers; the rest from reading, parsing, validating the request
  // and coercing its variables. Yoga marks its transport refusals with an HTTP status below 500.
  if (error.path) return false;
  const status = (error.extensions.http as { status?: number } | undefined)?.status;
  if (status !== undefined) return status < 500;
  let cause: unknown = error.originalError;
  while (cause instanceof GraphQLError) cause = cause.originalError;
  return cause === undefined || cause === null;
}

function meaningOf(error: GraphQLError): AppError {
  const original = error.originalError;
  if (original instanceof AppError) return original;
  const refusal = refusals.get(error);
  if (refusal) return refusal;
  if (isRequestError(error)) {
    const status = (error.extensions.http as { status?: number } | undefined)?.status;
    // As REST answers a body over its limit.
    if (status === 413) {
      return invalidRequest([{ field: 'body', code: 'tooLarge', messageKey: 'detail.tooLarge', params: { limit: graphLimits.maxRequestBytes } }]);
    }
    const field = error.message.startsWith('Variable "$') ? 'variables' : 'query';
    const reason = { reason: error.message };
    return new AppError('INVALID_REQUEST', 'graphqlInvalid', reason, {
      status: status && status >= 400 ? status : undefined,
      details: [{ field, code: 'graphql', messageKey: 'graphqlInvalid', params: reason }],
    });
  }
  return asAppError(original ?? error);
}

/**
 * Which HTTP status an answer with this error gets (GraphQL over HTTP). An error yoga gave a status before there was
 * a document to point into refused the HTTP request itself (not JSON, no query, too large): that status, whatever
 * the client accepts. Any other error of an answer without `data` is a request error (syntax, validation,
 * variables, limits, cost): its code's status with `application/graphql-response+json`, 200 with
 * `application/json` (yoga reads `spec` so). An answer with `data` is 200: its errors are field errors.
 */
export type StatusRule = 'http' | 'request' | 'field';

export function statusRuleOf(error: GraphQLError, answerHasData: boolean): StatusRule {
  if (answerHasData) return 'field';
  const refusedByYoga = (error.extensions.http as { status?: number } | undefined)?.status !== undefined;
  return refusedByYoga && !error.locations ? 'http' : 'request';
}

export function toGraphQLError(
  error: GraphQLError,
  language: Language,
  requestId: string,
  rule: StatusRule,
  onInternal: (error: unknown) => void,
): GraphQLError {
  const appError = meaningOf(error);
  if (isServiceFault(appError)) onInternal(error.originalError ?? error);
  const { code, message, details } = localizeError(appError, language);
  const headers = Object.keys(appError.headers).length ? { headers: appError.headers } : {};
  const status = rule === 'field' ? {} : { status: appError.httpStatus, ...(rule === 'request' ? { spec: true } : {}) };
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { code, requestId, ...(details ? { details } : {}), http: { ...status, ...headers } },
  });
}

export function graphqlErrorBody(error: AppError, language: Language, requestId: string) {
  const { code, message, details } = localizeError(error, language);
  return { errors: [{ message, extensions: { code, requestId, ...(details ? { details } : {}) } }] };
}
