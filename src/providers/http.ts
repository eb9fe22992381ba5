// Calling a network's HTTP API, the same way for every network adapter: one timeout per call covering all its
// attempts (combined with the job's signal), re-sending after transient answers (5xx, dropped connections) with
// exponential backoff (undici's retry interceptor), and every other answer turned into the ProviderError the
// worker acts on:
//   429                 RATE_LIMITED_BY_PROVIDER, transient, retried after the reset the network gave
//   401                 ACCOUNT_NEEDS_RECONNECT with tokenRejected (the worker refreshes once, then gives up)
//   other 3xx and 4xx   PROVIDER_REJECTED, permanent, with the network's own reason (API calls never follow redirects)
//   5xx, no answer      PROVIDER_UNAVAILABLE, transient (after the retries)
//   an answer too long  PROVIDER_UNAVAILABLE, permanent: read only up to NETWORK_ANSWER_MAX_BYTES, then dropped
// Nothing here logs, and no error carries a request header, so access tokens never leave the call.
import type { Readable } from 'node:stream';
import { Agent, fetch as undiciFetch, interceptors, request, type Dispatcher } from 'undici';
import { AnswerTooLarge, capped, readAtMost } from '../outbound/answerLimit.ts';
import { guardedConnector, RefusedDestination, webUrl } from '../outbound/guard.ts';
import { ProviderError } from './adapter.ts';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface NetworkHttpOptions {
  /** The network's name as people know it ("Mastodon"), for reasons the network did not give itself. */
  network: string;
  /** The network's own reason in an error answer (`body` is parsed JSON where the answer was JSON, else text). */
  reasonOf: (body: unknown, status: number) => string | undefined;
  /**
   * The network's own meaning of an error answer, where it differs from the usual one below (Meta's HTTP 400 with
   * code 190 for a refused token, its throttling codes; X's duplicate-content 403): a ProviderError, or undefined
   * for the usual mapping. `reason` is the network's reason, as `reasonOf` read it.
   */
  classify?: (answer: { status: number; headers: ResponseHeaders; body: unknown; reason: string }) => ProviderError | undefined;
  /** For one call, all its attempts included. */
  timeoutMs?: number;
  /** Re-sends after a transient failure, and the wait before the first one (doubling after each). */
  retries?: number;
  retryDelayMs?: number;
  userAgent?: string;
  /**
   * For networks at hosts a person names (a Mastodon instance): every connection goes through the SSRF guard, and
   * only these hosts or addresses may be private (NETWORK_ALLOWED_HOSTS). Unset for networks at fixed public hosts.
   */
  allowedHosts?: ReadonlySet<string>;
}

export type NetworkRequestBody =
  | { json: unknown }
  /** multipart/form-data; its parts must be in memory (strings, Blobs) so that a retry can send them again. */
  | { multipart: FormData }
  | { form: Record<string, string> }
  /** Raw bytes (an upload segment), in memory so that a retry can send them again. */
  | { bytes: Buffer; contentType: string }
  /** Streamed from storage (src/providers/kit/upload.ts), never whole in memory: sent once, never re-sent. */
  | { stream: () => Promise<Readable>; length: number; contentType: string };

export interface NetworkRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string | URL;
  /** Sent as `Authorization: Bearer …`. */
  accessToken?: string;
  headers?: Record<string, string>;
  body?: NetworkRequestBody;
  /** The job's signal: aborting it aborts the call (and rethrows its reason, it is not a network failure). */
  signal?: AbortSignal;
  /**
   * Whether sending the request again cannot do harm. GET, PUT and DELETE are; a POST is only when the network
   * de-duplicates it (an idempotency key). Requests that are not are sent once.
   */
  idempotent?: boolean;
  /** Answers that are results for this call rather than failures, e.g. 404 for a lookup. */
  accept?: readonly number[];
}

export interface NetworkResponse<T> {
  status: number;
  headers: ResponseHeaders;
  body: T;
}

const transientStatuses = [500, 502, 503, 504];
const transientErrorCodes = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
];
export const defaultNetworkAnswerBytes = 4 * 1024 * 1024;
let answerBytesAtMost = defaultNetworkAnswerBytes;

/**
 * The most any answer a network or a host it names gives is read to (NETWORK_ANSWER_MAX_BYTES), for every client
 * of this module (`send` and `networkFetch`): set once as the service starts, from its configuration.
 */
export function limitNetworkAnswers(bytes: number): void {
  answerBytesAtMost = bytes;
}

const everyMethod: Dispatcher.HttpMethod[] = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE', 'POST', 'PATCH'];

