// The urql client of the graph, for one workspace of the signed-in person.
import { Client, cacheExchange, fetchExchange, type CombinedError } from 'urql';
import { ApiError, type FieldDetail } from './auth.ts';
import { fetchRetryingOnce } from './rateLimit.ts';

export function graphClient(workspaceId: string): Client {
  return new Client({
    url: '/graphql',
    // A 429 waits its Retry-After and is sent once more (rateLimit.ts).
    fetch: fetchRetryingOnce,
    exchanges: [cacheExchange, fetchExchange],
    fetchOptions: { credentials: 'same-origin', headers: { 'x-workspace-id': workspaceId } },
  });
}

/** The graph's error as the API gives it: the localized message and the details of a 400 (`extensions`). */
export function apiErrorOf(error: CombinedError): ApiError {
  const first = error.graphQLErrors[0];
  if (!first) return new ApiError('NETWORK', error.networkError?.message ?? error.message);
  const extensions = first.extensions as { code?: string; details?: FieldDetail[] };
  return new ApiError(extensions.code ?? 'INTERNAL', first.message, extensions.details ?? []);
}
