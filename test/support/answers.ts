// Sending a raw request (the path and body exactly as given) and checking an error answer against the documented
// shape `{ error: { code, message, details?, requestId } }`, with nothing internal in it.
import { request } from 'undici';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export async function send(url: string, init: { method: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Answer> {
  const response = await request(url, { method: init.method as never, headers: init.headers, body: init.body });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** Stack frames, source files, SQL and driver texts: what an answer must never show. */
const internals = [
  /\bat \S+ \(.*:\d+:\d+\)/,
  /node_modules/,
  /\.[cm]?[jt]s:\d+/,
  /prisma/i,
  /\bSELECT\b.*\bFROM\b/,
  /invalid input syntax/,
  /violates .* constraint/,
  /syntax error at or near/,
  /openssl/i,
];

/** What is wrong with an error answer; empty when it is in the documented shape. */
export function errorShapeProblems(answer: Answer): string[] {
  const problems: string[] = [];
  const leaked = internals.find((pattern) => pattern.test(answer.text));
  if (leaked) problems.push(`shows internals (${leaked})`);
  let error: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown } | undefined;
  try {
    error = (JSON.parse(answer.text) as { error?: typeof error }).error;
  } catch {
    return [...problems, 'is not JSON'];
  }
  if (!error) return [...problems, 'has no error object'];
  if (typeof error.code !== 'string' || !/^[A-Z_]+$/.test(error.code)) problems.push('has no code');
  if (typeof error.message !== 'string' || !error.message) problems.push('has no message');
  // A replayed answer (the same Idempotency-Key and request again) is the first one byte for byte: its body names the
  // request that ran, its x-request-id header the retry.
  const replayed = answer.headers['idempotent-replayed'] === 'true';
  if (typeof error.requestId !== 'string' || (!replayed && error.requestId !== answer.headers['x-request-id']))
    problems.push('has no requestId matching x-request-id');
  if (answer.status === 400 && error.code === 'INVALID_REQUEST') {
    const details = error.details as { field?: unknown; code?: unknown; message?: unknown }[] | undefined;
    if (!Array.isArray(details) || !details.length) problems.push('is a 400 INVALID_REQUEST without details');
    else if (details.some((detail) => typeof detail.field !== 'string' || typeof detail.code !== 'string' || typeof detail.message !== 'string')) {
      problems.push('has a detail without field, code or message');
    }
  }
  return problems;
}

export function errorOf(answer: Answer): { code: string; message: string; details?: { field: string; code: string; message: string }[] } {
  return (JSON.parse(answer.text) as { error: ReturnType<typeof errorOf> }).error;
}
