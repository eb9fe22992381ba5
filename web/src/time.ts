// Times in the person's time zone (the browser's), on Temporal.
import { Temporal } from 'temporal-polyfill';

export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function zoned(instant: string | number): Temporal.ZonedDateTime {
  const at = typeof instant === 'number' ? Temporal.Instant.fromEpochMilliseconds(instant) : Temporal.Instant.from(instant);
  return at.toZonedDateTimeISO(timeZone);
}

/** A `datetime-local` value (wall-clock time in the person's zone) as a UTC ISO timestamp. */
export function fromLocalInput(value: string): string {
  return Temporal.PlainDateTime.from(value).toZonedDateTime(timeZone).toInstant().toString();
}

export function formatDateTime(instant: string): string {
  return new Date(instant).toLocaleString(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
}

export function formatTime(instant: string): string {
  return new Date(instant).toLocaleTimeString(undefined, { timeZone, timeStyle: 'short' });
}
