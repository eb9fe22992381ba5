// X API v2 as the adapter calls it: answers' shapes, and how an error answer becomes a ProviderError. X answers errors
// as problem JSON (https://docs.x.com/x-api/fundamentals/response-codes-and-errors): `{title, detail, type, status}`,
// a 400 with `errors: [{message, parameters}]`, and 200s that carry `errors` beside (or instead of) `data`. Every answer
// has `x-rate-limit-limit/-remaining/-reset` (Unix seconds), and a 429 waits for that reset
// (https://docs.x.com/x-api/fundamentals/rate-limits), except where a tier's 24-hour cap is spent: its own
// `x-user-limit-24hour-*` / `x-app-limit-24hour-*` headers then say when posting is allowed again (twitter-api-v2 reads
// them as `rateLimit.userDay` / `rateLimit.day`). A pay-per-use app whose credits are used up is answered 402. Two
// problem types name the app's access rather than the call: `client-forbidden` (403, an app whose tier or Project
// does not include the endpoint: the Free tier's recent search) and `usage-capped` (429, the monthly cap of posts
// read is used up; its body as recorded in xdevplatform/xdk#25), both problem types of that page.
import { ProviderError } from '../adapter.ts';
import { NetworkHttp, type ResponseHeaders } from '../http.ts';

export interface XProblem {
  title?: string;
  detail?: string;
  type?: string;
  status?: number;
  errors?: { message?: string; detail?: string; title?: string }[];
}

export interface ProcessingInfo {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  progress_percent?: number;
  error?: { message?: string; name?: string };
}

/** `POST /2/media/upload/initialize`, `/finalize`, `GET /2/media/upload?command=STATUS`. */
export interface MediaAnswer {
  data?: { id: string; media_key?: string; processing_info?: ProcessingInfo };
}

export interface Post {
  id: string;
  text: string;
  /** With tweet.fields=referenced_tweets: the post this one replies to, quotes or reposts. */
  referenced_tweets?: { type: 'replied_to' | 'quoted' | 'retweeted'; id: string }[];
  public_metrics?: { retweet_count: number; reply_count: number; like_count: number; quote_count: number; impression_count?: number };
}

export interface User {
  id: string;
  name: string;
  username: string;
  profile_image_url?: string;
}

/** X's own reason: a 400's parameter messages, else the problem's detail or title. */
export function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? body : undefined;
  const problem = body as XProblem;
  const messages = (problem.errors ?? []).map((error) => error.message ?? error.detail ?? error.title).filter(Boolean);
  if (messages.length) return messages.join(' ');
  return problem.detail ?? problem.title;
}

const dailyCaps = [
  { prefix: 'x-user-limit-24hour', whose: "the account's" },
  { prefix: 'x-app-limit-24hour', whose: "the app's" },
];

/** The 24-hour cap a 429 says is spent, and how long until its reset (Unix seconds); the latest where both are. */
function dailyCapOf(headers: ResponseHeaders, now = Date.now()): { whose: string; waitMs: number } | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim();
  };
  const spent = dailyCaps.flatMap(({ prefix, whose }) => {
    const reset = Number(header(`${prefix}-reset`));
    return header(`${prefix}-remaining`) === '0' && reset > 0 ? [{ whose, waitMs: Math.max(0, reset * 1000 - now) }] : [];
  });
  return spent.sort((a, b) => b.waitMs - a.waitMs)[0];
}

/** Whether a problem's `type` is X's problem `name` (https://api.twitter.com/2/problems/<name>, or on api.x.com). */
const problemIs = (body: unknown, name: string) =>
  typeof (body as XProblem | null)?.type === 'string' && (body as XProblem).type!.endsWith(`/2/problems/${name}`);

/** X's meaning of the answers where it is not the usual one (http.ts): the 24-hour caps, credits used up, the app's access. */
export function classify({
  status,
  headers,
  body,
  reason,
}: {
  status: number;
  headers: ResponseHeaders;
  body: unknown;
  reason: string;
}): ProviderError | undefined {
  if (status === 403 && problemIs(body, 'client-forbidden')) {
    return new ProviderError(
      'PROVIDER_REJECTED',
      `X refused: the X app's API access does not include this endpoint; the operator moves the app to a tier that has it (the inbox's recent search: Basic or above) or sets X_API_TIER=free. X said: ${reason}`,
      false,
    );
  }
  if (status === 429 && problemIs(body, 'usage-capped')) {
    return new ProviderError(
      'RATE_LIMITED_BY_PROVIDER',
      `X: the X app's monthly cap of posts read is used up (${reason}); reading resumes once X resets it.`,
      false,
    );
  }
  if (status === 429) {
    const cap = dailyCapOf(headers);
    if (!cap) return undefined;
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', `X: ${cap.whose} 24-hour posting cap of its API tier is reached (${reason}).`, true, {
      retryAfterMs: cap.waitMs,
    });
  }
  if (status === 402) {
    return new ProviderError(
      'PROVIDER_REJECTED',
      `X refused: the X app's pay-per-use credits are used up (${reason}). The operator adds credits in the X developer console, then publishes again.`,
      false,
    );
  }
  return undefined;
}

export function xHttp(timeoutMs: number): NetworkHttp {
  return new NetworkHttp({
    network: 'X',
    reasonOf,
    classify,
    timeoutMs,
  });
}

/** What a 200 answer with `errors` and no `data` means (a post deleted or not visible). */
export function dataOf<T>(body: { data?: T } & XProblem, what: string): T {
  if (body.data) return body.data;
  throw new ProviderError('PROVIDER_REJECTED', reasonOf(body) ?? `X answered without the ${what}.`, false);
}
