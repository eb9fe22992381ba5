// Everything a process of the service needs, started in order and stopped in reverse: the database server
// (embedded or DATABASE_URL), migrations, the connection pool, secrets, provider adapters, the request recorder.
import type { Config } from './config.ts';
import { openDatabaseServer, type DatabaseServer } from './db/server.ts';
import { applyMigrations } from './db/migrate.ts';
import { requireDataFolder, requireWorkspace } from './db/installation.ts';
import { connectDatabase, type Database } from './db/database.ts';
import { loadSecretBox, type SecretBox } from './crypto/secretBox.ts';
import { adapterDependencies, createAccountLinks, createProviderAdapters, type ProviderAdapters } from './providers/registry.ts';
import { connectionSettings, type ConnectionSettings } from './accounts/connect.ts';
import { RequestRecorder } from './requestLog/recorder.ts';
import type { Logger } from './logger.ts';
import { Callers } from './access/callers.ts';
import { jobsPool, queueNames, startJobs, type PgBoss } from './jobs/boss.ts';
import { startHousekeeping } from './jobs/housekeeping.ts';
import { TargetPublisher, startPublishWorkers } from './posts/publishWorker.ts';
import { LocalDiskStorage, type MediaStorage } from './media/storage.ts';
import { metricsRegistry } from './metrics/collectors.ts';
import type { Registry } from 'prom-client';
import { startMediaWorkers } from './media/processing.ts';
import { UrlSigner } from './crypto/urlSigner.ts';
import { Outbox } from './events/outbox.ts';
import { WebhookDeliverer, startWebhookWorkers } from './webhooks/delivery.ts';
import { allowedHostsFrom } from './outbound/guard.ts';
import type { WebhookSettings } from './webhooks/endpoints.ts';
import { MetricReadings, startMetricReadings } from './analytics/collect.ts';
import { TokenKeeper, startTokenRefresh } from './accounts/tokens.ts';
import { Ai, createAiProvider } from './ai/ai.ts';
import { startAiWorkers } from './ai/images.ts';
import { join } from 'node:path';
import { ShortLinkRedirects } from './links/shortLinks.ts';
import { setShortLinkOrigin } from './links/shortForm.ts';
import { FeedPoller, startFeedPolling } from './feeds/poller.ts';
import type { FeedSettings } from './feeds/feeds.ts';
import { createInboxAdapters, type InboxAdapters } from './inbox/networks.ts';
import { startInboxCollection } from './inbox/collect.ts';
import { startInboxReplies } from './inbox/replies.ts';

export interface Services {
  config: Config;
  logger: Logger;
  db: Database;
  secrets: SecretBox;
  adapters: ProviderAdapters;
  /** The networks with an inbox here (each network's declaration, `inbox`: src/inbox/networks.ts). */
  inboxes: InboxAdapters;
  recorder: RequestRecorder;
  callers: Callers;
  boss: PgBoss;
  storage: MediaStorage;
  signer: UrlSigner;
  outbox: Outbox;
  /** What webhook endpoints are checked with: the sealing key of their secrets and the hosts the operator allows. */
  webhooks: WebhookSettings;
  /** What connecting social accounts needs: the networks accounts can be connected to, and where people may return. */
  connections: ConnectionSettings;
  /** Refreshes accounts' tokens, one refresh per account at a time across processes. */
  tokens: TokenKeeper;
  /** The AI features: the configured provider (or none), credits and the in-flight cap. */
  ai: Ai;
  /** What /metrics serves. */
  metrics: Registry;
  /** Follows the short links of published captions and counts their clicks. */
  shortLinks: ShortLinkRedirects;
  /** Feeds: the hosts their URLs may name, and the poller (which tests also drive directly). */
  feeds: { settings: FeedSettings; poller: FeedPoller };
}

async function openMediaStorage(config: Config): Promise<MediaStorage> {
  if (config.media.storage !== 's3') return new LocalDiskStorage(join(config.dataDir, 'media'));
  // The AWS SDK and @tus/s3-store are only loaded where MEDIA_STORAGE=s3.
  const { S3MediaStorage } = await import('./media/s3Storage.ts');
  return new S3MediaStorage(config.media.s3);
}

export interface Runtime {
  services: Services;
  stop(): Promise<void>;
}

/**
 * `work`: run background jobs in this process (the server does unless SPS_ROLE=api; the CLI only enqueues).
 * `existing`: serve only an installation already set up (MCP over stdio): throws NoInstallation, having created
 * nothing, when DATA_DIR holds no database (or no encryption key) or the database has no workspace.
 */
