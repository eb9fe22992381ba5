// X API v2 as the adapter calls it: answers' shapes, and how an error answer becomes a ProviderError. X answers errors
// as problem JSON (https://docs.x.com/x-api/fundamentals/response-codes-and-errors): `{title, detail, type, status}`,
// a 400 with `errors: [{message, parameters}]`, and 200s that carry `errors` beside (or instead of) `data`. Every answer
// has `x-rate-limit-limit/-remaining/-reset` (Unix seconds), and a 429 waits for that reset
// (https://docs.x.com/x-api/fundamentals/rate-limits).
import { ProviderError } from '../adapter.ts';
import { NetworkHttp } from '../http.ts';

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

export function xHttp(timeoutMs: number): NetworkHttp {
  return new NetworkHttp({
    network: 'X',
    reasonOf,
    timeoutMs,
  });
}

/** What a 200 answer with `errors` and no `data` means (a post deleted or not visible). */
export function dataOf<T>(body: { data?: T } & XProblem, what: string): T {
  if (body.data) return body.data;
  throw new ProviderError('PROVIDER_REJECTED', reasonOf(body) ?? `X answered without the ${what}.`, false);
}
