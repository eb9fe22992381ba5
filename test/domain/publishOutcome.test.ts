// What becomes of a publish attempt (src/posts/publish/outcome.ts): the retry policy, decided from the network's
// answer or error and the attempts so far, with the clock and the randomness given. The refresh of a refused token
// happens before this (TokenKeeper.callWithTokens; test/http/tiktok.test.ts and xPublish.test.ts): what reaches
// the policy is its end, ACCOUNT_NEEDS_RECONNECT.
import { describe, expect, it } from 'vitest';
import { ProviderError, type PublishOutcome } from '../../src/providers/adapter.ts';
import { publishRetryLimit } from '../../src/jobs/boss.ts';
import { afterAnswer, afterFailure, processingLimitMs, rateLimitedAttemptLimit, unreachable } from '../../src/posts/publish/outcome.ts';

const now = Date.parse('2026-05-04T10:00:00Z');
const at = (ms: number) => new Date(now + ms);
const noJitter = () => 0;
const permalinkHosts = new Set(['localhost']);

const unavailable = () => new ProviderError('PROVIDER_UNAVAILABLE', 'The network answered 503.', true);
const rateLimited = (retryAfterMs?: number) =>
  new ProviderError('RATE_LIMITED_BY_PROVIDER', 'Too many requests.', true, retryAfterMs === undefined ? {} : { retryAfterMs });

describe('a failed attempt', () => {
  it('is retried by the job, with its backoff, while the job has retries left, then fails the target', () => {
    expect(publishRetryLimit).toBe(5);
    for (let retryCount = 0; retryCount < publishRetryLimit; retryCount++) {
      expect(afterFailure(unavailable(), { attempts: retryCount + 1, retryCount }, now)).toEqual({
        kind: 'failed',
        failure: { code: 'PROVIDER_UNAVAILABLE', message: 'The network answered 503.' },
        retry: 'job',
      });
    }
    expect(afterFailure(unavailable(), { attempts: 6, retryCount: publishRetryLimit }, now)).toEqual({
      kind: 'failed',
      failure: { code: 'PROVIDER_UNAVAILABLE', message: 'The network answered 503.' },
      retry: 'never',
    });
  });

  it('counts an error that is not the network’s answer as the network being unreachable: retried', () => {
    expect(afterFailure(unreachable(), { attempts: 1, retryCount: 0 }, now)).toEqual({
      kind: 'failed',
      failure: { code: 'PROVIDER_UNAVAILABLE', message: 'The network could not be reached.' },
      retry: 'job',
    });
  });

  it('waits for the time a rate-limiting network gives, by a new job then, until the attempt limit', () => {
    expect(rateLimitedAttemptLimit).toBe(10);
    expect(afterFailure(rateLimited(90_000), { attempts: 1, retryCount: 0 }, now)).toEqual({
      kind: 'failed',
      failure: { code: 'RATE_LIMITED_BY_PROVIDER', message: 'Too many requests.' },
      retry: 'later',
      retryAt: at(90_000),
    });
    // The job's own retries do not count here: the attempts do.
    expect(afterFailure(rateLimited(90_000), { attempts: 9, retryCount: publishRetryLimit }, now)).toMatchObject({ retry: 'later', retryAt: at(90_000) });
    expect(afterFailure(rateLimited(90_000), { attempts: rateLimitedAttemptLimit, retryCount: 0 }, now)).toEqual({
      kind: 'failed',
      failure: { code: 'RATE_LIMITED_BY_PROVIDER', message: 'Too many requests.' },
      retry: 'never',
    });
  });

  it('waits likewise for any transient failure that says when to come back', () => {
    const busy = new ProviderError('PROVIDER_UNAVAILABLE', 'Try again later.', true, { retryAfterMs: 5_000 });
    expect(afterFailure(busy, { attempts: 2, retryCount: 1 }, now)).toMatchObject({ retry: 'later', retryAt: at(5_000) });
  });

  it('waits after a rate limit without a time for 30 s doubling with each attempt up to 15 minutes, plus up to half again', () => {
    const retryAt = (attempts: number, random: () => number) => afterFailure(rateLimited(), { attempts, retryCount: 0 }, now, random);
    expect(retryAt(1, noJitter)).toMatchObject({ retry: 'later', retryAt: at(30_000) });
    expect(retryAt(2, noJitter)).toMatchObject({ retryAt: at(60_000) });
    expect(retryAt(3, noJitter)).toMatchObject({ retryAt: at(120_000) });
    expect(retryAt(1, () => 0.5)).toMatchObject({ retryAt: at(37_500) });
    expect(retryAt(6, noJitter)).toMatchObject({ retryAt: at(900_000) });
    expect(retryAt(9, () => 0.99)).toMatchObject({ retryAt: at(900_000) });
    expect(retryAt(rateLimitedAttemptLimit, noJitter)).toMatchObject({ retry: 'never' });
  });

  it('fails the target at once when the network refuses for good, whatever time it names', () => {
    const refused = new ProviderError('PROVIDER_REJECTED', 'The caption is too long.', false, { retryAfterMs: 60_000 });
    expect(afterFailure(refused, { attempts: 1, retryCount: 0 }, now)).toEqual({
      kind: 'failed',
      failure: { code: 'PROVIDER_REJECTED', message: 'The caption is too long.' },
      retry: 'never',
    });
  });

  it('fails the target without retries once the refreshed tokens are refused too', () => {
    const reconnect = new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The refresh token was revoked.', false);
    expect(afterFailure(reconnect, { attempts: 1, retryCount: 0 }, now)).toEqual({
      kind: 'failed',
      failure: { code: 'ACCOUNT_NEEDS_RECONNECT', message: 'The refresh token was revoked.' },
      retry: 'never',
    });
  });
});

