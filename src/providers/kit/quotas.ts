// A network's quotas as data (YouTube's 100 uploads and 10,000 units a day, Facebook's 30 reels a day, Threads' 250 posts a day, TikTok's
// 6 requests a minute, X's posts per day by tier), kept in PostgreSQL so every process charges the same counters.
// A publish is charged before it starts, to every quota of its network at once or to none; one that would exceed a
// quota waits instead of failing (the target shows `waitingUntil` and `waitingReason`) and is tried again then.
//
// Networks count over a moving window ("250 posts in 24 hours"): a fixed window would let twice the limit through
// across its edge. Use is counted in buckets of a twelfth of the window, and a charge sees every bucket that a moving
// window ending now can reach, plus one bucket of slack: the charge is made when the target is claimed, and the
// network counts the call a few seconds later (a token refresh, the steps before it), so two charges a window apart
// could be calls less than a window apart there. No moving window at the network holds more than the limit. One
// charge per quota and scope at a time (an advisory lock held to the end of the claiming transaction), so that
// processes charging at once cannot both take the last unit.
//
// A quota of the operator's whole app (YouTube's) is shared by every workspace of the installation: while another
// workspace also has an active account of the network, each workspace may use at most its `workspaceShare` of it in
// any window (APP_QUOTA_WORKSPACE_SHARE), counted as a quota of its own, so that one workspace's uploads cannot stop
// the network for all the others for a day. A workspace alone with the network (the common installation of one)
// may use the whole quota; what it used while alone counts toward its share once another connects the network.
import type pg from 'pg';

export interface Quota {
  /** As the network documents it: shown in the waiting target's reason. */
  name: string;
  /** Counted per connected account, or for the operator's whole app at the network. */
  scope: 'account' | 'app';
  windowSeconds: number;
  limit: number;
  /** Units one publish costs (1 post; YouTube's upload 1,600 units). */
  costPerPublish: number;
  /**
   * Units each reply of the publish costs: a thread's parts after the first post, and a first comment (X counts each
   * as a post; YouTube's comment costs 50 units; Threads counts replies in a quota of their own). None by default.
   */
  costPerReply?: number;
  /** Only publishes to these placements are counted (Facebook's reels); every placement where unset. */
  placements?: readonly string[];
  /** An app quota: the percentage of each window one workspace may use (100: no share). */
  workspaceShare?: number;
}

/** The quotas a publish to `placement` is counted in. */
export const quotasFor = (quotas: readonly Quota[], placement: string) => quotas.filter((quota) => !quota.placements || quota.placements.includes(placement));

/** The most of a window one workspace may use: the whole limit, or its share of an app quota (at least 1). */
export const workspaceLimit = (quota: Quota) =>
  quota.scope === 'app' && quota.workspaceShare !== undefined && quota.workspaceShare < 100
    ? Math.max(1, Math.floor((quota.limit * quota.workspaceShare) / 100))
    : quota.limit;

/** What one publish with `replies` replies costs against the quota. */
export const publishCost = (quota: Quota, replies: number) => quota.costPerPublish + (quota.costPerReply ?? 0) * replies;

export interface QuotaWait {
  until: Date;
  reason: string;
}

const bucketsPerWindow = 12;

/** The length of a quota's buckets in whole seconds. */
export const bucketSeconds = (quota: Quota) => Math.max(1, Math.floor(quota.windowSeconds / bucketsPerWindow));

/** One counter a charge goes to: a quota at its scope, or a workspace's share of an app quota. */
interface Counter {
  quota: Quota;
  scope: string;
  limit: number;
  reason: string;
}

/** Whether another workspace of the installation has an active account of the network: only then do shares bind. */
type SharesWithOthers = () => Promise<boolean>;

async function countersOf(quota: Quota, accountId: string, workspaceId: string | undefined, sharesWithOthers: SharesWithOthers): Promise<Counter[]> {
  const reason = `Quota used up: ${quota.name}; the target goes out when the network's window has room again.`;
  if (quota.scope === 'account') return [{ quota, scope: accountId, limit: quota.limit, reason }];
  const whole: Counter = { quota, scope: 'app', limit: quota.limit, reason };
  const share = workspaceLimit(quota);
  if (!workspaceId || share === quota.limit) return [whole];
  // Counted for the workspace even while it is alone, so that what it used then counts once another has the network.
  const own: Counter = (await sharesWithOthers())
    ? {
        quota,
        scope: `workspace:${workspaceId}`,
        limit: share,
        reason: `Quota share used up: this workspace has used its ${quota.workspaceShare}% (${share} of ${quota.limit}) of ${quota.name}, shared by every workspace; the target goes out when the window has room again.`,
      }
    : { ...whole, scope: `workspace:${workspaceId}` };
  return [own, whole];
}

