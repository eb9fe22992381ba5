// Whether a CSS media query matches now, kept up to date as the window changes.
import { useSyncExternalStore } from 'react';

const queries = new Map<string, MediaQueryList>();

export function useMediaQuery(query: string): boolean {
  let list = queries.get(query);
  if (!list) {
    list = window.matchMedia(query);
    queries.set(query, list);
  }
  const matching = list;
  return useSyncExternalStore(
    (listener) => {
      matching.addEventListener('change', listener);
      return () => matching.removeEventListener('change', listener);
    },
    () => matching.matches,
  );
}
