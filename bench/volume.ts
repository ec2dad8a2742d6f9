/**
 * The volume benchmarks' set-up (bench:admin, bench:reports; not a benchmark itself): the benchmark
 * database (`benchDatabaseUrl`) with the current period's `jobs` marked done, the real app on it
 * (createRuntime, real HTTP on a loopback port, mail kept in memory), and the 100,000-provider seed
 * (`seedVolume`, as `npm run seed:volume`) written when the database holds none yet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import pino from 'pino';
import { isSeeded, seedVolume } from '../scripts/seed-volume/seed-database.ts';
import { loadEnv } from '../server/env.ts';
import type { MailMessage } from '../server/mail/mailer.ts';
import { createRuntime, type Runtime, type ScheduledJobName } from '../server/runtime.ts';
import { benchDatabaseUrl, markScheduledRunsDone } from './lib.ts';

/** The origin the benchmarks' browser-less clients claim (APP_URL). */
export const BENCH_ORIGIN = 'http://localhost:3000';

export interface VolumeBench {
  /** The benchmark database's URL; undefined: the embedded cluster under `.data-bench/`. */
  databaseUrl: string | undefined;
  runtime: Runtime;
  pool: pg.Pool;
  baseUrl: string;
  /** Every message the app "sent". */
  mail: MailMessage[];
  /** Stops the app and removes its data directory (a database server's; the embedded one is kept). */
  close(): Promise<void>;
}

/**
 * Start the app on the seeded benchmark database.
 * @param jobs scheduled jobs (server/runtime.ts names) whose current run would read the whole seed
 *   while the benchmark measures: marked done before the app starts
 * @param dataDirPrefix the temporary data directory's name prefix
 */
export async function startVolumeBench(
  jobs: readonly ScheduledJobName[],
  dataDirPrefix: string,
): Promise<VolumeBench> {
  const databaseUrl = await benchDatabaseUrl();
  if (databaseUrl) await markScheduledRunsDone(databaseUrl, jobs);
  const dataDir = databaseUrl
    ? fs.mkdtempSync(path.join(os.tmpdir(), dataDirPrefix))
    : path.resolve('.data-bench');
  const mail: MailMessage[] = [];
  const runtime = await createRuntime({
    env: loadEnv({
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: dataDir,
      APP_URL: BENCH_ORIGIN,
      LOG_LEVEL: 'warn',
      AUTH_IP_RATE_LIMIT: 'false',
    }),
    logger: pino({ level: 'warn' }),
    mailer: { send: async (message) => void mail.push(message) },
    serveWeb: false,
  });
  const close = async () => {
    await runtime.close();
    if (databaseUrl) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const pool = runtime.deps.database.pool;
    const connection = await pool.connect();
    const seeded = await isSeeded(connection).finally(() => connection.release());
    if (!seeded) {
      console.log('Seeding the volume data set (100,000 providers)...');
      await seedVolume(pool, { cipher: runtime.deps.cipher });
    }
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const address = runtime.app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return { databaseUrl, runtime, pool, baseUrl, mail, close };
  } catch (error) {
    await close();
    throw error;
  }
}
