// The browser's side of connecting an OAuth account, at the root (not under /v1), with no key:
// - GET /oauth/start/{provider}?state=…: the `authorizationUrl` that POST /v1/social-accounts/connect answers. It
//   opens once: it gives the browser that opened it the authorization's binding, a cookie scoped to the network's
//   callback, and redirects to the network.
// - GET /oauth/callback/{provider}: where the network sends the person back after they authorized (or refused) the
//   app. The single-use `state` and the binding cookie authenticate it. The person is redirected to where the
//   connection was started from (`redirectUri`, else the dashboard) with `connectionId` (one per account connected)
//   or with `error` and `error_description`; with a state that is unknown or used, there is nowhere known to go, and
//   the answer is the API's error JSON.
import express, { type Request, type Response, type Router } from 'express';
import { parseCookie } from 'cookie';
import type { Services } from '../src/runtime.ts';
import { completeAccountConnection, ConnectionFailure, openAuthorization } from '../src/accounts/connect.ts';
import { localizeError } from '../src/errors/localize.ts';
import { contextOf } from './requestContext.ts';
import { sendError } from './errors.ts';

/** One per network and browser (its path is the network's callback): the latest start link opened there wins. */
export const bindingCookie = 'sps_oauth_binding';

export function oauthCallbackRouter(services: Services): Router {
  const router = express.Router();
  const secure = services.config.publicBaseUrl.startsWith('https://');
  const location = (target: string, parameters: [string, string][]) => {
    const url = new URL(target, services.config.publicBaseUrl);
    for (const [name, value] of parameters) url.searchParams.append(name, value);
    return url.href;
  };
  const sendFailure = (res: Response, error: unknown) => {
    if (!(error instanceof ConnectionFailure)) throw error;
    if (error.returnTo === null) return sendError(res, error.reason);
    const description = localizeError(error.reason, contextOf(res).language).message;
    res.redirect(
      location(error.returnTo, [
        ['error', error.error],
        ['error_description', description],
      ]),
    );
  };
  const queryOf = (req: Request) => new URLSearchParams(req.originalUrl.split('?')[1] ?? '');

  router.get('/oauth/start/:provider', async (req, res) => {
    contextOf(res).route = '/oauth/start/{provider}';
    const { provider } = req.params;
    try {
      const opened = await openAuthorization(services.db, provider, queryOf(req).get('state'));
      const path = `/oauth/callback/${encodeURIComponent(provider)}`;
      res.cookie(bindingCookie, opened.binding, { httpOnly: true, sameSite: 'lax', secure, path, expires: opened.expiresAt });
      res.redirect(opened.authorizationUrl);
    } catch (error) {
      sendFailure(res, error);
    }
  });

  router.get('/oauth/callback/:provider', async (req, res) => {
    contextOf(res).route = '/oauth/callback/{provider}';
    const { provider } = req.params;
    // The cookie is left to expire: clearing it on a stray callback would break the flow it belongs to.
    const binding = req.headers.cookie ? parseCookie(req.headers.cookie)[bindingCookie] : undefined;
    try {
      const outcome = await completeAccountConnection(services.db, services.outbox, services.connections, provider, queryOf(req), binding);
      res.redirect(
        location(
          outcome.returnTo,
          outcome.connectionIds.map((id) => ['connectionId', id]),
        ),
      );
    } catch (error) {
      sendFailure(res, error);
    }
  });
  return router;
}
