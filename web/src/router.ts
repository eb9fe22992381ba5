// Client-side routes on the History API: the service answers index.html for any of these paths.
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
function notifyListeners(): void {
  for (const listener of listeners) listener();
}
window.addEventListener('popstate', notifyListeners);

export function navigate(path: string): void {
  window.history.pushState(null, '', path);
  notifyListeners();
}

export function usePath(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => window.location.pathname,
  );
}

/** The post page's path, and the path that opens the post in the composer. */
export const postPath = (id: string) => `/posts/${encodeURIComponent(id)}`;
export const editPostPath = (id: string) => `${postPath(id)}/edit`;

/** The post a path names, and whether it opens it in the composer (`/posts/<id>/edit`) or on its page (`/posts/<id>`). */
export function postRoute(path: string): { id: string; edit: boolean } | null {
  const match = /^\/posts\/([^/]+)(\/edit)?$/.exec(path);
  return match ? { id: decodeURIComponent(match[1]!), edit: match[2] !== undefined } : null;
}
