// Every setting comes from the environment; docs/configuration.md lists them with these defaults.
import { resolve } from 'node:path';
import type { S3Settings } from './media/s3Storage.ts';
import { defaultNetworkAnswerBytes } from './providers/http.ts';
import { networks } from './providers/networks.ts';
import { defaultLinkedInVersion } from './providers/linkedin/version.ts';
import { linkedinProductSets } from './providers/linkedin/products.ts';
import { xApiTiers } from './providers/x/tiers.ts';
import type { NetworkConfig, NetworkSettings } from './providers/network.ts';

export const processRoles = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof processRoles)[number];

export interface Config extends NetworkConfig {
  /** `SPS_ROLE`: `api` serves HTTP only, `worker` runs the jobs only, `all` (the default) both. */
  role: ProcessRole;
  port: number;
  /** Where a worker process answers /healthz, /readyz and /metrics. */
  workerPort: number;
  /** When set, /metrics asks for `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Connections this process may hold: its own pool (requests, Prisma) and the job runner's (pg-boss). */
  pools: { database: number; jobs: number };
  /** `MEDIA_STORAGE`: files under DATA_DIR/media (`local`), or in an S3-compatible bucket. */
  media: { storage: 'local' } | { storage: 's3'; s3: S3Settings };
  host: string;
  /** When absent, an embedded PostgreSQL is started with its data under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  /** 32-byte key (base64 or hex) for provider tokens at rest; generated into dataDir when absent. */
  encryptionKey: string | undefined;
  rateLimitPerMinute: number;
  /** Failed dashboard sign-ins allowed at once per email and per client address; then one more every hour / N. */
  signInLimits: { perAccount: number; perAddress: number };
  /** Express's `trust proxy`: which proxies' X-Forwarded-For is believed for the client address. */
  trustProxy: boolean | number | string;
  requestLogFlushMs: number;
  sessionTtlHours: number;
  shutdownTimeoutMs: number;
  /** Concurrent publish workers per process (each fetches batches of jobs). */
  publishConcurrency: number;
  /** How often pg-boss looks for jobs whose worker died, seconds. */
  jobSuperviseSeconds: number;
  /** How often a worker woken by NOTIFY also looks for jobs, for retries coming due (they send none), ms. */
  jobBackstopPollMs: number;
  /** Largest file one upload may declare. */
  maxUploadBytes: number;
  /** Hosts (names or addresses) webhooks may reach even when private, and over http. */
  webhookAllowedHosts: string | undefined;
  /** Host names /mcp answers (DNS-rebinding guard): MCP_ALLOWED_HOSTS, else PUBLIC_BASE_URL's host and localhost. */
  mcpAllowedHosts: string[];
  /** Seconds before each webhook retry. */
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  /** Largest GraphQL answer; a larger one is refused with 400 (ask for less). */
  graphqlMaxResponseBytes: number;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Origins, besides PUBLIC_BASE_URL's, that connecting may send a person back to (`redirectUri`). */
  redirectAllowedOrigins: string[];
  /** Origins, besides PUBLIC_BASE_URL's, whose pages may call /graphql with the browser's credentials (CORS). */
  corsAllowedOrigins: string[];
  /** The inbox's collection (src/inbox/): posts published in the last `INBOX_LOOKBACK_DAYS` are read every `INBOX_POLL_SECONDS`. */
  inbox: { lookbackDays: number; pollSeconds: number };
  /** STATUS_CHECK_MAX_MS: the longest wait before asking a network again about a post it is processing (each network says its own). */
  statusCheckMaxMs: number | undefined;
  ai: AiSettings;
  /** FEEDS_POLL_SECONDS, FEEDS_MAX_BYTES, FEEDS_TIMEOUT_MS: how often feeds are fetched, their largest answer, the longest wait. */
  feeds: { pollSeconds: number; maxBytes: number; timeoutMs: number };
}

export const aiProviderNames = ['openai', 'sandbox'] as const;

