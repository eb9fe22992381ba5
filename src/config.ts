// Every setting comes from the environment; README "Configuration" lists them with these defaults.
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** When absent, an embedded PostgreSQL is started with its data under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  /** 32-byte key (base64 or hex) for provider tokens at rest; generated into dataDir when absent. */
  encryptionKey: string | undefined;
  rateLimitPerMinute: number;
  requestLogFlushMs: number;
  sessionTtlHours: number;
  shutdownTimeoutMs: number;
  /** Concurrent publish workers per process (each fetches batches of jobs). */
  publishConcurrency: number;
  /** How often pg-boss looks for jobs whose worker died, seconds. */
  jobSuperviseSeconds: number;
  /** Largest file one upload may declare. */
  maxUploadBytes: number;
  /** Hosts (names or addresses) webhooks may reach even when private, and over http. */
  webhookAllowedHosts: string | undefined;
  /** Seconds before each webhook retry. */
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function secondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0)) throw new Error(`${name} must be comma-separated seconds, got "${raw}"`);
  return values;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000);
  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!['silent', 'error', 'warn', 'info', 'debug'].includes(logLevel)) throw new Error(`LOG_LEVEL must be silent, error, warn, info or debug`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR ?? '.data'),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 1),
    requestLogFlushMs: integer(env, 'REQUEST_LOG_FLUSH_MS', 1000, 10),
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 24 * 14, 1),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0),
    publishConcurrency: integer(env, 'PUBLISH_CONCURRENCY', 4, 1),
    jobSuperviseSeconds: integer(env, 'JOB_SUPERVISE_SECONDS', 10, 1),
    maxUploadBytes: integer(env, 'MEDIA_MAX_UPLOAD_BYTES', 4 * 1024 ** 3, 1),
    webhookAllowedHosts: env.WEBHOOK_ALLOWED_HOSTS || undefined,
    webhookRetrySchedule: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE', [5, 300, 1800, 7200, 18000, 36000, 36000]),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100),
    logLevel,
  };
}
