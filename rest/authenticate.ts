// Reads the caller's credentials (a bearer API key, or the dashboard's session cookie plus x-workspace-id)
// and resolves them through the domain, which also counts the request against the rate limit.
import type { NextFunction, Request, Response } from 'express';
import { parseCookie } from 'cookie';
import type { Credentials } from '../src/access/callers.ts';
import { rateLimitHeaders } from '../src/ratelimit/limiter.ts';
import type { Services } from '../src/runtime.ts';
import { contextOf } from './requestContext.ts';

export const sessionCookie = 'sps_session';

export function sessionTokenOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[sessionCookie] : undefined;
}

export function credentialsOf(req: Request): Credentials | null {
  const authorization = req.get('authorization');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return { kind: 'apiKey', token: match?.[1] ?? '' };
  }
  const session = sessionTokenOf(req);
  return session ? { kind: 'session', token: session, workspaceId: req.get('x-workspace-id') } : null;
}

export function authenticate(services: Services) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const caller = await services.callers.resolve(credentialsOf(req));
    contextOf(res).actor = caller.actor;
    res.set(rateLimitHeaders(caller.rateLimit));
    next();
  };
}
