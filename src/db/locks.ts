import type { Transaction } from './database.ts';
import { isUuid } from '../ids.ts';

/**
 * Locks the row `id` of `table` for the rest of the transaction, if it belongs to the workspace. False when there
 * is no such row there (callers answer 404: another workspace's object does not exist for this one).
 */
export async function lockOwnedRow(tx: Transaction, table: 'post' | 'media' | 'queue' | 'feed', workspaceId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM ${table} WHERE id = $1::uuid AND workspace_id = $2::uuid FOR UPDATE`,
    id,
    workspaceId,
  );
  return rows.length === 1;
}
