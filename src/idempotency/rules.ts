// The rules of idempotent requests: what a key may be, when a retry is "the same request", which answers are
// kept for replay, and for how long.
import { createHash } from 'node:crypto';
import { refuseUnlessEmpty, textWithin } from '../limits.ts';

export const idempotencyKeyHeader = 'Idempotency-Key';
export const idempotencyKeyLength = { min: 1, max: 255 } as const;

/** How long an answer is replayed. */
export const answerKeptMs = 24 * 3600_000;
/**
 * How long a claim may run before a retry may take it over: a request is only "still running" while its process
 * lives, and a process that died mid-request never releases its claim.
 */
export const claimLeaseMs = 5 * 60_000;

/** Throws 400 INVALID_REQUEST unless the key has 1 to 255 characters. */
export function checkIdempotencyKey(key: string): void {
  refuseUnlessEmpty(textWithin(idempotencyKeyHeader, key, idempotencyKeyLength.max, idempotencyKeyLength.min));
}

/** What makes two requests the same: who sends them, the method, path and query, and the body as data. */
export interface RequestIdentity {
  /** The API key, or the person for a dashboard session: a key's answer is replayed to its own caller only. */
  caller: string;
  method: string;
  path: string;
  query: unknown;
  body: unknown;
}

/**
 * JSON with object keys sorted, so that key order and whitespace do not make two bodies differ. A body kept as bytes
 * (a CSV import) is the same when its bytes are: it stands as their digest.
 */
function canonical(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { sha256: createHash('sha256').update(value).digest('hex') };
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([name, item]) => [name, canonical(item)]));
}

export function fingerprintOf(request: RequestIdentity): string {
  const text = JSON.stringify(canonical([request.caller, request.method.toUpperCase(), request.path, request.query ?? {}, request.body ?? null]));
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Whether an answer is kept for replay. Success and the client's own mistakes are final; a server failure (5xx),
 * a conflict (409) and a rate-limit refusal (429) may turn out differently when retried, so they release the key.
 */
export function keepsAnswer(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

/** The answer's headers that a replay repeats (request ids and rate-limit headers are the retry's own). */
export const replayedHeaders = ['content-type', 'location'] as const;
