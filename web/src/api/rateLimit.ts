// The person's rate limit, as the dashboard meets it: a request refused with 429 waits the `Retry-After` the API
// sends and is sent once more, and while it waits the frame says so (RateLimitNotice). A second refusal is the
// page's to show.
import { useSyncExternalStore } from 'react';

/** Seconds the dashboard waits when the API names none, or names something unreadable. */
const defaultWaitSeconds = 5;
/** The longest wait: the whole allowance comes back within a minute. */
const maxWaitSeconds = 60;

/** When the request being retried goes out again (epoch ms), or null. */
let retryingAt: number | null = null;
const listeners = new Set<() => void>();
function setRetryingAt(at: number | null) {
  retryingAt = at;
  for (const listener of listeners) listener();
}

/** `Retry-After` in seconds (delay-seconds or an HTTP date), within 1..60. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const seconds = header === null ? Number.NaN : /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - now) / 1000;
  return Number.isFinite(seconds) ? Math.min(maxWaitSeconds, Math.max(1, Math.ceil(seconds))) : defaultWaitSeconds;
}

/** `fetch`, once more after the wait the API asks for when it answers 429. */
export async function fetchRetryingOnce(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status !== 429) return response;
  const wait = retryAfterSeconds(response.headers.get('retry-after')) * 1000;
  setRetryingAt(Date.now() + wait);
  try {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return await fetch(input, init);
  } finally {
    setRetryingAt(null);
  }
}

/** When a refused request goes out again (epoch ms), or null when none waits. */
export const useRetryingAt = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => retryingAt,
  );
