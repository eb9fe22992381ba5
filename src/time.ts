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
