import { resolve } from 'node:path';
import { z } from 'zod';

const durationMinutes = z.coerce.number().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('var'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
  OIDC_ISSUER_URL: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_SCOPES: z.string().default('openid email profile'),
  SESSION_IDLE_MINUTES: durationMinutes.default(30),
  SESSION_ABSOLUTE_MINUTES: durationMinutes.default(12 * 60),
  JOBS_IN_PROCESS: z.enum(['true', 'false']).optional(),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().positive().default(10),
  JOB_STALE_AFTER_SECONDS: z.coerce.number().positive().default(45),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  SIMULATIONS_PER_WORKSPACE: z.coerce.number().int().min(1).max(1000).default(2),
  CPU_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  CPU_THREADS_NICE: z.coerce.number().int().min(0).max(19).optional(),
  MAINTENANCE_CACHE_SECONDS: z.coerce.number().min(0).default(2),
  STORAGE_DRIVER: z.enum(['filesystem', 's3']).default('filesystem'),
  S3_ENDPOINT: z.url().optional(),
  S3_EU_ENDPOINT: z.url().optional(),
  S3_US_ENDPOINT: z.url().optional(),
  S3_EU_BUCKET: z.string().optional(),
  S3_US_BUCKET: z.string().optional(),
  S3_EU_REGION: z.string().min(1).default('eu-central-1'),
  S3_US_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_PRESIGN_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .max(7 * 24 * 3600)
    .default(3600),
  STORAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).default(10_240),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('In-silico Workspace <no-reply@localhost>'),
  SUPPORT_EMAIL: z.email().default('support@localhost'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  WEB_DIST_DIR: z.string().optional(),
  ANALYTICS_KEY: z.string().max(200).optional(),
  ANALYTICS_URL: z.url().optional(),
  ANALYTICS_BODY_LIMIT_KB: z.coerce.number().int().min(1).max(10_240).default(512),
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).default(400),
});

export type Env = z.infer<typeof envSchema>;

/** Everything the process reads from its environment, checked once at start. */
export interface AppConfig {
  port: number;
  host: string;
  /** The origin users reach the app at, e.g. `https://insilico.example.com`; no trailing slash. */
  publicUrl: string;
  /** True when publicUrl is https: cookies become `__Host-` and Secure. */
  secureCookies: boolean;
  dataDir: string;
  databaseUrl: string | null;
  databasePoolSize: number;
  /** null → the embedded issuer under `/oidc`. */
  externalIssuer: { url: string; clientId: string; clientSecret: string } | null;
  oidcScopes: string;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** Whether this server process also works jobs (default: yes). */
  jobsInProcess: boolean;
  jobHeartbeatMs: number;
  jobStaleAfterMs: number;
  jobPollSeconds: number;
  /** Simulations of one workspace that run at the same time, over all workers (more wait, queued). */
  simulationsPerWorkspace: number;
  /** Worker threads for jobs' CPU-heavy work (STL, meshes); null: cores − 1, at least 1. */
  cpuThreads: number | null;
  /**
   * Nice value of those threads (Linux, 0–19; above 0 the event loop wins a core both want); null: 10 in a process
   * that answers requests, 0 in `npm run worker` (no event loop to keep fast there).
   */
  cpuThreadsNice: number | null;
  maintenanceCacheMs: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Where support requests are mailed (shown on the Help page too). */
  supportEmail: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  webDistDir: string;
  version: string;
  /**
   * Where files live (spec §7, issue 19; docs/decisions/object-storage.md): the filesystem under the data directory
   * (the embedded default), or an S3-compatible bucket per data region, which browsers upload to directly.
   */
  storage: StorageConfig;
  /**
   * Product analytics (spec §7, issue 21): the key the web client signs its uploads with and the ingestion checks;
   * null (ANALYTICS_KEY set empty) turns analytics off. The body limit answers 413 above it; events are kept for
   * the retention.
   */
  analytics: { key: string | null; bodyLimitBytes: number; retentionDays: number; forwardUrl: string | null };
}

/** One data region's bucket and where it is reached. */
export interface S3Bucket {
  bucket: string;
  /** The bucket's AWS region (signing), e.g. `eu-central-1`. */
  region: string;
  /** An S3-compatible service's address (MinIO, another cloud); null: AWS itself. */
  endpoint: string | null;
}

