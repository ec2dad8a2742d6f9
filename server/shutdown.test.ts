/**
 * SIGTERM on the real server process (issue 19 item 3): work in flight finishes, requests that
 * still arrive on open connections get an answer (never a reset), and a dead embedded database
 * does not keep the process from exiting 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pdfOfSize } from '../tests/fixtures/files.ts';
import { createTestDatabase, STRONG_PASSWORD } from '../tests/harness.ts';
import { HttpClient, linkFromOutbox, pollFor, signUpConfirmSignIn } from '../tests/http-client.ts';
import { freePort } from './db/embedded-postgres.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface ServerProcess {
  pid: number;
  port: number;
  dataDir: string;
  /** Every line the server wrote (stdout JSON lines, stderr chunks). */
  log: string[];
  /** Resolves with the exit code (a signal death gives `null`). */
  exited: Promise<number | null>;
}

/** Start server/main.ts on a free port and a temporary DATA_DIR; resolves once it is ready. */
async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-shutdown-'));
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      AUTH_IP_RATE_LIMIT: 'false',
      STORAGE_MIN_FREE_MB: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
      // The cluster this server started would outlive it: stop that one (never another).
      const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
      try {
        process.kill(Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10), 'SIGQUIT');
      } catch {}
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const log: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => log.push(`stderr: ${chunk}`));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; log:\n${log.join('\n')}`)), 60_000);
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        log.push(line);
        if (line.includes('Credentialing portal ready')) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
    exited.then((code) => reject(new Error(`server exited ${code}:\n${log.join('\n')}`)));
  });
  return { pid: child.pid!, port, dataDir, log, exited };
}

/** What one raw connection received: the status of each answer, and whether it was reset. */
interface ConnectionOutcome {
  statuses: number[];
  error?: string;
}

/**
 * One kept-alive connection carrying a document upload of `file` whose body is sent in two halves:
 * `sendRest()` sends the second half and then, on the same connection, a GET of the provider's
 * applications (pipelined, as a keep-alive client may). `outcome` resolves when the server closes
 * the connection.
 */
function uploadConnection(
  port: number,
  request: { applicationId: string; cookie: string; origin: string; file: Buffer; name: string },
) {
  const boundary = `----shutdown${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\ncv_resume\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${request.name}"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    request.file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = (lines: string[]) =>
    Buffer.from(`${[...lines, `Host: 127.0.0.1:${port}`].join('\r\n')}\r\n\r\n`);
  const upload = headers([
    `POST /api/applications/${request.applicationId}/documents HTTP/1.1`,
    `Origin: ${request.origin}`,
    `Cookie: ${request.cookie}`,
    'Connection: keep-alive',
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${body.length}`,
  ]);
  const nextRequest = headers([
    'GET /api/applications HTTP/1.1',
    `Cookie: ${request.cookie}`,
    'Connection: keep-alive',
  ]);
  const socket = net.connect(port, '127.0.0.1');
  const half = Math.floor(body.length / 2);
  socket.write(Buffer.concat([upload, body.subarray(0, half)]));
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  const outcome = new Promise<ConnectionOutcome>((resolve) => {
    let error: string | undefined;
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => {
      const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      resolve({ statuses, error });
    });
  });
  return {
    outcome,
    sendRest() {
      socket.write(Buffer.concat([body.subarray(half), nextRequest]));
    },
  };
}

describe('SIGTERM', () => {
  it('lets uploads in flight finish and answers requests sent after it on their connections', async () => {
    // First, a provider signs up and starts an application on a server using the test database.
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const server = await startServer({ DATABASE_URL: database.url });
    const origin = `http://localhost:${server.port}`;
    const provider = new HttpClient({ baseUrl: `http://127.0.0.1:${server.port}`, origin });
    await signUpConfirmSignIn(
      provider,
      { email: 'dana.shutdown@example.test', password: STRONG_PASSWORD, firstName: 'Dana', lastName: 'Lee' },
      linkFromOutbox(path.join(server.dataDir, 'mail')),
    );
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status).toBe(201);

    // Second, she uploads 20 documents of 3 MB at once; half of each body is sent before SIGTERM.
    const file = pdfOfSize(3 * 1024 * 1024);
    const uploads = Array.from({ length: 20 }, (_, i) =>
      uploadConnection(server.port, {
        applicationId: created.body.id,
        cookie: provider.cookie,
        origin,
        file,
        name: `cv-${i}.pdf`,
      }),
    );
    // The signal must come while all 20 are in flight on the server, not still in the listen backlog
    // of a loaded machine (a connection not yet accepted is refused at shutdown, rightly): each
    // upload the server is streaming to disk has its temporary file.
    const objectsDir = path.join(server.dataDir, 'objects');
    const tempFiles = () =>
      fs.existsSync(objectsDir)
        ? (fs.readdirSync(objectsDir, { recursive: true }) as string[]).filter((name) =>
            path.basename(name).startsWith('.tmp-'),
          ).length
        : 0;
    await pollFor(() => (tempFiles() >= 20 ? true : undefined), 'all 20 uploads to reach the server', {
      timeoutMs: 20_000,
    });
    process.kill(server.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Third, after the signal, the rest of each upload, then one more request on each connection.
    for (const upload of uploads) upload.sendRest();
    const outcomes = await Promise.all(uploads.map((upload) => upload.outcome));
    const exitCode = await server.exited;

    const resets = outcomes.filter((o) => o.error !== undefined || o.statuses.length < 2);
    expect(resets).toEqual([]);
    expect(outcomes.map((o) => o.statuses[0])).toEqual(Array(20).fill(201));
    for (const o of outcomes) expect([200, 503]).toContain(o.statuses[1]);
    expect(server.log.join('\n')).not.toContain('Cannot use a pool after calling end');
    expect(exitCode).toBe(0);
  }, 120_000);

  it('exits 0 within seconds when the embedded PostgreSQL has died', async () => {
    // First, a server on its embedded cluster (no DATABASE_URL).
    const server = await startServer({});
    const postmaster = Number.parseInt(
      fs.readFileSync(path.join(server.dataDir, 'postgres', 'postmaster.pid'), 'utf8'),
      10,
    );

    // Second, PostgreSQL dies (kill -9 of the postmaster); once it is gone, and the server has seen
    // it exit, the server gets SIGTERM (before a restart of the cluster could complete).
    process.kill(postmaster, 'SIGKILL');
    await pollFor(() => (isRunning(postmaster) ? undefined : true), 'the postmaster to die', {
      timeoutMs: 5_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const start = Date.now();
    process.kill(server.pid, 'SIGTERM');
    const exitCode = await server.exited;
    const seconds = (Date.now() - start) / 1000;

    expect(exitCode).toBe(0);
    expect(seconds).toBeLessThan(5);
  }, 120_000);
});
