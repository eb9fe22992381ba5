// When the post is to go out: a date and time typed segment by segment or picked from a calendar (react-aria's
// DatePicker, in the dashboard's language), read as wall-clock time in `timeZone`, shown with that zone, and answered
// as the instant (ISO, UTC) the API takes. Times before now are refused as the person picks them.
import { now, parseAbsolute, toZoned } from '@internationalized/date';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Label,
  Popover,
  Text,
} from 'react-aria-components';
import { t } from '../i18n.ts';
import './schedulePicker.css';

export interface SchedulePickerProps {
  /** The chosen instant, ISO 8601 (as the API answers `scheduledAt`), or null for none. */
  value: string | null;
  onChange(value: string | null): void;
  /** The IANA time zone the date and time are read and shown in. */
  timeZone: string;
}

export function SchedulePicker({ value, onChange, timeZone }: SchedulePickerProps) {
  return (
    <DatePicker
      className="schedule-picker"
      granularity="minute"
      value={value ? parseAbsolute(value, timeZone) : null}
      minValue={now(timeZone)}
      // Typed from empty segments, the value is a wall-clock CalendarDateTime: read it in `timeZone`.
      onChange={(chosen) => onChange(chosen ? toZoned(chosen, timeZone).toAbsoluteString() : null)}
    >
      <Label>{t('composer.publishAt')}</Label>
      <Group className="schedule-field">
        <DateInput className="schedule-input">{(segment) => <DateSegment segment={segment} className="schedule-segment" />}</DateInput>
        <Button className="button button-quiet schedule-open" aria-label={t('composer.pickDate')}>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">
            <path d="M4 1v2M12 1v2M1.5 5.5h13M2 3h12v11H2z" fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
        </Button>
      </Group>
      <Text slot="description" className="hint">
        {t('composer.publishAtZone', { timeZone })}
      </Text>
      <FieldError className="field-error" />
      <Popover className="schedule-popover">
        <Dialog aria-label={t('composer.pickDate')}>
          <Calendar className="schedule-calendar">
            <header>
              <Button slot="previous" className="button button-quiet">
                ‹
              </Button>
              <Heading />
              <Button slot="next" className="button button-quiet">
                ›
              </Button>
            </header>
            <CalendarGrid>{(date) => <CalendarCell date={date} className="schedule-day" />}</CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </DatePicker>
  );
}
