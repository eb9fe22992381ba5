// The one error type of the domain. Transports turn it into their shape (HTTP status + JSON, GraphQL
// extensions, MCP tool error) and render `messageKey` in the caller's language (see messages.ts).
import type { MessageKey } from './messages.ts';
import { isTransientDatabaseFailure } from './transientDatabase.ts';

export const httpStatusByCode = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  WORKSPACE_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  ENTITLEMENT_EXCEEDED: 402,
  AI_LIMIT_REACHED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONCURRENT_MODIFICATION: 409,
  INVALID_STATE_TRANSITION: 409,
  CONFLICT: 409,
  AI_NOT_CONFIGURED: 409,
  PROVIDER_NOT_CONFIGURED: 409,
  PROVIDER_NOT_AVAILABLE: 409,
  VALIDATION_FAILED: 422,
  PROVIDER_VALIDATION_FAILED: 422,
  AI_REFUSED: 422,
  RATE_LIMITED: 429,
  AI_BUSY: 429,
  INTERNAL: 500,
  AI_UNAVAILABLE: 503,
  PROVIDER_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof httpStatusByCode;
export type MessageParams = Record<string, string | number>;

/** One wrong field of a request: `field` is a path such as `targets[0].placement`. */
export interface ErrorDetail {
  field: string;
  code: string;
  messageKey: MessageKey;
  params?: MessageParams;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly messageKey: MessageKey;
  readonly params: MessageParams;
  readonly details: ErrorDetail[] | undefined;
  /** Extra response headers a transport should send (Retry-After, Allow). */
  readonly headers: Record<string, string>;
  readonly #status: number | undefined;

  constructor(
    code: ErrorCode,
    messageKey: MessageKey,
    params: MessageParams = {},
    /** `status` overrides the code's usual HTTP status (405 for a wrong method, which answers INVALID_REQUEST). */
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; status?: number; cause?: unknown } = {},
  ) {
    super(`${code}: ${messageKey}`, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.messageKey = messageKey;
    this.params = params;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.#status = options.status;
  }

  get httpStatus(): number {
    return this.#status ?? httpStatusByCode[this.code];
  }
}

export function invalidRequest(details: ErrorDetail[]): AppError {
  return new AppError('INVALID_REQUEST', 'invalidRequest', { count: details.length }, { details });
}

/** What a 404 can name: the catalogs' `api.notFound` words each one in its language (a select on `kind`). */
export const missingThings = [
  'post',
  'mediaFile',
  'upload',
  'socialAccount',
  'webhookEndpoint',
  'queue',
  'target',
  'delivery',
  'file',
  'member',
  'apiKey',
  'connectedApp',
  'appAuthorization',
  'reviewLink',
  'feed',
  'inboxItem',
] as const;
export type MissingThing = (typeof missingThings)[number];

export function notFound(kind: MissingThing): AppError {
  return new AppError('NOT_FOUND', 'notFound', { kind });
}

/** The reason a stored target or file failed, as answers show it; null when it has not failed. */
export function storedError(row: { errorCode: string | null; errorMessage: string | null }): { code: string; message: string } | null {
  return row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null;
}

/** Seconds a client waits after SERVICE_UNAVAILABLE: a database restart or a lost connection passes in about that. */
export const serviceRetryAfterSeconds = 1;

/**
 * What any error a request ends with means to the caller, whichever transport it came by: a domain error as it is;
 * a passing failure of the database (restart, cut connection, deadlock, lock wait) 503 SERVICE_UNAVAILABLE with
 * Retry-After; anything else INTERNAL.
 */
export function asAppError(cause: unknown): AppError {
  if (cause instanceof AppError) return cause;
  if (isTransientDatabaseFailure(cause)) {
    return new AppError(
      'SERVICE_UNAVAILABLE',
      'serviceUnavailable',
      { seconds: serviceRetryAfterSeconds },
      { cause, headers: { 'Retry-After': String(serviceRetryAfterSeconds) } },
    );
  }
  return new AppError('INTERNAL', 'internal', {}, { cause });
}

/** The service's own failures (not the caller's), which transports log with their cause. */
export const isServiceFault = (error: AppError): boolean => error.code === 'INTERNAL' || error.code === 'SERVICE_UNAVAILABLE';
