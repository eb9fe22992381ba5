// MCP over Streamable HTTP at /mcp, stateless: each POST gets its own server (mcp/server.ts) and transport (the
// SDK's servers keep per-connection state), authenticated with an API key exactly as /v1 is, or with a connected
// app's OAuth access token (mcpAuth.ts), which acts as a key of its person would (one request against the rate
// limit, recorded in the request log as POST /mcp). Without either: 401 naming the protected resource metadata. GET (a server-sent event stream) and DELETE (ending a
// session) have nothing to serve without sessions: 405. The Host header is checked against MCP_ALLOWED_HOSTS (DNS
// rebinding).
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { credentialsOf } from './authenticate.ts';
import { mcpAuthorization } from './mcpAuth.ts';
import { accessTokenPrefix } from '../src/access/connectedApps.ts';
import { rateLimitHeaders } from '../src/ratelimit/limiter.ts';
import { verifyJsonText } from './errors.ts';
import { contextOf } from './requestContext.ts';
import { AppError } from '../src/errors/appError.ts';
import type { Services } from '../src/runtime.ts';
import { graphRunner } from '../mcp/graph.ts';
import { createMcpServer } from '../mcp/server.ts';

export const mcpPath = '/mcp';
/** A 20 MB file in base64 with its JSON-RPC envelope. */
const maxMessageBytes = 28 * 1024 * 1024;

export function mcpRouter(services: Services): Router {
  const graph = graphRunner(services.logger);
  const challenge = mcpAuthorization(services.config.publicBaseUrl)?.challenge ?? 'Bearer';
  const router = Router();
  router.use(mcpPath, (_req, res, next) => {
    contextOf(res).route = mcpPath;
    next();
  });
  router.use(mcpPath, hostHeaderValidation(services.config.mcpAllowedHosts));
  router.all(mcpPath, (req, _res, next) => {
    if (req.method === 'POST') return next();
    next(
      new AppError('INVALID_REQUEST', 'methodNotAllowed', { method: req.method, path: mcpPath, allowed: 'POST' }, { status: 405, headers: { Allow: 'POST' } }),
    );
  });
  router.post(
    mcpPath,
    // API keys and connected apps' access tokens: an MCP client holds no dashboard session.
    (req: Request, res: Response, next: NextFunction) => {
      const refuse = (error: unknown) => {
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') error.headers['WWW-Authenticate'] = challenge;
        next(error);
      };
      const credentials = req.get('authorization') === undefined ? null : credentialsOf(req);
      if (credentials?.kind !== 'apiKey') return refuse(new AppError('UNAUTHENTICATED', 'unauthenticated'));
      const appToken = credentials.token.startsWith(`${accessTokenPrefix}_`);
      services.callers.resolve(appToken ? { kind: 'appToken', token: credentials.token } : credentials).then((caller) => {
        contextOf(res).actor = caller.actor;
        res.set(rateLimitHeaders(caller.rateLimit));
        next();
      }, refuse);
    },
    express.json({ limit: maxMessageBytes, verify: verifyJsonText }),
    async (req: Request, res: Response) => {
      const { actor, language, requestId } = contextOf(res);
      const context = { services, actor: actor!, language, requestId };
      const server = createMcpServer(graph, { context: async () => context, fallback: () => context });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  return router;
}
