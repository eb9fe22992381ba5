// pg-boss, the background job runner, and every queue the service uses (a queue must exist before send/work).
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Transaction } from '../db/database.ts';
import { currentRequestId, inRequestScope } from '../requestScope.ts';

export const queueNames = {
  publishTarget: 'publish-target',
  checkTarget: 'check-target-status',
  refreshTokens: 'refresh-tokens',
  processMedia: 'process-media',
  webhookDrain: 'webhook-drain',
  readMetrics: 'read-metrics',
  generateImage: 'generate-ai-image',
  housekeeping: 'housekeeping',
  pollFeeds: 'poll-feeds',
  inboxTick: 'inbox-tick',
  pollInbox: 'poll-inbox',
  postInboxReply: 'post-inbox-reply',
} as const;

/** A publish attempt that keeps failing transiently is retried this many times, with exponential backoff. */
export const publishRetryLimit = 5;

export interface JobsOptions {
  /** How often dead workers' jobs are detected and retried (pg-boss supervision), seconds. */
  superviseIntervalSeconds: number;
  /** Whether this process supervises and maintains the queues (worker processes do; the CLI does not). */
  supervise: boolean;
  /** Connections pg-boss may hold (JOBS_POOL_SIZE). */
  poolSize: number;
  /** Replaces wokenByNotify's 5 s backstop poll in this process (JOB_BACKSTOP_POLL_MS). */
  backstopPollMs?: number;
}

/**
 * Creates the queue, or brings an existing one (made by an older version) to these options: createQueue leaves
 * an existing queue as it was. Only the policy cannot change after creation.
 */
async function ensureQueue(boss: PgBoss, name: string, options: Parameters<PgBoss['createQueue']>[1] & object): Promise<void> {
  await boss.createQueue(name, options).catch((error: Error) => {
    // Another process created it at the same moment.
    if (!/already exists/.test(error.message)) throw error;
  });
  const { policy: _policy, partition: _partition, ...changeable } = options;
  await boss.updateQueue(name, changeable);
}

/**
 * Jobs enqueued while serving a request carry its id in their data (`requestId`), and their handlers run under
 * it, so the worker's log lines name the request that started the work.
 */
