// Turns Ajv's errors (openapi-backend's request validation, the networks' settings schemas) into error `details`.
import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from './appError.ts';
import type { MessageKey } from './messages.ts';

/** `/requestBody/targets/0/placement` → `targets[0].placement`; `/query/limit` → `limit`. */
export function fieldPath(instancePath: string, child?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (['requestBody', 'query', 'path', 'header', 'headers', 'cookie'].includes(segments[0] ?? '')) segments.shift();
  if (child !== undefined) segments.push(child);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '') || 'body';
}

function detailOf(error: ErrorObject): ErrorDetail {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: fieldPath(error.instancePath, String(params.missingProperty)), code: 'required', messageKey: 'detail.required' };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return { field: fieldPath(error.instancePath, name), code: 'unknownField', messageKey: 'detail.additionalProperties' };
    }
    case 'type':
      return { field: fieldPath(error.instancePath), code: 'type', messageKey: 'detail.type', params: { type: String(params.type) } };
    case 'format':
      return { field: fieldPath(error.instancePath), code: 'format', messageKey: 'detail.format', params: { format: String(params.format) } };
    case 'enum':
      return {
        field: fieldPath(error.instancePath),
        code: 'enum',
        messageKey: 'detail.enum',
        params: { allowed: (params.allowedValues as unknown[]).join(', ') },
      };
    case 'const':
      return { field: fieldPath(error.instancePath), code: 'const', messageKey: 'detail.const', params: { allowed: String(params.allowedValue) } };
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
      return {
        field: fieldPath(error.instancePath),
        code: error.keyword,
        messageKey: `detail.${error.keyword}` as MessageKey,
        params: { limit: Number(params.limit) },
      };
    case 'uniqueItems':
      return { field: fieldPath(error.instancePath), code: 'uniqueItems', messageKey: 'detail.uniqueItems' };
    case 'pattern':
      return { field: fieldPath(error.instancePath), code: 'pattern', messageKey: 'detail.pattern' };
    default:
      return { field: fieldPath(error.instancePath), code: error.keyword, messageKey: 'detail.invalid' };
  }
}

/** One detail per field and rule; the branches of a failed `oneOf` collapse into the first reason. */
export function detailsOf(errors: ErrorObject[]): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if') continue;
    const detail = detailOf(error);
    if (seen.has(detail.field)) continue;
    seen.add(detail.field);
    details.push(detail);
  }
  return details;
}
