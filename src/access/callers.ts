// Turns the credentials of a request into an Actor and counts the request against that person's rate limit.
// Order of refusals: 400 WORKSPACE_REQUIRED, 401, 429, 402.
//
// Who a key or session belongs to is cached per process: every change to keys, sessions, memberships or
// plans makes the database notify all processes (see the access_changed trigger), and a change made by this
// process clears the cache at once. Without a live notification channel the cache is not used.
import pg from 'pg';
import { AppError } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import { RateLimiter, rateLimitHeaders, type RateLimitState } from '../ratelimit/limiter.ts';
import { requirePlan, type Actor } from './actor.ts';
import { isRole, isScope, scopes, type Scope } from './scopes.ts';
import { digestSecret } from './secrets.ts';
import { isUuid } from '../ids.ts';

export type Credentials =
  | { kind: 'apiKey'; token: string }
  | { kind: 'session'; token: string; workspaceId: string | undefined }
  /** A connected app's OAuth access token: only /mcp, the resource it is issued for, passes one on. */
  | { kind: 'appToken'; token: string };

export interface Caller {
  actor: Actor;
  rateLimit: RateLimitState;
}

interface CallerRow {
  api_key_id: string | null;
  app_id: string | null;
  workspace_id: string;
  user_id: string;
  scopes: string[] | null;
  role: string;
  plan: string | null;
  plan_expires_at: Date | null;
  /** When the key or session stops being valid. */
  valid_until: Date | null;
}

const apiKeyCaller = `
  SELECT k.id AS api_key_id, NULL::uuid AS app_id, k.workspace_id, k.created_by_id AS user_id, k.scopes, m.role, w.plan, w.plan_expires_at,
         k.expires_at AS valid_until
  FROM api_key k
  JOIN membership m ON m.workspace_id = k.workspace_id AND m.user_id = k.created_by_id
  JOIN workspace w ON w.id = k.workspace_id
  WHERE k.hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`;

const sessionCaller = `
  SELECT NULL::uuid AS api_key_id, NULL::uuid AS app_id, m.workspace_id, s.user_id, NULL::text[] AS scopes, m.role, w.plan, w.plan_expires_at,
         s.expires_at AS valid_until
  FROM session s
  JOIN membership m ON m.user_id = s.user_id AND m.workspace_id = $2::uuid
  JOIN workspace w ON w.id = m.workspace_id
  WHERE s.token_hash = $1 AND s.expires_at > now()`;

const appTokenCaller = `
  SELECT NULL::uuid AS api_key_id, a.id AS app_id, a.workspace_id, a.user_id, a.scopes, m.role, w.plan, w.plan_expires_at,
         t.expires_at AS valid_until
  FROM connected_app_token t
  JOIN connected_app a ON a.id = t.app_id
  JOIN membership m ON m.workspace_id = a.workspace_id AND m.user_id = a.user_id
  JOIN workspace w ON w.id = a.workspace_id
  WHERE t.hash = $1 AND t.kind = 'access' AND t.expires_at > now() AND a.revoked_at IS NULL`;

/** How often a connected app's last use is written: the dashboard shows it to the minute. */
const lastUseEveryMs = 60_000;