export interface AiSettings {
  /** `AI_PROVIDER`: unset means AI is not configured (every AI action 409 AI_NOT_CONFIGURED). */
  provider: (typeof aiProviderNames)[number] | undefined;
  /** Any OpenAI-compatible API (OpenAI, Azure OpenAI, Ollama, vLLM, LocalAI, llama.cpp's server, OpenRouter). */
  baseUrl: string;
  apiKey: string | undefined;
  textModel: string;
  visionModel: string;
  imageModel: string;
  /** AI requests in flight per workspace, counted across processes. */
  maxConcurrent: number;
  timeoutMs: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function percentage(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback, 1);
  if (value > 100) throw new Error(`${name} must be a percentage from 1 to 100, got "${env[name]}"`);
  return value;
}

/** `true`/`false`, a number of proxy hops, or addresses and subnets (comma-separated; also `loopback` and the like). */
function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

function secondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0)) throw new Error(`${name} must be comma-separated seconds, got "${raw}"`);
  return values;
}

function oneOf<Value extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly Value[], fallback: Value): Value {
  const raw = env[name] || fallback;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as Value;
}

function yearMonth(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^\d{4}(0[1-9]|1[0-2])$/.test(raw)) throw new Error(`${name} must be a year and month as YYYYMM, got "${raw}"`);
  return raw;
}

function baseUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function networkSettings(env: NodeJS.ProcessEnv): Config['networks'] {
  const entries = networks.flatMap(({ name, app }) => {
    if (!app) return [];
    const prefix = app.settingsPrefix;
    const settings: NetworkSettings = {
      clientId: env[`${prefix}_CLIENT_ID`] || undefined,
      clientSecret: env[`${prefix}_CLIENT_SECRET`] || undefined,
      apiBaseUrl: baseUrl(env, `${prefix}_API_BASE_URL`, app.apiBaseUrl),
      authBaseUrl: baseUrl(env, `${prefix}_AUTH_BASE_URL`, app.authBaseUrl),
      ...(app.tokenBaseUrl ? { tokenBaseUrl: baseUrl(env, `${prefix}_TOKEN_BASE_URL`, app.tokenBaseUrl) } : {}),
      ...(app.uploadBaseUrl ? { uploadBaseUrl: baseUrl(env, `${prefix}_UPLOAD_BASE_URL`, app.uploadBaseUrl) } : {}),
      ...(app.botToken ? { botToken: env[`${prefix}_BOT_TOKEN`] || undefined } : {}),
    };
    return [[name, settings] as const];
  });
  return Object.fromEntries(entries);
}

/** `<NAME>_API_BASE_URL` of each network at fixed hosts without an app of the operator's (Telegram's Bot API). */
function apiBaseUrls(env: NodeJS.ProcessEnv): Config['apiBaseUrls'] {
  return Object.fromEntries(
    networks.flatMap(({ name, apiBaseUrl }) => (apiBaseUrl ? [[name, baseUrl(env, `${name.toUpperCase()}_API_BASE_URL`, apiBaseUrl)] as const] : [])),
  );
}

function aiSettings(env: NodeJS.ProcessEnv): AiSettings {
  const provider = env.AI_PROVIDER || undefined;
  if (provider !== undefined && !(aiProviderNames as readonly string[]).includes(provider)) {
    throw new Error(`AI_PROVIDER must be ${aiProviderNames.join(' or ')} (or unset), got "${provider}"`);
  }
  const textModel = env.AI_TEXT_MODEL || 'gpt-4o-mini';
  return {
    provider: provider as AiSettings['provider'],
    baseUrl: baseUrl(env, 'AI_BASE_URL', 'https://api.openai.com/v1'),
    apiKey: env.AI_API_KEY || undefined,
    textModel,
    visionModel: env.AI_VISION_MODEL || textModel,
    imageModel: env.AI_IMAGE_MODEL || 'gpt-image-1',
    maxConcurrent: integer(env, 'AI_MAX_CONCURRENT', 4, 1),
    timeoutMs: integer(env, 'AI_TIMEOUT_MS', 60_000, 100),
  };
}

