// /v1: openapi-backend routes each request by rest/openapi.yaml, validates it against the document, and hands
// it to the operation's handler, which calls the domain. Handlers only translate; every rule lives in src/.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { OpenAPIBackend, type Context } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { AppError, invalidRequest } from '../src/errors/appError.ts';
import type { Services } from '../src/runtime.ts';
import { servedDocument, v1Document } from './openapiDocument.ts';
import { authenticate } from './authenticate.ts';
import { contextOf } from './requestContext.ts';
import { refuseUnstorableText, sendError, verifyJsonText } from './errors.ts';
import { detailsOf } from '../src/errors/schemaDetails.ts';
import { operationHandlers, type OperationHandler } from './operations.ts';
import { idempotentPosts } from './idempotency.ts';
import { csvLimits } from '../src/posts/csvColumns.ts';

export const apiRoot = '/v1';
const httpMethods = ['get', 'put', 'post', 'delete', 'patch'];

/** The /v1 router of openapi-backend, its operations listed once (exported for its test). */
export async function createBackend(services: Services) {
  const backend = new OpenAPIBackend({
    definition: structuredClone(v1Document) as never,
    apiRoot,
    // quick: openapi-backend validates documents against the OpenAPI 3.0 schema only; ours is 3.1 and is
    // validated by test/openapi.test.ts instead. Validators then compile on first use of each operation.
    quick: true,
    validate: true,
    coerceTypes: true,
    customizeAjv: (_ajv, options) => {
      const ajv = new Ajv2020({ ...options, strict: false, allErrors: true });
      addFormats.default(ajv);
      return ajv as never;
    },
  });
  const wrap = (handler: OperationHandler) => async (context: Context, _req: Request, res: Response) => {
    contextOf(res).route = `${apiRoot}${context.operation.path}`;
    const actor = contextOf(res).actor;
    if (!actor) throw new Error('authenticate() runs before every /v1 operation');
    const result = await handler({
      services,
      actor,
      query: (context.request.query ?? {}) as Record<string, unknown>,
      params: context.request.params as Record<string, string>,
      body: context.request.requestBody as unknown,
      language: contextOf(res).language,
    });
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
    if (result.stream) {
      const { readable, release } = result.stream;
      res.status(result.status);
      res.on('close', release);
      await pipeline(readable, res).catch(() => res.destroy());
    } else if (result.body === undefined) res.status(result.status).end();
    else res.status(result.status).json(result.body);
  };
  const handlers: Record<string, (context: Context, req: Request, res: Response) => Promise<void> | void> = {};
  for (const [operationId, handler] of Object.entries(operationHandlers)) handlers[operationId] = wrap(handler);
  backend.register({
    ...handlers,
    validationFail: (context: Context, _req: Request, res: Response) => {
      contextOf(res).route = `${apiRoot}${context.operation.path}`;
      sendError(res, invalidRequest(detailsOf(context.validation.errors ?? [])));
    },
    notFound: (_context: Context, req: Request, res: Response) => {
      sendError(res, new AppError('NOT_FOUND', 'routeNotFound', { method: req.method, path: req.originalUrl.split('?')[0] ?? '' }));
    },
    methodNotAllowed: (context: Context, req: Request, res: Response) => {
      const allowed = httpMethods.filter((method) => backend.router.matchOperation({ ...context.request, method })).map((m) => m.toUpperCase());
      const params = { method: req.method, path: req.originalUrl.split('?')[0] ?? '', allowed: allowed.join(', ') };
      sendError(res, new AppError('INVALID_REQUEST', 'methodNotAllowed', params, { status: 405, headers: { Allow: params.allowed } }));
    },
  });
  // authenticate() has already resolved the caller (bearer key or session) before routing.
  const callerResolved = (_context: Context, _req: Request, res: Response) => contextOf(res).actor !== null;
  backend.registerSecurityHandler('apiKey', callerResolved);
  backend.registerSecurityHandler('dashboardSession', callerResolved);
  await backend.init();
  // openapi-backend rebuilds its list of operations from the document (with lodash) on every match, two or three
  // times a request; the document never changes after init, so the list is built once.
  const operations = backend.router.getOperations();
  backend.router.getOperations = () => operations;
  return backend;
}

const jsonType = 'application/json';
const csvType = 'text/csv';
/** The one operation whose body is not JSON: a CSV of posts, kept as bytes (csv-parse reads them). */
const csvPath = '/posts/import';

/**
 * A body that is not JSON is refused, never ignored: a retry sent as text/plain once lost its `targetId` and
 * republished every failed target. Requests without a body (no Content-Length or 0, not chunked) pass.
 */
function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (!hasBody || req.is(jsonType) || (req.path === csvPath && req.is(csvType))) next();
  else sendError(res, new AppError('INVALID_REQUEST', 'unsupportedMediaType', {}, { status: 415 }));
}

export async function v1Router(services: Services): Promise<Router> {
  const backend = await createBackend(services);
  const router = express.Router();
  const served = servedDocument(services.config.publicBaseUrl);
  router.get('/openapi.json', (_req, res) => {
    contextOf(res).route = `${apiRoot}/openapi.json`;
    res.type('application/json').send(served.json);
  });
  router.get('/openapi.yaml', (_req, res) => {
    contextOf(res).route = `${apiRoot}/openapi.yaml`;
    res.type('application/yaml').send(served.yaml);
  });
  router.use(requireJsonBody);
  router.use(express.json({ type: jsonType, limit: '1mb', strict: false, verify: verifyJsonText }), refuseUnstorableText);
  router.use(csvPath, express.raw({ type: csvType, limit: csvLimits.bodyBytes }));
  router.use(authenticate(services));
  router.use(
    idempotentPosts(services, (req) => {
      const operation = backend.router.matchOperation({ method: req.method, path: req.originalUrl.split('?')[0] ?? '/', headers: {} }) as
        | { path: string }
        | undefined;
      return operation ? `${apiRoot}${operation.path}` : null;
    }),
  );
  router.use((req, res) =>
    backend.handleRequest(
      {
        method: req.method,
        path: req.originalUrl.split('?')[0] ?? '/',
        query: req.query as Record<string, string>,
        headers: req.headers as Record<string, string>,
        body: req.body,
      },
      req,
      res,
    ),
  );
  return router;
}
