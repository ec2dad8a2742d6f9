/**
 * `npm run admin -- grant <email> [--role ROLE]` / `npm run admin -- revoke <email> [--role ROLE]`:
 * grant or revoke a staff role (issue 2; issue 32: ROLE is administrator, the default, specialist,
 * medical-director, committee or auditor; domain/roles.ts `staffRoleCliName`). Administrators also
 * manage roles on the 'Staff' tab; this is how the first administrator is made. `npm run admin -- reset-2fa <email>`: remove a
 * lost second factor (issue 16); the user sets up a new one at the next sign-in (administrators) or
 * may (providers); their sessions end. Revoking the admin role keeps the user's factor.
 * `npm run admin -- api-client create NAME --scope SCOPE ... | list | revoke CLIENT_ID`: API clients
 * (issue 33 item 4, server/api-clients/api-clients.cli.ts); `create` prints the secret once. Works while
 * the server runs: with the embedded database it connects to the running cluster. Every change is
 * written to the audit log.
 *
 * It only ever changes the server's existing database: DATABASE_URL, else the embedded cluster of a
 * server running on DATA_DIR, else the stopped embedded cluster in DATA_DIR (started for the change
 * and stopped after). It never creates a cluster or runs migrations: a wrong DATA_DIR would otherwise
 * give a new empty database (issue 10, item 10). Every failure exits 1 with a message saying where
 * it looked and how to point it at the server's database.
 */
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import {
  type StaffRole,
  staffRoleCliName,
  staffRoleLabel,
  staffRoleOfCliName,
  staffRoles,
} from '../../domain/roles.ts';
import {
  apiClientUsage,
  parseApiClientCommand,
  runApiClientCommand,
} from '../api-clients/api-clients.cli.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { notifySessionsRevoked } from '../auth/session-revocations.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { hasEmbeddedCluster, runningEmbeddedUrl, startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { session, twoFactor, user } from '../db/schema/auth.ts';
import { type Env, loadEnv } from '../env.ts';
import { createMailer } from '../mail/mailer.ts';
import { announceRoleGrants, changeStaffRoles } from '../staff/staff-roles.service.ts';

const roleNames = staffRoles.map((role) => staffRoleCliName[role]).join(', ');
const usage = `Usage: npm run admin -- grant <email> [--role ROLE] | npm run admin -- revoke <email> [--role ROLE] | npm run admin -- reset-2fa <email>
ROLE is one of ${roleNames} (default administrator).
${apiClientUsage}`;
const pointAtServer =
  "Set DATA_DIR to the server's data directory, or DATABASE_URL to the server's database, as the server has them.";

/** The server's database, where it is (for messages: never a password) and how to let it go. */
interface ServerDatabase {
  database: DatabaseHandle;
  /** e.g. `the embedded database in /srv/app/data` or `the database "app" on db:5432 (DATABASE_URL)`. */
  description: string;
  close(): Promise<void>;
}

/** Where a DATABASE_URL points, without its user name or password. */
function describeDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username);
  const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
  return `the database "${name}" on ${host}:${url.port || '5432'} (DATABASE_URL)`;
}

async function openServerDatabase(env: Env, logger: pino.Logger): Promise<ServerDatabase> {
  if (env.DATABASE_URL) {
    const database = openDatabase(env.DATABASE_URL, { max: 1, logger });
    return { database, description: describeDatabaseUrl(env.DATABASE_URL), close: () => database.close() };
  }
  const description = `the embedded database in ${env.dataDir}`;
  const runningUrl = runningEmbeddedUrl(env.dataDir);
  if (runningUrl) {
    const database = openDatabase(runningUrl, { max: 1, logger });
    return { database, description, close: () => database.close() };
  }
  if (!hasEmbeddedCluster(env.dataDir)) {
    throw new Error(
      `No database found: DATABASE_URL is not set and DATA_DIR (${env.dataDir}) holds no embedded ` +
        `database. This command changes the server's database and never creates one. ${pointAtServer}`,
    );
  }
  // The server is not running: start its cluster for this change (never creating anything).
  const embedded = await startEmbeddedPostgres(env.dataDir, logger, { create: false });
  const database = openDatabase(embedded.url, { max: 1, logger });
  return {
    database,
    description,
    async close() {
      await database.close();
      await embedded.stop();
    },
  };
}

/** Refuse a database the server's migrations never ran on: it cannot be the server's. */
async function assertServerSchema(target: ServerDatabase): Promise<void> {
  const { rows } = await target.database.pool.query<{ migrated: boolean }>(
    `select to_regclass('public."user"') is not null as migrated`,
  );
  if (!rows[0]?.migrated) {
    const description = target.description.replace(/^t/, 'T');
    throw new Error(
      `${description} has no tables of this application (its migrations never ran): it is not ` +
        `the server's database. ${pointAtServer}`,
    );
  }
}

