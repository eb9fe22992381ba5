// One pg pool per process, shared by Prisma (through its pg driver adapter) and the few hot-path SQL statements.
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';
import { isTransactionConflict } from '../errors/transientDatabase.ts';

export type { PrismaClient };
export type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface Database {
  pool: pg.Pool;
  prisma: PrismaClient;
  /** Called by the domain after it changed keys, sessions, memberships or plans (other processes hear a NOTIFY). */
  accessChanged(): void;
  onAccessChanged(listener: () => void): void;
  close(): Promise<void>;
}

export function connectDatabase(connectionString: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20 });
  // An idle client losing its server (e.g. a restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // A transaction waits up to 10 s for a connection (Prisma's default is 2 s): under a burst the pool queues requests
  // rather than refusing them with 503; the statement timeout inside a transaction stays Prisma's 5 s.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 10_000 } });
  retryInteractiveTransactions(prisma);
  const accessListeners: (() => void)[] = [];
  return {
    pool,
    prisma,
    accessChanged: () => {
      for (const listener of accessListeners) listener();
    },
    onAccessChanged: (listener) => {
      accessListeners.push(listener);
    },
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
  };
}

const conflictAttempts = 3;

/**
 * Runs a transaction again when PostgreSQL rolled it back to resolve a conflict with another (deadlock, serialization
 * failure): nothing of it was kept, and the next attempt usually passes. Other failures, and a conflict on the last
 * attempt, are thrown (the transports answer a passing one 503 SERVICE_UNAVAILABLE, see asAppError).
 */
export async function retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt === conflictAttempts || !isTransactionConflict(error)) throw error;
      // A few milliseconds apart, at random, so that the two sides of a deadlock do not meet again.
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}

/**
 * Every `prisma.$transaction(async (tx) => ...)` of the domain retries conflicts: its work is the function's database
 * statements only, so running it again is safe. (The array form is left as it is: its queries are built once.)
 */
function retryInteractiveTransactions(prisma: PrismaClient): void {
  const transaction = prisma.$transaction.bind(prisma) as (work: unknown, options?: unknown) => Promise<unknown>;
  prisma.$transaction = ((work: unknown, options?: unknown) =>
    typeof work === 'function' ? retryingConflicts(() => transaction(work, options)) : transaction(work, options)) as PrismaClient['$transaction'];
}

/** A transaction on one pooled client, for set-based SQL outside Prisma (publishing, token refresh); conflicts are retried. */
export function withPoolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return retryingConflicts(() => runPoolTransaction(pool, work));
}

async function runPoolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