function originList(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      if (!URL.canParse(part) || !/^https?:$/.test(new URL(part).protocol)) throw new Error(`${name} must list http(s) origins, got "${part}"`);
      return new URL(part).origin;
    });
}

// S3's own limits (src/media/s3Storage.ts): a PUT of at most 5 GB (the smallest of the stores' single-request limits:
// AWS and Ceph 5 GiB, R2 5 GiB less 5 MiB, B2, Wasabi and DigitalOcean 5 GB); parts of at least 5 MiB.
const defaultSinglePutBytesAtMost = 5_000_000_000;
const minimumPartBytes = 5 * 1024 * 1024;

function mediaSettings(env: NodeJS.ProcessEnv): Config['media'] {
  const storage = env.MEDIA_STORAGE || 'local';
  if (storage === 'local') return { storage };
  if (storage !== 's3') throw new Error(`MEDIA_STORAGE must be local or s3, got "${storage}"`);
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} must be set when MEDIA_STORAGE=s3`);
    return value;
  };
  return {
    storage,
    s3: {
      endpoint: env.S3_ENDPOINT ? baseUrl(env, 'S3_ENDPOINT', env.S3_ENDPOINT) : undefined,
      region: env.S3_REGION || 'us-east-1',
      bucket: required('S3_BUCKET'),
      accessKeyId: required('S3_ACCESS_KEY_ID'),
      secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
      forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
      singlePutBytesAtMost: integer(env, 'S3_SINGLE_PUT_MAX_BYTES', defaultSinglePutBytesAtMost, minimumPartBytes),
    },
  };
}

const role = (env: NodeJS.ProcessEnv): ProcessRole => oneOf(env, 'SPS_ROLE', processRoles, 'all');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000);
  const processRole = role(env);
  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!['silent', 'error', 'warn', 'info', 'debug'].includes(logLevel)) throw new Error(`LOG_LEVEL must be silent, error, warn, info or debug`);
  return {
    role: processRole,
    port,
    workerPort: integer(env, 'WORKER_PORT', 3001),
    metricsToken: env.METRICS_TOKEN || undefined,
    // An API process uses the job runner only to enqueue; a worker's jobs use both pools.
    pools: {
      database: integer(env, 'DB_POOL_SIZE', processRole === 'worker' ? 10 : 20, 1),
      jobs: integer(env, 'JOBS_POOL_SIZE', processRole === 'api' ? 2 : 10, 1),
    },
    media: mediaSettings(env),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR ?? '.data'),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 1),
    signInLimits: { perAccount: integer(env, 'LOGIN_FAILURES_PER_ACCOUNT', 10, 1), perAddress: integer(env, 'LOGIN_FAILURES_PER_ADDRESS', 100, 1) },
    trustProxy: trustProxy(env.TRUST_PROXY),
    requestLogFlushMs: integer(env, 'REQUEST_LOG_FLUSH_MS', 1000, 10),
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 24 * 14, 1),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0),
    publishConcurrency: integer(env, 'PUBLISH_CONCURRENCY', 4, 1),
    jobSuperviseSeconds: integer(env, 'JOB_SUPERVISE_SECONDS', 10, 1),
    jobBackstopPollMs: integer(env, 'JOB_BACKSTOP_POLL_MS', 5000, 500),
    maxUploadBytes: integer(env, 'MEDIA_MAX_UPLOAD_BYTES', 4 * 1024 ** 3, 1),
    webhookAllowedHosts: env.WEBHOOK_ALLOWED_HOSTS || undefined,
    mcpAllowedHosts: mcpAllowedHosts(env.MCP_ALLOWED_HOSTS, env.PUBLIC_BASE_URL ?? `http://localhost:${port}`),
    webhookRetrySchedule: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE', [5, 300, 1800, 7200, 18000, 36000, 36000]),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100),
    graphqlMaxResponseBytes: integer(env, 'GRAPHQL_MAX_RESPONSE_BYTES', 5 * 1024 ** 2, 1024),
    logLevel,
    networks: networkSettings(env),
    apiBaseUrls: apiBaseUrls(env),
    networkAllowedHosts: env.NETWORK_ALLOWED_HOSTS || undefined,
    redirectAllowedOrigins: originList(env, 'REDIRECT_ALLOWED_ORIGINS'),
    corsAllowedOrigins: originList(env, 'CORS_ALLOWED_ORIGINS'),
    networkTimeoutMs: integer(env, 'NETWORK_TIMEOUT_MS', 15_000, 100),
    inbox: { lookbackDays: integer(env, 'INBOX_LOOKBACK_DAYS', 14, 1), pollSeconds: integer(env, 'INBOX_POLL_SECONDS', 300, 30) },
    networkAnswerMaxBytes: integer(env, 'NETWORK_ANSWER_MAX_BYTES', defaultNetworkAnswerBytes, 64 * 1024),
    linkedinVersion: yearMonth(env, 'LINKEDIN_VERSION', defaultLinkedInVersion),
    linkedinProducts: oneOf(env, 'LINKEDIN_PRODUCTS', linkedinProductSets, 'share'),
    metaGraphVersion: graphVersion(env.META_GRAPH_API_VERSION || 'v23.0'),
    xPostsPerDay: integer(env, 'X_POSTS_PER_DAY', 100, 1),
    xApiTier: oneOf(env, 'X_API_TIER', xApiTiers, 'basic'),
    threadsPostsPerDay: integer(env, 'THREADS_POSTS_PER_DAY', 250, 1),
    tiktokPostsPerDay: integer(env, 'TIKTOK_POSTS_PER_DAY', 15, 1),
    tiktokInitsPerMinute: integer(env, 'TIKTOK_INITS_PER_MINUTE', 6, 1),
    tiktokPullFromUrl: env.TIKTOK_PULL_FROM_URL === 'true',
    youtubeDailyQuotaUnits: integer(env, 'YOUTUBE_DAILY_QUOTA_UNITS', 10_000, 1),
    youtubeDailyUploads: integer(env, 'YOUTUBE_DAILY_UPLOADS', 100, 1),
    appQuotaWorkspaceShare: percentage(env, 'APP_QUOTA_WORKSPACE_SHARE', 50),
    statusCheckMaxMs: env.STATUS_CHECK_MAX_MS ? integer(env, 'STATUS_CHECK_MAX_MS', 0, 100) : undefined,
    sandboxQuota: sandboxQuota(env.SANDBOX_QUOTA),
    ai: aiSettings(env),
    feeds: {
      pollSeconds: integer(env, 'FEEDS_POLL_SECONDS', 900, 60),
      maxBytes: integer(env, 'FEEDS_MAX_BYTES', 5 * 1024 ** 2, 1024),
      timeoutMs: integer(env, 'FEEDS_TIMEOUT_MS', 15_000, 100),
    },
  };
}

function graphVersion(raw: string): string {
  if (!/^v\d+\.\d+$/.test(raw)) throw new Error(`META_GRAPH_API_VERSION must be a Graph API version such as v23.0, got "${raw}"`);
  return raw;
}

function sandboxQuota(value: string | undefined): Config['sandboxQuota'] {
  if (!value) return null;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`SANDBOX_QUOTA must be <posts>/<seconds>, e.g. 10/60, got "${value}"`);
  return { posts: Number(match[1]), seconds: Number(match[2]) };
}

function mcpAllowedHosts(value: string | undefined, publicBaseUrl: string): string[] {
  const listed = (value ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  if (listed.length) return listed;
  return [...new Set([new URL(publicBaseUrl).hostname.toLowerCase(), 'localhost', '127.0.0.1', '[::1]'])];
}
