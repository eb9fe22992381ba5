// The inbox's charges to a network's quotas (kit/quotas.ts), each in a transaction of its own: a poll's calls to
// the network's read limit, up to the polls' share of it; an answer as a publish's reply is charged.
import type { Database } from '../db/database.ts';
import { chargeQuotas, type Quota, type QuotaWait } from '../providers/kit/quotas.ts';

export interface ChargedAccount {
  provider: string;
  connectionId: string;
  workspaceId: string;
}

export async function chargeInbox(
  db: Database,
  account: ChargedAccount,
  quotas: readonly Quota[],
  use: NonNullable<Parameters<typeof chargeQuotas>[6]>,
): Promise<QuotaWait | null> {
  if (!quotas.length) return null;
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const wait = await chargeQuotas(client, account.provider, quotas, account.connectionId, 0, account.workspaceId, use);
    await client.query('COMMIT');
    return wait;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
