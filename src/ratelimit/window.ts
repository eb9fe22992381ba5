// Requests per person and workspace, counted in one-minute windows held in PostgreSQL, so that every server
// process on the database shares the count, and every key and session of that person too.

/**
 * A CTE named `hit` that counts one request for the single row of the CTE `caller`
 * (columns workspace_id, user_id) and returns `count` and `reset_seconds`.
 */
export const countRequestCte = `hit AS (
  INSERT INTO rate_limit_window AS w (subject, window_start, count)
  SELECT caller.workspace_id::text || ':' || caller.user_id::text, date_trunc('minute', now()), 1 FROM caller
  ON CONFLICT (subject) DO UPDATE SET
    count = CASE WHEN w.window_start = excluded.window_start THEN w.count + 1 ELSE 1 END,
    window_start = excluded.window_start
  RETURNING count, greatest(1, ceil(extract(epoch FROM w.window_start + interval '1 minute' - now())))::int AS reset_seconds
)`;

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

export function rateLimitState(limit: number, count: number, resetSeconds: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), resetSeconds, exceeded: count > limit };
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), as the contract specifies them. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${state.limit};w=60`,
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
  };
  if (state.exceeded) headers['Retry-After'] = String(state.resetSeconds);
  return headers;
}
