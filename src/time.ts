import type { ErrorDetail } from './errors/appError.ts';

/**
 * The canonical IANA name of `zone` (`europe/berlin` → `Europe/Berlin`), or null when it is not one. UTC offsets
 * such as `+05:00` are not time zones: they have no daylight-saving rules.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (!/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * Whether an instant can be written in RFC 3339 and stored by PostgreSQL: the years 0001 to 9999. JavaScript dates
 * reach far beyond both ends, and PostgreSQL has no year 0, so anything outside would fail in SQL instead of here.
 */
export function isStorableInstant(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** One detail of a 400 for each given instant that is no time (an invalid Date) or cannot be stored. */
export function instantDetails(instants: Record<string, Date | undefined>): ErrorDetail[] {
  return Object.entries(instants).flatMap(([field, date]): ErrorDetail[] => {
    if (date === undefined || isStorableInstant(date)) return [];
    if (Number.isNaN(date.getTime())) return [{ field, code: 'format', messageKey: 'detail.format', params: { format: 'date-time' } }];
    return [{ field, code: 'range', messageKey: 'detail.instantRange' }];
  });
}
