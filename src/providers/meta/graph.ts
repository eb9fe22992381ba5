// Meta's Graph API as Facebook Pages, Instagram and Threads reach it: `<base>/<version>/<path>`, parameters as a
// form (POST) or a query (GET), the token as a Bearer header, and every error answer classified once:
//   Handling Errors  https://developers.facebook.com/docs/graph-api/guides/error-handling
//     `{error: {message, type, code, error_subcode, error_user_msg, fbtrace_id}}`; code 190 (and 102) is a dead
//     token whatever the HTTP status (usually 400).
//   Rate Limits  https://developers.facebook.com/docs/graph-api/overview/rate-limiting/
//     throttling is an error code (4, 17, 32, 613, 80001–80014), never HTTP 429; `X-Business-Use-Case-Usage`
//     (and `X-App-Usage`) carry `estimated_time_to_regain_access` in minutes.
//   Instagram's daily publishing cap  code 9 / subcode 2207042 (Postiz `instagram.provider.ts` `handleErrors`: "the
//     maximum of posts per day"): counted per account and app, so another app can have used it up although our quota
//     had room; the cap is a moving 24 hours that Meta does not say the end of: asked again in an hour.
//   Threads' "Media Not Found"  code 24 / subcode 4279009 from threads_publish seconds after the container said
//     FINISHED (`is_transient: false` all the same): a race at Threads, a third of a production client's unexplained
//     Threads failures (gitroomhq/postiz-app#2047: 210 of 584, a median 7 s after the container was made; its fix and
//     trypostit/trypost#280 publish again after a few seconds). Transient: published again in a few seconds.
import { ProviderError } from '../adapter.ts';
import { NetworkHttp, type NetworkRequest, type NetworkResponse, type ResponseHeaders } from '../http.ts';

export interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  fbtrace_id?: string;
}

const graphErrorOf = (body: unknown): GraphError | undefined =>
  typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'object' ? (body as { error: GraphError }).error : undefined;

/** The rupload host (Reels uploads) answers its own shape: `{debug_info: {retriable, type, message}}`. */
const uploadErrorOf = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null ? (body as { debug_info?: { message?: string } }).debug_info?.message : undefined;

function reasonOf(body: unknown): string | undefined {
  const error = graphErrorOf(body);
  const uploadError = uploadErrorOf(body);
  if (uploadError) return `Meta: ${uploadError}`;
  if (!error) return typeof body === 'string' && body ? `Meta: ${body.slice(0, 300)}` : undefined;
  const text = error.error_user_msg || error.message;
  return text ? `Meta: ${text}${error.code === undefined ? '' : ` (#${error.code}${error.error_subcode ? `/${error.error_subcode}` : ''})`}` : undefined;
}

const throttlingCodes = new Set([4, 17, 32, 613]);
const isThrottling = (code: number) => throttlingCodes.has(code) || (code >= 80001 && code <= 80014);
/** Where Meta throttles without saying for how long: a minute, as its usage windows are counted in minutes. */
const defaultThrottleWaitMs = 60_000;
const dailyCapWaitMs = 3_600_000;
const mediaNotFoundWaitMs = 5_000;

/** The longest `estimated_time_to_regain_access` (minutes) in the usage headers, in ms. */
export function regainAccessMs(headers: ResponseHeaders): number | undefined {
  const minutes: number[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'estimated_time_to_regain_access' && typeof inner === 'number') minutes.push(inner);
        else visit(inner);
      }
    }
  };
  for (const name of ['x-business-use-case-usage', 'x-app-usage', 'x-ad-account-usage']) {
    const raw = headers[name];
    for (const text of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      try {
        visit(JSON.parse(text));
      } catch {
        // A header that is not JSON says nothing about waiting.
      }
    }
  }
  return minutes.length ? Math.max(...minutes) * 60_000 : undefined;
}

function classify({ headers, body, reason }: { headers: ResponseHeaders; body: unknown; reason: string }): ProviderError | undefined {
  const error = graphErrorOf(body);
  if (error?.code === undefined) return undefined;
  if (error.code === 190 || error.code === 102) return new ProviderError('ACCOUNT_NEEDS_RECONNECT', reason, false, { tokenRejected: true });
  if (error.code === 9 && error.error_subcode === 2207042)
    return new ProviderError(
      'RATE_LIMITED_BY_PROVIDER',
      `${reason}: the account's daily publishing cap is reached (by any app); asked again in an hour.`,
      true,
      {
        retryAfterMs: dailyCapWaitMs,
      },
    );
  if (error.code === 24 && error.error_subcode === 4279009)
    return new ProviderError('PROVIDER_UNAVAILABLE', `${reason}: Meta had not yet found the finished media; published again shortly.`, true, {
      retryAfterMs: mediaNotFoundWaitMs,
    });
  if (isThrottling(error.code)) {
    const wait = regainAccessMs(headers);
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: wait && wait > 0 ? wait : defaultThrottleWaitMs });
  }
  // Everything else Meta says with a code (media not fetchable, wrong format, missing permission) is its refusal of
  // this call, with its own message: PROVIDER_REJECTED, the usual mapping of a 4xx.
  return undefined;
}