export type StorageConfig =
  | { driver: 'filesystem' }
  | {
      driver: 's3';
      buckets: { eu: S3Bucket; us: S3Bucket };
      /** null: the SDK's own chain (environment, instance role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      /** Path-style addresses (`endpoint/bucket/key`), which MinIO and most S3-compatible servers need. */
      forcePathStyle: boolean;
      /** How long a presigned part address works. */
      presignSeconds: number;
      /** The bound of the local copies' cache (`DATA_DIR/cache/blobs`, docs/decisions/blob-cache.md). */
      cacheMaxBytes: number;
    };

/** The analytics key when ANALYTICS_KEY is not set: the key is public (every browser sends it), not a secret. */
export const defaultAnalyticsKey = 'insilico-workspace';

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const oidcParts = [e.OIDC_ISSUER_URL, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  const oidcSet = oidcParts.filter((part) => part !== undefined && part !== '').length;
  if (oidcSet !== 0 && oidcSet !== 3) {
    throw new ConfigError(
      'Invalid configuration: set all of OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none',
    );
  }
  const storage = storageOf(e);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL && e.DATABASE_URL !== '' ? e.DATABASE_URL : null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    externalIssuer:
      oidcSet === 3
        ? { url: e.OIDC_ISSUER_URL!, clientId: e.OIDC_CLIENT_ID!, clientSecret: e.OIDC_CLIENT_SECRET! }
        : null,
    oidcScopes: e.OIDC_SCOPES,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_MINUTES * 60_000,
    jobsInProcess: e.JOBS_IN_PROCESS ? e.JOBS_IN_PROCESS === 'true' : true,
    jobHeartbeatMs: e.JOB_HEARTBEAT_SECONDS * 1000,
    jobStaleAfterMs: e.JOB_STALE_AFTER_SECONDS * 1000,
    jobPollSeconds: e.JOB_POLL_SECONDS,
    simulationsPerWorkspace: e.SIMULATIONS_PER_WORKSPACE,
    cpuThreads: e.CPU_THREADS ?? null,
    cpuThreadsNice: e.CPU_THREADS_NICE ?? null,
    maintenanceCacheMs: e.MAINTENANCE_CACHE_SECONDS * 1000,
    smtpUrl: e.SMTP_URL && e.SMTP_URL !== '' ? e.SMTP_URL : null,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === 'true',
    webDistDir: resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    version: process.env.npm_package_version ?? '0.1.0',
    storage,
    analytics: {
      key: e.ANALYTICS_KEY === undefined ? defaultAnalyticsKey : e.ANALYTICS_KEY.trim() || null,
      bodyLimitBytes: e.ANALYTICS_BODY_LIMIT_KB * 1024,
      retentionDays: e.ANALYTICS_RETENTION_DAYS,
      // An external ingestion of the same protocol gets every accepted upload too (docs/decisions/analytics.md).
      forwardUrl: e.ANALYTICS_URL ?? null,
    },
  };
}

/** The storage settings; s3 needs both buckets, and both credentials or neither. */
function storageOf(e: Env): StorageConfig {
  if (e.STORAGE_DRIVER === 'filesystem') return { driver: 'filesystem' };
  const missing = (['S3_EU_BUCKET', 'S3_US_BUCKET'] as const).filter((name) => !e[name]);
  if (missing.length > 0)
    throw new ConfigError(`Invalid configuration: STORAGE_DRIVER=s3 needs ${missing.join(' and ')}`);
  const keys = [e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY].filter((part) => part !== undefined && part !== '');
  if (keys.length === 1)
    throw new ConfigError('Invalid configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither');
  const endpoint = (own: string | undefined) => own ?? e.S3_ENDPOINT ?? null;
  return {
    driver: 's3',
    buckets: {
      eu: { bucket: e.S3_EU_BUCKET!, region: e.S3_EU_REGION, endpoint: endpoint(e.S3_EU_ENDPOINT) },
      us: { bucket: e.S3_US_BUCKET!, region: e.S3_US_REGION, endpoint: endpoint(e.S3_US_ENDPOINT) },
    },
    credentials:
      keys.length === 2 ? { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : null,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    presignSeconds: e.S3_PRESIGN_SECONDS,
    cacheMaxBytes: e.STORAGE_CACHE_MAX_MB * 1024 * 1024,
  };
}
