// The weekly slot editor: a grid of times × days, in the queue's time zone. Each cell is a checkbox (a slot on
// that day at that time), so the keyboard and screen readers use it as a plain form; times are added and removed
// as rows.
import { useId, useRef, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { language, t } from '../i18n.ts';
import { Field } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { weekdays, type Slot, type Weekday } from './model.ts';

// 2024-01-01 was a Monday: the names of the week's days in the person's language, Monday first.
const dayName = (index: number, style: 'long' | 'short') =>
  new Intl.DateTimeFormat(language, { weekday: style, timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + index));
const days = weekdays.map((day, index) => ({ day, long: dayName(index, 'long'), short: dayName(index, 'short') }));
const formatTime = (time: string) => Temporal.PlainTime.from(time).toLocaleString(language, { hour: 'numeric', minute: '2-digit' });

/** The slots in a line, day by day: "Mon 9:00 AM, 5:00 PM · Wed 12:00 PM". */
export function slotSummary(slots: Slot[]): string {
  return days
    .map(({ day, short }) => ({
      short,
      times: slots
        .filter((slot) => slot.day === day)
        .map((slot) => slot.time)
        .sort(),
    }))
    .filter(({ times }) => times.length)
    .map(({ short, times }) => `${short} ${times.map(formatTime).join(', ')}`)
    .join(' · ');
}

export function SlotEditor({ slots, onChange, error }: { slots: Slot[]; onChange: (slots: Slot[]) => void; error: string | undefined }) {
  // Times added without any day yet: a row waiting for its first slot.
  const [emptyTimes, setEmptyTimes] = useState<string[]>([]);
  const [newTime, setNewTime] = useState('09:00');
  const grid = useRef<HTMLTableSectionElement>(null);
  const errorId = useId();
  const times = [...new Set([...slots.map((slot) => slot.time), ...emptyTimes])].sort();
  const has = (day: Weekday, time: string) => slots.some((slot) => slot.day === day && slot.time === time);

  function toggle(day: Weekday, time: string) {
    onChange(has(day, time) ? slots.filter((slot) => !(slot.day === day && slot.time === time)) : [...slots, { day, time }]);
  }

  function addTime() {
    if (!times.includes(newTime)) setEmptyTimes([...emptyTimes, newTime]);
    // The new row's first day takes the focus, so the keyboard goes on where the row is.
    requestAnimationFrame(() => grid.current?.querySelector<HTMLInputElement>(`[data-time="${newTime}"] input`)?.focus());
  }

  function removeTime(time: string) {
    setEmptyTimes(emptyTimes.filter((candidate) => candidate !== time));
    onChange(slots.filter((slot) => slot.time !== time));
  }

  return (
    <fieldset className="slots" aria-describedby={error ? errorId : undefined}>
      <legend>{t('queues.slots')}</legend>
      {times.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('queues.time')}</th>
              {days.map(({ day, long, short }) => (
                <th scope="col" key={day}>
                  <abbr title={long}>{short}</abbr>
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{t('common.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody ref={grid}>
            {times.map((time) => (
              <tr key={time} data-time={time}>
                <th scope="row">{formatTime(time)}</th>
                {days.map(({ day, long }) => (
                  <td key={day}>
                    <input
                      type="checkbox"
                      checked={has(day, time)}
                      onChange={() => toggle(day, time)}
                      aria-label={t('queues.slot', { day: long, time: formatTime(time) })}
                    />
                  </td>
                ))}
                <td>
                  <Button variant="quiet" onPress={() => removeTime(time)}>
                    {t('queues.removeTime', { time: formatTime(time) })}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{t('queues.noSlots')}</p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      <div className="actions">
        <Field label={t('queues.newTime')} type="time" value={newTime} onChange={(event) => setNewTime(event.target.value)} />
        <Button onPress={addTime} isDisabled={!newTime}>
          {t('queues.addTime')}
        </Button>
      </div>
    </fieldset>
  );
}
