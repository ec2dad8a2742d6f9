/**
 * Composition root: opens the database (embedded unless DATABASE_URL), applies migrations, wires
 * auth, mail and features into AppDeps and builds the app. Used by main.ts, the CLIs and the tests.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import type { AppDeps, AppInstance } from './app-types.ts';
import { createAuth } from './auth/auth.ts';
import { deleteExpiredSessions } from './auth/expired-sessions.ts';
import { createSessionCache } from './auth/session-cache.ts';
import { listenForSessionRevocations } from './auth/session-revocations.ts';
import { type ClusterMembership, joinCluster } from './cluster/instance-registry.ts';
import { type ScheduledJob, startScheduler, utcDay } from './cluster/scheduled-jobs.ts';
import { runExpiryMonitor } from './credentials/expiry-monitor.ts';
import { runProviderReminders } from './credentials/provider-reminders.ts';
import { type DatabaseHandle, openDatabase, withStartupLock } from './db/client.ts';
import { quietWhileUnreachable } from './db/database-health.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded-postgres.ts';
import { superviseEmbeddedPostgres } from './db/supervise-embedded-postgres.ts';
import type { Env } from './env.ts';
import { loggerOptions } from './logger.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createCompletionDelivery } from './notifications/completion-delivery.ts';
import { deleteOldReceipts } from './notifications/receipt-retention.ts';
import { prepareDatabase } from './prepare-database.ts';
import { createNppesClient } from './review/nppes.ts';
import { createStatusEventDelivery } from './review/status-events.ts';
import { runScreeningMonitor, utcMonth } from './screening/monitoring.ts';
import { loadFieldCipher } from './security/field-cipher.ts';
import { createRateLimits } from './security/rate-limits.ts';
import { secretFingerprint } from './security/secret-fingerprints.ts';
import { createStorage } from './storage/create-storage.ts';
import { createAppMetrics } from './telemetry/metrics.ts';
import { startMetricsServer } from './telemetry/metrics-server.ts';

export interface Runtime {
  app: AppInstance;
  deps: AppDeps;
  logger: Logger;
  /** The port of the metrics listener (issue 54 item 2), when METRICS_PORT is set. */
  metricsPort?: number;
  /** Stop the app, the pool and the embedded database, in that order. */
  close(): Promise<void>;
}

/** The auth secret: AUTH_SECRET, or (outside production) a random one kept in DATA_DIR with 0600. */
/**
 * How often each scheduled job runs (decision 013): the key of the period `now` falls in, one run
 * per key across every instance on the database. Daily jobs by UTC day, the exclusion screening by
 * UTC month (decision 027). The benches read it to mark a period's run done (bench/lib.ts).
 */
export const scheduledJobPeriods = {
  'expired-sessions': utcDay,
  'credential-expiry': utcDay,
  'exclusion-screening': utcMonth,
  'provider-reminders': utcDay,
  'notification-receipts': utcDay,
} as const satisfies Record<string, (now: Date) => string>;

/** A scheduled job's name (scheduled_job_runs.job). */
export type ScheduledJobName = keyof typeof scheduledJobPeriods;

