// What a PDS answer means for the worker. XRPC errors carry a name (`error`) and the server's reason (`message`):
//   AccountTakedown                   PROVIDER_REJECTED, saying so: no refresh or reconnect brings the account back
//   ExpiredToken, InvalidToken, 401   ACCOUNT_NEEDS_RECONNECT with tokenRejected (refresh once, then reconnect)
//   429                               RATE_LIMITED_BY_PROVIDER, retried after `RateLimit-Reset` (Unix seconds)
//   5xx, no answer                    PROVIDER_UNAVAILABLE, transient
//   other 4xx                         PROVIDER_REJECTED with the PDS's reason
import { answerTooLargeIn } from '../../outbound/answerLimit.ts';
import { ProviderError } from '../adapter.ts';
import { refusalOf, tooLarge } from '../http.ts';
import { atproto } from './sdk.ts';

const tokenErrors = new Set(['ExpiredToken', 'InvalidToken']);

function resetDelayMs(headers: Record<string, string | undefined> | undefined, now = Date.now()): number | undefined {
  const reset = Number(headers?.['ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now) : undefined;
}

/** The ProviderError for a failed call; errors that are not XRPC errors (an abort, a bug) are returned as they are. */
export async function providerErrorOf(error: unknown): Promise<unknown> {
  const refusal = refusalOf(error);
  if (refusal) return new ProviderError('PROVIDER_UNAVAILABLE', `Bluesky: ${refusal.reasonWith('NETWORK_ALLOWED_HOSTS')}`, false);
  const overlong = answerTooLargeIn(error);
  if (overlong) return tooLarge('Bluesky', overlong);
  if (error instanceof ProviderError || !(error instanceof (await atproto()).XRPCError)) return error;
  const reason = error.message && error.message !== error.error ? error.message : `Bluesky answered ${error.error || error.status}.`;
  // The PDS names a taken-down account with a 401 (createSession.js, refreshSession.js, auth-verifier.js).
  if (error.error === 'AccountTakedown') return new ProviderError('PROVIDER_REJECTED', `Bluesky has taken the account down (${reason})`, false);
  if (tokenErrors.has(error.error) || error.status === 401) return new ProviderError('ACCOUNT_NEEDS_RECONNECT', reason, false, { tokenRejected: true });
  if (error.status === 429) return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: resetDelayMs(error.headers) });
  if (error.status >= 500 || error.status < 400) {
    const unreachable = error.status < 400 ? 'The Bluesky server could not be reached.' : reason;
    return new ProviderError('PROVIDER_UNAVAILABLE', unreachable, true);
  }
  return new ProviderError('PROVIDER_REJECTED', reason, false);
}

export async function mapErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw await providerErrorOf(error);
  }
}

/** The XRPC error's name (`error`), or '' for any other error. */
export async function xrpcErrorName(error: unknown): Promise<string> {
  return error instanceof (await atproto()).XRPCError ? error.error : '';
}
