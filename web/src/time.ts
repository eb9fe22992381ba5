// Times in the person's time zone (the browser's), on Temporal.
import { Temporal } from 'temporal-polyfill';

export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function zoned(instant: string | number): Temporal.ZonedDateTime {
  const at = typeof instant === 'number' ? Temporal.Instant.fromEpochMilliseconds(instant) : Temporal.Instant.from(instant);
  return at.toZonedDateTimeISO(timeZone);
}

// One formatter each, made once: toLocaleString with options builds a new one per call (0.1 ms; a month of 1,000
// posts spent most of its drawing time there).
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeZone, timeStyle: 'short' });

export function formatDateTime(instant: string): string {
  return dateTimeFormat.format(new Date(instant));
}

export function formatTime(instant: string): string {
  return timeFormat.format(new Date(instant));
}
