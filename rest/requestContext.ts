// Per-request facts every part of the HTTP layer shares: the request id, the caller's language, the caller
// once known, and the matched route template (for the request log).
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { languages, type Language } from '../src/errors/messages.ts';
import type { Actor } from '../src/access/actor.ts';
import type { Services } from '../src/runtime.ts';
import { observeHttpRequest } from '../src/metrics/registry.ts';
import { inRequestScope } from '../src/requestScope.ts';

export interface RequestContext {
  requestId: string;
  language: Language;
  startedAt: bigint;
  actor: Actor | null;
  route: string | null;
}

export function contextOf(res: Response): RequestContext {
  return res.locals.context as RequestContext;
}

const incomingRequestId = /^[\w.:-]{8,128}$/;

export function languageOf(req: Request): Language {
  const best = req.acceptsLanguages(...languages);
  return best && (languages as readonly string[]).includes(best) ? (best as Language) : 'en';
}

/** Sets `x-request-id` and records the call in the request log once the response is finished. */
export function requestContext(services: Services) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.get('x-request-id');
    const context: RequestContext = {
      requestId: given && incomingRequestId.test(given) ? given : randomUUID(),
      language: languageOf(req),
      startedAt: process.hrtime.bigint(),
      actor: null,
      route: null,
    };
    res.locals.context = context;
    res.setHeader('x-request-id', context.requestId);
    res.on('finish', () => {
      observeHttpRequest(req.method, context.route ?? 'unmatched', res.statusCode, Number(process.hrtime.bigint() - context.startedAt) / 1e9);
      services.recorder.record({
        requestId: context.requestId,
        workspaceId: context.actor?.workspaceId ?? null,
        userId: context.actor?.userId ?? null,
        apiKeyId: context.actor?.apiKeyId ?? null,
        method: req.method,
        route: context.route ?? 'unmatched',
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - context.startedAt) / 1e6,
        at: new Date(),
      });
    });
    inRequestScope(context.requestId, next);
  };
}
