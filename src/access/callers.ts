// Turns the credentials of a request into an Actor, and counts the request against that person's rate limit,
// in one SQL round trip. Order of refusals: 400 WORKSPACE_REQUIRED, 401, 429, 402.
import { AppError } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import { countRequestCte, rateLimitHeaders, rateLimitState, type RateLimitState } from '../ratelimit/window.ts';
import { requirePlan, type Actor } from './actor.ts';
import { isRole, isScope, scopes, type Scope } from './scopes.ts';
import { digestSecret } from './secrets.ts';
import { isUuid } from '../ids.ts';

export type Credentials =
  | { kind: 'apiKey'; token: string }
  | { kind: 'session'; token: string; workspaceId: string | undefined };

export interface Caller {
  actor: Actor;
  rateLimit: RateLimitState;
}

const apiKeyCaller = `caller AS (
  SELECT k.id AS api_key_id, k.workspace_id, k.created_by_id AS user_id, k.scopes, m.role, w.plan, w.plan_expires_at
  FROM api_key k
  JOIN membership m ON m.workspace_id = k.workspace_id AND m.user_id = k.created_by_id
  JOIN workspace w ON w.id = k.workspace_id
  WHERE k.hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
)`;

const sessionCaller = `caller AS (
  SELECT NULL::uuid AS api_key_id, m.workspace_id, s.user_id, NULL::text[] AS scopes, m.role, w.plan, w.plan_expires_at
  FROM session s
  JOIN membership m ON m.user_id = s.user_id AND m.workspace_id = $2::uuid
  JOIN workspace w ON w.id = m.workspace_id
  WHERE s.token_hash = $1 AND s.expires_at > now()
)`;

const selectCaller = `SELECT caller.*, hit.count, hit.reset_seconds FROM caller LEFT JOIN hit ON true`;

interface CallerRow {
  api_key_id: string | null;
  workspace_id: string;
  user_id: string;
  scopes: string[] | null;
  role: string;
  plan: string | null;
  plan_expires_at: Date | null;
  count: number;
  reset_seconds: number;
}

const unauthenticated = () => new AppError('UNAUTHENTICATED', 'unauthenticated');

async function findCaller(db: Database, credentials: Credentials): Promise<CallerRow | undefined> {
  if (credentials.kind === 'apiKey') {
    const { rows } = await db.pool.query<CallerRow>(`WITH ${apiKeyCaller}, ${countRequestCte} ${selectCaller}`, [
      digestSecret(credentials.token),
    ]);
    return rows[0];
  }
  if (!credentials.workspaceId) throw new AppError('WORKSPACE_REQUIRED', 'workspaceRequired');
  const tokenHash = digestSecret(credentials.token);
  const row = isUuid(credentials.workspaceId)
    ? (await db.pool.query<CallerRow>(`WITH ${sessionCaller}, ${countRequestCte} ${selectCaller}`, [tokenHash, credentials.workspaceId])).rows[0]
    : undefined;
  if (row) return row;
  // A valid session that is not a member of that workspace: the workspace does not exist for this person.
  const session = await db.pool.query('SELECT 1 FROM session WHERE token_hash = $1 AND expires_at > now()', [tokenHash]);
  if (session.rowCount) throw new AppError('NOT_FOUND', 'notFound', { kind: 'workspace' });
  return undefined;
}

export async function resolveCaller(
  db: Database,
  credentials: Credentials | null,
  options: { rateLimitPerMinute: number },
): Promise<Caller> {
  if (!credentials) throw unauthenticated();
  const row = await findCaller(db, credentials);
  if (!row || !isRole(row.role)) throw unauthenticated();
  const rateLimit = rateLimitState(options.rateLimitPerMinute, row.count, row.reset_seconds);
  const headers = rateLimitHeaders(rateLimit);
  if (rateLimit.exceeded) {
    throw new AppError('RATE_LIMITED', 'rateLimited', { limit: rateLimit.limit, seconds: rateLimit.resetSeconds }, { headers });
  }
  const plan = { plan: row.plan, planExpiresAt: row.plan_expires_at };
  try {
    requirePlan(plan, credentials.kind === 'apiKey' ? 'apiAccess' : undefined);
  } catch (error) {
    if (error instanceof AppError) Object.assign(error.headers, headers);
    throw error;
  }
  const granted: Scope[] = row.scopes ? row.scopes.filter(isScope) : [...scopes];
  return {
    actor: {
      workspaceId: row.workspace_id,
      userId: row.user_id,
      role: row.role,
      apiKeyId: row.api_key_id,
      grantedScopes: new Set(granted),
      plan,
    },
    rateLimit,
  };
}
