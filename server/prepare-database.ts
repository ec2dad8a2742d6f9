/**
 * The schema and data steps every start runs under the start-up lock (issue 12), before the instance
 * registers: the committed migrations, then the one-time data steps of migrations 0019 and 0036.
 * Kept in one place so the test suite's template database (tests/global-setup.ts) is prepared exactly
 * as a start prepares a database.
 */
import { publishMissingCredentials } from './credential/published-credential.ts';
import { type Database, runMigrations } from './db/client.ts';
import { backfillVerificationBindingsOnce } from './review/verification-binding.ts';

/**
 * Migrate `lockedDb` and run the one-time data steps (idempotent: later starts find nothing to do).
 * Run it under `withStartupLock`. @param now the time the data steps record
 */
export async function prepareDatabase(lockedDb: Database, now: Date): Promise<void> {
  await runMigrations(lockedDb);
  // Migration 0019's data step (issue 29): bind verifications recorded before bindings existed,
  // once per database (a marker row; later starts skip the scan).
  await backfillVerificationBindingsOnce(lockedDb, now);
  // Migration 0036's data step (issue 49): publish the approved facts of credentials granted
  // before the published record existed (none left after the first start).
  await publishMissingCredentials(lockedDb, now);
}
