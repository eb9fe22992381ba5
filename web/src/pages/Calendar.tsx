// The calendar of posts, by month or week, in the person's time zone. A scheduled post is moved to another day
// by dragging its handle (pointer or keyboard, @dnd-kit): it keeps its time of day and is scheduled again.
import { useCallback, useEffect, useState } from 'react';
import { useClient } from 'urql';
import { DndContext, KeyboardSensor, PointerSensor, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { Temporal } from 'temporal-polyfill';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { formatTime, timeZone, zoned } from '../time.ts';
import { ErrorBanner, Link } from '../ui.tsx';

const PostsQuery = `
  query CalendarPosts($from: DateTime!, $to: DateTime!, $after: String) {
    posts(from: $from, to: $to, first: 100, after: $after) {
      edges { node { id status scheduledAt publishedAt createdAt content { caption } } }
      pageInfo { hasNextPage endCursor }
    }
  }`;
const SchedulePost = `mutation Reschedule($id: ID!, $scheduledAt: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $scheduledAt, timezone: $timezone) { id status scheduledAt } }`;

interface CalendarPost { id: string; status: string; scheduledAt: string | null; publishedAt: string | null; createdAt: string; content: { caption: string | null } }
interface PostsPage { posts: { edges: { node: CalendarPost }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }
type View = 'month' | 'week';

const whenOf = (post: CalendarPost) => post.publishedAt ?? post.scheduledAt ?? post.createdAt;

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

function PostChip({ post }: { post: CalendarPost }) {
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
}

function Day({ day, posts, outside }: { day: Temporal.PlainDate; posts: CalendarPost[]; outside: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: day.toString() });
  const label = day.toLocaleString(language, { weekday: 'long', day: 'numeric', month: 'long' });
  return (
    <div ref={setNodeRef} role="gridcell" data-day={day.toString()} className={`day${outside ? ' outside' : ''}${isOver ? ' over' : ''}`}>
      <span className="day-number" aria-hidden="true">
        {day.day}
      </span>
      <span className="visually-hidden">{label}</span>
      <ul>
        {posts.map((post) => (
          <PostChip key={post.id} post={post} />
        ))}
      </ul>
    </div>
  );
}

export function Calendar() {
  const client = useClient();
  const [view, setView] = useState<View>('month');
  const [anchor, setAnchor] = useState(() => Temporal.Now.plainDateISO(timeZone));
  const [posts, setPosts] = useState<CalendarPost[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor));
  const days = daysOf(view, anchor);
  const weekStarts = days.filter((_, index) => index % 7 === 0).map((day) => day.toString());

  // One paged query per week, the weeks at once: a busy month draws after two or three round trips, not ten.
  const load = useCallback(async () => {
    const loadWeek = async (start: string) => {
      const from = Temporal.PlainDate.from(start).toZonedDateTime(timeZone).toInstant().toString();
      const to = Temporal.PlainDate.from(start).add({ days: 7 }).toZonedDateTime(timeZone).toInstant().toString();
      const found: CalendarPost[] = [];
      let after: string | null = null;
      do {
        const result = await client.query<PostsPage>(PostsQuery, { from, to, after }, { requestPolicy: 'network-only' }).toPromise();
        if (result.error || !result.data) throw result.error ? apiErrorOf(result.error) : new Error('no data');
        found.push(...result.data.posts.edges.map((edge) => edge.node));
        after = result.data.posts.pageInfo.hasNextPage ? result.data.posts.pageInfo.endCursor : null;
      } while (after);
      return found;
    };
    try {
      setPosts((await Promise.all(weekStarts.map(loadWeek))).flat());
      setError(null);
    } catch (caught) {
      setError(caught as ApiError);
    }
  }, [client, weekStarts.join()]);

  useEffect(() => {
    void load();
  }, [load]);

  async function onDragEnd({ active, over }: DragEndEvent) {
    const post = posts?.find((candidate) => candidate.id === active.id);
    if (!post?.scheduledAt || !over) return;
    const target = Temporal.PlainDate.from(String(over.id));
    const current = zoned(post.scheduledAt);
    if (Temporal.PlainDate.compare(current.toPlainDate(), target) === 0) return;
    const scheduledAt = target.toZonedDateTime({ timeZone, plainTime: current.toPlainTime() }).toInstant().toString();
    setPosts((all) => all?.map((candidate) => (candidate.id === post.id ? { ...candidate, scheduledAt } : candidate)) ?? null);
    const result = await client.mutation(SchedulePost, { id: post.id, scheduledAt, timezone: timeZone }).toPromise();
    if (result.error) setError(apiErrorOf(result.error));
    await load();
  }

  const byDay = new Map<string, CalendarPost[]>();
  for (const post of posts ?? []) {
    const day = zoned(whenOf(post)).toPlainDate().toString();
    byDay.set(day, [...(byDay.get(day) ?? []), post]);
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
        <div role="grid" aria-label={title} aria-busy={posts === null} className={`calendar calendar-${view}`} data-loaded={posts !== null}>
          <div role="row" className="week weekdays">
            {days.slice(0, 7).map((day) => (
              <span role="columnheader" key={day.dayOfWeek}>
                {day.toLocaleString(language, { weekday: 'short' })}
              </span>
            ))}
          </div>
          {weeks.map((week) => (
            <div role="row" className="week" key={week[0]!.toString()}>
              {week.map((day) => (
                <Day key={day.toString()} day={day} posts={byDay.get(day.toString()) ?? []} outside={view === 'month' && day.month !== anchor.month} />
              ))}
            </div>
          ))}
        </div>
      </DndContext>
    </section>
  );
}
