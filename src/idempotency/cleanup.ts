// Expired idempotency keys are deleted hourly by one worker (a pg-boss schedule), not on the request path.
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { deleteExpiredKeys } from './store.ts';

export async function startIdempotencyCleanup(boss: PgBoss, db: Database, logger: Logger): Promise<void> {
  await boss.schedule(queueNames.expireIdempotencyKeys, '17 * * * *');
  await boss.work(queueNames.expireIdempotencyKeys, { batchSize: 1 }, async () => {
    const deleted = await deleteExpiredKeys(db.pool);
    if (deleted) logger.info({ deleted }, 'expired idempotency keys deleted');
  });
}
