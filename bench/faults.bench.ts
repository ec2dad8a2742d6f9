/**
 * `npm run bench:faults` (issue 19): runs the fault scenarios against the real server, started as
 * a child process with its embedded PostgreSQL in a temporary DATA_DIR, and prints the figures.
 *
 * 1. PostgreSQL killed (SIGKILL of the postmaster) under a steady GET load: seconds until the API
 *    answers 200 again, answers by status during the outage, connection resets, error log lines.
 * 2. SIGTERM under load: uploads and GETs in flight, keep-alive requests after the signal: resets,
 *    answers by status, exit code and seconds to exit.
 * 3. SIGKILL of the server mid-upload, then a restart: temporary files left after the start-up sweep.
 * 4. Completion notifications through faults: 20 completions while the receiver answers 503 to a
 *    third, hangs on two, and the server is SIGKILLed and restarted and PostgreSQL is killed
 *    mid-run: delivered, duplicates (2xx answers to one webhook-id beyond the first), lost.
 *
 * No fixed sleeps decide a figure: each step waits for an observable event with a timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/db/client.ts';
import { freePort, runningEmbeddedUrl } from '../server/db/embedded-postgres.ts';
import { createCompletedApplication } from '../server/notifications/testing/completed-application.ts';
import { WebhookReceiver } from '../server/notifications/testing/webhook-receiver.ts';
import { loadFieldCipher } from '../server/security/field-cipher.ts';
import { createLocalStorage } from '../server/storage/local-storage.ts';
import { pdfOfSize } from '../tests/fixtures/files.ts';
import { HttpClient, linkFromOutbox, signedAttestation, signUpConfirmSignIn } from '../tests/http-client.ts';

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

async function startServer(
  dataDir: string,
  port?: number,
  extraEnv: Record<string, string> = {},
): Promise<Server> {
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
      ...extraEnv,
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
    const times: number[] = [];
    let running = true;
    const load = (async () => {
      while (running) {
        const response = await client.request('GET', '/api/applications').catch(() => undefined);
        statuses.push(response ? response.status : 'reset');
        times.push(Date.now());
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
    running = false;
    await load;
    const during = statuses.slice(before);
    const firstFailure = during.findIndex((status) => status !== 200);
    const firstBack = during.findIndex((status, i) => i > firstFailure && status === 200);
    const recoveredAt = times[before + firstBack] ?? Date.now();
    const outage = during.slice(0, during.length - 20);
    const errorLines = server.logs.slice(logLinesBefore).filter((l) => /"level":50/.test(l)).length;
    return {
      scenario: 'PostgreSQL SIGKILL under load',
      secondsToFirst200AfterKill: ((recoveredAt - killedAt) / 1000).toFixed(2),
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
    // Three slow uploads in flight (the server holds their temporary files) when the signal comes.
    const uploads = Array.from({ length: 3 }, () => trickleUpload(server, client, applicationId));
    await waitFor(() => tempFiles(dataDir).length === 3, 20_000, 'three uploads in flight');
    const signalAt = Date.now();
    server.child.kill('SIGTERM');
    const after = Array.from({ length: 17 }, () =>
      client
        .request('GET', '/api/applications')
        .then(async (r) => {
          await r.arrayBuffer().catch(() => undefined);
          return r.status as number | string;
        })
        .catch((error: unknown) => failureKind(error)),
    );
    const inFlight = await Promise.all(uploads);
    const afterSignal = await Promise.all(after);
    const exit = await server.exited;
    return {
      scenario: 'SIGTERM with 3 slow uploads in flight, 17 GETs after the signal',
      inFlightAnswers: countBy(inFlight),
      afterSignalAnswers: countBy(afterSignal),
      resets: [...inFlight, ...afterSignal].filter((r) => r === 'reset').length,
      exitCode: exit.code,
      secondsToExit: ((exit.at - signalAt) / 1000).toFixed(1),
    };
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A slow upload of 8 MB (64 pieces, one every 50 ms), so the server holds it in flight for about
 * 3 s. Resolves with the status, or 'reset' / 'refused' when the connection failed.
 */
