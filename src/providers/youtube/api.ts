// The YouTube Data API v3 as every YouTube call reaches it: JSON under YOUTUBE_API_BASE_URL, and the upload session
// URLs Google hands out (`Location`), which are its word and so go through the SSRF guard. Google's error answer is
// `{error: {code, message, errors: [{message, domain, reason}]}}` (https://developers.google.com/youtube/v3/docs/errors);
// what its reasons mean here:
//   403 quotaExceeded                   the project's daily units are spent: waits until Google resets them, at
//                                       midnight Pacific time (https://developers.google.com/youtube/v3/getting-started#quota)
//   403 rateLimitExceeded, userRateLimitExceeded, and 429
//                                       throttled, without saying for how long: the worker backs off (kit/backoff.ts)
//   401                                 the access token is refused (the usual mapping: refreshed once)
//   other 4xx                           refused, with Google's `error.message` (a YouTubeRefusal, which keeps the
//                                       reasons for callers that treat one as an answer: the inbox's commentsDisabled)
import { Temporal } from 'temporal-polyfill';
import { ProviderError } from '../adapter.ts';
import { NetworkApi, type NetworkApiOptions } from '../kit/networkApi.ts';

interface GoogleError {
  error?: { code?: number; message?: string; errors?: { reason?: string; message?: string }[] } | string;
  error_description?: string;
}

/** A refusal, with Google's reasons (`errors[].reason`). */
export class YouTubeRefusal extends ProviderError {
  readonly reasons: readonly string[];

  constructor(message: string, reasons: readonly string[]) {
    super('PROVIDER_REJECTED', message, false);
    this.reasons = reasons;
  }
}

const throttlingReasons = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? `YouTube: ${body.slice(0, 300)}` : undefined;
  const { error, error_description: description } = body as GoogleError;
  const message = typeof error === 'object' ? error.message : description;
  return message ? `YouTube: ${message}` : undefined;
}

function classify({ status, body, reason }: { status: number; body: unknown; reason: string }): ProviderError | undefined {
  const error = (body as GoogleError | null)?.error;
  const reasons = typeof error === 'object' ? (error.errors ?? []).map((entry) => entry.reason) : [];
  if (status === 403 && reasons.includes('quotaExceeded'))
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: untilQuotaReset(Temporal.Now.instant()) });
  if (status === 403 && reasons.some((entry) => entry !== undefined && throttlingReasons.has(entry)))
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true);
  if (status >= 400 && status < 500 && status !== 401 && status !== 429)
    return new YouTubeRefusal(
      reason,
      reasons.filter((entry) => entry !== undefined),
    );
  return undefined;
}

/** Milliseconds from `now` until the next midnight in Los Angeles, when Google resets the day's quota. */
export function untilQuotaReset(now: Temporal.Instant): number {
  const pacific = now.toZonedDateTimeISO('America/Los_Angeles');
  const midnight = pacific.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: 'America/Los_Angeles' });
  return midnight.toInstant().epochMilliseconds - now.epochMilliseconds;
}

/** Calls at paths /youtube/v3/… and /upload/youtube/v3/…; `uploads` calls the upload sessions Google names. */
export class YouTubeApi extends NetworkApi {
  constructor(options: NetworkApiOptions) {
    // Google answers the session's start with its URL at www.googleapis.com
    // (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol, step 2); the API is also
    // served at youtube.googleapis.com (https://developers.google.com/youtube/v3/docs, the discovery document's rootUrl).
    super(options, { network: 'YouTube', reasonOf, classify, tokenHosts: ['www.googleapis.com', 'youtube.googleapis.com'] });
  }

  /** An upload session URL Google answered with, once it passes the SSRF guard and is at Google's API hosts (it gets the token). */
  sessionUrl(location: unknown): string {
    return this.givenUrl(Array.isArray(location) ? location[0] : location, 'upload session URL', { withToken: true });
  }
}
