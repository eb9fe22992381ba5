// The month or week as a grid of days, Monday first, each day a drop target for a dragged post.
import { memo } from 'react';
import { useDroppable } from '@dnd-kit/core';
import { Temporal } from 'temporal-polyfill';
import { t } from '../i18n.ts';
import { timeZone } from '../time.ts';
import { dateLabel, type CalendarPost } from './model.ts';
import { PostChip } from './PostChip.tsx';

const dayLabel = dateLabel({ weekday: 'long', day: 'numeric', month: 'long' });
const weekdayLabel = dateLabel({ weekday: 'short' });

const Day = memo(function Day({
  day,
  posts,
  outside,
  today,
}: {
  day: Temporal.PlainDate;
  posts: CalendarPost[] | undefined;
  outside: boolean;
  today: boolean;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: day.toString() });
  return (
    // biome-ignore-start lint/a11y/useSemanticElements: ARIA roles on divs, not table elements: the weeks are a 7-column CSS grid that becomes a stacked list on narrow screens (calendar.css), and a changed display drops a native table's semantics in some browsers (WebKit), explicit roles survive it
    // biome-ignore-start lint/a11y/useFocusableInteractive: the cells are not tab stops (no arrow-key moves between days): each post's link and drag handle inside them is, reached with Tab
    <div
      ref={setNodeRef}
      role="gridcell"
      data-day={day.toString()}
      aria-current={today ? 'date' : undefined}
      className={`day${outside ? ' outside' : ''}${today ? ' today' : ''}${isOver ? ' over' : ''}`}
    >
      <span className="day-number" aria-hidden="true">
        {day.day}
      </span>
      <span className="visually-hidden">{today ? t('calendar.todayIs', { date: dayLabel(day) }) : dayLabel(day)}</span>
      <ul>
        {posts?.map((post) => (
          <PostChip key={post.id} post={post} />
        ))}
      </ul>
    </div>
    // biome-ignore-end lint/a11y/useFocusableInteractive: end of the day cell
    // biome-ignore-end lint/a11y/useSemanticElements: end of the day cell
  );
});

export function DayGrid({
  label,
  days,
  byDay,
  month,
  loaded,
}: {
  label: string;
  days: Temporal.PlainDate[];
  byDay: Map<string, CalendarPost[]>;
  /** The month shown (days of other months are dimmed), or null for a week. */
  month: number | null;
  loaded: boolean;
}) {
  const today = Temporal.Now.plainDateISO(timeZone);
  const weeks = Array.from({ length: days.length / 7 }, (_, index) => days.slice(index * 7, index * 7 + 7));
  return (
    <>
      {/* biome-ignore-start lint/a11y/useSemanticElements: ARIA roles on divs, not table elements: the weeks are a 7-column CSS grid that becomes a stacked list on narrow screens (calendar.css), and a changed display drops a native table's semantics in some browsers (WebKit), explicit roles survive it */}
      {/* biome-ignore-start lint/a11y/useFocusableInteractive: rows and header cells are not tab stops (no arrow-key moves in the grid): the posts' links and drag handles in the day cells are, reached with Tab */}
      <div role="grid" aria-label={label} aria-busy={!loaded} className={`calendar calendar-${month === null ? 'week' : 'month'}`} data-loaded={loaded}>
        <div role="row" className="week weekdays">
          {days.slice(0, 7).map((day) => (
            <span role="columnheader" key={day.dayOfWeek}>
              {weekdayLabel(day)}
            </span>
          ))}
        </div>
        {weeks.map((week) => (
          <div role="row" className="week" key={week[0]!.toString()}>
            {week.map((day) => (
              <Day key={day.toString()} day={day} posts={byDay.get(day.toString())} outside={month !== null && day.month !== month} today={day.equals(today)} />
            ))}
          </div>
        ))}
      </div>
      {/* biome-ignore-end lint/a11y/useFocusableInteractive: end of the grid */}
      {/* biome-ignore-end lint/a11y/useSemanticElements: end of the grid */}
    </>
  );
}
