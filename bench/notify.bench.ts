/**
 * `npm run bench:notify` (issue 5): one completion notification carrying ten 10 MB documents
 * (about 140 MB of JSON once base64-encoded), sent by the real server to a local receiver that
 * discards the bytes (it only checks the Standard Webhooks signature over the stream).
 *
 * The server runs in a child process (`node --import tsx server/main.ts`) so its memory is measured
 * alone: VmRSS from /proc/<pid>/status is sampled every 5 ms from before the click until the answer.
 * Reports: payload size, time from the click to the answer (both passes: signing and sending),
 * throughput, and the peak RSS growth over the idle baseline. Goal (issue 5): growth under 100 MB.
 *
 * Database: a fresh database on DATABASE_URL's server (dropped afterwards), else the server's own
 * embedded PostgreSQL in a temporary DATA_DIR under .data-test/. Env: BENCH_DOCUMENTS (10), BENCH_DOCUMENT_BYTES (10 MiB).
 *
 * `BENCH_NOTIFY_DOCUMENTS=links npm run bench:notify` (issue 20): the same notification with
 * NOTIFY_DOCUMENTS=links and the default 16 MiB limit. Reports the message size, then fetches every
 * `downloadUrl` as a workflow would and checks each document's SHA-256 against the payload.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MAX_DOCUMENT_BYTES } from '../domain/sections/documents.ts';
import { openDatabase } from '../server/db/client.ts';
import { freePort, runningEmbeddedUrl } from '../server/db/embedded-postgres.ts';
import { loadEnv } from '../server/env.ts';
import { createCompletedApplication } from '../server/notifications/testing/completed-application.ts';
import { WebhookReceiver, waitUntil } from '../server/notifications/testing/webhook-receiver.ts';
import { loadFieldCipher } from '../server/security/field-cipher.ts';
import { createStorage } from '../server/storage/create-storage.ts';
import { HttpClient, linkFromOutbox, signedAttestation, signUpConfirmSignIn } from '../tests/http-client.ts';
import { createDatabaseOn, rssBytes } from './lib.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10);
const DOCUMENT_BYTES = Number(process.env.BENCH_DOCUMENT_BYTES ?? MAX_DOCUMENT_BYTES);
const GOAL_MB = 100;
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const PASSWORD = 'bench provider passphrase 2026!';
const MB = 1024 * 1024;
const MODE = process.env.BENCH_NOTIFY_DOCUMENTS === 'links' ? 'links' : 'inline';

async function main() {
  // A fresh database on DATABASE_URL's server, or none (the server then embeds PostgreSQL).
  const database = process.env.DATABASE_URL
    ? await createDatabaseOn(process.env.DATABASE_URL, 'bench_notify')
    : undefined;
  // Under the project (like the e2e data): an embedded cluster run as root cannot use a 0700 mkdtemp dir.
  const dataDir = path.resolve('.data-test', `bench-notify-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  // Links mode keeps the (small) body to read the links; inline mode discards ~140 MB as it streams.
  const receiver = new WebhookReceiver({ secret: SECRET, discard: MODE === 'inline' });
  await receiver.listen();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_IP_RATE_LIMIT: 'false',
    ...(database ? { DATABASE_URL: database.url } : {}),
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_DOCUMENTS: MODE,
    // Ten 10 MB documents are ~140 MB of base64: far over the 16 MiB default (and n8n's). Links
    // mode keeps the default limit: the message must fit it.
    ...(MODE === 'inline'
      ? { NOTIFY_MAX_PAYLOAD_BYTES: String(Math.ceil(DOCUMENTS * DOCUMENT_BYTES * 1.4 + 10 * MB)) }
      : {}),
    NOTIFY_TIMEOUT_MS: '300000',
  };
  let child: ChildProcess | undefined;
  let output = '';
  try {
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await waitUntil(
      async () => {
        if (child!.exitCode !== null) throw new Error(`server exited:\n${output}`);
        return fetch(`${baseUrl}/api/ready`).then(
          (r) => r.ok,
          () => false,
        );
      },
      60_000,
      'the server to start',
    );

    // A provider signs up (confirmation link from the .eml outbox), signs in, starts an application.
    const client = new HttpClient({ baseUrl });
    const { userId } = await signUpConfirmSignIn(
      client,
      {
        email: `bench.${Date.now()}@bench.example`,
        password: PASSWORD,
        firstName: 'Bench',
        lastName: 'Provider',
      },
      linkFromOutbox(path.join(dataDir, 'mail')),
    );
    const created = await client.json<{ id: string }>('POST', '/api/applications', {});
    const applicationId = created.body.id;

    // Every section complete, and the documents stored where the server reads them.
    process.stdout.write(`Storing ${DOCUMENTS} documents of ${(DOCUMENT_BYTES / MB).toFixed(1)} MiB... `);
    const url = database?.url ?? runningEmbeddedUrl(dataDir);
    if (!url) throw new Error('no database URL');
    const handle = openDatabase(url, { max: 2 });
    try {
      await createCompletedApplication({
        db: handle.db,
        storage: await createStorage(loadEnv(env)),
        cipher: loadFieldCipher({ dataDir }),
        userId,
        applicationId,
        documentSizes: Array.from({ length: DOCUMENTS }, () => DOCUMENT_BYTES),
      });
    } finally {
      await handle.close();
    }
    console.log('done.');

    // Idle baseline, then sample while the click is answered.
    await new Promise((r) => setTimeout(r, 2000));
    const pid = child.pid!;
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
    }, 5);
    const attestation = await signedAttestation(client);
    const started = performance.now();
    const answer = await client.json<{ status?: string }>(
      'POST',
      `/api/applications/${applicationId}/completion`,
      attestation,
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));

    const request = receiver.requests.at(-1);
    if (answer.status !== 200 || answer.body?.status !== 'delivered' || !request?.verified) {
      throw new Error(`not delivered: ${answer.status} ${JSON.stringify(answer.body)}\n${output}`);
    }
    const growthMb = (peak - baseline) / MB;
    if (MODE === 'links') {
      console.log(
        `Payload:        ${request.bytes} bytes (${(request.bytes / 1024).toFixed(1)} KiB; ${DOCUMENTS} x ${(DOCUMENT_BYTES / MB).toFixed(1)} MiB documents as links), signature verified`,
      );
      // A workflow fetches each link, without a session; every document must match its sha256.
      const payload = JSON.parse(request.body!.toString('utf8')) as {
        documents: { sha256: string; downloadUrl: string; base64Content: null }[];
      };
      const fetchStarted = performance.now();
      let fetched = 0;
      for (const document of payload.documents) {
        const download = await fetch(document.downloadUrl);
        const bytes = Buffer.from(await download.arrayBuffer());
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        if (download.status !== 200 || sha256 !== document.sha256 || document.base64Content !== null) {
          throw new Error(`link of a document failed: HTTP ${download.status}`);
        }
        fetched += bytes.length;
      }
      const fetchSeconds = (performance.now() - fetchStarted) / 1000;
      console.log(
        `Links fetched:  ${payload.documents.length} documents, ${(fetched / MB).toFixed(1)} MiB in ${fetchSeconds.toFixed(2)} s, every sha256 matched`,
      );
    } else {
      console.log(
        `Payload:        ${(request.bytes / MB).toFixed(1)} MiB (${DOCUMENTS} x ${(DOCUMENT_BYTES / MB).toFixed(1)} MiB documents, base64), signature verified`,
      );
    }
    console.log(
      `Time:           ${seconds.toFixed(2)} s from the click to the answer (signing pass + sending pass)`,
    );
    console.log(`Throughput:     ${(request.bytes / MB / seconds).toFixed(1)} MiB/s sent`);
    console.log(`Server RSS:     ${(baseline / MB).toFixed(1)} MiB idle, ${(peak / MB).toFixed(1)} MiB peak`);
    console.log(
      `Peak RSS growth: ${growthMb.toFixed(1)} MiB (goal < ${GOAL_MB} MB): ${growthMb < GOAL_MB ? 'met' : 'NOT met'}`,
    );
    if (growthMb >= GOAL_MB) process.exitCode = 1;
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
    await receiver.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
