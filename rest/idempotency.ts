// Idempotency-Key on POSTs under /v1: the first answer is kept and replayed to retries (src/idempotency/ holds the
// rules and the store). Runs after authentication, so a replay needs the same credentials and counts against
// the rate limit like any request.
import type { NextFunction, Request, Response } from 'express';
import type { Services } from '../src/runtime.ts';
import { claimKey, releaseKey, storeAnswer, type KeyedRequest, type StoredAnswer } from '../src/idempotency/store.ts';
import { fingerprintOf, idempotencyKeyHeader, keepsAnswer, replayedHeaders } from '../src/idempotency/rules.ts';
import { contextOf } from './requestContext.ts';

export const replayedHeader = 'Idempotent-Replayed';

function replay(res: Response, answer: StoredAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(replayedHeader, 'true');
  res.status(answer.status).end(answer.body);
}

function headersToReplay(res: Response): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of replayedHeaders) {
    const value = res.getHeader(name);
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}

type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => Response;

/**
 * Holds the answer back until it is stored (or the key released), so that a retry arriving right after it never
 * finds the key still running. A client that hangs up does not stop the request: its answer is still kept for the
 * retry. A process that dies mid-request leaves its claim to lapse (src/idempotency/rules.ts `claimLeaseMs`).
 */
function settleWhenAnswered(res: Response, settle: (answer: StoredAnswer) => Promise<void>): void {
  const end = res.end.bind(res) as End;
  const written: Buffer[] = [];
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  let ended = false;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) written.push(Buffer.from(chunk as string));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    if (ended) return end(chunk, encoding, callback);
    ended = true;
    if (typeof chunk === 'string') written.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) written.push(Buffer.from(chunk));
    const answer = { status: res.statusCode, headers: headersToReplay(res), body: Buffer.concat(written) };
    void settle(answer).finally(() => end(chunk, encoding, callback));
    return res;
  }) as Response['end'];
}

/** `routeOf` names the operation's path template, for the request log of a replayed call. */
export function idempotentPosts(services: Services, routeOf: (req: Request) => string | null) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(idempotencyKeyHeader);
    const actor = contextOf(res).actor;
    if (req.method !== 'POST' || key === undefined || !actor) return next();
    const request: KeyedRequest = {
      workspaceId: actor.workspaceId,
      key,
      fingerprint: fingerprintOf({ caller: actor.apiKeyId ?? actor.userId, method: req.method, path: req.path, query: req.query, body: req.body }),
    };
    const claim = await claimKey(services.db.pool, request);
    if (claim.kind === 'replay') {
      contextOf(res).route = routeOf(req);
      return replay(res, claim.answer);
    }
    settleWhenAnswered(res, async (answer) => {
      try {
        if (keepsAnswer(answer.status)) await storeAnswer(services.db.pool, request, claim.claimId, answer);
        else await releaseKey(services.db.pool, request, claim.claimId);
      } catch (error) {
        // The claim then lapses after its lease; the answer itself still goes out.
        services.logger.error({ err: error, requestId: contextOf(res).requestId }, 'idempotency key not settled');
      }
    });
    next();
  };
}
