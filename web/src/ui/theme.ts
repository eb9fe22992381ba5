// Light or dark: the person's choice (kept in this browser) as <html data-theme>, else the system's setting, which
// styles.css follows by itself.
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
const storageKey = 'sps.theme';
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function chosenTheme(): Theme | null {
  const stored = localStorage.getItem(storageKey);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

/** Puts the stored choice on <html>; call before the first render, so the page never flashes the other theme. */
export function applyStoredTheme(): void {
  const theme = chosenTheme();
  if (theme) document.documentElement.dataset.theme = theme;
}

function shownTheme(): Theme {
  return chosenTheme() ?? (systemDark.matches ? 'dark' : 'light');
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(storageKey, theme);
  document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}

/** The theme on screen, following the system's setting until the person chooses. */
export function useTheme(): Theme {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    systemDark.addEventListener('change', listener);
    return () => {
      listeners.delete(listener);
      systemDark.removeEventListener('change', listener);
    };
  }, shownTheme);
}