/**
 * Charges one publish by `accountId` (of `workspaceId`), with `replies` replies, to each quota, in the caller's
 * transaction: null when every quota had room (all charged), else when the first full one is to be asked again, at
 * its next bucket (nothing charged). A publish costing more than a whole window allows is refused before
 * (`quotaExceededBy`).
 */
export async function chargeQuotas(
  client: pg.ClientBase,
  network: string,
  quotas: readonly Quota[],
  accountId: string,
  replies = 0,
  workspaceId?: string,
  /**
   * Charges other than a publish's (the inbox's polls and replies, src/inbox/): what each quota is charged instead of
   * `publishCost`, and the percentage of each limit they may fill (so a poll never takes what publishing needs).
   */
  use: { cost?: (quota: Quota) => number; ceilingPercent?: number } = {},
): Promise<QuotaWait | null> {
  const costOf = use.cost ?? ((quota: Quota) => publishCost(quota, replies));
  const ceiling = (limit: number) => (use.ceilingPercent === undefined ? limit : Math.floor((limit * use.ceilingPercent) / 100));
  const sharesWithOthers = sharingCheck(client, network, workspaceId);
  const charged: Counter[] = [];
  for (const quota of quotas.filter((quota) => costOf(quota) > 0)) charged.push(...(await countersOf(quota, accountId, workspaceId, sharesWithOthers)));
  if (!charged.length) return null;
  await client.query('SAVEPOINT quota_charge');
  for (const { quota, scope, limit, reason } of charged) {
    const bucket = bucketSeconds(quota);
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`quota:${network}:${quota.name}:${scope}`]);
    const { rows } = await client.query<{ charged: boolean; next_bucket: Date }>(
      `WITH b AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / $4::int) * $4::int) AS start),
       seen AS (SELECT coalesce(sum(u.used), 0) AS used FROM network_quota_usage u, b
                WHERE u.network = $1 AND u.quota = $2 AND u.scope = $3 AND u.window_start >= b.start - make_interval(secs => $5::int + $4::int)),
       charged AS (
         INSERT INTO network_quota_usage AS u (network, quota, scope, window_start, used)
         SELECT $1, $2, $3, b.start, $6::int FROM b, seen WHERE seen.used + $6::int <= $7::int
         ON CONFLICT (network, quota, scope, window_start) DO UPDATE SET used = u.used + EXCLUDED.used
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM charged) AS charged, b.start + make_interval(secs => $4::int) AS next_bucket FROM b`,
      [network, quota.name, scope, bucket, quota.windowSeconds, costOf(quota), ceiling(limit)],
    );
    const { charged, next_bucket } = rows[0]!;
    if (!charged) {
      await client.query('ROLLBACK TO SAVEPOINT quota_charge');
      return { until: next_bucket, reason };
    }
  }
  await client.query('RELEASE SAVEPOINT quota_charge');
  return null;
}

/**
 * Whether shares bind for this workspace's publish: asked only for an app quota whose share is less than the whole,
 * and at most once per charge (one look-up of the network's active accounts outside the workspace).
 */
function sharingCheck(client: pg.ClientBase, network: string, workspaceId: string | undefined): SharesWithOthers {
  let answer: Promise<boolean> | undefined;
  return () => {
    answer ??= client
      .query<{ shared: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM social_account WHERE provider = $1 AND status = 'ACTIVE' AND workspace_id <> $2::uuid) AS shared`,
        [network, workspaceId],
      )
      .then(({ rows }) => rows[0]!.shared);
    return answer;
  };
}

/** The first quota a publish with `replies` replies would exceed on its own (or a workspace's share of it), however long it waited; else null. */
export function quotaExceededBy(quotas: readonly Quota[], replies: number): Quota | null {
  return quotas.find((quota) => publishCost(quota, replies) > workspaceLimit(quota)) ?? null;
}

/** Forgets buckets long past (housekeeping): no quota counts over more than a month. */
export async function forgetPastQuotaWindows(db: pg.Pool | pg.ClientBase): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM network_quota_usage WHERE window_start < now() - interval '32 days'`);
  return rowCount ?? 0;
}
