// The calendar of posts, by month, week or as a list, in the person's time zone. Each post shows its networks, its
// thumbnail and its status colour, and a card with more on hover or focus. A scheduled post is moved to another day
// by dragging its handle (pointer or keyboard, @dnd-kit): it keeps its time of day and is scheduled again. "Needs
// review only" shows just the posts waiting for an owner's or admin's review.
import { lazy, Suspense, useMemo, useState } from 'react';
import { useClient } from 'urql';
import { DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { Temporal } from 'temporal-polyfill';
import { apiErrorOf } from '../api/client.ts';
import { language, t } from '../i18n.ts';
import { timeZone, zoned } from '../time.ts';
import { ErrorBanner, Link } from '../ui.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { DayGrid } from '../calendar/DayGrid.tsx';
import { PostList } from '../calendar/PostList.tsx';
import { usePostCard } from '../calendar/PostCard.tsx';
import { usePosts } from '../calendar/usePosts.ts';
import { dragAnnouncements } from '../calendar/announcements.ts';
import { daysOf, postsByDay, type CalendarPost, type View } from '../calendar/model.ts';
import { downloadPostsCsv } from '../calendar/postsCsv.ts';
import type { ApiError } from '../api/auth.ts';
import '../calendar/calendar.css';

const CsvImport = lazy(() => import('../calendar/CsvImport.tsx'));

const SchedulePost = `mutation Reschedule($id: ID!, $scheduledAt: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $scheduledAt, timezone: $timezone) { id status scheduledAt } }`;
interface Rescheduled {
  schedulePost: Pick<CalendarPost, 'id' | 'status' | 'scheduledAt'>;
}

const views: View[] = ['month', 'week', 'list'];
const steps = { month: { months: 1 }, week: { weeks: 1 }, list: { months: 1 } } as const;

/** A drag starts after 4 px, so a click on the handle stays a click. One object, so the sensors are made once. */
const pointerActivation = { activationConstraint: { distance: 4 } };

export function Calendar({ workspaceId }: { workspaceId: string }) {
  const client = useClient();
  const [view, setView] = useState<View>('month');
  const [anchor, setAnchor] = useState(() => Temporal.Now.plainDateISO(timeZone));
  const sensors = useSensors(useSensor(PointerSensor, pointerActivation), useSensor(KeyboardSensor));
  const step = steps[view];
  const days = useMemo(() => daysOf(view, anchor), [view, anchor]);
  const neighbours = useMemo(() => [daysOf(view, anchor.add(step)), daysOf(view, anchor.subtract(step))], [view, anchor, step]);
  const { posts, setPosts, error, setError, forget, refresh } = usePosts(client, days, neighbours);
  const [needsReview, setNeedsReview] = useState(false);
  const shown = useMemo(() => (needsReview ? posts?.filter((post) => post.status === 'IN_REVIEW') : posts) ?? null, [posts, needsReview]);
  const byDay = useMemo(() => postsByDay(shown ?? []), [shown]);
  const card = usePostCard(posts);
  const announcements = useMemo(() => dragAnnouncements(posts), [posts]);
  const [importing, setImporting] = useState(false);
  const [exportError, setExportError] = useState<ApiError | null>(null);

  // The period shown, from its first day's start to the next day after its last, in the person's zone.
  async function exportShown() {
    setExportError(null);
    const instant = (day: Temporal.PlainDate) => day.toZonedDateTime({ timeZone }).toInstant().toString();
    await downloadPostsCsv(workspaceId, { from: instant(days[0]!), to: instant(days.at(-1)!.add({ days: 1 })) }).catch((caught: ApiError) =>
      setExportError(caught),
    );
  }

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
      // What was read, ahead or before, may hold the post at its old day.
      forget();
    } else {
      if (result.error) setError(apiErrorOf(result.error));
      refresh();
    }
  }

  const month = anchor.toLocaleString(language, { month: 'long', year: 'numeric' });
  const title = view === 'week' ? t('calendar.weekOf', { date: days[0]!.toLocaleString(language, { dateStyle: 'medium' }) }) : month;

  return (
    <section aria-labelledby="calendar-title" className="calendar-page">
      <div className="toolbar calendar-toolbar">
        <h1 id="calendar-title">{title}</h1>
        {/* Native controls in the shared buttons' look: the calendar is the first page, and react-aria's Button and
            ToggleButtonGroup would bring their shared chunk (about 40 KB gzip) into it. */}
        <div className="calendar-steps">
          <button type="button" className="button button-secondary" onClick={() => setAnchor(anchor.subtract(step))}>
            {t('calendar.previous')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setAnchor(Temporal.Now.plainDateISO(timeZone))}>
            {t('calendar.today')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setAnchor(anchor.add(step))}>
            {t('calendar.next')}
          </button>
        </div>
        <div role="radiogroup" aria-label={t('calendar.view')} className="segmented">
          {views.map((option) => (
            <label key={option} className="segment">
              <input type="radio" name="calendar-view" value={option} checked={view === option} onChange={() => setView(option)} />
              {t('calendar.viewName', { view: option })}
            </label>
          ))}
        </div>
        <label className="calendar-filter">
          <input type="checkbox" checked={needsReview} onChange={(event) => setNeedsReview(event.target.checked)} /> {t('calendar.needsReview')}
        </label>
        <span className="muted">{t('calendar.timeZone', { timeZone })}</span>
        <div className="calendar-steps">
          <button type="button" className="button button-secondary" onClick={() => setImporting(true)}>
            {t('calendar.import')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => void exportShown()}>
            {t('calendar.export')}
          </button>
        </div>
      </div>
      {importing && (
        <Suspense fallback={null}>
          <CsvImport
            workspaceId={workspaceId}
            onClose={() => setImporting(false)}
            onImported={() => {
              forget();
              refresh();
            }}
          />
        </Suspense>
      )}
      <ErrorBanner error={exportError} />
      <ErrorBanner error={error} />
      {error && (
        <button type="button" className="button button-secondary" onClick={refresh}>
          {t('calendar.reload')}
        </button>
      )}
      {/* The posts' container: its focus and pointer events show each post's card. */}
      <div className="calendar-posts" {...card.handlers}>
        {view === 'list' ? (
          <PostList days={days} byDay={byDay} month={anchor.month} loaded={posts !== null} period={month} />
        ) : (
          <DndContext sensors={sensors} accessibility={announcements} onDragStart={card.close} onDragEnd={onDragEnd}>
            <DayGrid label={title} days={days} byDay={byDay} month={view === 'month' ? anchor.month : null} loaded={posts !== null} />
          </DndContext>
        )}
        {view !== 'list' && shown?.length === 0 && (
          <EmptyState title={t('calendar.emptyTitle', { period: title })} action={<Link href="/compose">{t('calendar.compose')}</Link>}>
            <p>{t('calendar.emptyBody')}</p>
          </EmptyState>
        )}
      </div>
      {card.card}
    </section>
  );
}
