// Fetching a feed: a conditional GET (If-None-Match / If-Modified-Since from the last answer) under the SSRF guard
// (every hop of a redirect checked, the connection pinned to the checked address), with a timeout and a size cap.
import { request } from 'undici';
import { checkDestination, pinnedAgent, RefusedDestination } from '../outbound/guard.ts';
import { AnswerTooLarge, readAtMost } from '../outbound/answerLimit.ts';

export interface FetchSettings {
  allowedHosts: ReadonlySet<string>;
  timeoutMs: number;
  maxBytes: number;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedAnswer = { kind: 'notModified' } | { kind: 'feed'; text: string; validators: Validators };

/** Why a poll failed, as the feed shows it (`code`, an English `message` like a network's reason) and when to try again. */
export class FeedFailure extends Error {
  override readonly name = 'FeedFailure';
  constructor(
    readonly code: 'refused' | 'unreachable' | 'status' | 'tooLarge' | 'timeout' | 'unreadable' | 'creatorGone' | 'noPlan',
    message: string,
    /** Seconds the host asked us to wait (Retry-After), when it did. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

const maxRedirects = 3;
const userAgent = 'social-publishing-service (feed reader)';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/** Retry-After in seconds (a number of seconds or an HTTP date), or null. */
function retryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const seconds = /^\d+$/.test(value) ? Number(value) : (Date.parse(value) - now.getTime()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

export async function fetchFeed(raw: string, validators: Validators, settings: FetchSettings, now: Date): Promise<FeedAnswer> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let url = raw;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const destination = await checkDestination(url, settings.allowedHosts).catch((error: unknown) => {
      throw error instanceof RefusedDestination ? new FeedFailure('refused', error.reasonWith('WEBHOOK_ALLOWED_HOSTS')) : error;
    });
    const agent = pinnedAgent(destination);
    try {
      const response = await request(destination.url, {
        method: 'GET',
        headers: {
          'user-agent': userAgent,
          accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1',
          ...(validators.etag ? { 'if-none-match': validators.etag } : {}),
          ...(validators.lastModified ? { 'if-modified-since': validators.lastModified } : {}),
        },
        dispatcher: agent,
        signal,
      }).catch((error: unknown) => {
        throw signal.aborted
          ? timedOut(settings.timeoutMs)
          : new FeedFailure('unreachable', `${destination.url.host} could not be reached: ${(error as Error).message}`);
      });
      const { statusCode, headers } = response;
      const location = header(headers.location);
      if (statusCode >= 300 && statusCode < 400 && statusCode !== 304 && location) {
        await response.body.dump();
        url = new URL(location, destination.url).toString();
        continue;
      }
      if (statusCode === 304) {
        await response.body.dump();
        return { kind: 'notModified' };
      }
      if (statusCode !== 200) {
        await response.body.dump();
        throw new FeedFailure('status', `The feed answered HTTP ${statusCode}.`, retryAfter(header(headers['retry-after']), now));
      }
      const body = await readAtMost(response.body, settings.maxBytes, headers['content-length']).catch((error: unknown) => {
        if (error instanceof AnswerTooLarge) throw new FeedFailure('tooLarge', `The feed is larger than ${settings.maxBytes.toLocaleString('en')} bytes.`);
        throw signal.aborted ? timedOut(settings.timeoutMs) : new FeedFailure('unreachable', `${destination.url.host} broke off the answer.`);
      });
      return { kind: 'feed', text: body.toString('utf8'), validators: { etag: header(headers.etag), lastModified: header(headers['last-modified']) } };
    } finally {
      await agent.destroy();
    }
  }
  throw new FeedFailure('unreachable', `The feed redirects more than ${maxRedirects} times.`);
}

const timedOut = (ms: number) => new FeedFailure('timeout', `The feed did not answer within ${ms / 1000} s.`);
