/**
 * `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`: change a user's role
 * (issue 2). The web app has no way to make an admin. Works while the server runs: with the embedded
 * database it connects to the running cluster. The change is written to the audit log.
 */
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import type { Role } from '../../domain/roles.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { runningEmbeddedUrl } from '../db/embedded-postgres.ts';
import { user } from '../db/schema/auth.ts';
import { userRoles } from '../db/schema/core.ts';
import { loadEnv } from '../env.ts';
import { openConfiguredDatabase } from '../runtime.ts';

const usage = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>';

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
  });
  console.log(`${email} now has the role ${role}. It applies from the user's next request.`);
}

async function main() {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !email) {
    console.error(usage);
    process.exit(2);
  }
  const env = loadEnv();
  const logger = pino({ level: 'warn' });
  const runningUrl = env.DATABASE_URL ? undefined : runningEmbeddedUrl(env.dataDir);
  const { database, embedded } = runningUrl
    ? { database: openDatabase(runningUrl, { max: 1, logger }), embedded: undefined }
    : await openConfiguredDatabase(env, logger);
  let failed = false;
  try {
    const [account] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()));
    if (!account) {
      console.error(`No account with the email ${email}. The user must sign up first.`);
      failed = true;
    }
    if (account) await changeRole(database, account.id, command === 'grant' ? 'admin' : 'user', email);
  } finally {
    await database.close();
    await embedded?.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