export function resolveAuthSecret(env: Env, logger: Logger): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.join(env.dataDir, 'auth-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(env.dataDir, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
    logger.info({ file }, 'created a random auth secret (set AUTH_SECRET in production)');
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** How the server watches its database (issue 19); tests shorten the intervals. */
export interface DatabaseMonitoring {
  /** Milliseconds between `select 1` probes (default 5000); while it is down, probes tell when it is back. */
  probeIntervalMs?: number;
  /** At most one "requests refused" summary line per this many milliseconds (default 10 000). */
  summaryIntervalMs?: number;
  /** Milliseconds between attempts to restart a dead embedded cluster (default 500). */
  restartRetryMs?: number;
}

/**
 * Open the database: external when DATABASE_URL is set, otherwise the embedded cluster, which is
 * restarted on the same port if it dies. Either way the pool's health monitor probes it.
 */
export async function openConfiguredDatabase(
  env: Env,
  logger: Logger,
  monitoring: DatabaseMonitoring = {},
): Promise<{ database: DatabaseHandle; embedded?: EmbeddedDatabase }> {
  const poolOptions = {
    logger,
    probeIntervalMs: monitoring.probeIntervalMs ?? 5000,
    summaryIntervalMs: monitoring.summaryIntervalMs,
  };
  if (env.DATABASE_URL) return { database: openDatabase(env.DATABASE_URL, poolOptions) };
  const embedded = await startEmbeddedPostgres(env.dataDir, logger);
  const database = openDatabase(embedded.url, poolOptions);
  superviseEmbeddedPostgres(embedded, database.health, logger, { retryMs: monitoring.restartRetryMs });
  return { database, embedded };
}

export interface CreateRuntimeOptions {
  env: Env;
  logger?: Logger;
  /** Use this mailer instead of the configured one (tests). */
  mailer?: Mailer;
  serveWeb?: boolean;
  /** Probe, summary and restart intervals of the database monitoring (tests shorten them). */
  databaseMonitoring?: DatabaseMonitoring;
}

export async function createRuntime(options: CreateRuntimeOptions): Promise<Runtime> {
  const { env } = options;
  const logger = options.logger ?? pino(loggerOptions(env.LOG_LEVEL));
  fs.mkdirSync(env.dataDir, { recursive: true });
  const { database, embedded } = await openConfiguredDatabase(env, logger, options.databaseMonitoring);
  let membership: ClusterMembership | undefined;
  try {
    const authSecret = resolveAuthSecret(env, logger);
    const cipher = loadFieldCipher({
      keyList: env.FIELD_ENCRYPTION_KEYS,
      dataDir: env.dataDir,
      onCreate: (file) =>
        logger.warn(
          { file },
          'created a field encryption key (0600); back it up: without it SSNs cannot be read',
        ),
    });
    // One instance at a time: migrate, then check the secrets against the running instances and
    // register (issue 12). Instances starting at once wait here for each other.
    membership = await withStartupLock(database.pool, async (lockedDb) => {
      await prepareDatabase(lockedDb, new Date());
      return joinCluster(lockedDb, database.db, {
        identity: {
          storageDriver: env.STORAGE_DRIVER,
          authSecretFingerprint: secretFingerprint('AUTH_SECRET', authSecret),
          fieldKeysFingerprint: cipher.fingerprint,
        },
        heartbeatMs: env.INSTANCE_HEARTBEAT_MS,
        logger,
      });
    });
    const instanceId = membership.id;
    const mailer =
      options.mailer ??
      createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir: env.dataDir, logger });
    const auth = createAuth({
      db: database.db,
      mailer,
      // better-auth logs each request it cannot serve; during an outage the health monitor speaks.
      logger: quietWhileUnreachable(logger, database.health),
      appUrl: env.appUrl,
      trustedOrigins: env.trustedOrigins,
      secret: authSecret,
      production: env.NODE_ENV === 'production',
      sessionIdleMinutes: env.SESSION_IDLE_MINUTES,
    });
    const storage = await createStorage(env);
    const completionDelivery = createCompletionDelivery({
      db: database.db,
      health: database.health,
      storage,
      cipher,
      env,
      linkSecret: authSecret,
      logger,
    });
    const statusEvents = createStatusEventDelivery({
      db: database.db,
      health: database.health,
      env,
      logger,
    });
    const deps: AppDeps = {
      env,
      db: database.db,
      database,
      auth,
      sessionCache: createSessionCache({ ttlMs: env.SESSION_CACHE_SECONDS * 1000 }),
      mailer,
      cipher,
      storage,
      completionDelivery,
      statusEvents,
      nppes: createNppesClient({ baseUrl: env.NPPES_API_URL }),
      rateLimits: createRateLimits(database.pool, { perAddressAuthLimits: env.AUTH_IP_RATE_LIMIT }),
      metrics: env.METRICS_PORT === undefined ? undefined : createAppMetrics(database),
    };
    const app = await buildApp({ deps, logger, serveWeb: options.serveWeb });
    // Revocations made through other instances or `npm run admin` reach this one's session memory.
    const revocations =
      env.SESSION_CACHE_SECONDS > 0
        ? listenForSessionRevocations({ connection: database.pool.options, cache: deps.sessionCache, logger })
        : undefined;
    // Pending completion notifications (e.g. from before a crash) are picked up at start and polled.
    await completionDelivery.start();
    // Status change events (issue 13) left pending, e.g. by a crash, go out now and at each poll.
    statusEvents.start();
    const jobs: ScheduledJob[] = [
      {
        name: 'expired-sessions',
        periodOf: scheduledJobPeriods['expired-sessions'],
        run: async (now) => {
          const deleted = await deleteExpiredSessions(database.db, now);
          logger.info(deleted, 'deleted expired sessions and verification tokens');
        },
      },
      {
        // Issue 14: expiring credentials, once per UTC day across all instances (decision 023).
        name: 'credential-expiry',
        periodOf: scheduledJobPeriods['credential-expiry'],
        run: async (now) => {
          await runExpiryMonitor({ db: database.db, mailer, appUrl: env.appUrl, logger }, now);
        },
      },
      {
        // Issue 30: every approved provider and review screened against every list, once a UTC month;
        // the digest names what is new and which lists are stale (decision 027).
        name: 'exclusion-screening',
        periodOf: scheduledJobPeriods['exclusion-screening'],
        leaseMs: 60 * 60 * 1000,
        run: async (now) => {
          await runScreeningMonitor({ db: database.db, mailer, appUrl: env.appUrl, logger }, now, 'monthly');
        },
      },
      {
        // Issue 14: recredentialing (180/90/30 days) and re-attestation reminders (decision 024).
        name: 'provider-reminders',
        periodOf: scheduledJobPeriods['provider-reminders'],
        run: async (now) => {
          await runProviderReminders(
            {
              db: database.db,
              mailer,
              appUrl: env.appUrl,
              logger,
              attestationValidDays: env.ATTESTATION_VALID_DAYS,
            },
            now,
          );
        },
      },
      {
        // Decision 041: the receiver's duplicate record, pruned past the retry window.
        name: 'notification-receipts',
        periodOf: scheduledJobPeriods['notification-receipts'],
        run: async (now) => {
          const deleted = await deleteOldReceipts(database.db, now);
          logger.info({ deleted }, 'deleted notification receipts past their retention');
        },
      },
    ];
    const scheduler = startScheduler({
      db: database.db,
      jobs,
      instanceId,
      tickMs: env.SCHEDULER_TICK_MS,
      logger,
    });
    // Prometheus metrics on their own listener, loopback by default (issue 54 item 2); started last,
    // so a start that fails before leaves no listener behind.
    const metricsServer =
      deps.metrics && env.METRICS_PORT !== undefined
        ? await startMetricsServer({
            registry: deps.metrics.registry,
            host: env.METRICS_HOST,
            port: env.METRICS_PORT,
            logger,
          })
        : undefined;
    let closed = false;
    return {
      app,
      deps,
      logger,
      metricsPort: metricsServer?.port,
      async close() {
        if (closed) return;
        closed = true;
        // Each step is bounded in time, and a step that fails or times out is logged, not thrown:
        // the next one still runs, so a dead database neither hangs nor fails the shutdown.
        const step = async (
          name: string,
          ms: number,
          run: () => Promise<unknown>,
          onTimeout?: () => void,
        ) => {
          let timer: NodeJS.Timeout | undefined;
          const timedOut = new Promise<'timed out'>((resolve) => {
            timer = setTimeout(() => resolve('timed out'), ms);
          });
          try {
            if ((await Promise.race([run(), timedOut])) === 'timed out') {
              logger.warn({ step: name, ms }, 'shutdown step timed out; going on');
              onTimeout?.();
            }
          } catch (error) {
            logger.warn({ step: name, message: (error as Error).message }, 'shutdown step failed; going on');
          } finally {
            clearTimeout(timer);
          }
        };
        // First, no new work: the listener closes, idle connections close, requests in flight run
        // to their answer (for up to SHUTDOWN_GRACE_MS, then their connections are cut) while the
        // delivery worker stops. Only then the pool: a handler still running would otherwise meet
        // "Cannot use a pool after calling end on the pool".
        await Promise.all([
          step('stop the delivery worker', env.SHUTDOWN_GRACE_MS, () => completionDelivery.stop()),
          step('stop the status event worker', env.SHUTDOWN_GRACE_MS, () => statusEvents.stop()),
          step('stop scheduled jobs', env.SHUTDOWN_GRACE_MS, () => scheduler.stop()),
          step('leave the instance registry', 5_000, () => membership!.leave()),
          step(
            'finish requests in flight',
            env.SHUTDOWN_GRACE_MS,
            () => app.close(),
            () => app.server.closeAllConnections(),
          ),
        ]);
        await step('close the metrics listener', 5_000, async () => metricsServer?.close());
        // After the workers and jobs that send mail have stopped: SMTP connections kept for reuse.
        await step('close the mail transport', 5_000, async () => mailer.close?.());
        await step('stop listening for session revocations', 5_000, async () => revocations?.close());
        await step('close the database pool', 5_000, () => database.close());
        if (!embedded) return;
        // embedded-postgres' stop() waits for an exit event that a cluster already dead (crashed,
        // killed) has emitted before: it would wait forever. The postmaster's pid file says whether
        // one still runs (PostgreSQL removes it on a clean stop; after a crash its pid is gone).
        const pidFile = path.join(env.dataDir, 'postgres', 'postmaster.pid');
        const postmasterRuns = () => {
          try {
            process.kill(Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10), 0);
            return true;
          } catch (error) {
            return (error as NodeJS.ErrnoException).code === 'EPERM';
          }
        };
        let stopped = false;
        const postmasterGone = async () => {
          while (!stopped && postmasterRuns()) await new Promise((resolve) => setTimeout(resolve, 100));
        };
        await step('stop the embedded PostgreSQL', 10_000, () =>
          Promise.race([embedded.stop(), postmasterGone()]),
        );
        stopped = true;
      },
    };
  } catch (error) {
    await membership?.leave();
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