async function changeRole(
  database: DatabaseHandle,
  userId: string,
  command: 'grant' | 'revoke',
  role: StaffRole,
  email: string,
  env: Env,
  logger: pino.Logger,
) {
  const change = await changeStaffRoles(
    database.db,
    userId,
    command === 'grant' ? { grant: [role], revoke: [] } : { grant: [], revoke: [role] },
    { keepAnAdministrator: false, actorUserId: null, via: 'cli' },
  );
  // Issue 50 item 5: every administrator hears of a Medical Director or Committee Member grant, the
  // operator's bootstrap included (the mail goes where the server's goes: SMTP_URL or DATA_DIR/mail).
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dataDir: env.dataDir, logger });
  try {
    await announceRoleGrants({ db: database.db, mailer, logger, appUrl: env.appUrl }, change, {
      userId,
      actorUserId: null,
      now: new Date(),
    });
  } finally {
    await mailer.close?.();
  }
  const label = `${staffRoleLabel[role]} (${staffRoleCliName[role]})`;
  if (role === 'admin') {
    // The spec's role (user_roles): what this command has always said.
    console.log(
      `${email} now has the role ${command === 'grant' ? 'admin' : 'user'}. It applies from the user's next request.`,
    );
  } else if (change.granted.length + change.revoked.length > 0) {
    console.log(
      `${email} ${command === 'grant' ? 'now has' : 'no longer has'} the role ${label}. It applies from the user's next request.`,
    );
  } else {
    console.log(
      `${email} ${command === 'grant' ? 'already had' : 'did not have'} the role ${label}: nothing changed.`,
    );
  }
}

/**
 * Remove the second factor of `userId` (its secret and backup codes), turn the flag off and end the
 * user's sessions, in one transaction with its audit row.
 */
async function resetSecondFactor(database: DatabaseHandle, userId: string, email: string) {
  const removed = await database.db.transaction(async (tx) => {
    const factors = await tx
      .delete(twoFactor)
      .where(eq(twoFactor.userId, userId))
      .returning({ id: twoFactor.id });
    await tx.update(user).set({ twoFactorEnabled: false }).where(eq(user.id, userId));
    await tx.delete(session).where(eq(session.userId, userId));
    await recordAudit(tx, {
      action: 'auth.two_factor_reset',
      subjectUserId: userId,
      details: { via: 'cli', hadFactor: factors.length > 0 },
    });
    await notifySessionsRevoked(tx);
    return factors.length;
  });
  console.log(
    removed > 0
      ? `The second factor of ${email} is removed and their sessions have ended. At the next sign-in they set up a new one.`
      : `${email} had no second factor; their sessions have ended.`,
  );
}

/** `api-client ...` (issue 33 item 4): exit 2 on a wrong command line, else run it on the server's database. */
async function apiClientMain(args: string[]) {
  const command = parseApiClientCommand(args);
  if ('error' in command) {
    console.error(`${command.error}\n${usage}`);
    process.exit(2);
  }
  const target = await openServerDatabase(loadEnv(), pino({ level: 'warn' }));
  try {
    await assertServerSchema(target);
    console.log(await runApiClientCommand(target.database.db, command, new Date()));
  } finally {
    await target.close();
  }
  process.exit(0);
}

async function main() {
  if (process.argv[2] === 'api-client') return apiClientMain(process.argv.slice(3));
  const [command, email, ...options] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke' && command !== 'reset-2fa') || !email) {
    console.error(usage);
    process.exit(2);
  }
  let role: StaffRole = 'admin';
  if (options.length > 0) {
    const named =
      options[0] === '--role' && options.length === 2 ? staffRoleOfCliName(options[1]!) : undefined;
    if (!named || command === 'reset-2fa') {
      console.error(
        `${options[0] === '--role' && options[1] ? `Unknown role: ${options[1]}. ` : ''}${usage}`,
      );
      process.exit(2);
    }
    role = named;
  }
  const env = loadEnv();
  const logger = pino({ level: 'warn' });
  const target = await openServerDatabase(env, logger);
  try {
    await assertServerSchema(target);
    const [account] = await target.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()));
    if (!account) {
      throw new Error(
        `No account with the email ${email} in ${target.description}. The user must sign up first; ` +
          `if they have, this is not the server's database. ${pointAtServer}`,
      );
    }
    if (command === 'reset-2fa') await resetSecondFactor(target.database, account.id, email);
    else await changeRole(target.database, account.id, command, role, email, env, logger);
  } finally {
    await target.close();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