function carryRequestIds(boss: PgBoss): void {
  const insert = boss.insert.bind(boss);
  boss.insert = (name, jobs, options) => {
    const requestId = currentRequestId();
    return insert(name, requestId ? jobs.map((job) => ({ ...job, data: { ...job.data, requestId } })) : jobs, options);
  };
  type Handler = (jobs: { data: unknown }[]) => Promise<unknown>;
  const work = boss.work.bind(boss) as (name: string, options: object, handler: Handler) => Promise<string>;
  const requestIdOf = (job: { data: unknown } | undefined) => (job?.data as { requestId?: unknown } | null)?.requestId;
  boss.work = ((name: string, ...rest: [Handler] | [object, Handler]) => {
    const [options, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
    return work(name, options, (jobs) => {
      // A batch of jobs from several requests runs under none of them.
      const requestId = requestIdOf(jobs[0]);
      const shared = typeof requestId === 'string' && jobs.every((job) => requestIdOf(job) === requestId);
      return inRequestScope(shared ? requestId : undefined, () => handler(jobs));
    });
  }) as PgBoss['work'];
}

/**
 * How the workers of queues whose jobs are meant to run at once find them: woken by NOTIFY when a job lands, with a
 * poll every 5 s (JOB_BACKSTOP_POLL_MS) as the backstop for retries coming due and for a notification lost while the listener reconnected
 * (every 0.5 s without a listener). A 0.5 s backstop kept an idle installation at about 13 % of a core between the
 * server and PostgreSQL: the 16 webhook workers alone asked for jobs 32 times a second.
 */
export const wokenByNotify = { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5 } as const;

/**
 * Workers started with wokenByNotify's backstop poll it every `ms` instead (at most as often as without a listener).
 * Workers that chose their own (the publish workers' 0.5 s, which take scheduled jobs a moment before they are due)
 * keep it.
 */
function backstopPollEvery(boss: PgBoss, ms: number): void {
  const notifyPollingIntervalSeconds = Math.max(ms / 1000, wokenByNotify.pollingIntervalSeconds);
  const work = boss.work.bind(boss) as (name: string, ...rest: unknown[]) => Promise<string>;
  boss.work = ((name: string, ...rest: unknown[]) => {
    const [options, handler] = rest;
    const backstop = options && typeof options === 'object' ? (options as { notifyPollingIntervalSeconds?: unknown }).notifyPollingIntervalSeconds : undefined;
    if (rest.length === 1 || backstop !== wokenByNotify.notifyPollingIntervalSeconds) return work(name, ...rest);
    return work(name, { ...(options as object), notifyPollingIntervalSeconds }, handler);
  }) as PgBoss['work'];
}

export async function startJobs(connectionString: string, options: JobsOptions, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    max: options.poolSize,
    supervise: options.supervise,
    // Workers wake on NOTIFY when a job lands on a notify queue, instead of at their next poll.
    useListenNotify: options.supervise,
    superviseIntervalSeconds: options.superviseIntervalSeconds,
    monitorIntervalSeconds: options.superviseIntervalSeconds,
  });
  boss.on('error', onError);
  carryRequestIds(boss);
  if (options.backstopPollMs !== undefined) backstopPollEvery(boss, options.backstopPollMs);
  await boss.start();
  const publishing = {
    notify: true,
    retryLimit: publishRetryLimit,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 300,
    // A worker that dies mid-publish stops its heartbeat; the job is then retried (and the retry checks the
    // network for the earlier attempt before posting again).
    heartbeatSeconds: 10,
    expireInSeconds: 300,
    deleteAfterSeconds: 7 * 24 * 3600,
  };
  await ensureQueue(boss, queueNames.publishTarget, publishing);
  // Status checks of posts a network is still processing (src/posts/publishWorker.ts).
  await ensureQueue(boss, queueNames.checkTarget, { ...publishing, retryDelay: 5 });
  // Tokens refreshed ahead of expiry, every few minutes, by one worker at a time (src/accounts/tokens.ts).
  await ensureQueue(boss, queueNames.refreshTokens, { policy: 'singleton', retryLimit: 0, expireInSeconds: 600 });
  await ensureQueue(boss, queueNames.webhookDrain, {
    notify: true,
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 3600,
    heartbeatSeconds: 30,
  });
  // One waiting reading per target and reading (jobs carry that as their singletonKey): see src/analytics/collect.ts.
  await ensureQueue(boss, queueNames.readMetrics, { policy: 'short', retryLimit: 2, retryDelay: 60, expireInSeconds: 3600 });
  // A worker that dies mid-job stops its heartbeat: the job is retried within a minute, not after its hour.
  await ensureQueue(boss, queueNames.processMedia, {
    notify: true,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 3600,
    heartbeatSeconds: 30,
  });
  // AI images (src/ai/images.ts): a provider failure fails the file at once; retries are for crashes only.
  await ensureQueue(boss, queueNames.generateImage, {
    notify: true,
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 3600,
    heartbeatSeconds: 30,
  });
  // The inbox (src/inbox/): a tick a minute queues the polls due, one waiting poll per account (its singletonKey);
  // replies are posted like publishes, retried with backoff, a crashed attempt resuming from its checkpoint.
  await ensureQueue(boss, queueNames.inboxTick, { policy: 'singleton', retryLimit: 0, expireInSeconds: 300 });
  await ensureQueue(boss, queueNames.pollInbox, { policy: 'short', retryLimit: 1, retryDelay: 60, expireInSeconds: 600 });
  await ensureQueue(boss, queueNames.postInboxReply, publishing);
  // Hourly housekeeping (src/jobs/housekeeping.ts), one run at a time.
  await ensureQueue(boss, queueNames.housekeeping, { policy: 'singleton', retryLimit: 0, expireInSeconds: 600 });
  // Feeds due are polled each minute by one worker at a time (src/feeds/poller.ts).
  await ensureQueue(boss, queueNames.pollFeeds, { policy: 'singleton', retryLimit: 0, expireInSeconds: 600 });
  return boss;
}

/** pg-boss's own connection pool (its built-in database keeps it in `pool` once started), for the pool metrics. */
export function jobsPool(boss: PgBoss): pg.Pool {
  const db: object = boss.getDb();
  if (!('pool' in db) || !(db.pool instanceof pg.Pool)) throw new Error('pg-boss has no pool of its own: it was given a database adapter, or is not started');
  return db.pool;
}

/** pg-boss statements run inside a Prisma interactive transaction: jobs are enqueued with the change or not at all. */
export function inTransaction(tx: Transaction): IDatabase {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}

export type { PgBoss };

type IDatabase = NonNullable<NonNullable<Parameters<PgBoss['insert']>[2]>['db']>;
