/**
 * Integration-test harness: a fresh database per test file on the real PostgreSQL server, the real
 * app listening on a loopback port (real HTTP), and a mailer that captures outgoing messages.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import type { GrantedStaffRole } from '../domain/roles.ts';
import { loadEnv } from '../server/env.ts';
import { loggerOptions } from '../server/logger.ts';
import type { Mailer, MailMessage } from '../server/mail/mailer.ts';
import { createRuntime, type Runtime } from '../server/runtime.ts';
import {
  enrolSecondFactor,
  HttpClient,
  linkFromMessages,
  linkFromOutbox,
  type SecondFactor,
  signUpConfirmSignIn,
} from './http-client.ts';

export { type SecondFactor, totpCode } from './http-client.ts';

export const TEST_ORIGIN = 'http://localhost:3000';

/**
 * A new database on the test server; `drop()` removes it. Empty by default (for tests of migrating
 * and of databases that are not the app's); `{ migrated: true }` copies the suite's template, which
 * tests/global-setup.ts prepared as a start would, so an app started on it finds nothing to migrate.
 */
export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `cred_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      options.migrated
        ? `create database ${name} template ${inject('templateDatabase')}`
        : `create database ${name}`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestApp {
  runtime: Runtime;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The Origin its clients send: APP_URL's (absent: TEST_ORIGIN, the default APP_URL). */
  origin?: string;
  databaseUrl: string;
  dataDir: string;
  /** Messages "sent" so far. */
  mail: MailMessage[];
  /** Captured log lines (JSON strings) for PHI-leak checks. */
  logs: string[];
  /** The app sends mail with its configured mailer (the `.eml` outbox), not into `mail`. */
  realMailer: boolean;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Use the configured mailer (the `.eml` outbox under DATA_DIR/mail, or SMTP_URL) instead of
   * capturing messages in `mail`: for tests of what the real mailer logs and serves.
   */
  realMailer?: boolean;
  /** Use this mailer instead (e.g. a slow one); `mail` then stays empty. */
  mailer?: Mailer;
  /** Serve the built web app from `env.WEB_DIST_DIR` (default false: API only). */
  serveWeb?: boolean;
}

/**
 * Start the real app on a fresh database, logging with the production logger options into `logs`.
 * `env` overrides configuration variables; the app listens on `env.HOST` (default 127.0.0.1) and
 * `env.PORT` (default: any free port). A test whose app must be reached at APP_URL from outside (a
 * real n8n downloading links) sets both PORT and APP_URL.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase({ migrated: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-test-'));
  const mail: MailMessage[] = [];
  const logs: string[] = [];
  const mailer: Mailer = {
    async send(message) {
      mail.push(message);
    },
  };
  const logLevel = env.LOG_LEVEL ?? 'info';
  const logger = pino(loggerOptions(logLevel), { write: (line: string) => void logs.push(line) });
  const runtime = await createRuntime({
    env: loadEnv({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      APP_URL: TEST_ORIGIN,
      LOG_LEVEL: logLevel,
      // Every test client comes from 127.0.0.1; the per-account limit stays on and is tested.
      AUTH_IP_RATE_LIMIT: 'false',
      ...env,
    }),
    logger,
    mailer: options.realMailer ? undefined : (options.mailer ?? mailer),
    serveWeb: options.serveWeb ?? false,
  });
  await runtime.app.listen({ port: env.PORT ? Number(env.PORT) : 0, host: env.HOST ?? '127.0.0.1' });
  const address = runtime.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    runtime,
    baseUrl: `http://127.0.0.1:${port}`,
    origin: new URL(env.APP_URL ?? TEST_ORIGIN).origin,
    databaseUrl: database.url,
    dataDir,
    mail,
    logs,
    realMailer: options.realMailer ?? false,
    async close() {
      await runtime.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An HTTP client of `app` (the shared cookie-keeping client of tests/http-client.ts): keeps the
 * session cookie and sends our Origin (`TEST_ORIGIN`) on every request.
 */
export class Client extends HttpClient {
  readonly app: TestApp;
  constructor(app: TestApp) {
    super({ baseUrl: app.baseUrl, origin: app.origin ?? TEST_ORIGIN });
    this.app = app;
  }
}

let counter = 0;
export interface ProviderOverrides {
  email?: string;
  firstName?: string;
  lastName?: string;
  password?: string;
}

/** A strong password used by the factories. */
export const STRONG_PASSWORD = 'correct horse battery staple 42!';

/**
 * Sign up, confirm the email through the captured message (or the `.eml` outbox when the app uses
 * its real mailer), sign in. Returns the signed-in client with the user's id and email.
 * @throws Error when a step fails or no confirmation mail arrives within 10 s
 */
export async function signUpAndSignIn(
  app: TestApp,
  overrides: ProviderOverrides = {},
): Promise<Client & { userId: string; email: string }> {
  counter += 1;
  const email = overrides.email ?? `provider${counter}.${randomBytes(3).toString('hex')}@example.test`;
  const client = new Client(app);
  const { userId } = await signUpConfirmSignIn(
    client,
    {
      email,
      password: overrides.password ?? STRONG_PASSWORD,
      firstName: overrides.firstName ?? 'Alice',
      lastName: overrides.lastName ?? `Provider${counter}`,
    },
    app.realMailer ? linkFromOutbox(path.join(app.dataDir, 'mail')) : linkFromMessages(app.mail),
  );
  return Object.assign(client, { userId, email });
}

/**
 * Make the signed-in `client` an admin: the role directly in the database (the CLI does the same;
 * tested separately), then a second factor through the real API, which admin routes require
 * (issue 16). Returns the second factor for tests that sign in again.
 */
export async function grantAdmin(
  app: TestApp,
  client: HttpClient & { userId: string },
  password = STRONG_PASSWORD,
): Promise<SecondFactor> {
  await app.runtime.deps.database.pool.query(
    `insert into user_roles (user_id, role) values ($1, 'admin') on conflict (user_id) do update set role = 'admin'`,
    [client.userId],
  );
  return enrolSecondFactor(client, password);
}

/**
 * Grant `role` (a staff role besides admin, issue 32) to the signed-in client's user, as the 'Staff'
 * tab or `npm run admin -- grant EMAIL --role ROLE` does, then set up their second factor (every
 * staff role needs one). Returns the factor.
 */
export async function grantStaffRole(
  app: TestApp,
  client: HttpClient & { userId: string },
  role: GrantedStaffRole,
  password = STRONG_PASSWORD,
): Promise<SecondFactor> {
  await app.runtime.deps.database.pool.query(
    'insert into staff_roles (user_id, role) values ($1, $2) on conflict do nothing',
    [client.userId, role],
  );
  return enrolSecondFactor(client, password);
}

/** A new person signed up and in, granted `role` with a second factor set up (`grantStaffRole`). */
export async function signUpStaff(
  app: TestApp,
  role: GrantedStaffRole,
  overrides: ProviderOverrides = {},
): Promise<Client & { userId: string; email: string }> {
  const client = await signUpAndSignIn(app, overrides);
  await grantStaffRole(app, client, role);
  return client;
}

/**
 * Two instances of the app on one fresh database, as a deployment runs them (issue 12): the same
 * AUTH_SECRET and FIELD_ENCRYPTION_KEYS (random), plus `env`. `close()` stops both, B first.
 */
export async function createTwoInstances(
  env: Record<string, string> = {},
): Promise<{ a: TestApp; b: TestApp; close(): Promise<void> }> {
  const shared = {
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    ...env,
  };
  const a = await createTestApp(shared);
  const b = await createTestApp({ ...shared, DATABASE_URL: a.databaseUrl }).catch(async (error: unknown) => {
    await a.close();
    throw error;
  });
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
    },
  };
}
