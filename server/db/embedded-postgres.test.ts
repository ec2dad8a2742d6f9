/**
 * The embedded default survives a crash (issue 2): the server is killed with SIGKILL, which leaves
 * its PostgreSQL running and postmaster.pid behind; the next start recovers and the data is there.
 * Started as root, it explains a directory the `postgres` user cannot traverse instead of dying on
 * `spawn ... initdb EACCES` (issue 10, item 9).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  EmbeddedPostgresError,
  freePort,
  guardSpawnFailures,
  startEmbeddedPostgres,
  untraversableDirectory,
} from './embedded-postgres.ts';

/** Data directories made by `newDataDir`, removed after the file's tests. */
const dataDirs: string[] = [];
/** Servers started by the running test; afterEach stops them (and any PostgreSQL they left). */
const children: ChildProcess[] = [];

/** A new, empty DATA_DIR: every test starts its own cluster, so it passes alone and in any order. */
function newDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-embedded-'));
  dataDirs.push(dataDir);
  return dataDir;
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  };
  delete env.DATABASE_URL;
  const logFile = path.join(dataDir, `server-${children.length}.log`);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['server/main.ts'], {
    env,
    stdio: ['ignore', log, log],
    detached: true,
  });
  fs.closeSync(log);
  children.push(child);
  for (let i = 0; i < 240 && child.exitCode === null; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become ready: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
}

/** 'gone' when no such process, else its /proc state letter (R, S, Z, …). */
function processState(pid: number): string {
  try {
    return /^State:\s+(\w)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
}

/**
 * Exited: gone, or a zombie (exited, reparented to an init that has not reaped it yet; containers
 * often run without a reaping init), which kill(pid, 0) still reports.
 */
const exited = (pid: number) => /^(gone|Z)$/.test(processState(pid));

/** Live processes of process group `pgid` (a server started by startServer leads its own group). */
function processGroup(pgid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

const pidFileOf = (dataDir: string) => path.join(dataDir, 'postgres', 'postmaster.pid');

/** The postmaster's pid from postmaster.pid, or undefined when there is none. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    return Number(fs.readFileSync(pidFileOf(dataDir), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

/** Wait (polling /proc every 50 ms) until `condition` holds; fails after `timeout` ms. */
function waitFor(condition: () => boolean, timeout = 30_000): Promise<boolean> {
  return vi.waitUntil(condition, { timeout, interval: 50 });
}

async function query(dataDir: string, sql: string): Promise<unknown[]> {
  const { url } = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.runtime.json'), 'utf8')) as {
    url: string;
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

afterEach(async () => {
  // Stop the servers the test left running (SIGTERM: a clean stop) and wait for every process of
  // their groups, not only npx, to exit.
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // The group is gone already.
    }
    await waitFor(() => processGroup(child.pid!).length === 0);
  }
  // A PostgreSQL that a killed server left running (the crash tests do that on purpose): fast shutdown.
  for (const dataDir of dataDirs) {
    const pid = postmasterPid(dataDir);
    if (pid === undefined || exited(pid)) continue;
    process.kill(pid, 'SIGINT');
    await waitFor(() => exited(pid));
  }
}, 60_000);

afterAll(() => {
  for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded PostgreSQL', () => {
  it('starts again after the server is killed with SIGKILL, with the data intact', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    const first = await startServer(dataDir, port);
    await query(
      dataDir,
      `insert into "user" (id, name, email) values ('crash-test', 'Crash Test', 'crash@example.test')`,
    );
    // Kill the whole process group of the server: npx, tsx, node and the PostgreSQL node spawned
    // (it runs in the same group), as a container kill or power loss would. postmaster.pid stays
    // behind. (The next test kills the Node processes only, leaving PostgreSQL orphaned.)
    process.kill(-first.pid!, 'SIGKILL');
    await waitFor(() => processGroup(first.pid!).length === 0);
    expect(fs.existsSync(pidFileOf(dataDir))).toBe(true);

    await startServer(dataDir, port);
    expect(await query(dataDir, `select email from "user" where id = 'crash-test'`)).toEqual([
      { email: 'crash@example.test' },
    ]);
  }, 120_000);

  it('stops a PostgreSQL orphaned by a killed server and starts cleanly', async () => {
    // First, a server runs and stores a row.
    const dataDir = newDataDir();
    const port = await freePort();
    await startServer(dataDir, port);
    await query(
      dataDir,
      `insert into "user" (id, name, email) values ('orphan-test', 'Orphan Test', 'orphan@example.test')`,
    );
    // Second, SIGKILL only the Node processes of this server (found by their DATA_DIR), so its
    // PostgreSQL is left running with no owner, as after `kill -9` of the app.
    const nodePids = fs
      .readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
          const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          return environ.includes(`DATA_DIR=${dataDir}\0`) && !cmdline.includes('postgres');
        } catch {
          return false;
        }
      })
      .map(Number);
    expect(nodePids.length).toBeGreaterThan(0);
    for (const pid of nodePids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch (error) {
        // A short-lived process of the group (npx's shell) may have exited since the listing.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    }
    await waitFor(() => nodePids.every(exited));
    const orphan = postmasterPid(dataDir);
    expect(orphan).toBeDefined();
    expect(exited(orphan!)).toBe(false);

    // Third, the server starts again on the same DATA_DIR: it takes over and the data is there.
    await startServer(dataDir, port);
    expect(await query(dataDir, `select email from "user" where id = 'orphan-test'`)).toEqual([
      { email: 'orphan@example.test' },
    ]);
  }, 120_000);

  it('stops its PostgreSQL when the server gets SIGTERM', async () => {
    const dataDir = newDataDir();
    const server = await startServer(dataDir, await freePort());
    const pidFile = pidFileOf(dataDir);
    const postmaster = postmasterPid(dataDir)!;
    const serverExited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid!, 'SIGTERM');
    await serverExited;
    for (let i = 0; i < 100 && fs.existsSync(pidFile); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(fs.existsSync(pidFile)).toBe(false);
    // postmaster.pid goes just before the postmaster exits: give it a moment.
    for (let i = 0; i < 50 && !exited(postmaster); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processState(postmaster)).toMatch(/^(gone|Z)$/);
  }, 60_000);

  it('exits with a clear message and stops its PostgreSQL when the port is taken', async () => {
    const dataDir = newDataDir();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
      };
      delete env.DATABASE_URL;
      const child = spawn(process.execPath, ['server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(code).toBe(1);
      expect(fs.existsSync(pidFileOf(dataDir))).toBe(false);
    } finally {
      blocker.close();
    }
  }, 90_000);

  it('leaves the exit code of the process that loads it alone (a failed test run must not exit 0)', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "await import('./server/db/embedded-postgres.ts'); process.exitCode = 3;",
      ],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
  }, 30_000);
});

