// The month or week as a grid of days, Monday first, each day a drop target for a dragged post. A day from today on
// offers a post written for it ("+", or a click on the day's empty space). The week places each day's posts in
// rows of hours, 00 to 23, scrolled to the working hours.
import { memo, useLayoutEffect, useRef, type MouseEvent, type PointerEvent } from 'react';
import { useDroppable } from '@dnd-kit/core';
import { Temporal } from 'temporal-polyfill';
import { language, t } from '../i18n.ts';
import { navigate } from '../router.ts';
import { timeZone, zoned } from '../time.ts';
import { Link } from '../ui.tsx';
import { composePath } from './composeOn.ts';
import { dateLabel, whenOf, type CalendarPost } from './model.ts';
import { PostChip } from './PostChip.tsx';

const dayLabel = dateLabel({ weekday: 'long', day: 'numeric', month: 'long' });
const weekdayLabel = dateLabel({ weekday: 'short' });
const hours = Array.from({ length: 24 }, (_, hour) => hour);
const hourFormat = new Intl.DateTimeFormat(language, { hour: 'numeric', timeZone: 'UTC' });
const hourLabel = (hour: number) => hourFormat.format(Date.UTC(2000, 0, 1, hour));
/** The first hour in view when a week opens. */
const workingHoursFrom = 8;

function Posts({ posts }: { posts: CalendarPost[] | undefined }) {
  return posts?.length ? (
    <ul>
      {posts.map((post) => (
        <PostChip key={post.id} post={post} />
      ))}
    </ul>
  ) : null;
}

/** The day's posts in its 24 hours (rows of the week's grid); an hour without posts is an empty row. */
function Hours({ posts }: { posts: CalendarPost[] | undefined }) {
  return hours.map((hour) => (
    <div key={hour} className="hour" data-hour={hour}>
      <Posts posts={posts?.filter((post) => zoned(whenOf(post)).hour === hour)} />
    </div>
  ));
}

const Day = memo(function Day({
  day,
  posts,
  outside,
  today,
  past,
  byHour,
}: {
  day: Temporal.PlainDate;
  posts: CalendarPost[] | undefined;
  outside: boolean;
  today: boolean;
  /** Before today: no post can be written for it. */
  past: boolean;
  /** The posts in rows of hours (the week), else one list. */
  byHour: boolean;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: day.toString() });
  // A click on the day's own space, pressed there too (not a post dropped back on its day): the "+" link's action
  // for a pointer; in the week's hours, at the hour clicked.
  const pressedOnSpace = useRef(false);
  const onSpace = (event: PointerEvent | MouseEvent) => !past && !(event.target as Element).closest('.chip, a, button');
  const compose = (event: MouseEvent) => {
    if (!pressedOnSpace.current || !onSpace(event)) return;
    const hour = (event.target as Element).closest('.hour')?.getAttribute('data-hour');
    navigate(composePath(day, hour ? Number(hour) : undefined));
  };
  return (
    // biome-ignore-start lint/a11y/useSemanticElements: ARIA roles on divs, not table elements: the weeks are a 7-column CSS grid that becomes a stacked list on narrow screens (calendar.css), and a changed display drops a native table's semantics in some browsers (WebKit), explicit roles survive it
    // biome-ignore-start lint/a11y/useFocusableInteractive: the cells are not tab stops (no arrow-key moves between days): each post's link and drag handle inside them is, reached with Tab
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is a pointer's shortcut for the day's "+" link, which the keyboard reaches
    <div
      ref={setNodeRef}
      role="gridcell"
      data-day={day.toString()}
      aria-current={today ? 'date' : undefined}
      className={`day${outside ? ' outside' : ''}${today ? ' today' : ''}${isOver ? ' over' : ''}${past ? '' : ' open'}`}
      onPointerDown={(event) => {
        pressedOnSpace.current = onSpace(event);
      }}
      onClick={compose}
    >
      <div className="day-head">
        <span className="day-number" aria-hidden="true">
          {byHour && <span className="day-weekday">{weekdayLabel(day)} </span>}
          {day.day}
        </span>
        <span className="visually-hidden">{today ? t('calendar.todayIs', { date: dayLabel(day) }) : dayLabel(day)}</span>
        {!past && (
          <Link href={composePath(day)} className="day-compose" aria-label={t('calendar.composeOn', { date: dayLabel(day) })}>
            +
          </Link>
        )}
      </div>
      {byHour ? <Hours posts={posts} /> : <Posts posts={posts} />}
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
  const byHour = month === null;
  const grid = useRef<HTMLDivElement>(null);
  const firstDay = days[0]?.toString();
  // A week opens at the working hours (its grid scrolls; the hours before are above).
  useLayoutEffect(() => {
    const from = grid.current?.querySelector<HTMLElement>(`[data-day="${firstDay}"] .hour[data-hour="${workingHoursFrom}"]`);
    const header = grid.current?.querySelector<HTMLElement>(`[data-day="${firstDay}"] .day-head`);
    if (byHour && grid.current && from && header) {
      grid.current.scrollTop += from.getBoundingClientRect().top - grid.current.getBoundingClientRect().top - header.offsetHeight;
    }
  }, [byHour, firstDay]);
  return (
    <>
      {/* biome-ignore-start lint/a11y/useSemanticElements: ARIA roles on divs, not table elements: the weeks are a 7-column CSS grid that becomes a stacked list on narrow screens (calendar.css), and a changed display drops a native table's semantics in some browsers (WebKit), explicit roles survive it */}
      {/* biome-ignore-start lint/a11y/useFocusableInteractive: rows and header cells are not tab stops (no arrow-key moves in the grid): the posts' links and drag handles in the day cells are, reached with Tab */}
      <div
        ref={grid}
        role="grid"
        aria-label={label}
        aria-busy={!loaded}
        className={`calendar calendar-${byHour ? 'week' : 'month'}`}
        data-loaded={loaded}
        // The week scrolls within itself: the keyboard scrolls it too.
        tabIndex={byHour ? 0 : undefined}
      >
        <div role="row" className="week weekdays">
          {byHour && <span aria-hidden="true" />}
          {days.slice(0, 7).map((day) => (
            <span role="columnheader" key={day.dayOfWeek}>
              {weekdayLabel(day)}
            </span>
          ))}
        </div>
        {weeks.map((week) => (
          <div role="row" className="week" key={week[0]!.toString()}>
            {byHour && (
              <div className="hour-labels" aria-hidden="true">
                <span />
                {hours.map((hour) => (
                  <span key={hour}>{hourLabel(hour)}</span>
                ))}
              </div>
            )}
            {week.map((day) => (
              <Day
                key={day.toString()}
                day={day}
                posts={byDay.get(day.toString())}
                outside={month !== null && day.month !== month}
                today={day.equals(today)}
                past={Temporal.PlainDate.compare(day, today) < 0}
                byHour={byHour}
              />
            ))}
          </div>
        ))}
      </div>
      {/* biome-ignore-end lint/a11y/useFocusableInteractive: end of the grid */}
      {/* biome-ignore-end lint/a11y/useSemanticElements: end of the grid */}
    </>
  );
}
