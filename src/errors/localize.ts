import type { AppError, ErrorDetail } from './appError.ts';
import { renderMessage, type Language } from './messages.ts';

export interface LocalizedError {
  code: string;
  message: string;
  details?: { field: string; code: string; message: string }[];
}

/** The error body every transport sends: codes as they are, messages in the caller's language. */
export function localizeError(error: AppError, language: Language): LocalizedError {
  const body: LocalizedError = { code: error.code, message: renderMessage(language, error.messageKey, error.params) };
  if (error.details) body.details = error.details.map((detail) => localizeDetail(detail, language));
  return body;
}

export function localizeDetail(detail: ErrorDetail, language: Language): { field: string; code: string; message: string } {
  return { field: detail.field, code: detail.code, message: renderMessage(language, detail.messageKey, detail.params) };
}
