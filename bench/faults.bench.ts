/**
 * `npm run bench:faults` (issue 19): runs the fault scenarios against the real server, started as
 * a child process with its embedded PostgreSQL in a temporary DATA_DIR, and prints the figures.
 *
 * 1. PostgreSQL killed (SIGKILL of the postmaster) under a steady GET load: seconds until the API
 *    answers 200 again, answers by status during the outage, connection resets, error log lines.
 * 2. SIGTERM under load: uploads and GETs in flight, keep-alive requests after the signal: resets,
 *    answers by status, exit code and seconds to exit.
 * 3. SIGKILL of the server mid-upload, then a restart: temporary files left after the start-up sweep.
 *
 * No fixed sleeps decide a figure: each step waits for an observable event with a timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/db/embedded-postgres.ts';
import { pdfOfSize } from '../tests/fixtures/files.ts';
import { HttpClient, linkFromOutbox, signUpConfirmSignIn } from '../tests/http-client.ts';

const PASSWORD = 'correct horse battery staple 42!';

interface Server {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  dataDir: string;
  logs: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function startServer(dataDir: string, port?: number): Promise<Server> {
  const chosen = port ?? (await freePort());
  const logs: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(chosen),
      LOG_LEVEL: 'info',
      AUTH_IP_RATE_LIMIT: 'false',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffer = '';
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      logs.push(...parts);
    });
  }
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const baseUrl = `http://localhost:${chosen}`;
  await waitFor(
    async () => (await fetch(`${baseUrl}/api/ready`).catch(() => undefined))?.status === 200,
    60_000,
    'the server to be ready',
  );
  return { child, port: chosen, baseUrl, dataDir, logs, exited };
}

async function provider(server: Server): Promise<{ client: HttpClient; applicationId: string }> {
  const client = new HttpClient({ baseUrl: server.baseUrl });
  const email = `faults.${Date.now()}.${Math.floor(Math.random() * 1e6)}@bench.example`;
  await signUpConfirmSignIn(
    client,
    { email, password: PASSWORD, firstName: 'Fault', lastName: 'Bench' },
    linkFromOutbox(path.join(server.dataDir, 'mail')),
  );
  const created = await client.json<{ id: string }>('POST', '/api/applications', {});
  return { client, applicationId: created.body.id };
}

function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function tempFiles(dataDir: string): string[] {
  const objects = path.join(dataDir, 'objects');
  if (!fs.existsSync(objects)) return [];
  return fs
    .readdirSync(objects, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.startsWith('.tmp-'))
    .map((e) => e.name);
}

function countBy<T extends string | number>(values: T[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
}

/** Scenario 1: the embedded PostgreSQL dies under load. */
async function postgresKilled(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-pg-'));
  fs.chmodSync(dataDir, 0o755);
  const server = await startServer(dataDir);
  try {
    const { client } = await provider(server);
    const statuses: (number | 'reset')[] = [];
    let running = true;
    const load = (async () => {
      while (running) {
        const response = await client.request('GET', '/api/applications').catch(() => undefined);
        statuses.push(response ? response.status : 'reset');
        await response?.arrayBuffer().catch(() => undefined);
      }
    })();
    await waitFor(() => statuses.length > 50, 10_000, 'load');
    const logLinesBefore = server.logs.length;
    const killedAt = Date.now();
    const before = statuses.length;
    process.kill(postmasterPid(dataDir), 'SIGKILL');
    // Recovered: 20 successes in a row after the first failure.
    await waitFor(
      () => {
        const after = statuses.slice(before);
        const firstFailure = after.findIndex((s) => s !== 200);
        return (
          firstFailure >= 0 &&
          after
            .slice(firstFailure)
            .slice(-20)
            .every((s) => s === 200) &&
          after.slice(firstFailure).length > 20
        );
      },
      60_000,
      'the API to answer 200 again',
    ).catch(() => undefined);
    const recoveredAt = Date.now();
    running = false;
    await load;
    const during = statuses.slice(before);
    const outage = during.slice(0, during.length - 20);
    const errorLines = server.logs.slice(logLinesBefore).filter((l) => /"level":50/.test(l)).length;
    return {
      scenario: 'PostgreSQL SIGKILL under load',
      secondsToRecover: ((recoveredAt - killedAt) / 1000).toFixed(1),
      answersDuringOutage: countBy(outage),
      errorLogLines: errorLines,
      logLines: server.logs.length - logLinesBefore,
    };
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Scenario 2: SIGTERM with requests in flight and keep-alive requests after the signal. */
async function sigtermUnderLoad(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-term-'));
  fs.chmodSync(dataDir, 0o755);
  const server = await startServer(dataDir);
  try {
    const { client, applicationId } = await provider(server);
    const results: (number | 'reset')[] = [];
    const track = (promise: Promise<Response>) =>
      promise
        .then(async (r) => {
          await r.arrayBuffer().catch(() => undefined);
          results.push(r.status);
        })
        .catch(() => results.push('reset'));
    const uploads = Array.from({ length: 3 }, (_, i) => {
      const form = new FormData();
      form.append('documentType', 'other');
      form.append('file', new Blob([new Uint8Array(pdfOfSize(8 * 1024 * 1024))]), `big-${i}.pdf`);
      return track(client.request('POST', `/api/applications/${applicationId}/documents`, form));
    });
    const gets = Array.from({ length: 20 }, () => track(client.request('GET', '/api/applications')));
    const signalAt = Date.now();
    server.child.kill('SIGTERM');
    const after = Array.from({ length: 17 }, () => track(client.request('GET', '/api/applications')));
    await Promise.all([...uploads, ...gets, ...after]);
    const exit = await server.exited;
    return {
      scenario: 'SIGTERM under load (3 uploads + 20 GETs in flight, 17 GETs after)',
      answers: countBy(results),
      resets: results.filter((r) => r === 'reset').length,
      exitCode: exit.code,
      secondsToExit: ((exit.at - signalAt) / 1000).toFixed(1),
    };
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Scenario 3: the server dies mid-upload; the next start must leave no temporary file. */
async function killedMidUpload(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-upload-'));
  fs.chmodSync(dataDir, 0o755);
  let server = await startServer(dataDir);
  try {
    const { client, applicationId } = await provider(server);
    // A slow upload: the body trickles, so the server holds a temporary file when it is killed.
    const size = 8 * 1024 * 1024;
    const piece = pdfOfSize(size / 64);
    const chunks = Array.from({ length: 64 }, () => piece);
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = chunks.shift();
        if (!next) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.enqueue(new Uint8Array(next));
      },
    });
    const boundary = '----faults';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        const reader = stream.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          controller.enqueue(value);
        }
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const upload = fetch(`${server.baseUrl}/api/applications/${applicationId}/documents`, {
      method: 'POST',
      headers: {
        cookie: client.cookie,
        origin: client.origin,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    await waitFor(() => tempFiles(dataDir).length > 0, 20_000, 'the temporary upload file');
    const tempBefore = tempFiles(dataDir).length;
    server.child.kill('SIGKILL');
    await server.exited;
    await upload;
    const port = server.port;
    server = await startServer(dataDir, port);
    // The start-up sweep runs when the app is ready; give it until it says so or 10 s.
    await waitFor(() => tempFiles(dataDir).length === 0, 10_000, 'the sweep').catch(() => undefined);
    return {
      scenario: 'server SIGKILL mid-upload, then restart',
      tempFilesAtKill: tempBefore,
      tempFilesAfterRestart: tempFiles(dataDir).length,
    };
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, unknown>[] = [];
  for (const scenario of [postgresKilled, sigtermUnderLoad, killedMidUpload]) {
    try {
      results.push(await scenario());
    } catch (error) {
      results.push({ scenario: scenario.name, failed: (error as Error).message });
    }
    console.log(JSON.stringify(results.at(-1)));
  }
  console.log('\nFault scenarios (issue 19):');
  for (const r of results)
    console.log(
      `- ${Object.entries(r)
        .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
        .join(', ')}`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
