// A day of the calendar opened in the composer: the address that says which day, and the time proposed on it.
import { Temporal } from 'temporal-polyfill';
import { timeZone } from '../time.ts';

/** The composer's address for a post written for `day`. */
export const composePath = (day: Temporal.PlainDate) => `/compose?day=${day}`;

const workdayStart = Temporal.PlainTime.from('09:00');

/**
 * When a post written for `day` (the composer's `?day=`) is proposed to go out, as an instant: 09:00 in the
 * person's zone; today the next full hour if that is later; none for a day gone or an address naming no day.
 */
export function proposedTime(day: string | null, now = Temporal.Now.zonedDateTimeISO(timeZone)): string | null {
  let date: Temporal.PlainDate;
  try {
    date = Temporal.PlainDate.from(day ?? '');
  } catch {
    return null;
  }
  const nine = date.toZonedDateTime({ timeZone, plainTime: workdayStart });
  const nextHour = now.round({ smallestUnit: 'hour', roundingMode: 'floor' }).add({ hours: 1 });
  if (Temporal.PlainDate.compare(date, now.toPlainDate()) < 0) return null;
  return (Temporal.ZonedDateTime.compare(nine, nextHour) < 0 && date.equals(now.toPlainDate()) ? nextHour : nine).toInstant().toString();
}
