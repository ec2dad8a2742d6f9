/**
 * Configuration contract, parsed with zod at boot (style.md habit 8). Every variable is listed in
 * `.env.example` and the README. A bad value stops the process with a message saying what to set.
 */
import path from 'node:path';
import { z } from 'zod';
import { notificationDocumentsModes } from '../domain/api/notifications.ts';
import { DEFAULT_ATTESTATION_VALID_DAYS } from '../domain/attestation.ts';
import type { DecisionClockLimits } from '../domain/committee/timeliness.ts';
import { DEFAULT_VERIFICATION_MAX_AGE_DAYS } from '../domain/review/verification-checklist.ts';
import { trustedOrigins } from './http/loopback.ts';

/** An optional Standard Webhooks secret, `whsec_` + base64 of 24-64 random bytes, named `name` in messages. */
function webhookSecret(name: string) {
  return z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(
      z
        .string()
        .regex(
          /^whsec_[A-Za-z0-9+/]+={0,2}$/,
          `${name} must be "whsec_" followed by base64, e.g. whsec_$(openssl rand -base64 32)`,
        )
        .refine((v) => {
          const bytes = Buffer.from(v.slice('whsec_'.length), 'base64').length;
          return bytes >= 24 && bytes <= 64;
        }, `${name} must encode 24 to 64 random bytes (openssl rand -base64 32)`)
        .optional(),
    );
}

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** HTTP port of the API and, in production, the built web app. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to bind. */
  HOST: z.string().default('127.0.0.1'),
  /** Embedded database, stored documents, outgoing mail (.eml) and keys live here. */
  DATA_DIR: z.string().default('./data'),
  /** External PostgreSQL. Unset: an embedded PostgreSQL is started under DATA_DIR. */
  DATABASE_URL: optionalUrl,
  /** smtp://user:pass@host:port. Unset: mail is written as .eml files under DATA_DIR/mail. */
  SMTP_URL: optionalUrl,
  /** Sender of outgoing mail. */
  MAIL_FROM: z.string().default('Credentialing <no-reply@credentialing.local>'),
  /** Public origin of the app, used in mail links and as the trusted origin for auth. */
  APP_URL: z.url().optional(),
  /** Secret for session tokens (>= 32 chars). Unset outside production: a random one is kept in DATA_DIR. */
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  /** Minutes of inactivity after which a session ends (HIPAA 164.312(a)(2)(iii) automatic logoff). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /**
   * Hours after sign-in at which a session ends however active it is (absolute lifetime, issue 16;
   * on top of the idle timeout).
   */
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(12),
  /**
   * Seconds an instance may rely on a session it verified without reading it again (decision 015):
   * the bound after which a session revoked elsewhere stops working here when the revocation's
   * NOTIFY is lost (normally it arrives in milliseconds), and a role or second-factor change made in
   * SQL by hand takes effect. Revocations made through this instance take effect at once. 0 reads
   * every request's session from PostgreSQL.
   */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /** Trust X-Forwarded-For (only behind a reverse proxy you control). */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Field encryption keys "id:base64(32 bytes),…", first is active. Unset: a key file in DATA_DIR. */
  FIELD_ENCRYPTION_KEYS: z.string().optional(),
  /** Per-IP limits on sign-in, sign-up and reset. Turn off only for automated tests from one address. */
  AUTH_IP_RATE_LIMIT: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Where the built web app is served from (default dist/web); tests build into their own folder. */
  WEB_DIST_DIR: z.string().optional(),
  /** Where document objects live (issue 4): `local` = files under DATA_DIR/objects, `s3` = an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** S3 bucket of document objects (spec §3: provider-documents). */
  S3_BUCKET: z.string().trim().min(3, 'S3_BUCKET must name a bucket').default('provider-documents'),
  /** S3-compatible endpoint (MinIO, R2, ...); unset = AWS. */
  S3_ENDPOINT: optionalUrl,
  /** S3 region. */
  S3_REGION: z.string().trim().default('us-east-1'),
  /** S3 credentials; unset = the AWS SDK's default chain (instance role, AWS_* variables, ...). */
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
  /** Path-style URLs (bucket in the path), needed by most S3-compatible servers. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Completion notifications (issue 5, spec §7): the receiving workflow's URL (http or https; https in
   * production). Unset: completions are recorded as undelivered ("no endpoint configured").
   */
  NOTIFY_WEBHOOK_URL: optionalUrl,
  /** Standard Webhooks signing secret, `whsec_` + base64 of 24-64 random bytes. Required with the URL. */
  NOTIFY_WEBHOOK_SECRET: webhookSecret('NOTIFY_WEBHOOK_SECRET'),
  /**
   * Standard Webhooks secret of the inbound endpoint POST /api/integrations/webhooks (issue 13), the
   * workflow tool's own (never NOTIFY_WEBHOOK_SECRET). Unset: the endpoint answers 503.
   */
  INBOUND_WEBHOOK_SECRET: webhookSecret('INBOUND_WEBHOOK_SECRET'),
  /** Largest notification body in bytes, base64 documents included (n8n accepts 16 MiB by default). */
  NOTIFY_MAX_PAYLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Milliseconds one delivery attempt may take (signing pass, upload and the receiver's answer). */
  NOTIFY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** Attempts before a notification is marked failed (network errors, timeouts, 408, 429, 5xx retry). */
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(25),
  /** First retry delay cap in ms; doubles per attempt (full jitter) up to NOTIFY_RETRY_MAX_MS. */
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2_000),
  /** Longest delay between two attempts, ms (also caps Retry-After). */
  NOTIFY_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60 * 60 * 1000),
  /**
   * Days a verification stays valid for 'Approve' (issue 13; NCQA 2025 verification time limit).
   */
  VERIFICATION_MAX_AGE_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(DEFAULT_VERIFICATION_MAX_AGE_DAYS),
  /** Days an attestation stays valid while the application is reviewed (issue 14; CAQH's 120-day cycle). */
  ATTESTATION_VALID_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_ATTESTATION_VALID_DAYS),
  /**
   * The NPPES NPI Registry API (issue 15; version 2.1) the 'Check NPPES' button queries from the
   * server. Default: the public CMS registry.
   */
  NPPES_API_URL: z.url().default('https://npiregistry.cms.hhs.gov/api/'),
  /** How often the delivery worker looks for due notifications, ms. */
  NOTIFY_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(2_000),
  /**
   * How documents travel in the notification (issue 20, decision 017): `inline` (spec §7
   * `base64Content`) or `links` (`downloadUrl`, a signed link to this server; `base64Content` null).
   */
  NOTIFY_DOCUMENTS: z
    .enum(notificationDocumentsModes, { error: 'NOTIFY_DOCUMENTS must be inline or links' })
    .default('inline'),
  /**
   * Minutes a `links` mode download link works after the attempt that minted it (decision 017). A link
   * works for whoever holds it, like a pre-signed URL, so it lives only as long as the receiver needs
   * to fetch: 60 by default (issue 28 item 10).
   */
  NOTIFY_LINK_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  /**
   * Minutes after the first attempt during which a 404 or 410 is retried (issue 20: a restarting or
   * unpublished n8n workflow answers 404); then final. 0: final at once.
   */
  NOTIFY_RETRY_NOT_FOUND_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(30),
  /**
   * How often an instance tells the others on the database it is alive, ms; one silent for three
   * heartbeats is gone (issue 12).
   */
  INSTANCE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /**
   * Hours a finished `$export` (its files and status URL) is kept after it completed, failed or was
   * cancelled; then the export worker deletes it (issue 52 item 3).
   */
  FHIR_EXPORT_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(24),
  /**
   * Prometheus metrics (issue 54 item 2): `GET /metrics` on this port, on its own listener apart from
   * the app's. Unset: no metrics listener. 0: a free port (tests).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Where the metrics listener binds: loopback unless a collector elsewhere must reach it. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** How often an instance looks for a scheduled job to run (each runs once per period overall), ms. */
  SCHEDULER_TICK_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  /**
   * Local document storage: refuse uploads (507) while the disk holding DATA_DIR/objects has less
   * than this many MiB free, so documents never fill the disk the embedded database needs.
   */
  STORAGE_MIN_FREE_MB: z.coerce.number().int().min(0).default(512),
  /**
   * Shutdown (SIGTERM/SIGINT): how long requests in flight may take to finish, in ms, after which
   * their connections are closed. Closing the database follows (bounded separately).
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Log level for pino. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema> & {
  appUrl: string;
  dataDir: string;
  /** Origins browsers may send state-changing requests from (APP_URL; locally every loopback spelling). */
  trustedOrigins: string[];
};

