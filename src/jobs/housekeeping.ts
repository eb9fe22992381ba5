// Hourly housekeeping by one worker at a time (a pg-boss schedule), never on a request's path: expired idempotency
// keys, and rate-limit buckets that have drained (every bucket is empty an hour after its last request, so its
// row carries nothing; sign-in guards add one per email tried), networks' quota windows long past, and connected
// apps' consent requests, codes and tokens past their expiry.
import { queueNames, type PgBoss } from './boss.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { deleteExpiredKeys } from '../idempotency/store.ts';
import { deleteDrainedBuckets } from '../ratelimit/bucket.ts';
import { forgetPastQuotaWindows } from '../providers/kit/quotas.ts';
import { forgetExpiredAppGrants } from '../access/connectedApps.ts';

export async function startHousekeeping(boss: PgBoss, db: Database, logger: Logger): Promise<void> {
  await boss.schedule(queueNames.housekeeping, '17 * * * *');
  await boss.work(queueNames.housekeeping, { batchSize: 1 }, async () => {
    const expiredKeys = await deleteExpiredKeys(db.pool);
    const drainedBuckets = await deleteDrainedBuckets(db.pool);
    const pastQuotaWindows = await forgetPastQuotaWindows(db.pool);
    const expiredAppGrants = await forgetExpiredAppGrants(db);
    if (expiredKeys || drainedBuckets || pastQuotaWindows || expiredAppGrants) {
      logger.info({ expiredKeys, drainedBuckets, pastQuotaWindows, expiredAppGrants }, 'housekeeping done');
    }
  });
}