const runningAsRoot = process.getuid?.() === 0;
/** Shown in the name of a root-only test when it is skipped. */
const needsRoot = runningAsRoot ? '' : ' [skipped: not root; only root runs PostgreSQL as the postgres user]';

/** A new directory under the system temp directory with `mode`; removed after the file's tests. */
const madeDirectories: string[] = [];
function directoryWithMode(mode: number): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-access-'));
  madeDirectories.push(directory);
  fs.chmodSync(directory, mode);
  return directory;
}
afterAll(() => {
  for (const directory of madeDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

/** Pids of live processes whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Spawn `file` the way embedded-postgres spawns initdb: no 'error' listener, settle on 'close'. */
function spawnLikeEmbeddedPostgres(file: string, options: { uid?: number; gid?: number } = {}) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(file, [], options);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit code ${code}`))));
  });
}

describe('which directories the postgres user can traverse', () => {
  // Someone who owns nothing here and is in none of its groups: only the others' bits count.
  const stranger = { uid: 54_321, gids: [54_321] };

  it('names a 0700 directory on the way, and passes 0755 ones', () => {
    const parent = directoryWithMode(0o700);
    const target = path.join(parent, 'checkout', 'node_modules');
    fs.mkdirSync(target, { recursive: true });
    expect(untraversableDirectory(target, stranger)).toEqual({
      directory: parent,
      mode: 0o700,
      uid: process.getuid!(),
    });

    fs.chmodSync(parent, 0o755);
    expect(untraversableDirectory(target, stranger)).toBeUndefined();
  });

  it('uses the owner class for the owner and the group class for a member of the group', () => {
    const parent = directoryWithMode(0o700);
    const owner = { uid: process.getuid!(), gids: [] };
    expect(untraversableDirectory(parent, owner)).toBeUndefined();

    // A member of the directory's group gets the group's bits, even when the others' allow more.
    const member = { uid: stranger.uid, gids: [process.getgid!()] };
    fs.chmodSync(parent, 0o701);
    expect(untraversableDirectory(parent, member)?.directory).toBe(parent);
    fs.chmodSync(parent, 0o710);
    expect(untraversableDirectory(parent, member)).toBeUndefined();
  });

  it('follows a symbolic link into a directory that blocks it', () => {
    const locked = directoryWithMode(0o700);
    fs.mkdirSync(path.join(locked, 'data'));
    const open = directoryWithMode(0o755);
    fs.symlinkSync(path.join(locked, 'data'), path.join(open, 'data'));
    expect(untraversableDirectory(path.join(open, 'data'), stranger)?.directory).toBe(locked);
  });
});

describe('a child process that cannot be spawned', () => {
  it('rejects with an EmbeddedPostgresError instead of an unhandled error event', async () => {
    const directory = directoryWithMode(0o755);
    const program = path.join(directory, 'initdb');
    fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o644 });
    // Without the guard, the child's 'error' event has no listener: an uncaught exception.
    const failure = await guardSpawnFailures(() => spawnLikeEmbeddedPostgres(program)).catch((e) => e);
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    expect(failure.message).toContain(program);
    expect(failure.message).toContain('DATABASE_URL');
  });

  it.skipIf(!runningAsRoot)(
    `as root, names the directory the postgres user cannot enter${needsRoot}`,
    async () => {
      // initdb in a checkout under /root, run as the postgres user: spawn fails with EACCES.
      const checkout = directoryWithMode(0o700);
      const program = path.join(checkout, 'initdb');
      fs.copyFileSync('/bin/true', program);
      fs.chmodSync(program, 0o755);
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
      const failure = await guardSpawnFailures(() =>
        spawnLikeEmbeddedPostgres(program, { uid: id('-u'), gid: id('-g') }),
      ).catch((e) => e);
      expect(failure).toBeInstanceOf(EmbeddedPostgresError);
      expect(failure.message).toContain(`cannot enter ${checkout} (mode 0700`);
      expect(failure.message).toContain('run the server as a normal (non-root) user');
      expect(failure.message).toContain('move the checkout to a directory every user can traverse');
      expect(failure.message).toContain('set DATABASE_URL to an external PostgreSQL');
    },
  );
});

describe('starting the embedded PostgreSQL where it cannot run', () => {
  it.skipIf(!runningAsRoot)(
    `as root with DATA_DIR inside a 0700 directory: a clear error, no cluster, no process${needsRoot}`,
    async () => {
      const locked = directoryWithMode(0o700);
      const lockedDataDir = path.join(locked, 'data');
      const failure = await startEmbeddedPostgres(lockedDataDir, pino({ level: 'silent' })).catch((e) => e);
      expect(failure).toBeInstanceOf(EmbeddedPostgresError);
      expect(failure.message).toBe(
        'The embedded PostgreSQL cannot start: this process runs as root, so PostgreSQL runs as the ' +
          `"postgres" user, and that user cannot enter ${locked} (mode 0700, owner uid 0) on the way to ` +
          `DATA_DIR (${lockedDataDir}). To fix it, run the server as a normal (non-root) user; or move ` +
          'DATA_DIR (or the checkout, for ./data) to a directory every user can traverse (not under /root ' +
          `or a \`mktemp -d\` directory), or let every user traverse it (chmod o+x ${locked}); or set ` +
          'DATABASE_URL to an external PostgreSQL.',
      );
      expect(fs.existsSync(path.join(lockedDataDir, 'postgres', 'PG_VERSION'))).toBe(false);
      expect(processesMentioning(lockedDataDir)).toEqual([]);
    },
    60_000,
  );

  it('with create: false and no cluster, refuses without creating anything', async () => {
    const empty = directoryWithMode(0o755);
    const failure = await startEmbeddedPostgres(empty, pino({ level: 'silent' }), { create: false }).catch(
      (e) => e,
    );
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    expect(failure.message).toBe(`There is no embedded database in ${path.join(empty, 'postgres')}.`);
    expect(fs.readdirSync(empty)).toEqual([]);
  });
});