export class NetworkHttp {
  /** For clients that take a `fetch` (oauth4webapi): the same guard as `send`. */
  readonly fetch: typeof fetch;
  readonly #options: Required<Omit<NetworkHttpOptions, 'userAgent' | 'allowedHosts' | 'classify'>> &
    Pick<NetworkHttpOptions, 'classify'> & { userAgent: string };
  readonly #dispatcher: Dispatcher;
  readonly #allowedHosts: ReadonlySet<string> | undefined;

  constructor(options: NetworkHttpOptions) {
    const { allowedHosts, ...rest } = options;
    this.#allowedHosts = allowedHosts;
    this.#options = { timeoutMs: 30_000, retries: 2, retryDelayMs: 500, userAgent: 'social-publishing-service', ...rest };
    this.fetch = networkFetch(allowedHosts);
    this.#dispatcher = new Agent({ connections: 16, ...(allowedHosts ? { connect: guardedConnector(allowedHosts) } : {}) }).compose(
      interceptors.retry({
        maxRetries: this.#options.retries,
        minTimeout: this.#options.retryDelayMs,
        maxTimeout: 30_000,
        timeoutFactor: 2,
        statusCodes: transientStatuses,
        errorCodes: transientErrorCodes,
        // The final answer is handed on rather than thrown, so its reason can be read.
        throwOnError: false,
      }),
    );
  }

  /** Sends the request; resolves with 2xx answers (and those in `accept`), throws a ProviderError otherwise. */
  async send<T = unknown>(call: NetworkRequest): Promise<NetworkResponse<T>> {
    const { network, timeoutMs } = this.#options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const { body, contentType, length } = await encodeBody(call.body);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#options.userAgent, ...call.headers };
    if (contentType) headers['content-type'] = contentType;
    if (length !== undefined) headers['content-length'] = String(length);
    if (call.accessToken) headers.authorization = `Bearer ${call.accessToken}`;
    const streamed = call.body !== undefined && 'stream' in call.body;
    const resendable = !streamed && (call.idempotent ?? !(call.method === 'POST' || call.method === 'PATCH'));
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(call.url, {
        method: call.method,
        headers,
        body,
        signal,
        dispatcher: this.#dispatcher,
        // Per-request options of the retry interceptor (undici passes them through; its `request` type omits them).
        retryOptions: { methods: resendable ? everyMethod : [] },
      } as Parameters<typeof request>[1]);
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      const refusal = refusalOf(error);
      if (refusal) throw new ProviderError('PROVIDER_UNAVAILABLE', `${network}: ${refusal.reasonWith('NETWORK_ALLOWED_HOSTS')}`, false);
      if (timeout.aborted) throw new ProviderError('PROVIDER_UNAVAILABLE', `${network} did not answer within ${timeoutMs / 1000} s.`, true);
      const code = (error as { code?: string }).code;
      throw new ProviderError('PROVIDER_UNAVAILABLE', `${network} could not be reached${code ? ` (${code})` : ''}.`, true);
    }
    let parsed: unknown;
    try {
      parsed = await readBody(answer);
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (error instanceof AnswerTooLarge) throw tooLarge(network, error);
      throw new ProviderError('PROVIDER_UNAVAILABLE', `${network} broke off its answer.`, true);
    }
    const status = answer.statusCode;
    if (status < 300 || call.accept?.includes(status)) return { status, headers: answer.headers, body: parsed as T };
    throw this.#failure(status, answer.headers, parsed);
  }

  /**
   * A URL the network handed us to call or to show people (an endpoint its metadata announces): its text if it
   * passes `webUrl` with this client's allowed hosts, else a refusal (ProviderError) naming `what` it was.
   */
  urlFromNetwork(raw: unknown, what: string): string {
    try {
      return webUrl(typeof raw === 'string' ? raw : '', this.#allowedHosts ?? new Set()).href;
    } catch (error) {
      if (!(error instanceof RefusedDestination)) throw error;
      throw new ProviderError(
        'PROVIDER_UNAVAILABLE',
        `${this.#options.network} named a ${what} that cannot be used: ${error.reasonWith('NETWORK_ALLOWED_HOSTS')}`,
        false,
      );
    }
  }

  #failure(status: number, headers: ResponseHeaders, body: unknown): ProviderError {
    const { network, reasonOf, classify } = this.#options;
    const reason = reasonOf(body, status) ?? `${network} answered HTTP ${status}.`;
    const classified = classify?.({ status, headers, body, reason });
    if (classified) return classified;
    if (status === 429) return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: retryAfterMs(headers) });
    if (status === 401) return new ProviderError('ACCOUNT_NEEDS_RECONNECT', reason, false, { tokenRejected: true });
    if (status >= 500) return new ProviderError('PROVIDER_UNAVAILABLE', reason, true, { retryAfterMs: retryAfterMs(headers) });
    return new ProviderError('PROVIDER_REJECTED', reason, false);
  }
}

