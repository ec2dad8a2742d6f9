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
import { type DatabaseHandle, openDatabase, runMigrations } from './db/client.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded-postgres.ts';
import type { Env } from './env.ts';
import { loggerOptions } from './logger.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createCompletionDelivery } from './notifications/completion-delivery.ts';
import { loadFieldCipher } from './security/field-cipher.ts';
import { createRateLimits } from './security/rate-limits.ts';
import { createStorage } from './storage/create-storage.ts';

export interface Runtime {
  app: AppInstance;
  deps: AppDeps;
  logger: Logger;
  /** Stop the app, the pool and the embedded database, in that order. */
  close(): Promise<void>;
}

/** The auth secret: AUTH_SECRET, or (outside production) a random one kept in DATA_DIR with 0600. */
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

/** Open the database: external when DATABASE_URL is set, otherwise the embedded cluster. */
export async function openConfiguredDatabase(
  env: Env,
  logger: Logger,
): Promise<{ database: DatabaseHandle; embedded?: EmbeddedDatabase }> {
  if (env.DATABASE_URL) return { database: openDatabase(env.DATABASE_URL, { logger }) };
  const embedded = await startEmbeddedPostgres(env.dataDir, logger);
  return { database: openDatabase(embedded.url, { logger }), embedded };
}

export interface CreateRuntimeOptions {
  env: Env;
  logger?: Logger;
  /** Use this mailer instead of the configured one (tests). */
  mailer?: Mailer;
  serveWeb?: boolean;
}

export async function createRuntime(options: CreateRuntimeOptions): Promise<Runtime> {
  const { env } = options;
  const logger = options.logger ?? pino(loggerOptions(env.LOG_LEVEL));
  fs.mkdirSync(env.dataDir, { recursive: true });
  const { database, embedded } = await openConfiguredDatabase(env, logger);
  try {
    await runMigrations(database.db);
    const mailer =
      options.mailer ??
      createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir: env.dataDir, logger });
    const auth = createAuth({
      db: database.db,
      mailer,
      logger,
      appUrl: env.appUrl,
      trustedOrigins: env.trustedOrigins,
      secret: resolveAuthSecret(env, logger),
      production: env.NODE_ENV === 'production',
      sessionIdleMinutes: env.SESSION_IDLE_MINUTES,
      ipRateLimit: env.AUTH_IP_RATE_LIMIT,
    });
    const cipher = loadFieldCipher({
      keyList: env.FIELD_ENCRYPTION_KEYS,
      dataDir: env.dataDir,
      onCreate: (file) =>
        logger.warn(
          { file },
          'created a field encryption key (0600); back it up: without it SSNs cannot be read',
        ),
    });
    const storage = createStorage(env);
    const completionDelivery = createCompletionDelivery({ db: database.db, storage, cipher, env, logger });
    const deps: AppDeps = {
      env,
      db: database.db,
      database,
      auth,
      mailer,
      cipher,
      storage,
      completionDelivery,
      rateLimits: createRateLimits(database.pool),
    };
    const app = await buildApp({ deps, logger, serveWeb: options.serveWeb });
    // Pending completion notifications (e.g. from before a crash) are picked up at start and polled.
    await completionDelivery.start();
    let closed = false;
    return {
      app,
      deps,
      logger,
      async close() {
        if (closed) return;
        closed = true;
        await completionDelivery.stop();
        await app.close();
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
