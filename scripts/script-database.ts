/**
 * The database of a command-line script (`seed:volume`, `exclusions:import`): DATABASE_URL, or the embedded
 * cluster in DATA_DIR, joining the running one when the server is up (never a second cluster on the
 * same directory). Migrations are applied. `close()` closes the pool and stops a cluster it started.
 */
import type { Logger } from 'pino';
import { type DatabaseHandle, openDatabase, runMigrations } from '../server/db/client.ts';
import { runningEmbeddedUrl } from '../server/db/embedded-postgres.ts';
import type { Env } from '../server/env.ts';
import { openConfiguredDatabase } from '../server/runtime.ts';

export async function openScriptDatabase(
  env: Env,
  logger: Logger,
): Promise<{ database: DatabaseHandle; close(): Promise<void> }> {
  const runningUrl = env.DATABASE_URL ? undefined : runningEmbeddedUrl(env.dataDir);
  const { database, embedded }: { database: DatabaseHandle; embedded?: { stop(): Promise<void> } } =
    runningUrl
      ? { database: openDatabase(runningUrl, { max: 2, logger }) }
      : await openConfiguredDatabase(env, logger);
  await runMigrations(database.db);
  return {
    database,
    async close() {
      await database.close();
      await embedded?.stop();
    },
  };
}