/** The SSRF guard's refusal, thrown before the request or by the socket's lookup (then wrapped, maybe twice). */
export function refusalOf(error: unknown): RefusedDestination | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof RefusedDestination) return cause;
  }
  return undefined;
}

/**
 * The `fetch` for clients that take one (oauth4webapi, the atproto client); the global one is never used. With
 * `allowedHosts`, for hosts a person or a network named: every connection (a redirect's too) goes through the SSRF
 * guard (see `NetworkHttpOptions.allowedHosts`), and a refused host rejects like an unreachable one. Without, for
 * the hosts the operator configured (X's API).
 */
export function networkFetch(allowedHosts?: ReadonlySet<string>): typeof fetch {
  const dispatcher = new Agent(allowedHosts ? { connect: guardedConnector(allowedHosts) } : {});
  // Its answers are read at most to the limit (a longer one fails as it is read, like a dropped connection).
  return (async (input: string | URL | Request, init?: RequestInit) =>
    capped((await undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as Response, answerBytesAtMost)) as typeof fetch;
}

/** A network's answer past the limit: not the network's reason, and no retry makes it shorter. */
export const tooLarge = (network: string, error: AnswerTooLarge) =>
  new ProviderError('PROVIDER_UNAVAILABLE', `${network} answered with more than ${error.limit.toLocaleString('en')} bytes; the answer was not read.`, false);

async function encodeBody(
  body: NetworkRequestBody | undefined,
): Promise<{ body: string | Buffer | Readable | undefined; contentType?: string; length?: number }> {
  if (!body) return { body: undefined };
  if ('bytes' in body) return { body: body.bytes, contentType: body.contentType };
  if ('stream' in body) return { body: await body.stream(), contentType: body.contentType, length: body.length };
  if ('json' in body) return { body: JSON.stringify(body.json), contentType: 'application/json' };
  if ('form' in body) return { body: new URLSearchParams(body.form).toString(), contentType: 'application/x-www-form-urlencoded' };
  // The standard encoder (boundary included), into one buffer that every attempt can send again.
  const encoded = new Response(body.multipart);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? undefined };
}

async function readBody(answer: Awaited<ReturnType<typeof request>>): Promise<unknown> {
  const text = (await readAtMost(answer.body, answerBytesAtMost, answer.headers['content-length'])).toString('utf8');
  const type = String(answer.headers['content-type'] ?? '');
  if (text === '' || !/\bjson\b/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const headerOf = (headers: ResponseHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * How long a network asked us to wait, from whichever header it sends: `Retry-After` (seconds or an HTTP date),
 * `RateLimit` (the IETF structured field, `t=` seconds; or the older `reset=`), `RateLimit-Reset` or
 * `X-RateLimit-Reset` or X's `X-Rate-Limit-Reset` (seconds left, or a time: ISO 8601 at Mastodon, Unix seconds at atproto,
 * X and GitHub).
 */
export function retryAfterMs(headers: ResponseHeaders, now = Date.now()): number | undefined {
  const untilDate = (text: string) => {
    const at = Date.parse(text);
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
  };
  const retryAfter = headerOf(headers, 'retry-after')?.trim();
  if (retryAfter) return /^\d+(\.\d+)?$/.test(retryAfter) ? Number(retryAfter) * 1000 : untilDate(retryAfter);
  const structured = headerOf(headers, 'ratelimit');
  const fromStructured = structured && /(?:^|[;,\s])(?:t|reset)=(\d+)/.exec(structured)?.[1];
  if (fromStructured) return Number(fromStructured) * 1000;
  const reset =
    headerOf(headers, 'ratelimit-reset')?.trim() || headerOf(headers, 'x-ratelimit-reset')?.trim() || headerOf(headers, 'x-rate-limit-reset')?.trim();
  if (!reset) return undefined;
  if (!/^\d+(\.\d+)?$/.test(reset)) return untilDate(reset);
  // Seconds left, or a Unix time (atproto's RateLimit-Reset, X's and GitHub's X-RateLimit-Reset) in s or ms.
  const value = Number(reset);
  if (value > 1e12) return Math.max(0, value - now);
  if (value > 1e9) return Math.max(0, value * 1000 - now);
  return value * 1000;
}