describe('the network’s answer', () => {
  const first = { since: new Date(now), now, permalinkHosts };

  it('publishes the item when the network answered, keeping what it refused of the post as a warning', () => {
    const warning = { code: 'PROVIDER_REJECTED', message: 'The thumbnail was refused.' };
    const answer = { status: 'published', item: { remoteId: 'v1', remoteUrl: 'https://video.example/v1', warning } } as const;
    expect(afterAnswer(answer, first)).toEqual({
      kind: 'published',
      item: { remoteId: 'v1', remoteUrl: 'https://video.example/v1', warning },
      at: new Date(now),
    });
  });

  it('drops a permalink that is not a web address (of the post, its parts, its first comment), the item published all the same', () => {
    const answer: PublishOutcome = {
      status: 'published',
      item: {
        remoteId: 'p1',
        remoteUrl: 'javascript:alert(1)',
        parts: [
          { remoteId: 'p1', remoteUrl: 'http://network.example/p1' },
          { remoteId: 'p2', remoteUrl: 'http://localhost:4000/p2' },
        ],
        firstComment: { item: { remoteId: 'c1', remoteUrl: 'data:text/html,hi' }, error: null },
      },
    };
    expect(afterAnswer(answer, first)).toEqual({
      kind: 'published',
      item: {
        remoteId: 'p1',
        remoteUrl: null,
        parts: [
          { remoteId: 'p1', remoteUrl: null },
          { remoteId: 'p2', remoteUrl: 'http://localhost:4000/p2' },
        ],
        firstComment: { item: { remoteId: 'c1', remoteUrl: null }, error: null },
      },
      at: new Date(now),
    });
  });

  it('asks again after the delay a processing network gives, at most STATUS_CHECK_MAX_MS', () => {
    const processing = { status: 'processing', handle: 'container-1', checkAfterMs: 60_000 } as const;
    expect(afterAnswer(processing, first)).toEqual({ kind: 'processing', handle: 'container-1', checkAfter: at(60_000) });
    expect(afterAnswer(processing, { ...first, statusCheckMaxMs: 10_000 })).toEqual({ kind: 'processing', handle: 'container-1', checkAfter: at(10_000) });
  });

  it('fails the target when the network is still processing 24 hours after it accepted the post', () => {
    const processing = { status: 'processing', handle: 'container-1', checkAfterMs: 60_000 } as const;
    expect(afterAnswer(processing, { ...first, since: new Date(now - processingLimitMs) })).toMatchObject({ kind: 'processing' });
    expect(afterAnswer(processing, { ...first, since: new Date(now - processingLimitMs - 1) })).toEqual({
      kind: 'failed',
      failure: { code: 'PROVIDER_UNAVAILABLE', message: 'The network did not finish processing the post within 24 hours.' },
      retry: 'never',
    });
  });
});
