// GET /oauth/callback/{provider}: where a network sends the person back after they authorized (or refused) the
// app. No key: the single-use `state` of the authorization authenticates it. The person is redirected to where the
// connection was started from (`redirectUri`, else the dashboard) with `connectionId` (one per account connected)
// or with `error` and `error_description`; with a state that is unknown or used, there is nowhere known to go, and
// the answer is the API's error JSON.
import express, { type Router } from 'express';
import type { Services } from '../src/runtime.ts';
import { completeAccountConnection, ConnectionFailure } from '../src/accounts/connect.ts';
import { localizeError } from '../src/errors/localize.ts';
import { contextOf } from './requestContext.ts';
import { sendError } from './errors.ts';

export function oauthCallbackRouter(services: Services): Router {
  const router = express.Router();
  const location = (target: string, parameters: [string, string][]) => {
    const url = new URL(target, services.config.publicBaseUrl);
    for (const [name, value] of parameters) url.searchParams.append(name, value);
    return url.href;
  };
  router.get('/oauth/callback/:provider', async (req, res) => {
    const context = contextOf(res);
    context.route = '/oauth/callback/{provider}';
    const callback = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    try {
      const outcome = await completeAccountConnection(services.db, services.outbox, services.connections, req.params.provider, callback);
      res.redirect(location(outcome.returnTo, outcome.connectionIds.map((id) => ['connectionId', id])));
    } catch (error) {
      if (!(error instanceof ConnectionFailure)) throw error;
      if (error.returnTo === null) return sendError(res, error.reason);
      const description = localizeError(error.reason, context.language).message;
      res.redirect(location(error.returnTo, [['error', error.error], ['error_description', description]]));
    }
  });
  return router;
}
