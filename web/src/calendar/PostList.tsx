// The month's posts as a list in time order, under their days: what a week grid squeezes, in full width.
import type { Temporal } from 'temporal-polyfill';
import { t } from '../i18n.ts';
import { formatTime } from '../time.ts';
import { Link } from '../ui.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { captionStart } from './captions.ts';
import { dateLabel, statusTones, whenOf, type CalendarPost } from './model.ts';
import { Networks, Thumbnail } from './PostParts.tsx';

const dayLabel = dateLabel({ weekday: 'long', day: 'numeric', month: 'long' });

export function PostList({
  days,
  byDay,
  month,
  loaded,
  period,
}: {
  days: Temporal.PlainDate[];
  byDay: Map<string, CalendarPost[]>;
  month: number;
  loaded: boolean;
  /** The month's name, for the empty list. */
  period: string;
}) {
  const shown = days.filter((day) => day.month === month && byDay.has(day.toString()));
  if (loaded && shown.length === 0) {
    return (
      <EmptyState title={t('calendar.emptyTitle', { period })} action={<Link href="/compose">{t('calendar.compose')}</Link>}>
        <p>{t('calendar.emptyBody')}</p>
      </EmptyState>
    );
  }
  return (
    <ol className="post-list" aria-busy={!loaded} data-loaded={loaded}>
      {shown.map((day) => (
        <li key={day.toString()} data-day={day.toString()}>
          <h2 className="post-list-day">{dayLabel(day)}</h2>
          <ul>
            {byDay.get(day.toString())!.map((post) => (
              <li key={post.id} data-post-id={post.id} className={`post-list-item chip-${post.status.toLowerCase()}`}>
                <time dateTime={whenOf(post)}>{formatTime(whenOf(post))}</time>
                <Thumbnail url={post.thumbnailUrl} size={40} />
                <Link href={`/posts/${post.id}`} className="post-list-caption">
                  {captionStart(post.content.caption || t('calendar.noCaption'), 120)}
                </Link>
                <Networks providers={post.providers} />
                <StatusBadge tone={statusTones[post.status]}>{t('status.post', { status: post.status })}</StatusBadge>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
