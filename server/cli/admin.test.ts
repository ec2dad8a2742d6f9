/**
 * `npm run admin` changes the server's database or says why it cannot (issue 10, item 10): pointed at
 * the wrong DATA_DIR or database it must not create a new empty cluster and fail on a missing table.
 * Run as a real child process, the way an operator runs it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  createTestDatabase,
  grantAdmin,
  STRONG_PASSWORD,
  signUpAndSignIn,
} from '../../tests/harness.ts';
import { openDatabase, runMigrations } from '../db/client.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI with only `env`'s database settings (none of the test process's DATABASE_URL). */
function runAdmin(args: string[], env: { DATA_DIR: string; DATABASE_URL?: string }): Promise<Outcome> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['server/cli/admin.ts', ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const directories: string[] = [];
function temporaryDirectory(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-admin-cli-'));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('with a DATA_DIR that holds no database: exits 1, says where it looked, creates nothing', async () => {
    const dataDir = temporaryDirectory();
    const outcome = await runAdmin(['grant', 'x@example.test'], { DATA_DIR: dataDir });
    expect(outcome.code).toBe(1);
    // No cluster made (initdb) in the wrong directory: nothing at all.
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(false);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    expect(outcome.stderr.trim()).toBe(
      `No database found: DATABASE_URL is not set and DATA_DIR (${dataDir}) holds no embedded database. ` +
        "This command changes the server's database and never creates one. Set DATA_DIR to the server's " +
        "data directory, or DATABASE_URL to the server's database, as the server has them.",
    );
  }, 60_000);

  it("with DATABASE_URL on a database without the app's tables: says it is not the server's database", async () => {
    const empty = await createTestDatabase();
    try {
      const outcome = await runAdmin(['grant', 'x@example.test'], {
        DATA_DIR: temporaryDirectory(),
        DATABASE_URL: empty.url,
      });
      expect(outcome.code).toBe(1);
      const name = new URL(empty.url).pathname.slice(1);
      expect(outcome.stderr).toContain(`The database "${name}" on `);
      expect(outcome.stderr).toContain(
        "has no tables of this application (its migrations never ran): it is not the server's database.",
      );
      expect(outcome.stderr).not.toContain('Failed query');
    } finally {
      await empty.drop();
    }
  }, 60_000);

  it('with no account for the email: names the database (never its password) and exits 1', async () => {
    const migrated = await createTestDatabase();
    try {
      const database = openDatabase(migrated.url, { max: 1 });
      await runMigrations(database.db).finally(() => database.close());
      const url = new URL(migrated.url);
      // The test server trusts local connections, so any password works; it must not be printed.
      if (!url.password) url.password = 'never-printed-secret';
      const outcome = await runAdmin(['grant', 'nobody@example.test'], {
        DATA_DIR: temporaryDirectory(),
        DATABASE_URL: url.toString(),
      });
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(
        `No account with the email nobody@example.test in the database "${url.pathname.slice(1)}" on ` +
          `${url.hostname}:${url.port || '5432'} (DATABASE_URL).`,
      );
      expect(outcome.stderr).not.toContain(decodeURIComponent(url.password));
    } finally {
      await migrated.drop();
    }
  }, 60_000);

  it('uses the running embedded cluster of DATA_DIR, else starts the stopped one and stops it after', async () => {
    // First, a server's embedded database with one account, running in this process.
    const dataDir = temporaryDirectory();
    const logger = pino({ level: 'warn' });
    let embedded = await startEmbeddedPostgres(dataDir, logger);
    let database = openDatabase(embedded.url, { max: 1 });
    await runMigrations(database.db);
    await database.pool.query(
      `insert into "user" (id, name, email) values ('cli-user', 'Cli User', 'cli.user@example.test')`,
    );
    await database.close();

    // Second, the CLI grants while it runs (through the running cluster).
    const granted = await runAdmin(['grant', 'CLI.User@example.test'], { DATA_DIR: dataDir });
    expect(granted).toMatchObject({ code: 0, stderr: '' });
    expect(granted.stdout).toContain('now has the role admin');
    await embedded.stop();

    // Third, with the server stopped, the CLI starts the cluster, revokes, and stops it again.
    const revoked = await runAdmin(['revoke', 'cli.user@example.test'], { DATA_DIR: dataDir });
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain('now has the role user');
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    embedded = await startEmbeddedPostgres(dataDir, logger);
    database = openDatabase(embedded.url, { max: 1 });
    try {
      const roles = await database.pool.query(`select role from user_roles where user_id = 'cli-user'`);
      expect(roles.rows).toEqual([{ role: 'user' }]);
      const audit = await database.pool.query(
        `select count(*)::int as n from audit_log where action = 'auth.role_changed' and subject_user_id = 'cli-user'`,
      );
      expect(audit.rows[0].n).toBe(2);
    } finally {
      await database.close();
      await embedded.stop();
    }
  }, 120_000);

  it('reset-2fa removes a lost second factor, ends the sessions and is audited; revoke keeps the factor', async () => {
    const app = await createTestApp();
    try {
      const ada = await signUpAndSignIn(app, { firstName: 'Ada' });
      await grantAdmin(app, ada);
      const env = { DATA_DIR: temporaryDirectory(), DATABASE_URL: app.databaseUrl };
      const pool = app.runtime.deps.database.pool;
      const factorRows = async () =>
        (await pool.query('select 1 from two_factor where user_id = $1', [ada.userId])).rowCount;

      // Revoking the admin role keeps the factor: the user still signs in with it.
      expect((await runAdmin(['revoke', ada.email], env)).code).toBe(0);
      expect(await factorRows()).toBe(1);
      expect((await runAdmin(['grant', ada.email], env)).code).toBe(0);

      const reset = await runAdmin(['reset-2fa', ada.email], env);
      expect(reset).toMatchObject({ code: 0, stderr: '' });
      expect(reset.stdout).toContain(
        `The second factor of ${ada.email} is removed and their sessions have ended.`,
      );
      expect(await factorRows()).toBe(0);
      expect((await ada.json('GET', '/api/me')).status).toBe(401);
      const audit = await pool.query<{ details: Record<string, unknown> }>(
        `select details from audit_log where action = 'auth.two_factor_reset' and subject_user_id = $1`,
        [ada.userId],
      );
      expect(audit.rows).toEqual([{ details: { via: 'cli', hadFactor: true } }]);

      // The password alone signs in again, and the administrator must set up a new factor first.
      const again = new Client(app);
      const signIn = await again.json('POST', '/api/auth/sign-in/email', {
        email: ada.email,
        password: STRONG_PASSWORD,
      });
      expect(signIn.body).not.toHaveProperty('twoFactorRedirect');
      expect(
        (await again.json<{ twoFactorRequired: boolean }>('GET', '/api/me')).body.twoFactorRequired,
      ).toBe(true);
      expect((await again.json('GET', '/api/admin/stats')).status).toBe(403);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('grants and revokes a staff role with --role, audited, and refuses an unknown role (issue 32)', async () => {
    const app = await createTestApp();
    try {
      const sam = await signUpAndSignIn(app, { firstName: 'Sam' });
      const env = { DATA_DIR: temporaryDirectory(), DATABASE_URL: app.databaseUrl };
      const pool = app.runtime.deps.database.pool;
      const me = async () => (await sam.json<{ roles: string[] }>('GET', '/api/me')).body.roles;
      expect(await me()).toEqual(['user']);

      const granted = await runAdmin(['grant', sam.email, '--role', 'medical-director'], env);
      expect(granted).toMatchObject({ code: 0, stderr: '' });
      expect(granted.stdout.trim()).toBe(
        `${sam.email} now has the role Medical Director (medical-director). It applies from the user's next request.`,
      );
      const again = await runAdmin(['grant', sam.email, '--role', 'medical-director'], env);
      expect(again.stdout.trim()).toBe(
        `${sam.email} already had the role Medical Director (medical-director): nothing changed.`,
      );
      expect((await runAdmin(['grant', sam.email, '--role', 'auditor'], env)).code).toBe(0);
      // The user's next request acts with both roles (running servers forgot the session at the change).
      expect(await me()).toEqual(['medical_director', 'auditor']);

      expect((await runAdmin(['revoke', sam.email, '--role', 'medical-director'], env)).code).toBe(0);
      expect(await me()).toEqual(['auditor']);
      const audit = await pool.query<{ details: Record<string, unknown> }>(
        `select details from audit_log where action = 'auth.role_changed' and subject_user_id = $1 order by id`,
        [sam.userId],
      );
      expect(audit.rows.map((r) => r.details)).toEqual([
        { role: 'medical_director', change: 'granted', via: 'cli' },
        { role: 'auditor', change: 'granted', via: 'cli' },
        { role: 'medical_director', change: 'revoked', via: 'cli' },
      ]);

      const unknown = await runAdmin(['grant', sam.email, '--role', 'chief'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('Unknown role: chief.');
      expect(unknown.stderr).toContain('administrator, specialist, medical-director, committee, auditor');
      expect(await me()).toEqual(['auditor']);
    } finally {
      await app.close();
    }
  }, 60_000);
});
