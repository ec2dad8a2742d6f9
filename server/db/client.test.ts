/**
 * The pool survives the server ending one of its idle connections (restart, failover, a forced
 * `drop database`): without a listener that `error` event is an uncaught exception that takes the
 * process down (it failed a CI run whose 238 tests had all passed). And `db.transaction` gives its
 * connection back whatever happens to BEGIN or ROLLBACK (Drizzle 0.45.4 as patched in `patches/`).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/harness.ts';
import { type DatabaseHandle, openDatabase } from './client.ts';

let database: { url: string; drop(): Promise<void> };
let handle: DatabaseHandle;
const warnings: { fields: Record<string, unknown>; message: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  handle = openDatabase(database.url, {
    max: 2,
    logger: { warn: (fields, message) => void warnings.push({ fields, message }) },
  });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('openDatabase', () => {
  it('logs an idle connection the server terminates and serves the next query on a new one', async () => {
    const before = await handle.pool.query<{ pid: number }>('select pg_backend_pid() as pid');
    const pid = before.rows[0]!.pid;
    expect(handle.pool.idleCount).toBe(1);

    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const terminated = await admin.query<{ ok: boolean }>('select pg_terminate_backend($1) as ok', [pid]);
      expect(terminated.rows[0]!.ok).toBe(true);
    } finally {
      await admin.end();
    }
    for (let i = 0; i < 100 && warnings.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields.code).toBe('57P01');
    expect(warnings[0]!.message).toMatch(/connection lost while idle/);
    const after = await handle.pool.query<{ pid: number }>('select pg_backend_pid() as pid');
    expect(after.rows[0]!.pid).not.toBe(pid);
  });

  it('survives the server ending a checked-out connection between two queries of a transaction', async () => {
    // A transaction holds a client between its queries; pg-pool listens for errors only on idle ones.
    const client = await handle.pool.connect();
    await client.query('begin');
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const ended = new Promise((resolve) => client.once('end', resolve));
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    // The server's goodbye arrives as an 'error' event on the client, then the socket ends. Without
    // a listener of our own the event is an uncaught exception and this file fails.
    await ended;
    // The caller still learns it: the next query on that client rejects, and release discards it.
    await expect(client.query('select 1')).rejects.toThrow();
    client.release(new Error('connection lost'));
    const after = await handle.pool.query<{ ok: number }>('select 1 as ok');
    expect(after.rows[0]!.ok).toBe(1);
  });

  it('gives the connection back to the pool when BEGIN fails', async () => {
    // One connection and a 1 s wait for it: a leaked connection makes the next query time out.
    const small = openDatabase(database.url, { max: 1, connectionTimeoutMs: 1000 });
    try {
      let ran = false;
      for (let i = 0; i < 3; i++) {
        // An isolation level PostgreSQL does not know: BEGIN itself fails (42601), the work never runs.
        const failed = small.db.transaction(
          async () => {
            ran = true;
          },
          { isolationLevel: 'no such level' as never },
        );
        await expect(failed).rejects.toMatchObject({ cause: { code: '42601' } });
      }
      expect(ran).toBe(false);
      expect(small.pool.totalCount - small.pool.idleCount).toBe(0);
      const after = await small.db.execute<{ ok: number }>(sql`select 1 as ok`);
      expect(after.rows[0]!.ok).toBe(1);
    } finally {
      await small.close();
    }
  });

  it("destroys a connection whose ROLLBACK failed and throws the transaction's own error", async () => {
    const small = openDatabase(database.url, { max: 1, connectionTimeoutMs: 1000 });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      let pid = 0;
      const failed = small.db.transaction(async (tx) => {
        pid = (await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0]!.pid;
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await tx.execute(sql`select 'after the server ended this connection'`);
      });
      // The error of the statement that failed, not that of the ROLLBACK attempted after it.
      await expect(failed).rejects.toMatchObject({
        query: "select 'after the server ended this connection'",
      });
      expect(small.pool.totalCount).toBe(0);
      const after = await small.db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      expect(after.rows[0]!.pid).not.toBe(pid);
    } finally {
      await admin.end();
      await small.close();
    }
  });

  it('close() resolves only once every connection has ended, so the database can be dropped at once', async () => {
    const other = openDatabase(database.url, { max: 4 });
    let ended = 0;
    other.pool.on('connect', (client) => client.once('end', () => ended++));
    // Four queries at once: four connections, each reporting its server process.
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        other.pool.query<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.05)'),
      ),
    );
    const pids = results.map((result) => result.rows[0]!.pid);
    expect(new Set(pids).size).toBe(4);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await other.close();
      expect(ended).toBe(4);
      // None of the pool's server processes is left (other pools' connections do not count).
      const left = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where pid = any($1::int[])',
        [pids],
      );
      expect(left.rows).toEqual([]);
    } finally {
      await admin.end();
    }
  });
});