/**
 * The decision clock's limits (domain/committee/timeliness.ts, issue 32 item 7) as this server is
 * configured: ATTESTATION_VALID_DAYS and VERIFICATION_MAX_AGE_DAYS.
 */
export function decisionClockLimitsOf(env: Env): DecisionClockLimits {
  return {
    attestationValidDays: env.ATTESTATION_VALID_DAYS,
    verificationMaxAgeDays: env.VERIFICATION_MAX_AGE_DAYS,
  };
}

/**
 * Parse `source` (default `process.env`) into a typed Env.
 * @throws Error listing every invalid variable and what to set.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(
      `Invalid configuration. Fix these environment variables (see .env.example):\n${lines.join('\n')}`,
    );
  }
  const env = parsed.data;
  if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
    throw new Error('Invalid configuration: AUTH_SECRET must be set in production (32+ random characters).');
  }
  if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
    throw new Error(
      'Invalid configuration: SMTP_URL must be set in production (smtp://user:pass@host:587): without mail nobody can confirm an account or reset a password.',
    );
  }
  if (env.NODE_ENV === 'production' && !env.FIELD_ENCRYPTION_KEYS) {
    throw new Error(
      'Invalid configuration: FIELD_ENCRYPTION_KEYS must be set in production ("k1:<base64 of 32 random bytes>", e.g. k1:$(openssl rand -base64 32)): the key must not live on the disk next to the data it protects.',
    );
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      'Invalid configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (AWS default credentials).',
    );
  }
  if (env.NOTIFY_WEBHOOK_URL && !env.NOTIFY_WEBHOOK_SECRET) {
    throw new Error(
      'Invalid configuration: NOTIFY_WEBHOOK_SECRET must be set with NOTIFY_WEBHOOK_URL (whsec_ + base64 of 24-64 random bytes: echo whsec_$(openssl rand -base64 32)).',
    );
  }
  if (env.NOTIFY_WEBHOOK_URL && !/^https?:$/.test(new URL(env.NOTIFY_WEBHOOK_URL).protocol)) {
    throw new Error('Invalid configuration: NOTIFY_WEBHOOK_URL must be an http or https URL.');
  }
  if (env.NODE_ENV === 'production' && env.NOTIFY_WEBHOOK_URL?.startsWith('http:')) {
    throw new Error(
      'Invalid configuration: NOTIFY_WEBHOOK_URL must use https in production (the notification carries PHI).',
    );
  }
  const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`;
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    appUrl,
    trustedOrigins: trustedOrigins(appUrl, env),
  };
}
