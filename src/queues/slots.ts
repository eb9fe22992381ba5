// Weekly slots in a time zone, and the next free one. Local times become instants with Temporal's "compatible"
// rule (as RFC 5545 and most calendars do): a time skipped by a spring-forward change moves forward by the gap
// (02:30 → 03:30), a time that happens twice on a fall-back day is its first occurrence (01:30 summer time).
// Two slots that land on the same instant that way are one slot.
import { Temporal } from 'temporal-polyfill';

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

export interface Slot {
  day: Weekday;
  /** HH:mm, 24 h, local to the queue's time zone. */
  time: string;
}

/** Slots in week order, without duplicates. */
export function normalizeSlots(slots: readonly Slot[]): Slot[] {
  const unique = new Map(slots.map((slot) => [`${weekdays.indexOf(slot.day)}-${slot.time}`, slot]));
  return [...unique.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([, slot]) => slot);
}

/** The slots' instants strictly after `after`, in time order, for `weeks` weeks. */
export function slotInstants(timezone: string, slots: readonly Slot[], after: Date, weeks = 54): Date[] {
  const start = Temporal.Instant.fromEpochMilliseconds(after.getTime()).toZonedDateTimeISO(timezone).toPlainDate();
  const instants = new Set<number>();
  for (let offset = 0; offset < weeks * 7; offset++) {
    const date = start.add({ days: offset });
    for (const slot of slots) {
      if (weekdays.indexOf(slot.day) + 1 !== date.dayOfWeek) continue;
      const [hour, minute] = slot.time.split(':').map(Number);
      const zoned = date.toZonedDateTime({ timeZone: timezone, plainTime: { hour: hour!, minute: minute! } });
      const epoch = zoned.epochMilliseconds;
      if (epoch > after.getTime()) instants.add(epoch);
    }
  }
  return [...instants].sort((a, b) => a - b).map((epoch) => new Date(epoch));
}

/** The first slot after `after` that no post holds yet, or null when the next year of slots is full. */
export function nextFreeSlot(timezone: string, slots: readonly Slot[], taken: ReadonlySet<number>, after: Date): Date | null {
  return slotInstants(timezone, slots, after).find((instant) => !taken.has(instant.getTime())) ?? null;
}

/** Whether `instant` is one of the queue's slots. */
export function isSlot(timezone: string, slots: readonly Slot[], instant: Date): boolean {
  return slotInstants(timezone, slots, new Date(instant.getTime() - 1), 1).some((candidate) => candidate.getTime() === instant.getTime());
}
