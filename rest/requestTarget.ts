// Checks the request target (path and query) once, before any router sees it. Routers and tus decode the path on
// their own and fail with a 500 on bad percent-encoding (`%`, `%zz`, `%FF%FE`); PostgreSQL text cannot hold NUL.
// Either is the caller's mistake: 400 INVALID_REQUEST naming the part that is wrong.
import type { NextFunction, Request, Response } from 'express';
import { invalidRequest, type ErrorDetail } from '../src/errors/appError.ts';
import { sendError } from './errors.ts';

const hasNul = (text: string) => text.includes('\u0000');

function pathDetails(path: string): ErrorDetail[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return [{ field: 'path', code: 'percentEncoding', messageKey: 'detail.percentEncoding' }];
  }
  return hasNul(decoded) ? [{ field: 'path', code: 'nulCharacter', messageKey: 'detail.nulCharacter' }] : [];
}

function queryDetails(query: Record<string, unknown>): ErrorDetail[] {
  return Object.entries(query)
    .filter(([name, value]) => hasNul(name) || [value].flat().some((item) => typeof item === 'string' && hasNul(item)))
    .map(([name]) => ({ field: hasNul(name) ? 'query' : name, code: 'nulCharacter', messageKey: 'detail.nulCharacter' }));
}

export function checkRequestTarget(req: Request, res: Response, next: NextFunction): void {
  const details = [...pathDetails(req.path), ...queryDetails(req.query as Record<string, unknown>)];
  if (details.length) sendError(res, invalidRequest(details));
  else next();
}
