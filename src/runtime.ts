// Everything a process of the service needs, started in order and stopped in reverse: the database server
// (embedded or DATABASE_URL), migrations, the connection pool, secrets, provider adapters, the request recorder.
import type { Config } from './config.ts';
import { openDatabaseServer, type DatabaseServer } from './db/server.ts';
import { applyMigrations } from './db/migrate.ts';
import { connectDatabase, type Database } from './db/database.ts';
import { loadSecretBox, type SecretBox } from './crypto/secretBox.ts';
import { createProviderAdapters, type ProviderAdapters } from './providers/registry.ts';
import { RequestRecorder } from './requestLog/recorder.ts';
import type { Logger } from './logger.ts';
import { Callers } from './access/callers.ts';
import { startJobs, type PgBoss } from './jobs/boss.ts';
import { TargetPublisher, startPublishWorkers } from './posts/publishWorker.ts';
import { LocalDiskStorage, type MediaStorage } from './media/storage.ts';
import { startMediaWorkers } from './media/processing.ts';
import { UrlSigner } from './crypto/urlSigner.ts';
import { Outbox } from './events/outbox.ts';
import { WebhookDeliverer, startWebhookWorkers } from './webhooks/delivery.ts';
import { allowedHostsFrom } from './webhooks/destination.ts';
import type { WebhookSettings } from './webhooks/endpoints.ts';
import { startMetricsCollection } from './analytics/collect.ts';
import { join } from 'node:path';

export interface Services {
  config: Config;
  logger: Logger;
  db: Database;
  secrets: SecretBox;
  adapters: ProviderAdapters;
  recorder: RequestRecorder;
  callers: Callers;
  boss: PgBoss;
  storage: MediaStorage;
  signer: UrlSigner;
  outbox: Outbox;
  /** What webhook endpoints are checked with: the sealing key of their secrets and the hosts the operator allows. */
  webhooks: WebhookSettings;
}

export interface Runtime {
  services: Services;
  stop(): Promise<void>;
}

/** `work`: run background jobs in this process (the server does; the CLI only enqueues). */
export async function startRuntime(config: Config, logger: Logger, options: { migrate?: boolean; work?: boolean } = {}): Promise<Runtime> {
  const server: DatabaseServer = await openDatabaseServer(config, (line) => logger.debug({ line: line.trim() }, 'postgres'));
  try {
    if (options.migrate ?? true) {
      const applied = await applyMigrations(server.url);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    const db = connectDatabase(server.url);
    const secrets = await loadSecretBox(config.encryptionKey, config.dataDir);
    const recorder = new RequestRecorder(db, {
      flushIntervalMs: config.requestLogFlushMs,
      onError: (error) => logger.error({ err: error }, 'request log flush failed'),
    });
    const callers = new Callers(db, { rateLimitPerMinute: config.rateLimitPerMinute });
    await callers.listen(server.url);
    const work = options.work ?? true;
    const boss = await startJobs(server.url, { superviseIntervalSeconds: config.jobSuperviseSeconds, supervise: work }, (error) =>
      logger.error({ err: error }, 'job runner error'),
    );
    const adapters = createProviderAdapters(db, config.publicBaseUrl);
    const storage = new LocalDiskStorage(join(config.dataDir, 'media'));
    const signer = new UrlSigner(secrets.deriveKey('signed-urls'));
    const outbox = new Outbox(boss);
    const webhooks: WebhookSettings = { secrets, allowedHosts: allowedHostsFrom(config.webhookAllowedHosts) };
    const deliverer = new WebhookDeliverer({
      db,
      secrets,
      outbox,
      logger,
      settings: { allowedHosts: webhooks.allowedHosts, retrySchedule: config.webhookRetrySchedule, timeoutMs: config.webhookTimeoutMs },
    });
    const services: Services = { config, logger, db, secrets, adapters, recorder, callers, boss, storage, signer, outbox, webhooks };
    if (work) {
      await startPublishWorkers(boss, new TargetPublisher({ db, adapters, secrets, logger, signer, storage, publicBaseUrl: config.publicBaseUrl, outbox }), config.publishConcurrency);
      await startMediaWorkers(boss, db, storage, outbox, logger);
      await startWebhookWorkers(boss, deliverer, logger);
      await startMetricsCollection(boss, { db, adapters, secrets, logger });
    }
    return {
      services,
      async stop() {
        // Jobs in flight finish (up to the shutdown timeout) before their database goes away.
        await boss.stop({ graceful: true, timeout: config.shutdownTimeoutMs });
        await deliverer.close();
        await recorder.stop();
        await callers.stop();
        await db.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
