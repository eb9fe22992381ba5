// The calendar of posts, by month or week, in the person's time zone. A scheduled post is moved to another day
// by dragging its handle (pointer or keyboard, @dnd-kit): it keeps its time of day and is scheduled again.
import { memo, useEffect, useMemo, useState } from 'react';
import { useClient, type Client, type OperationResult } from 'urql';
import { DndContext, KeyboardSensor, PointerSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { Temporal } from 'temporal-polyfill';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { formatTime, timeZone, zoned } from '../time.ts';
import { ErrorBanner, Link } from '../ui.tsx';

// One request a week row, one field a day with its first 40 posts, every week at once: a month of 1,000 posts
// arrives in one round trip (the graph's cost limit allows about 40 posts × 7 days an operation, and a browser
// sends six requests at a time). A busier day goes on alone, 100 posts a page. Only the fields a cell shows.
const WeekQuery = `
  query CalendarWeek($d0: DateTime!, $d1: DateTime!, $d2: DateTime!, $d3: DateTime!, $d4: DateTime!, $d5: DateTime!, $d6: DateTime!, $d7: DateTime!) {
    d0: posts(from: $d0, to: $d1, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
    d1: posts(from: $d1, to: $d2, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
    d2: posts(from: $d2, to: $d3, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
    d3: posts(from: $d3, to: $d4, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
    d4: posts(from: $d4, to: $d5, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
    d5: posts(from: $d5, to: $d6, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
    d6: posts(from: $d6, to: $d7, first: 40) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
  }`;
const DayQuery = `
  query CalendarDay($from: DateTime!, $to: DateTime!, $after: String) {
    posts(from: $from, to: $to, first: 100, after: $after) { edges { node { id status scheduledAt publishedAt createdAt content { caption } } } pageInfo { hasNextPage endCursor } }
  }`;
const SchedulePost = `mutation Reschedule($id: ID!, $scheduledAt: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $scheduledAt, timezone: $timezone) { id status scheduledAt } }`;

interface CalendarPost {
  id: string;
  status: string;
  scheduledAt: string | null;
  publishedAt: string | null;
  createdAt: string;
  content: { caption: string | null };
}
interface PostsPage {
  edges: { node: CalendarPost }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
interface Rescheduled {
  schedulePost: Pick<CalendarPost, 'id' | 'status' | 'scheduledAt'>;
}
type View = 'month' | 'week';

/** A drag starts after 4 px, so a click on the handle stays a click. One object, so the sensors are made once. */
const pointerActivation = { activationConstraint: { distance: 4 } };

const whenOf = (post: CalendarPost) => post.publishedAt ?? post.scheduledAt ?? post.createdAt;
const startOf = (day: Temporal.PlainDate) => day.toZonedDateTime(timeZone).toInstant().toString();

/** A date's name by a formatter made once (making one costs far more than using it): the date at midnight UTC. */
const dateLabel = (options: Intl.DateTimeFormatOptions) => {
  const format = new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' });
  return (day: Temporal.PlainDate) => format.format(day.toZonedDateTime('UTC').epochMilliseconds);
};
const dayLabel = dateLabel({ weekday: 'long', day: 'numeric', month: 'long' });
const weekdayLabel = dateLabel({ weekday: 'short' });

/** The days shown: whole weeks (Monday first) around the month, or the week of `anchor`. */
function daysOf(view: View, anchor: Temporal.PlainDate): Temporal.PlainDate[] {
  const first = view === 'month' ? anchor.with({ day: 1 }) : anchor;
  const start = first.subtract({ days: first.dayOfWeek - 1 });
  const last = view === 'month' ? anchor.with({ day: anchor.daysInMonth }) : anchor;
  const end = last.add({ days: 7 - last.dayOfWeek });
  const days: Temporal.PlainDate[] = [];
  for (let day = start; Temporal.PlainDate.compare(day, end) <= 0; day = day.add({ days: 1 })) days.push(day);
  return days;
}

/** The posts of the days shown (whole weeks), each day's in the graph's order. */
async function loadPosts(client: Client, days: Temporal.PlainDate[]): Promise<CalendarPost[]> {
  const unwrap = <Data,>(result: OperationResult<Data>): Data => {
    if (result.error || !result.data) throw result.error ? apiErrorOf(result.error) : new Error('no data');
    return result.data;
  };
  const restOfDay = async (from: string, to: string, page: PostsPage): Promise<CalendarPost[]> => {
    const found = page.edges.map((edge) => edge.node);
    while (page.pageInfo.hasNextPage) {
      page = unwrap(
        await client.query<{ posts: PostsPage }>(DayQuery, { from, to, after: page.pageInfo.endCursor }, { requestPolicy: 'network-only' }).toPromise(),
      ).posts;
      found.push(...page.edges.map((edge) => edge.node));
    }
    return found;
  };
  const loadWeek = async (monday: Temporal.PlainDate) => {
    const bounds = Array.from({ length: 8 }, (_, index) => startOf(monday.add({ days: index })));
    const variables = Object.fromEntries(bounds.map((bound, index) => [`d${index}`, bound]));
    const week = unwrap(await client.query<Record<string, PostsPage>>(WeekQuery, variables, { requestPolicy: 'network-only' }).toPromise());
    return Promise.all(bounds.slice(0, 7).map((from, index) => restOfDay(from, bounds[index + 1]!, week[`d${index}`]!)));
  };
  const weeks = await Promise.all(days.filter((day) => day.dayOfWeek === 1).map(loadWeek));
  return weeks.flat(2);
}

/** Each day's posts, keyed by the day's ISO date in the person's zone. */
function postsByDay(posts: CalendarPost[]): Map<string, CalendarPost[]> {
  const byDay = new Map<string, CalendarPost[]>();
  for (const post of posts) {
    const day = zoned(whenOf(post)).toPlainDate().toString();
    const bucket = byDay.get(day);
    if (bucket) bucket.push(post);
    else byDay.set(day, [post]);
  }
  return byDay;
}

/** One post in its day; a scheduled one has a handle to drag it to another day. */
const PostChip = memo(function PostChip({ post }: { post: CalendarPost }) {
  const movable = post.status === 'SCHEDULED';
  const { attributes, listeners, setNodeRef, transform } = useDraggable({ id: post.id, disabled: !movable });
  const caption = post.content.caption || t('calendar.noCaption');
  const style = transform ? { transform: `translate(${transform.x}px, ${transform.y}px)` } : undefined;
  return (
    <li ref={setNodeRef} style={style} className={`chip chip-${post.status.toLowerCase()}`} data-post-id={post.id}>
      {movable && (
        <button type="button" className="handle" aria-label={t('calendar.move', { caption })} {...attributes} {...listeners}>
          ⠿
        </button>
      )}
      <Link href={`/posts/${post.id}`}>
        <time dateTime={whenOf(post)}>{formatTime(whenOf(post))}</time> {caption}
      </Link>
    </li>
  );
});

const Day = memo(function Day({ day, posts, outside }: { day: Temporal.PlainDate; posts: CalendarPost[] | undefined; outside: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: day.toString() });
  return (
    // biome-ignore-start lint/a11y/useSemanticElements: ARIA roles on divs, not table elements: the weeks are a 7-column CSS grid that becomes a stacked list on narrow screens (styles.css), and a changed display drops a native table's semantics in some browsers (WebKit), explicit roles survive it
    // biome-ignore-start lint/a11y/useFocusableInteractive: the cells are not tab stops (no arrow-key moves between days): each post's link and drag handle inside them is, reached with Tab
    <div ref={setNodeRef} role="gridcell" data-day={day.toString()} className={`day${outside ? ' outside' : ''}${isOver ? ' over' : ''}`}>
      <span className="day-number" aria-hidden="true">
        {day.day}
      </span>
      <span className="visually-hidden">{dayLabel(day)}</span>
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

export function Calendar() {
  const client = useClient();
  const [view, setView] = useState<View>('month');
  const [anchor, setAnchor] = useState(() => Temporal.Now.plainDateISO(timeZone));
  const [posts, setPosts] = useState<CalendarPost[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const sensors = useSensors(useSensor(PointerSensor, pointerActivation), useSensor(KeyboardSensor));
  const days = useMemo(() => daysOf(view, anchor), [view, anchor]);
  const byDay = useMemo(() => postsByDay(posts ?? []), [posts]);
  const [reloads, setReloads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies(reloads): not read, only counted: a refused move bumps it so the calendar is read again
  useEffect(() => {
    let current = true;
    loadPosts(client, days).then(
      (found) => {
        if (!current) return;
        setPosts(found);
        setError(null);
      },
      (caught: unknown) => current && setError(caught as ApiError),
    );
    return () => {
      current = false;
    };
  }, [client, days, reloads]);

  // Moved at once; the graph's answer then stands (a refusal shows and the calendar is read again).
  async function onDragEnd({ active, over }: DragEndEvent) {
    const post = posts?.find((candidate) => candidate.id === active.id);
    if (!post?.scheduledAt || !over) return;
    const target = Temporal.PlainDate.from(String(over.id));
    const current = zoned(post.scheduledAt);
    if (Temporal.PlainDate.compare(current.toPlainDate(), target) === 0) return;
    const scheduledAt = target.toZonedDateTime({ timeZone, plainTime: current.toPlainTime() }).toInstant().toString();
    const update = (changes: Partial<CalendarPost>) =>
      setPosts((all) => all?.map((candidate) => (candidate.id === post.id ? { ...candidate, ...changes } : candidate)) ?? null);
    update({ scheduledAt });
    const result = await client.mutation<Rescheduled>(SchedulePost, { id: post.id, scheduledAt, timezone: timeZone }).toPromise();
    if (result.data?.schedulePost) {
      update(result.data.schedulePost);
    } else {
      if (result.error) setError(apiErrorOf(result.error));
      setReloads((count) => count + 1);
    }
  }

  const weeks = Array.from({ length: days.length / 7 }, (_, index) => days.slice(index * 7, index * 7 + 7));
  const step = view === 'month' ? { months: 1 } : { weeks: 1 };
  const title =
    view === 'month'
      ? anchor.toLocaleString(language, { month: 'long', year: 'numeric' })
      : t('calendar.weekOf', { date: days[0]!.toLocaleString(language, { dateStyle: 'medium' }) });

  return (
    <section aria-labelledby="calendar-title">
      <div className="toolbar">
        <h1 id="calendar-title">{title}</h1>
        <button type="button" onClick={() => setAnchor(anchor.subtract(step))}>
          {t('calendar.previous')}
        </button>
        <button type="button" onClick={() => setAnchor(Temporal.Now.plainDateISO(timeZone))}>
          {t('calendar.today')}
        </button>
        <button type="button" onClick={() => setAnchor(anchor.add(step))}>
          {t('calendar.next')}
        </button>
        <label>
          {t('calendar.view')}
          <select value={view} onChange={(event) => setView(event.target.value as View)}>
            <option value="month">{t('calendar.month')}</option>
            <option value="week">{t('calendar.week')}</option>
          </select>
        </label>
        <span className="muted">{t('calendar.timeZone', { timeZone })}</span>
      </div>
      <ErrorBanner error={error} />
      <DndContext sensors={sensors} onDragEnd={onDragEnd}>
        {/* biome-ignore-start lint/a11y/useSemanticElements: ARIA roles on divs, not table elements: the weeks are a 7-column CSS grid that becomes a stacked list on narrow screens (styles.css), and a changed display drops a native table's semantics in some browsers (WebKit), explicit roles survive it */}
        {/* biome-ignore-start lint/a11y/useFocusableInteractive: rows and header cells are not tab stops (no arrow-key moves in the grid): the posts' links and drag handles in the day cells are, reached with Tab */}
        <div role="grid" aria-label={title} aria-busy={posts === null} className={`calendar calendar-${view}`} data-loaded={posts !== null}>
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
                <Day key={day.toString()} day={day} posts={byDay.get(day.toString())} outside={view === 'month' && day.month !== anchor.month} />
              ))}
            </div>
          ))}
        </div>
        {/* biome-ignore-end lint/a11y/useFocusableInteractive: end of the grid */}
        {/* biome-ignore-end lint/a11y/useSemanticElements: end of the grid */}
      </DndContext>
    </section>
  );
}