export interface GraphOptions {
  /** FACEBOOK_API_BASE_URL (graph.facebook.com), or graph.threads.net for Threads. */
  baseUrl: string;
  /** META_GRAPH_API_VERSION, `v23.0`; none for the unversioned paths (Threads' `/access_token`). */
  version?: string;
  network: string;
  timeoutMs: number;
  retryDelayMs?: number;
}

export interface GraphCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** After the version: `/me/accounts`, `/<page-id>/feed`. */
  path: string;
  accessToken?: string;
  /** Query parameters of a GET, the form of a POST. */
  params?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

export class Graph {
  /** For clients that take a `fetch` (the OAuth client): the same connections as the Graph calls. */
  readonly fetch: typeof fetch;
  readonly #http: NetworkHttp;
  readonly #base: string;

  constructor(options: GraphOptions) {
    this.#http = new NetworkHttp({ network: options.network, reasonOf, classify, timeoutMs: options.timeoutMs, retryDelayMs: options.retryDelayMs });
    this.#base = options.version ? `${options.baseUrl}/${options.version}` : options.baseUrl;
    this.fetch = this.#http.fetch;
  }

  async send<T>(call: GraphCall): Promise<T> {
    const params = Object.fromEntries(Object.entries(call.params ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const url = new URL(`${this.#base}${call.path}`);
    if (call.method !== 'POST') for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const answer: NetworkResponse<T> = await this.#http.send<T>({
      method: call.method,
      url,
      accessToken: call.accessToken,
      signal: call.signal,
      ...(call.method === 'POST' ? { body: { form: params } } : {}),
    });
    return answer.body;
  }

  /** A call outside the Graph's paths (the rupload host of Reels uploads), through the same connections and classifier. */
  async sendTo<T>(request: NetworkRequest): Promise<T> {
    return (await this.#http.send<T>(request)).body;
  }

  get<T>(path: string, accessToken: string | undefined, params?: GraphCall['params'], signal?: AbortSignal): Promise<T> {
    return this.send<T>({ method: 'GET', path, accessToken, params, signal });
  }

  post<T>(path: string, accessToken: string, params: GraphCall['params'], signal?: AbortSignal): Promise<T> {
    return this.send<T>({ method: 'POST', path, accessToken, params, signal });
  }
}

/** An item's insights (`GET /{id}/insights?metric=`): each metric's latest value by name. */
export async function insightsOf(graph: Graph, remoteId: string, accessToken: string, metrics: string): Promise<Record<string, number>> {
  return insightValues(await graph.get<Parameters<typeof insightValues>[0]>(`/${remoteId}/insights`, accessToken, { metric: metrics }));
}

/** Insights answers `{data: [{name, values: [{value}]}]}`: each metric's latest value by name. */
export function insightValues(body: { data?: { name?: string; values?: { value?: unknown }[]; total_value?: { value?: unknown } }[] }): Record<string, number> {
  const values: Record<string, number> = {};
  for (const metric of body.data ?? []) {
    const value = metric.total_value?.value ?? metric.values?.at(-1)?.value;
    if (metric.name && typeof value === 'number') values[metric.name] = value;
  }
  return values;
}

/**
 * The id of the newest of an edge's latest items (a Page's feed, an IG user's media) whose `field` is `value`: where an
 * interrupted attempt's item is looked for before it is sent again (Meta takes no idempotency key).
 */
export async function recentItemWith(
  graph: Graph,
  path: string,
  accessToken: string,
  field: string,
  value: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const body = await graph.get<{ data?: Record<string, unknown>[] }>(path, accessToken, { fields: `id,${field}`, limit: '10' }, signal);
  const found = (body.data ?? []).find((item) => (item[field] ?? '') === value);
  return typeof found?.id === 'string' ? found.id : null;
}

/** An edge's answer, cursor-paged (https://developers.facebook.com/docs/graph-api/results). */
export interface Paged<T> {
  data?: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** Each page of an edge from `params.after` on, following `paging.cursors.after` while Meta says there is a `next`: one call a page. */
export async function* pagesOf<T>(graph: Graph, path: string, accessToken: string, params: GraphCall['params'], signal?: AbortSignal): AsyncGenerator<T[]> {
  let after = params?.after;
  do {
    const body: Paged<T> = await graph.get<Paged<T>>(path, accessToken, { ...params, after }, signal);
    yield body.data ?? [];
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
  } while (after);
}

/**
 * The comment `author` (a Page, an Instagram account) left on `on` saying `text`, if any: what an interrupted first
 * comment or reply step may have posted. Facebook names a comment's text `message`, Instagram `text`; Instagram lists
 * a comment's replies at `replies`, Facebook at `comments`.
 */
export async function commentBy(
  graph: Graph,
  on: string,
  { author, textField, text, edge = 'comments' }: { author: string; textField: 'message' | 'text'; text: string; edge?: 'comments' | 'replies' },
  accessToken: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const body = await graph.get<{ data?: ({ id?: string; from?: { id?: string } } & Record<string, unknown>)[] }>(
    `/${on}/${edge}`,
    accessToken,
    { fields: `id,from,${textField}`, limit: '50' },
    signal,
  );
  return (body.data ?? []).find((comment) => comment.from?.id === author && comment[textField] === text)?.id ?? null;
}
