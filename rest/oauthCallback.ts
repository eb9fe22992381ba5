// The browser's side of connecting an OAuth account, at the root (not under /v1), with no key:
// - GET /oauth/start/{provider}?state=…: the `authorizationUrl` that POST /v1/social-accounts/connect answers. It
//   opens once: it gives the browser that opened it the authorization's binding, a cookie scoped to the network's
//   callback, and redirects to the network. Started in the dashboard, it opens only with that session's cookie
//   (403 elsewhere); started with an API key, it answers a page naming who asked (startLinkPage.ts), whose Continue
//   (POST, with the page's confirmation cookie) opens it.
// - GET /oauth/callback/{provider}: where the network sends the person back after they authorized (or refused) the
//   app. The single-use `state` and the binding cookie authenticate it. The person is redirected to where the
//   connection was started from (`redirectUri`, else the dashboard) with `connectionId` (one per account connected)
//   or with `error` and `error_description`, and `outcome` (the id the dashboard reads the outcome by); with a state that is unknown or used, there is nowhere known to go, and
//   the answer is the API's error JSON.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { parseCookie } from 'cookie';
import type { Services } from '../src/runtime.ts';
import { completeAccountConnection, ConnectionFailure, visitStartLink } from '../src/accounts/connect.ts';
import { digestSecret } from '../src/access/secrets.ts';
import { AppError } from '../src/errors/appError.ts';
import { localizeError } from '../src/errors/localize.ts';
import { contextOf } from './requestContext.ts';
import { sendError } from './errors.ts';
import { sessionTokenOf } from './authenticate.ts';
import { startLinkPolicy } from './securityHeaders.ts';
import { startLinkPage } from './startLinkPage.ts';

/** One per network and browser (its path is the network's callback): the latest start link opened there wins. */
export const bindingCookie = 'sps_oauth_binding';
/** The start link page's confirmation, which its Continue must carry; SameSite=Strict, so no other site's post does. */
export const confirmationCookie = 'sps_oauth_confirmation';

/** Compared as bytes, in constant time (a string's length in characters is not its length in bytes). */
const sameSecret = (a: string | undefined, b: unknown) => {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length === 0) return false;
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
};

export function oauthCallbackRouter(services: Services): Router {
  const router = express.Router();
  const secure = services.config.publicBaseUrl.startsWith('https://');
  const location = (target: string, parameters: [string, string][]) => {
    const url = new URL(target, services.config.publicBaseUrl);
    for (const [name, value] of parameters) url.searchParams.append(name, value);
    return url.href;
  };
  const sendFailure = (res: Response, error: unknown, redirectStatus = 302) => {
    if (!(error instanceof ConnectionFailure)) throw error;
    if (error.returnTo === null) return sendError(res, error.reason);
    const description = localizeError(error.reason, contextOf(res).language).message;
    res.redirect(
      redirectStatus,
      location(error.returnTo, [
        ['error', error.error],
        ['error_description', description],
        ...(error.outcomeId ? [['outcome', error.outcomeId] as [string, string]] : []),
      ]),
    );
  };
  const queryOf = (req: Request) => new URLSearchParams(req.originalUrl.split('?')[1] ?? '');

  const cookiesOf = (req: Request) => (req.headers.cookie ? parseCookie(req.headers.cookie) : {});
  const startLink = (continues: boolean) => async (req: Request, res: Response) => {
    contextOf(res).route = '/oauth/start/{provider}';
    const provider = String(req.params.provider);
    const cookiePath = `/oauth/start/${encodeURIComponent(provider)}`;
    const sessionToken = sessionTokenOf(req);
    const continued = continues && sameSecret(cookiesOf(req)[confirmationCookie], (req.body as Record<string, unknown> | undefined)?.confirmation);
    if (continues && !continued) return sendError(res, new AppError('FORBIDDEN', 'startLinkNotContinued'));
    try {
      const answer = await visitStartLink(services.db, provider, queryOf(req).get('state'), {
        ...(sessionToken ? { sessionHash: digestSecret(sessionToken) } : {}),
        continued,
      });
      res.setHeader('cache-control', 'no-store');
      if (answer.kind === 'ask') {
        const confirmation = randomBytes(32).toString('base64url');
        res.cookie(confirmationCookie, confirmation, { httpOnly: true, sameSite: 'strict', secure, path: cookiePath, expires: answer.expiresAt });
        res.setHeader('content-security-policy', startLinkPolicy(answer.networkOrigin, answer.returnOrigin));
        return res.type('html').send(startLinkPage(answer, confirmation, contextOf(res).language));
      }
      if (continued) res.clearCookie(confirmationCookie, { path: cookiePath });
      const path = `/oauth/callback/${encodeURIComponent(provider)}`;
      res.cookie(bindingCookie, answer.binding, { httpOnly: true, sameSite: 'lax', secure, path, expires: answer.expiresAt });
      // 303: the Continue's POST becomes the network's GET.
      res.redirect(continued ? 303 : 302, answer.authorizationUrl);
    } catch (error) {
      sendFailure(res, error, continues ? 303 : 302);
    }
  };
  router.get('/oauth/start/:provider', startLink(false));
  router.post('/oauth/start/:provider', express.urlencoded({ extended: false, limit: '2kb' }), startLink(true));

  router.get('/oauth/callback/:provider', async (req, res) => {
    contextOf(res).route = '/oauth/callback/{provider}';
    const { provider } = req.params;
    // The cookie is left to expire: clearing it on a stray callback would break the flow it belongs to.
    const binding = cookiesOf(req)[bindingCookie];
    try {
      const outcome = await completeAccountConnection(services.db, services.outbox, services.connections, provider, queryOf(req), binding);
      res.redirect(location(outcome.returnTo, [...outcome.connectionIds.map((id): [string, string] => ['connectionId', id]), ['outcome', outcome.outcomeId]]));
    } catch (error) {
      sendFailure(res, error);
    }
  });
  return router;
}
