// The one error shape of every HTTP answer: `{ error: { code, message, details?, requestId } }`.
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { AppError, asAppError, invalidRequest, isServiceFault } from '../src/errors/appError.ts';
import { localizeError } from '../src/errors/localize.ts';
import { unstorableText } from '../src/text/storableText.ts';
import type { Logger } from '../src/logger.ts';
import { contextOf, languageOf } from './requestContext.ts';

/** Why a JSON body parser's `verify` refused the body's bytes (a detail of field `body`). */
class BodyTextRefused extends Error {
  constructor(readonly code: 'nulCharacter' | 'wellFormed') {
    super(code);
  }
}

/**
 * A JSON body parser's `verify`, on the bytes as sent: PostgreSQL text cannot hold NUL, and bytes that are not UTF-8
 * would be decoded into U+FFFD and stored so. Either is refused before the body reaches the domain.
 */
export function verifyJsonText(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (body.includes('\\u0000')) throw new BodyTextRefused('nulCharacter');
  if (/^utf-?8$/i.test(encoding) && !isUtf8(body)) throw new BodyTextRefused('wellFormed');
}

/** After a JSON body parser: a lone surrogate (`"\ud800"`) in any string or key is refused naming the field. */
export function refuseUnstorableText(req: Request, res: Response, next: NextFunction): void {
  const details = unstorableText(req.body, 'body');
  if (details.length) sendError(res, invalidRequest(details));
  else next();
}

export function sendError(res: Response, error: AppError): void {
  const context = contextOf(res);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.httpStatus).json({ error: { ...localizeError(error, context?.language ?? 'en'), requestId: context?.requestId } });
}

/** Errors raised by express itself (body parsing) or thrown by handlers end here. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const parserError = error as { type?: string; limit?: number };
    if (parserError.type === 'entity.parse.failed') return sendError(res, new AppError('INVALID_JSON', 'invalidJson'));
    if (error instanceof BodyTextRefused) {
      return sendError(res, invalidRequest([{ field: 'body', code: error.code, messageKey: `detail.${error.code}` }]));
    }
    if (parserError.type === 'entity.too.large') {
      return sendError(res, invalidRequest([{ field: 'body', code: 'tooLarge', messageKey: 'detail.tooLarge', params: { limit: parserError.limit ?? 0 } }]));
    }
    if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
      return sendError(res, new AppError('INVALID_JSON', 'invalidJson'));
    }
    const appError = asAppError(error);
    if (isServiceFault(appError)) {
      logger.error({ err: error, requestId: contextOf(res)?.requestId, method: req.method, path: req.path }, 'request failed');
    }
    if (!res.locals.context) res.locals.context = { requestId: 'unknown', language: languageOf(req) };
    sendError(res, appError);
  };
}

/**
 * Requests Node's HTTP parser refuses before express sees them (headers over 16 KiB, bytes that are not HTTP) get
 * the same error shape as every other answer, in English: there is no parsed Accept-Language to follow.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const requestId = randomUUID();
    const body = JSON.stringify({
      error: { ...localizeError(new AppError('INVALID_REQUEST', tooLarge ? 'requestHeadersTooLarge' : 'malformedRequest'), 'en'), requestId },
    });
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(
      `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

export function routeNotFound(req: Request, res: Response): void {
  sendError(res, new AppError('NOT_FOUND', 'routeNotFound', { method: req.method, path: req.path }));
}
