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
