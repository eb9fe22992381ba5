// One post in its day: its networks, its thumbnail, its time and caption on its status colour, and a handle to
// drag a scheduled post to another day (pointer or keyboard, @dnd-kit).
import { memo } from 'react';
import { useDraggable } from '@dnd-kit/core';
import { t } from '../i18n.ts';
import { formatTime } from '../time.ts';
import { Link } from '../ui.tsx';
import { whenOf, type CalendarPost } from './model.ts';
import { Networks, Thumbnail } from './PostParts.tsx';

export const PostChip = memo(function PostChip({ post }: { post: CalendarPost }) {
  const movable = post.status === 'SCHEDULED';
  const { attributes, listeners, setNodeRef, transform } = useDraggable({ id: post.id, disabled: !movable });
  const caption = post.content.caption || t('calendar.noCaption');
  const style = transform ? { transform: `translate(${transform.x}px, ${transform.y}px)` } : undefined;
  const when = whenOf(post);
  return (
    <li ref={setNodeRef} style={style} className={`chip chip-${post.status.toLowerCase()}`} data-post-id={post.id}>
      {movable && (
        <button type="button" className="handle" aria-label={t('calendar.move', { caption })} {...attributes} {...listeners}>
          ⠿
        </button>
      )}
      <Networks providers={post.providers} />
      <Thumbnail url={post.thumbnailUrl} size={20} />
      <Link href={`/posts/${post.id}`} className="chip-link">
        <time dateTime={when}>{formatTime(when)}</time> {caption}
        <span className="visually-hidden">, {t('status.post', { status: post.status })}</span>
      </Link>
    </li>
  );
});
