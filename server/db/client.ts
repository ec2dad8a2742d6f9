/**
 * The database handle: one `pg` pool and a Drizzle instance over it. The same code path serves the
 * embedded PostgreSQL and an external server (`DATABASE_URL`).
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { packageRoot } from '../paths.ts';
import { createDatabaseHealth, type DatabaseHealth, type DatabaseHealthLogger } from './database-health.ts';
import * as schema from './schema/index.ts';

export type Database = NodePgDatabase<typeof schema>;
/** A Drizzle transaction with the same API as Database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Database or transaction: what services take so they can join a caller's transaction. */
export type Queryable = Database | Transaction;

/**
 * Run independent reads: together on the pool (each takes its own connection), one after another
 * in a transaction, whose one connection cannot run two queries at once (pg 8 warns and queues
 * them; pg 9 refuses). Answers in the order of `reads`.
 */
export async function readAll<T extends readonly unknown[]>(
  db: Queryable,
  reads: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}

/** The drizzle-kit migrations (SQL and meta/_journal.json), applied at start-up by runMigrations. */
export const migrationsFolder = path.join(packageRoot, 'server', 'db', 'migrations');

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  /** Whether the database answers; logs outages once (database-health.ts). */
  health: DatabaseHealth;
  close(): Promise<void>;
}

// DATE columns stay 'YYYY-MM-DD' strings (no timezone shifts); int8 (counts, sizes) as numbers.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/** Where a pool reports a connection it lost while idle, and its health monitor an outage. */
export type PoolLogger = DatabaseHealthLogger;

/** How long a query waits for a new connection before failing (then answered 503), in ms. */
export const CONNECTION_TIMEOUT_MS = 5000;

/**
 * Open a pool on `url`. `max` connections (default 10); a connection that cannot be made within
 * `connectionTimeoutMs` (default 5 s) fails the query instead of letting the request hang.
 * `probeIntervalMs` (default 0: none) makes `health` probe the database periodically with `select 1`.
 *
 * An idle connection the server ends (restart, failover, `idle_session_timeout`,
 * `pg_terminate_backend`, `drop database … with (force)`: SQLSTATE 57P01 and kin) reaches the pool
 * as an `error` event; without a listener Node throws it and the whole process goes down. pg has
 * already discarded that connection and the next query opens a new one, so it is logged (code and
 * message only: never query text or parameters) and the server carries on. Errors of a query still
 * reject that query's promise as before.
 */
export function openDatabase(
  url: string,
  options: {
    max?: number;
    logger?: PoolLogger;
    connectionTimeoutMs?: number;
    probeIntervalMs?: number;
    summaryIntervalMs?: number;
  } = {},
): DatabaseHandle {
  const connectionTimeoutMs = options.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: 'credentialing',
    connectionTimeoutMillis: connectionTimeoutMs,
    // PostgreSQL compiles a plan whose estimated cost passes jit_above_cost (100,000) to machine code;
    // the reports' aggregates over 100,000s of rows pass it and spent 30-35 ms compiling to save less
    // (issue 34, `npm run bench:reports`). Every query of this server answers a person waiting: no JIT.
    options: '-c jit=off',
  });
  const health = createDatabaseHealth({
    // A new connection, not the pool's: an idle pooled connection to a server that has since
    // restarted fails once although the server answers.
    probe: async () => {
      const client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: connectionTimeoutMs,
        application_name: 'credentialing-probe',
      });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => {});
      }
    },
    logger: options.logger,
    probeIntervalMs: options.probeIntervalMs,
    summaryIntervalMs: options.summaryIntervalMs,
    port: portOf(url),
  });
  pool.on('error', (error: Error & { code?: string }) => {
    // While the database is already known to be down, each lost connection is not news.
    if (!health.reachable && health.isUnavailable(error)) return;
    options.logger?.warn(
      { code: error.code, message: error.message },
      'database connection lost while idle; the pool replaces it',
    );
    // A server shutting down ends every idle connection: find out now whether it is gone.
    health.suspect(error);
  });
  // pool.end() resolves once it has asked every connection to end, not when they have: a cluster
  // stopped (or a database dropped) right after would still cut them off. close() waits for each.
  const open = new Set<pg.Client>();
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
    // pg-pool listens for errors only while a client is idle. A checked-out client whose server goes
    // away between two queries of a transaction (a restart, a failover, a forced drop) emits 'error'
    // with no listener, and Node ends the process. The failure still reaches the caller: the running
    // or next query rejects, and release() with that error discards the client.
    client.on('error', () => {});
  });
  const db = drizzle(pool, { schema });
  return {
    db,
    pool,
    health,
    async close() {
      health.stop();
      const ended = [...open].map((client) => new Promise((resolve) => client.once('end', resolve)));
      await pool.end();
      await Promise.race([Promise.all(ended), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    },
  };
}

function portOf(url: string): number | undefined {
  try {
    return Number(new URL(url).port || 5432);
  } catch {
    return undefined;
  }
}

/**
 * Run `work` while holding the start-up lock of this database (issue 12): a session advisory lock on
 * one dedicated connection, so instances starting at once take turns (one migrates, the others wait
 * for it, then find nothing to do). The lock goes with the connection: released after `work`, and by
 * PostgreSQL itself if the process dies while holding it.
 * @param work gets a Drizzle handle on the locked connection
 */
export async function withStartupLock<T>(pool: pg.Pool, work: (db: Database) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`select pg_advisory_lock(hashtext('start-up'))`);
    try {
      return await work(drizzle(client, { schema }));
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('start-up'))`).catch((error: Error) => {
        broken = error; // Discard the connection below: PostgreSQL drops its lock with it.
      });
    }
  } catch (error) {
    broken ??= error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

/** Apply the committed drizzle-kit migrations (idempotent); run it under `withStartupLock`. */
export async function runMigrations(db: Database): Promise<void> {
  // Extensions the schema's indexes use; created here because drizzle-kit does not emit them.
  await db.execute(sql`create extension if not exists pg_trgm`);
  await migrate(db, { migrationsFolder });
}
