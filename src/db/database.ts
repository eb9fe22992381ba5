// One pg pool per process, shared by Prisma (through its pg driver adapter) and the few hot-path SQL statements.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

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
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const accessListeners: (() => void)[] = [];
  return {
    pool,
    prisma,
    accessChanged: () => accessListeners.forEach((listener) => listener()),
    onAccessChanged: (listener) => void accessListeners.push(listener),
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
  };
}

/** A transaction on one pooled client, for set-based SQL outside Prisma (publishing, token refresh). */
export async function withPoolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