function trickleUpload(server: Server, client: HttpClient, applicationId: string): Promise<number | string> {
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
  return fetch(`${server.baseUrl}/api/applications/${applicationId}/documents`, {
    method: 'POST',
    headers: {
      cookie: client.cookie,
      origin: client.origin,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit)
    .then(async (response) => {
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    })
    .catch((error: unknown) => failureKind(error));
}

/** 'refused' when no connection was made (the listener had closed), else 'reset'. */
function failureKind(error: unknown): string {
  const code = ((error as { cause?: { code?: string } }).cause?.code ?? '').toString();
  return code === 'ECONNREFUSED' ? 'refused' : 'reset';
}

/** Scenario 3: the server dies mid-upload; the next start must leave no temporary file. */
async function killedMidUpload(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-upload-'));
  fs.chmodSync(dataDir, 0o755);
  let server = await startServer(dataDir);
  try {
    const { client, applicationId } = await provider(server);
    const upload = trickleUpload(server, client, applicationId);
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

const SECRET = 'whsec_pBPvcKLMACQL4VARJRDbv+AcGGhWm0/Z+vRh9SuUCrQ=';

/** Scenario 4: 20 completions delivered through a failing receiver, a server SIGKILL and a dead PostgreSQL. */
async function notificationsThroughFaults(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-notify-'));
  fs.chmodSync(dataDir, 0o755);
  const receiver = new WebhookReceiver({ secret: SECRET, discard: true });
  await receiver.listen();
  // Per 20 first requests: 503 to every third, a hang on two; 200 afterwards.
  receiver.answers = Array.from({ length: 20 }, (_, i) =>
    i === 4 || i === 11 ? 'hang' : i % 3 === 0 ? 503 : 200,
  );
  const env = {
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_RETRY_BASE_MS: '100',
    NOTIFY_RETRY_MAX_MS: '1000',
    NOTIFY_POLL_INTERVAL_MS: '200',
    NOTIFY_TIMEOUT_MS: '3000',
  };
  let server = await startServer(dataDir, undefined, env);
  const total = 20;
  try {
    const clients: { client: HttpClient; applicationId: string }[] = [];
    for (let i = 0; i < total; i++) clients.push(await provider(server));
    // Fill every section directly (the factory), then complete through the API.
    const database = openDatabase(runningEmbeddedUrl(dataDir)!, { max: 2 });
    const storage = createLocalStorage(path.join(dataDir, 'objects', 'provider-documents'));
    const cipher = loadFieldCipher({ dataDir });
    try {
      for (const { client, applicationId } of clients) {
        const me = await client.json<{ user: { id: string } }>('GET', '/api/me');
        await createCompletedApplication({
          db: database.db,
          storage,
          cipher,
          userId: me.body.user.id,
          applicationId,
        });
      }
    } finally {
      await database.close();
    }
    const startedAt = Date.now();
    const attestations = await Promise.all(clients.map(({ client }) => signedAttestation(client)));
    const complete = (i: number) =>
      clients[i]!.client.request(
        'POST',
        `/api/applications/${clients[i]!.applicationId}/completion`,
        attestations[i],
      ).catch(() => undefined);
    for (let i = 0; i < 8; i++) await complete(i);
    // The server dies mid-run and comes back on the same port.
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startServer(dataDir, server.port, env);
    for (let i = 8; i < 14; i++) await complete(i);
    // PostgreSQL dies mid-run; the server restarts it.
    process.kill(postmasterPid(dataDir), 'SIGKILL');
    for (let i = 14; i < total; i++) {
      let answered = false;
      for (let tries = 0; tries < 100 && !answered; tries++) {
        const response = await complete(i);
        answered = !!response && response.status < 500;
        if (!answered) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const deliveredIds = () => new Set(receiver.delivered.map((r) => r.headers['webhook-id']));
    await waitFor(() => deliveredIds().size >= total, 120_000, 'every notification').catch(() => undefined);
    const seconds = (Date.now() - startedAt) / 1000;
    const perId = countBy(receiver.delivered.map((r) => String(r.headers['webhook-id'])));
    return {
      scenario: `${total} completions through 503s, 2 hangs, a server SIGKILL and a PostgreSQL SIGKILL`,
      delivered: deliveredIds().size,
      lost: total - deliveredIds().size,
      duplicates: Object.values(perId).reduce((sum, n) => sum + (n - 1), 0),
      requestsToReceiver: receiver.requests.length,
      secondsUntilAllDelivered: seconds.toFixed(1),
    };
  } finally {
    await stop(server);
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, unknown>[] = [];
  for (const scenario of [postgresKilled, sigtermUnderLoad, killedMidUpload, notificationsThroughFaults]) {
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