export async function startRuntime(config: Config, logger: Logger, options: { migrate?: boolean; work?: boolean; existing?: boolean } = {}): Promise<Runtime> {
  if (options.existing) await requireDataFolder(config);
  const server: DatabaseServer = await openDatabaseServer(config, (line) => logger.debug({ line: line.trim() }, 'postgres'));
  try {
    if (options.existing) await requireWorkspace(config, server.url);
    if (options.migrate ?? true) {
      const applied = await applyMigrations(server.url);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    const db = connectDatabase(server.url, { max: config.pools.database });
    const secrets = await loadSecretBox(config.encryptionKey, config.dataDir);
    const recorder = new RequestRecorder(db, {
      flushIntervalMs: config.requestLogFlushMs,
      onError: (error) => logger.error({ err: error }, 'request log flush failed'),
    });
    const callers = new Callers(db, { rateLimitPerMinute: config.rateLimitPerMinute });
    await callers.listen(server.url);
    const work = options.work ?? config.role !== 'api';
    const boss = await startJobs(
      server.url,
      { superviseIntervalSeconds: config.jobSuperviseSeconds, backstopPollMs: config.jobBackstopPollMs, supervise: work, poolSize: config.pools.jobs },
      (error) => logger.error({ err: error }, 'job runner error'),
    );
    const networkDependencies = adapterDependencies(db, secrets, config);
    const adapters = await createProviderAdapters(networkDependencies);
    const inboxes = await createInboxAdapters(networkDependencies);
    const storage = await openMediaStorage(config);
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
    const connections = connectionSettings(config, secrets, createAccountLinks(adapters));
    const ai = new Ai({ db, outbox, storage, boss, logger, settings: config.ai, provider: await createAiProvider(config.ai, logger) });
    const tokens = new TokenKeeper({ db, secrets, links: connections.links, outbox, logger, timeoutMs: config.networkTimeoutMs });
    const metrics = metricsRegistry({
      pools: { database: { pool: db.pool, max: config.pools.database }, jobs: { pool: jobsPool(boss), max: config.pools.jobs } },
      queueNames: Object.values(queueNames),
    });
    setShortLinkOrigin(config.publicBaseUrl);
    const feedSettings: FeedSettings = { allowedHosts: webhooks.allowedHosts };
    const feeds = {
      settings: feedSettings,
      poller: new FeedPoller({
        db,
        boss,
        outbox,
        logger,
        settings: { pollSeconds: config.feeds.pollSeconds, fetch: { ...feedSettings, maxBytes: config.feeds.maxBytes, timeoutMs: config.feeds.timeoutMs } },
      }),
    };
    const services: Services = {
      config,
      logger,
      db,
      secrets,
      adapters,
      inboxes,
      recorder,
      callers,
      boss,
      storage,
      signer,
      outbox,
      webhooks,
      connections,
      ai,
      tokens,
      metrics,
      shortLinks: new ShortLinkRedirects(db.pool, logger),
      feeds,
    };
    if (work) {
      const metricReadings = new MetricReadings(boss);
      const publisher = new TargetPublisher({
        db,
        boss,
        adapters,
        tokens,
        logger,
        signer,
        storage,
        publicBaseUrl: config.publicBaseUrl,
        outbox,
        metricReadings,
        networkAllowedHosts: connections.allowedHosts,
        statusCheckMaxMs: config.statusCheckMaxMs,
      });
      await startPublishWorkers(boss, publisher, config.publishConcurrency);
      await startTokenRefresh(boss, tokens);
      await startMediaWorkers(boss, db, storage, outbox, logger);
      await startWebhookWorkers(boss, deliverer, logger);
      await startMetricReadings(boss, metricReadings, { db, adapters, secrets, logger });
      await startAiWorkers(boss, ai);
      await startHousekeeping(boss, db, logger);
      await startFeedPolling(boss, feeds.poller);
      const linkHosts = connections.allowedHosts;
      await startInboxCollection(boss, { db, secrets, tokens, adapters, inboxes, logger, settings: config.inbox, linkHosts });
      await startInboxReplies(boss, { db, boss, secrets, tokens, adapters, inboxes, logger, linkHosts });
    }
    return {
      services,
      async stop() {
        try {
          // Jobs in flight finish (up to the shutdown timeout) before their database goes away.
          await boss.stop({ graceful: true, timeout: config.shutdownTimeoutMs });
          await deliverer.close();
          await recorder.stop();
          await callers.stop();
          await db.close();
        } finally {
          // Last, and whatever failed before: the embedded PostgreSQL runs in a process group of its own and
          // would otherwise outlive the server.
          await server.stop();
        }
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