const unauthenticated = () => new AppError('UNAUTHENTICATED', 'unauthenticated');
/** One allowance per person and workspace, shared by all their keys and sessions. */
const rateLimitSubject = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`;
const rateLimited = (state: RateLimitState, headers: Record<string, string>) =>
  new AppError('RATE_LIMITED', 'rateLimited', { limit: state.limit, seconds: state.retryAfterSeconds }, { headers });
const cacheTtlMs = 60_000;
const maxCached = 10_000;

export class Callers {
  readonly #db: Database;
  readonly #limiter: RateLimiter;
  readonly #cache = new Map<string, { row: CallerRow; cachedAt: number }>();
  /** When this process last wrote each connected app's last use. */
  readonly #appUses = new Map<string, number>();
  #listener: pg.Client | null = null;
  #stopped = false;

  constructor(db: Database, options: { rateLimitPerMinute: number }) {
    this.#db = db;
    this.#limiter = new RateLimiter(db.pool, options.rateLimitPerMinute);
    db.onAccessChanged(() => this.#cache.clear());
  }

  /** Opens the notification channel that keeps the cache honest; reopened when it drops. */
  async listen(connectionString: string): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('notification', () => this.#cache.clear());
    client.on('error', () => {
      this.#cache.clear();
      this.#listener = null;
      client.end().catch(() => {});
      if (!this.#stopped) setTimeout(() => void this.listen(connectionString).catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query('LISTEN access_changed');
    this.#cache.clear();
    this.#listener = client;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#listener?.end().catch(() => {});
    this.#listener = null;
  }

  async resolve(credentials: Credentials | null): Promise<Caller> {
    if (!credentials) throw unauthenticated();
    const row = await this.#find(credentials);
    if (!row || !isRole(row.role)) throw unauthenticated();
    const rateLimit = await this.#limiter.take(rateLimitSubject(row.workspace_id, row.user_id));
    const headers = rateLimitHeaders(rateLimit);
    if (rateLimit.exceeded) throw rateLimited(rateLimit, headers);
    const plan = { plan: row.plan, planExpiresAt: row.plan_expires_at };
    try {
      requirePlan(plan, credentials.kind === 'session' ? undefined : 'apiAccess');
    } catch (error) {
      if (error instanceof AppError) Object.assign(error.headers, headers);
      throw error;
    }
    if (row.app_id) await this.#recordAppUse(row.app_id);
    const granted: Scope[] = row.scopes ? row.scopes.filter(isScope) : [...scopes];
    return {
      actor: {
        workspaceId: row.workspace_id,
        userId: row.user_id,
        role: row.role,
        apiKeyId: row.api_key_id,
        ...(row.app_id ? { connectedAppId: row.app_id } : {}),
        ...(credentials.kind === 'session' ? { sessionHash: digestSecret(credentials.token) } : {}),
        grantedScopes: new Set(granted),
        plan,
      },
      rateLimit,
    };
  }

  /**
   * Counts `weight` more requests against the actor's rate limit (a request that costs more than one, on top of
   * the one counted when it was authenticated); throws RATE_LIMITED past the limit.
   */
  async charge(actor: Actor, weight: number): Promise<RateLimitState> {
    const rateLimit = await this.#limiter.take(rateLimitSubject(actor.workspaceId, actor.userId), weight);
    if (rateLimit.exceeded) throw rateLimited(rateLimit, rateLimitHeaders(rateLimit));
    return rateLimit;
  }

  async #recordAppUse(appId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.#appUses.get(appId) ?? 0) < lastUseEveryMs) return;
    if (this.#appUses.size >= maxCached) this.#appUses.clear();
    this.#appUses.set(appId, now);
    await this.#db.pool.query('UPDATE connected_app SET last_used_at = now() WHERE id = $1', [appId]);
  }

  async #find(credentials: Credentials): Promise<CallerRow | null> {
    if (credentials.kind === 'session' && !credentials.workspaceId) throw new AppError('WORKSPACE_REQUIRED', 'workspaceRequired');
    const digest = digestSecret(credentials.token);
    const cacheKey = credentials.kind === 'session' ? `s:${digest}:${credentials.workspaceId}` : `${credentials.kind}:${digest}`;
    const cached = this.#listener ? this.#cache.get(cacheKey) : undefined;
    const now = Date.now();
    if (cached && now - cached.cachedAt < cacheTtlMs && (!cached.row.valid_until || cached.row.valid_until.getTime() > now)) {
      return cached.row;
    }
    const row = await this.#query(credentials, digest);
    if (row && this.#listener) {
      if (this.#cache.size >= maxCached) this.#cache.clear();
      this.#cache.set(cacheKey, { row, cachedAt: now });
    }
    return row;
  }

  async #query(credentials: Credentials, digest: string): Promise<CallerRow | null> {
    if (credentials.kind !== 'session') {
      const query = credentials.kind === 'apiKey' ? apiKeyCaller : appTokenCaller;
      return (await this.#db.pool.query<CallerRow>(query, [digest])).rows[0] ?? null;
    }
    const workspaceId = credentials.workspaceId!;
    const row = isUuid(workspaceId) ? (await this.#db.pool.query<CallerRow>(sessionCaller, [digest, workspaceId])).rows[0] : undefined;
    if (row) return row;
    // A valid session that is not a member of that workspace: the workspace does not exist for this person.
    const session = await this.#db.pool.query('SELECT 1 FROM session WHERE token_hash = $1 AND expires_at > now()', [digest]);
    if (session.rowCount) throw new AppError('NOT_FOUND', 'workspaceNotFound');
    return null;
  }
}
