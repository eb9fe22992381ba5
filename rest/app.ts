// The HTTP face of the service: one express app serving /v1 (REST), /graphql, /mcp, /auth, /healthz, /readyz, /metrics
// and the dashboard at `/`.
// Built apart from listen() so tests drive it in-process.
import type { Server } from 'node:http';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Services } from '../src/runtime.ts';
import { AppError } from '../src/errors/appError.ts';
import { createGraphHandler, graphiqlPage } from '../schema/yoga.ts';
import { graphqlErrorBody } from '../schema/graphqlErrors.ts';
import { authenticate } from './authenticate.ts';
import { dashboardAuthRouter } from './dashboardAuth.ts';
import { answerClientErrors, errorHandler, routeNotFound } from './errors.ts';
import { contextOf, requestContext } from './requestContext.ts';
import { checkRequestTarget } from './requestTarget.ts';
import { reviewLinkRouter } from './reviewLinkPage.ts';
import { v1Router } from './v1.ts';
import { uploadsRouter } from './uploads.ts';
import { probesRouter } from './probes.ts';
import { oauthCallbackRouter } from './oauthCallback.ts';
import { findSandboxItem } from '../src/providers/sandbox/adapter.ts';
import { isUuid } from '../src/ids.ts';
import { mcpRouter } from './mcp.ts';
import { mcpAuthRouter } from './mcpAuth.ts';
import { dashboardRouter } from './dashboard.ts';
import { networkDocsRouter } from './networkDocs.ts';
import { dashboardPolicy, graphiqlPolicy, securityHeaders } from './securityHeaders.ts';
import { corsForTrustedOrigins } from './cors.ts';

export async function buildApp(services: Services): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', services.config.trustProxy);
  app.use(requestContext(services));
  app.use(securityHeaders);
  app.use(checkRequestTarget);

  app.use(probesRouter(services));

  // The sandbox network's public page of a published item (the `remoteUrl` of sandbox targets).
  app.get('/sandbox/items/:id', async (req, res, next) => {
    contextOf(res).route = '/sandbox/items/{id}';
    const item = isUuid(req.params.id) ? await findSandboxItem(services.db, req.params.id) : null;
    if (!item) return next();
    res.json({ data: item });
  });

  // Short links of published captions (src/links): outside /v1 and its rate limit, no cookie, one click counted.
  app.get('/l/:code', async (req, res) => {
    contextOf(res).route = '/l/{code}';
    const url = await services.shortLinks.follow(req.params.code);
    if (!url) return routeNotFound(req, res);
    res.set('cache-control', 'no-store').redirect(302, url);
  });

  app.use(uploadsRouter(services));
  app.use(oauthCallbackRouter(services));
  app.use(reviewLinkRouter(services));
  // Under /v1 for clients generated from the OpenAPI document (one base URL), at the root for the dashboard.
  app.use(['/v1/auth', '/auth'], dashboardAuthRouter(services));
  app.use('/v1', await v1Router(services));
  app.use(mcpAuthRouter(services));
  app.use(mcpRouter(services));

  const graph = createGraphHandler<{ req: Request; res: Response }>(services.logger, ({ res }) => {
    const context = contextOf(res);
    if (!context.actor) throw new Error('the caller is resolved before /graphql');
    return { services, actor: context.actor, language: context.language, requestId: context.requestId };
  });
  const graphAuthentication = authenticate(services);
  const serveGraph = graph as unknown as RequestHandler;
  // Hashed from the page, when a browser first asks for it (graphiqlPage renders on first use).
  let graphiqlPagePolicy: Promise<string> | undefined;
  app.use(
    graph.graphqlEndpoint,
    (_req: Request, res: Response, next: NextFunction) => {
      contextOf(res).route = graph.graphqlEndpoint;
      next();
    },
    corsForTrustedOrigins([new URL(services.config.publicBaseUrl).origin, ...services.config.corsAllowedOrigins]),
    (req: Request, res: Response, next: NextFunction) => {
      // GraphiQL (a browser GET of the endpoint asking for HTML) loads without credentials; its queries carry them.
      if (req.method === 'GET' && req.path === '/' && req.accepts(['application/json', 'text/html']) === 'text/html') {
        graphiqlPagePolicy ??= graphiqlPage().then(graphiqlPolicy);
        graphiqlPagePolicy.then((policy) => {
          res.setHeader('Content-Security-Policy', policy);
          serveGraph(req, res, next);
        }, next);
        return;
      }
      graphAuthentication(req, res, next).catch(next);
    },
    serveGraph,
    (error: unknown, _req: Request, res: Response, next: NextFunction) => {
      if (!(error instanceof AppError)) return next(error);
      const context = contextOf(res);
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      res.status(error.httpStatus).json(graphqlErrorBody(error, context.language, context.requestId));
    },
  );

  app.use(networkDocsRouter());
  app.use(dashboardRouter(dashboardPolicy(services.config.publicBaseUrl, services.storage.directOrigin)));
  app.use(routeNotFound);
  app.use(errorHandler(services.logger));
  return app;
}

/** A worker process's HTTP face (SPS_ROLE=worker, on WORKER_PORT): the probes and nothing else. */
export function buildWorkerApp(services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(services));
  app.use(probesRouter(services));
  app.use(routeNotFound);
  app.use(errorHandler(services.logger));
  return app;
}

/**
 * How long an idle connection stays open for its client's next request. Node closes one after 5 s, shorter than
 * clients and proxies keep theirs (AWS load balancers 60 s): one that sends a request just as the server closes
 * the connection gets a reset instead of an answer. Servers outlive their clients' idle timeouts for that reason.
 */
export const idleConnectionMs = 65_000;

/** The listening server's settings beyond the app: parser refusals in the error shape, idle connections kept. */
export function prepareServer(server: Server): void {
  answerClientErrors(server);
  server.keepAliveTimeout = idleConnectionMs;
}
