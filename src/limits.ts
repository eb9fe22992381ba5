// Input limits, once. The domain operations check them, so every transport (REST, GraphQL, MCP) gets the same
// refusal: 400 INVALID_REQUEST with details, as REST's schema validation gives. rest/openapi.yaml states the
// same numbers (test/domain/inputLimits.test.ts keeps the two equal).
import { invalidRequest, type ErrorDetail } from './errors/appError.ts';
import { longestAltText } from './media/limits.ts';

export const inputLimits = {
  post: { caption: 70_000, mediaIds: 35, targets: 50, placement: 40, campaign: 100 },
  webhook: { url: 2000, events: 13, description: 500 },
  queue: { name: 100, timezone: 64, slots: 168, connectionIds: 100 },
  media: { altText: longestAltText() },
  upload: { filename: 255, contentType: 255 },
  apiKey: { name: 100 },
  comment: { text: 5000, authorName: 100 },
  reviewLink: { defaultHours: 72, maxHours: 720 },
  feed: { url: 2000, connectionIds: 50, template: 2000 },
} as const;

/** Length in Unicode code points, as JSON Schema's maxLength counts: a surrogate pair is one. */
function codePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** A text field: at least `min`, at most `max` characters. Absent (undefined or null) passes. */
export function textWithin(field: string, value: string | null | undefined, max: number, min = 0): ErrorDetail[] {
  if (value === undefined || value === null) return [];
  // A string's UTF-16 length bounds its code points from above: only long strings need counting.
  const length = value.length > max ? codePoints(value) : value.length;
  if (length > max) return [{ field, code: 'maxLength', messageKey: 'detail.maxLength', params: { limit: max } }];
  if (length < min) return [{ field, code: 'minLength', messageKey: 'detail.minLength', params: { limit: min } }];
  return [];
}

/** A list field: at least `min`, at most `max` items. Absent passes. */
export function itemsWithin(field: string, value: readonly unknown[] | null | undefined, max: number, min = 0): ErrorDetail[] {
  if (value === undefined || value === null) return [];
  if (value.length > max) return [{ field, code: 'maxItems', messageKey: 'detail.maxItems', params: { limit: max } }];
  if (value.length < min) return [{ field, code: 'minItems', messageKey: 'detail.minItems', params: { limit: min } }];
  return [];
}

/** Throws 400 INVALID_REQUEST listing every detail, when there is any. */
export function refuseUnlessEmpty(details: ErrorDetail[]): void {
  if (details.length) throw invalidRequest(details);
}
