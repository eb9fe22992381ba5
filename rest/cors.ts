// CORS for /graphql: only the dashboard's own origin (PUBLIC_BASE_URL's) and CORS_ALLOWED_ORIGINS may read its
// answers from a browser, with the browser's credentials. Any other Origin gets no CORS header at all, so the browser
// keeps the answer from the page (a reflected Origin with credentials would let any site act as the signed-in person).
// Preflights of the trusted origins are answered here, before authentication, which a preflight never carries.
import type { NextFunction, Request, Response } from 'express';

const allowedMethods = 'GET, POST';
const allowedHeaders = 'authorization, content-type, accept, accept-language, x-workspace-id';
const exposedHeaders = 'x-request-id, ratelimit, ratelimit-policy, retry-after';
const preflightMaxAgeSeconds = '600';

export function corsForTrustedOrigins(origins: string[]) {
  const trusted = new Set(origins);
  return (req: Request, res: Response, next: NextFunction) => {
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin === undefined || !trusted.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method !== 'OPTIONS' || !req.get('access-control-request-method')) {
      res.setHeader('Access-Control-Expose-Headers', exposedHeaders);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', allowedMethods);
    res.setHeader('Access-Control-Allow-Headers', allowedHeaders);
    res.setHeader('Access-Control-Max-Age', preflightMaxAgeSeconds);
    res.status(204).end();
  };
}
