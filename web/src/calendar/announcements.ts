// What a screen reader hears while a post is dragged (dnd-kit's announcements, which otherwise say "draggable item
// <id>" in English): the post by its caption, the day by its name, in the person's language.
import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import { Temporal } from 'temporal-polyfill';
import { t } from '../i18n.ts';
import { captionStart } from './captions.ts';
import { dateLabel, type CalendarPost } from './model.ts';

const dayLabel = dateLabel({ weekday: 'long', day: 'numeric', month: 'long' });

/** The announcements for the posts shown (found by id). */
export function dragAnnouncements(posts: readonly CalendarPost[] | null): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const captionOf = (id: string | number) => {
    const post = posts?.find((candidate) => candidate.id === id);
    return captionStart(post?.content.caption || t('calendar.noCaption'), 60);
  };
  const dayOf = (id: string | number) => dayLabel(Temporal.PlainDate.from(String(id)));
  return {
    screenReaderInstructions: { draggable: t('calendar.dragInstructions') },
    announcements: {
      onDragStart: ({ active }) => t('calendar.dragStart', { caption: captionOf(active.id) }),
      onDragOver: ({ active, over }) =>
        over ? t('calendar.dragOver', { caption: captionOf(active.id), day: dayOf(over.id) }) : t('calendar.dragOutside', { caption: captionOf(active.id) }),
      onDragEnd: ({ active, over }) =>
        over ? t('calendar.dragEnd', { caption: captionOf(active.id), day: dayOf(over.id) }) : t('calendar.dragCancel', { caption: captionOf(active.id) }),
      onDragCancel: ({ active }) => t('calendar.dragCancel', { caption: captionOf(active.id) }),
    },
  };
}
