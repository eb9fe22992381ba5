// What becomes of an attempt, decided from the network's answer (or its error) and the attempts so far: published,
// processing (a status check later), failed and retried (by pg-boss's backoff, or by a new job at the time the
// network gave), or failed for good. No database and no I/O: the clock and the randomness come in as arguments.
import { ProviderError, type PublishOutcome, type PublishedItem } from '../../providers/adapter.ts';
import { publishRetryLimit } from '../../jobs/boss.ts';
import { throttleBackoffMs } from '../../providers/kit/backoff.ts';
import { shownUrl } from '../../outbound/guard.ts';
import type { ClaimedTarget } from './claim.ts';

/** How long a network may keep a post in processing before the target fails. */
export const processingLimitMs = 24 * 3600_000;
/** Attempts after which a target the network keeps rate-limiting fails instead of waiting again. */
export const rateLimitedAttemptLimit = 10;

export interface Failure {
  code: string;
  message: string;
}

/** A published item as recorded and served: without a permalink where the network's would not pass `shownUrl`. */
export interface RecordedItem {
  remoteId: string;
  remoteUrl: string | null;
  parts?: RecordedItem[];
  firstComment?: { item: RecordedItem | null; error: Failure | null };
  warning?: Failure;
}

export type Decision =
  /** `at`: when the network answered (outcomes are recorded a little later, together). */
  | { kind: 'published'; item: RecordedItem; at: Date }
  | { kind: 'processing'; handle: string; checkAfter: Date }
  /** Not attempted: a quota of the network is used up until `until`. */
  | { kind: 'waiting'; until: Date; reason: string }
  /** `job`: pg-boss retries the job with backoff; `later`: a new job at `retryAt`; `never`: the target fails. */
  | { kind: 'failed'; failure: Failure; retry: 'job' | 'later' | 'never'; retryAt?: Date };

export type Outcome = Decision & { target: ClaimedTarget };

export const failed = (target: ClaimedTarget, failure: Failure): Outcome => ({ target, kind: 'failed', failure, retry: 'never' });

/** What an error other than a network's answer (a bug, a socket torn down) counts as: a transient failure. */
export const unreachable = () => new ProviderError('PROVIDER_UNAVAILABLE', 'The network could not be reached.', true);

/**
 * A failed attempt. `attempts`: the target's attempts including this one; `retryCount`: the job's retries by pg-boss
 * so far. A network's rate limit (or any failure that says when to come back) is tried again at that time, up to
 * `rateLimitedAttemptLimit` attempts; a rate limit without a time after a back-off growing with the attempts; other
 * transient failures by the job's retries, up to `publishRetryLimit`; anything else fails the target.
 */
export function afterFailure(error: ProviderError, tries: { attempts: number; retryCount: number }, now: number, random: () => number = Math.random): Decision {
  const { code, message, transient } = error;
  const failure = { code, message };
  const never: Decision = { kind: 'failed', failure, retry: 'never' };
  const throttledQuietly = code === 'RATE_LIMITED_BY_PROVIDER' && error.retryAfterMs === undefined;
  const retryAfterMs = throttledQuietly ? throttleBackoffMs(tries.attempts, random) : error.retryAfterMs;
  if (!transient) return never;
  if (retryAfterMs !== undefined) {
    return tries.attempts < rateLimitedAttemptLimit ? { kind: 'failed', failure, retry: 'later', retryAt: new Date(now + retryAfterMs) } : never;
  }
  return tries.retryCount < publishRetryLimit ? { kind: 'failed', failure, retry: 'job' } : never;
}

/**
 * The network's answer to a publish or a status check. `since`: when the network accepted the post (now, for a
 * first answer); `statusCheckMaxMs`: the longest wait before asking again; `permalinkHosts`: where a permalink may be
 * over http.
 */
export function afterAnswer(
  answer: PublishOutcome,
  context: { since: Date; now: number; statusCheckMaxMs?: number; permalinkHosts: ReadonlySet<string> },
): Decision {
  const { now } = context;
  if (answer.status === 'published') return { kind: 'published', item: recordedItem(answer.item, context.permalinkHosts), at: new Date(now) };
  if (now - context.since.getTime() > processingLimitMs) {
    return {
      kind: 'failed',
      failure: { code: 'PROVIDER_UNAVAILABLE', message: `The network did not finish processing the post within ${processingLimitMs / 3600_000} hours.` },
      retry: 'never',
    };
  }
  const checkAfterMs = Math.min(answer.checkAfterMs, context.statusCheckMaxMs ?? Number.POSITIVE_INFINITY);
  return { kind: 'processing', handle: answer.handle, checkAfter: new Date(now + checkAfterMs) };
}

/**
 * The one place a network's permalink enters the service: every transport and webhook serves what is recorded, so
 * a `javascript:` or otherwise unusable "permalink" is dropped here. The item was published all the same.
 */
export function recordedItem(item: PublishedItem, permalinkHosts: ReadonlySet<string>): RecordedItem {
  const recorded: RecordedItem = { ...item, remoteUrl: shownUrl(item.remoteUrl, permalinkHosts) };
  if (item.parts) recorded.parts = item.parts.map((part) => recordedItem(part, permalinkHosts));
  const comment = item.firstComment?.item;
  if (comment) recorded.firstComment = { ...item.firstComment!, item: recordedItem(comment, permalinkHosts) };
  return recorded;
}
