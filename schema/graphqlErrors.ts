// Domain errors in GraphQL: `extensions.code` carries the same code as REST, the message follows the caller's
// language; anything unexpected is masked as INTERNAL.
import { GraphQLError } from 'graphql';
import { AppError, internalError } from '../src/errors/appError.ts';
import { localizeError } from '../src/errors/localize.ts';
import type { Language } from '../src/errors/messages.ts';

export function toGraphQLError(error: GraphQLError, language: Language, requestId: string, onInternal: (error: unknown) => void): GraphQLError {
  const original = error.originalError;
  // Parse and validation errors of the document itself: already safe and meaningful.
  if (!original || original instanceof GraphQLError) return error;
  const appError = original instanceof AppError ? original : internalError(original);
  if (appError.code === 'INTERNAL') onInternal(original);
  const { code, message, details } = localizeError(appError, language);
  return new GraphQLError(message, {
    nodes: error.nodes,
    path: error.path,
    extensions: { code, requestId, http: { status: appError.httpStatus }, ...(details ? { details } : {}) },
  });
}

export function graphqlErrorBody(error: AppError, language: Language, requestId: string) {
  const { code, message, details } = localizeError(error, language);
  return { errors: [{ message, extensions: { code, requestId, ...(details ? { details } : {}) } }] };
}
