/**
 * `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`: change a user's role
 * (issue 2). The web app has no way to make an admin. `npm run admin -- reset-2fa <email>`: remove a
 * lost second factor (issue 16); the user sets up a new one at the next sign-in (administrators) or
 * may (providers); their sessions end. Revoking the admin role keeps the user's factor. Works while
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
import type { Role } from '../../domain/roles.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { notifySessionsRevoked } from '../auth/session-revocations.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { hasEmbeddedCluster, runningEmbeddedUrl, startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { session, twoFactor, user } from '../db/schema/auth.ts';
import { userRoles } from '../db/schema/core.ts';
import { type Env, loadEnv } from '../env.ts';

const usage =
  'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email> | npm run admin -- reset-2fa <email>';
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

async function changeRole(database: DatabaseHandle, userId: string, role: Role, email: string) {
  await database.db.transaction(async (tx) => {
    await tx
      .insert(userRoles)
      .values({ userId, role })
      .onConflictDoUpdate({ target: userRoles.userId, set: { role } });
    await recordAudit(tx, {
      action: 'auth.role_changed',
      subjectUserId: userId,
      details: { role, via: 'cli' },
    });
    // Running servers forget the sessions they trusted from memory, at this commit (decision 015).
    await notifySessionsRevoked(tx);
  });
  console.log(`${email} now has the role ${role}. It applies from the user's next request.`);
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

async function main() {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke' && command !== 'reset-2fa') || !email) {
    console.error(usage);
    process.exit(2);
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
    else await changeRole(target.database, account.id, command === 'grant' ? 'admin' : 'user', email);
  } finally {
    await target.close();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
