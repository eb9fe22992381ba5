// A day of the calendar opened in the composer: the address that says which day, and the time proposed on it.
import { Temporal } from 'temporal-polyfill';
import { timeZone } from '../time.ts';

/** The composer's address for a post written for `day`, at `hour` where the person chose one (the week's hours). */
export const composePath = (day: Temporal.PlainDate, hour?: number) => `/compose?day=${day}${hour === undefined ? '' : `&hour=${hour}`}`;

const workdayStart = 9;

/**
 * When a post written for a day (the composer's `?day=`, and `&hour=` if one was chosen) is proposed to go out, as an
 * instant in the person's zone: that hour, else 09:00, while it is ahead; past it, today, the next full hour; none for
 * a day gone or an address naming no day.
 */
export function proposedTime(address: URLSearchParams, now = Temporal.Now.zonedDateTimeISO(timeZone)): string | null {
  let date: Temporal.PlainDate;
  try {
    date = Temporal.PlainDate.from(address.get('day') ?? '');
  } catch {
    return null;
  }
  const hour = Number(address.get('hour') || workdayStart);
  const chosen = date.toZonedDateTime({ timeZone, plainTime: { hour: Number.isInteger(hour) && hour >= 0 && hour < 24 ? hour : workdayStart } });
  if (Temporal.ZonedDateTime.compare(chosen, now) > 0) return chosen.toInstant().toString();
  return date.equals(now.toPlainDate()) ? now.round({ smallestUnit: 'hour', roundingMode: 'floor' }).add({ hours: 1 }).toInstant().toString() : null;
}
