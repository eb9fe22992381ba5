// What is read when /metrics is scraped: the job queues (depth and the age of their oldest waiting job) and this
// process's connection pools. Queue figures are the same from every process (they are read from PostgreSQL).
import type pg from 'pg';
import { Gauge, Registry } from 'prom-client';
import { processRegistry } from './registry.ts';

interface QueueRow {
  name: string;
  ready: number;
  deferred: number;
  active: number;
  oldest_ready_seconds: number | null;
}

/** pg-boss keeps its jobs in `pgboss.job`: waiting jobs are `created` or `retry`, due once `start_after` passed. */
const queueSql = `
  SELECT name,
         count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS ready,
         count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after > now())::int AS deferred,
         count(*) FILTER (WHERE state = 'active')::int AS active,
         extract(epoch FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now()))::float8 AS oldest_ready_seconds
    FROM pgboss.job
   WHERE state IN ('created', 'retry', 'active')
   GROUP BY name`;

export interface PoolReading {
  pool: pg.Pool;
  /** The pool's size as configured (DB_POOL_SIZE, JOBS_POOL_SIZE). */
  max: number;
}

export interface MetricSources {
  /** This process's connection pools: `database` (Prisma and the hot paths; also reads the queues) and `jobs` (pg-boss). */
  pools: { database: PoolReading; jobs: PoolReading };
  queueNames: readonly string[];
}

/** The registry /metrics serves for one runtime: the process-wide instruments and this runtime's readings. */
export function metricsRegistry(sources: MetricSources): Registry {
  const runtime = new Registry();
  // Both queue gauges are collected at once during a scrape: they share one reading of the queues.
  let reading: { at: number; rows: Promise<Map<string, QueueRow>> } | null = null;
  const readQueues = () => {
    if (!reading || Date.now() - reading.at > 1000) {
      const rows = sources.pools.database.pool.query<QueueRow>(queueSql).then(({ rows }) => new Map(rows.map((row) => [row.name, row])));
      reading = { at: Date.now(), rows };
    }
    return reading.rows;
  };
  new Gauge({
    name: 'sps_queue_jobs',
    help: 'Jobs per queue: ready (due, waiting for a worker), deferred (due later) and active.',
    labelNames: ['queue', 'state'] as const,
    registers: [runtime],
    async collect() {
      const rows = await readQueues();
      for (const queue of sources.queueNames) {
        const row = rows.get(queue);
        this.set({ queue, state: 'ready' }, row?.ready ?? 0);
        this.set({ queue, state: 'deferred' }, row?.deferred ?? 0);
        this.set({ queue, state: 'active' }, row?.active ?? 0);
      }
    },
  });
  new Gauge({
    name: 'sps_queue_oldest_ready_seconds',
    help: 'How long the oldest due job of each queue has waited for a worker (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [runtime],
    async collect() {
      const rows = await readQueues();
      for (const queue of sources.queueNames) this.set({ queue }, rows.get(queue)?.oldest_ready_seconds ?? 0);
    },
  });
  new Gauge({
    name: 'sps_db_pool_connections',
    help: "This process's PostgreSQL pools (database, jobs): open (total), idle, and requests waiting for a connection; max is the pool's size.",
    labelNames: ['pool', 'state'] as const,
    registers: [runtime],
    collect() {
      for (const [name, { pool, max }] of Object.entries(sources.pools)) {
        this.set({ pool: name, state: 'total' }, pool.totalCount);
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
        this.set({ pool: name, state: 'max' }, max);
      }
    },
  });
  return Registry.merge([processRegistry, runtime]);
}
