// Next free slot of a weekly queue, in three time zones, across both daylight-saving changes of 2026.
import { describe, expect, it } from 'vitest';
import { nextFreeSlot, normalizeSlots, slotInstants, type Slot } from '../../src/queues/slots.ts';

const at = (iso: string) => new Date(iso);
const next = (timezone: string, slots: Slot[], after: string, taken: string[] = []) =>
  nextFreeSlot(timezone, slots, new Set(taken.map((iso) => Date.parse(iso))), at(after))?.toISOString();

describe('a slot at a local time skipped by the spring-forward change moves forward by the gap', () => {
  it.each([
    ['America/New_York', '2026-03-07T12:00:00Z', '2026-03-08T07:30:00.000Z'], // 02:30 → 03:30 EDT
    ['Europe/Berlin', '2026-03-28T12:00:00Z', '2026-03-29T01:30:00.000Z'], // 02:30 → 03:30 CEST
    ['Australia/Sydney', '2026-10-03T00:00:00Z', '2026-10-03T16:30:00.000Z'], // 02:30 → 03:30 AEDT on Oct 4
  ])('%s', (zone, after, expected) => {
    expect(next(zone, [{ day: 'sunday', time: '02:30' }], after)).toBe(expected);
  });
});

describe('a local time that happens twice on the fall-back day is its first occurrence', () => {
  it.each([
    ['America/New_York', '01:30', '2026-10-31T12:00:00Z', '2026-11-01T05:30:00.000Z'], // 01:30 EDT, not EST
    ['Europe/Berlin', '02:30', '2026-10-24T12:00:00Z', '2026-10-25T00:30:00.000Z'], // 02:30 CEST, not CET
    ['Australia/Sydney', '02:30', '2026-04-04T00:00:00Z', '2026-04-04T15:30:00.000Z'], // 02:30 AEDT on Apr 5, not AEST
  ])('%s', (zone, time, after, expected) => {
    expect(next(zone, [{ day: 'sunday', time }], after)).toBe(expected);
  });
});

describe('ordinary slots follow the local clock across the changes', () => {
  it('keeps 09:00 at 09:00 local before and after each change', () => {
    const slots: Slot[] = [{ day: 'monday', time: '09:00' }];
    expect(slotInstants('America/New_York', slots, at('2026-03-01T00:00:00Z'), 2).map((d) => d.toISOString())).toEqual([
      '2026-03-02T14:00:00.000Z', // EST, UTC-5
      '2026-03-09T13:00:00.000Z', // EDT, UTC-4
    ]);
    expect(slotInstants('Europe/Berlin', slots, at('2026-10-19T00:00:00Z'), 2).map((d) => d.toISOString())).toEqual([
      '2026-10-19T07:00:00.000Z', // CEST, UTC+2
      '2026-10-26T08:00:00.000Z', // CET, UTC+1
    ]);
    expect(slotInstants('Australia/Sydney', slots, at('2026-09-27T00:00:00Z'), 2).map((d) => d.toISOString())).toEqual([
      '2026-09-27T23:00:00.000Z', // Monday Sep 28, AEST, UTC+10
      '2026-10-04T22:00:00.000Z', // Monday Oct 5, AEDT, UTC+11
    ]);
  });

  it('counts two slots that land on the same instant once', () => {
    const slots: Slot[] = [
      { day: 'sunday', time: '02:30' },
      { day: 'sunday', time: '03:30' },
    ];
    const onSpringDay = slotInstants('America/New_York', slots, at('2026-03-07T12:00:00Z'), 1).map((d) => d.toISOString());
    expect(onSpringDay).toEqual(['2026-03-08T07:30:00.000Z']);
  });
});

describe('a full week rolls over to the next', () => {
  it('takes the first free slot, next week when this week is taken', () => {
    const slots: Slot[] = [
      { day: 'monday', time: '09:00' },
      { day: 'wednesday', time: '17:30' },
    ];
    const after = '2026-11-22T10:00:00Z'; // a Sunday
    expect(next('Europe/Berlin', slots, after)).toBe('2026-11-23T08:00:00.000Z');
    expect(next('Europe/Berlin', slots, after, ['2026-11-23T08:00:00.000Z'])).toBe('2026-11-25T16:30:00.000Z');
    expect(next('Europe/Berlin', slots, after, ['2026-11-23T08:00:00.000Z', '2026-11-25T16:30:00.000Z'])).toBe('2026-11-30T08:00:00.000Z');
  });

  it('never offers a slot at or before the given moment', () => {
    expect(next('UTC', [{ day: 'monday', time: '09:00' }], '2026-11-23T09:00:00Z')).toBe('2026-11-30T09:00:00.000Z');
  });

  it('sorts and de-duplicates slots', () => {
    expect(
      normalizeSlots([
        { day: 'friday', time: '10:00' },
        { day: 'monday', time: '18:00' },
        { day: 'monday', time: '08:00' },
        { day: 'friday', time: '10:00' },
      ]),
    ).toEqual([
      { day: 'monday', time: '08:00' },
      { day: 'monday', time: '18:00' },
      { day: 'friday', time: '10:00' },
    ]);
  });
});
