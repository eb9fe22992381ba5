// The posts of the days shown, and of the periods either side read ahead: once the shown days' posts are in, the
// previous and next period's are fetched (one request each for up to 95 posts), so Previous and Next show at once
// and cost one request, for the period after. A read-ahead is sent without the 429 retry (a refusal just leaves it
// to be fetched when shown) and kept only while the calendar is open.
import { useEffect, useRef, useState } from 'react';
import type { Client } from 'urql';
import type { Temporal } from 'temporal-polyfill';
import type { ApiError } from '../api/auth.ts';
import { loadPosts, type CalendarPost } from './model.ts';

const keyOf = (days: Temporal.PlainDate[]) => `${days[0]}/${days.at(-1)}`;

export function usePosts(client: Client, days: Temporal.PlainDate[], neighbours: Temporal.PlainDate[][]) {
  const read = useRef(new Map<string, Promise<CalendarPost[]>>());
  const [posts, setPosts] = useState<CalendarPost[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [reads, setReads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies(reads): not read, only counted: refresh() bumps it so the days are read again
  useEffect(() => {
    let current = true;
    const fetched = (range: Temporal.PlainDate[], readAhead: boolean) => {
      const key = keyOf(range);
      let found = read.current.get(key);
      if (!found) {
        found = loadPosts(client, range, readAhead ? { fetch } : undefined);
        read.current.set(key, found);
        found.catch(() => read.current.get(key) === found && read.current.delete(key));
      }
      return found;
    };
    fetched(days, false).then(
      (found) => {
        if (!current) return;
        setPosts(found);
        setError(null);
        for (const range of neighbours) fetched(range, true).catch(() => undefined);
      },
      (caught: unknown) => current && setError(caught as ApiError),
    );
    return () => {
      current = false;
    };
  }, [client, days, neighbours, reads]);

  return {
    posts,
    setPosts,
    error,
    setError,
    /** Forgets what was read (a post moved): each period is read again when shown. */
    forget() {
      read.current.clear();
    },
    /** Reads the days shown again, and forgets what was read ahead. */
    refresh() {
      read.current.clear();
      setReads((count) => count + 1);
    },
  };
}
