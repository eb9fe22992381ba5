// The card of the post under the pointer or with the keyboard focus: the caption's start, the time and status, and
// the accounts it goes to. One card for the whole calendar, found from the events of the posts' container (one
// listener, not one overlay a post, so a month of 1,000 posts draws no more than its chips; PostCardOverlay.tsx is
// the card). It opens on focus at once and on hover after a moment, stays while the pointer is on it, and Escape
// closes it.
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type PointerEvent } from 'react';
import type { CalendarPost } from './model.ts';

const PostCardOverlay = lazy(() => import('./PostCardOverlay.tsx'));

const hoverDelayMs = 300;
const leaveDelayMs = 150;

const chipOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>('[data-post-id]') : null);

/**
 * The card and the handlers that show it, for the element holding the posts (`[data-post-id]`, each with a link).
 * `close()` hides it at once (a drag starts).
 */
export function usePostCard(posts: readonly CalendarPost[] | null) {
  const byId = useMemo(() => new Map(posts?.map((post) => [post.id, post])), [posts]);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const cardId = useId();

  const later = (delay: number, next: HTMLElement | null) => {
    clearTimeout(timer.current);
    if (delay === 0) setAnchor(next);
    else timer.current = setTimeout(() => setAnchor(next), delay);
  };
  const close = () => later(0, null);
  useEffect(() => () => clearTimeout(timer.current), []);

  const post = anchor ? byId.get(anchor.dataset.postId ?? '') : undefined;
  // The post's link is described by its card while it is shown.
  useEffect(() => {
    const link = post && anchor?.querySelector('a');
    if (!link) return;
    link.setAttribute('aria-describedby', cardId);
    return () => link.removeAttribute('aria-describedby');
  }, [anchor, post, cardId]);

  /** The chip that keeps the keyboard focus, if any: where the card goes back to when the pointer leaves. */
  const focusedChip = () => chipOf(document.activeElement);
  const handlers = {
    onFocus: (event: FocusEvent) => {
      const chip = chipOf(event.target);
      if (chip) later(0, chip);
    },
    onBlur: (event: FocusEvent) => {
      if (!chipOf(event.relatedTarget)) later(0, null);
    },
    onPointerOver: (event: PointerEvent) => {
      const chip = chipOf(event.target);
      if (chip && event.pointerType === 'mouse' && chip !== anchor) later(hoverDelayMs, chip);
    },
    onPointerOut: (event: PointerEvent) => {
      const into = event.relatedTarget;
      if (chipOf(into) || (into instanceof Element && into.closest('.post-card'))) return;
      later(leaveDelayMs, focusedChip());
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Escape' && anchor) close();
    },
  };

  const triggerRef = useMemo(() => ({ current: anchor }), [anchor]);
  const card = post ? (
    <Suspense fallback={null}>
      <PostCardOverlay
        key={post.id}
        post={post}
        triggerRef={triggerRef}
        cardId={cardId}
        onClose={close}
        onPointerEnter={() => clearTimeout(timer.current)}
        onPointerLeave={() => later(leaveDelayMs, focusedChip())}
      />
    </Suspense>
  ) : null;
  return { card, handlers, close };
}
