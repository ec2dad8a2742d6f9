/**
 * `npm run bench:uploads` (issue 4): does the server's memory stay flat when many large uploads
 * arrive at once?
 *
 * The real server (createRuntime: Fastify, auth, the documents routes, the configured storage driver,
 * local by default) runs in a CHILD process so its resident memory is measured alone: the parent reads
 * VmRSS from /proc/<pid>/status every 50 ms. Database: a fresh database on DATABASE_URL's server
 * (dropped afterwards), else an embedded PostgreSQL in a temporary DATA_DIR (its own processes, not
 * counted). The parent signs a provider up, confirms the address from the mail the child forwards,
 * signs in, starts an application, warms up with one upload of each size, then sends:
 *
 *   1. 20 concurrent uploads of 10 MB - 1 byte (valid PDF header), then
 *   2. 20 concurrent uploads of 1 MB,
 *
 * and prints the baseline RSS, the peak RSS of each run, and p50/p95 of the upload times (from
 * sending the request to the last byte of the 201 answer), in MiB and milliseconds. With streaming
 * uploads the peak must not grow with file size x concurrency (20 x 10 MB = 200 MB in flight).
 * Each run uploads as fresh providers (one per UPLOADS.perUser files): the upload rate limit is per
 * provider, and the bytes in flight are what is measured, not who sends them.
 *
 * Usage: `npm run bench:uploads`; BENCH_CONCURRENCY (default 20) changes the number of files;
 * BENCH_STORAGE=s3 stores into an s3rver started by the parent (so it is not counted) instead of disk.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { UPLOADS } from '../server/security/rate-limits.ts';
import { startTestS3Server } from '../server/storage/s3rver-test-server.ts';
import { pdfOfSize } from '../tests/fixtures/files.ts';
import { HttpClient, linkFromMessages, signUpConfirmSignIn } from '../tests/http-client.ts';
import { createDatabaseOn, percentile, rssBytes } from './lib.ts';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'bench uploads passphrase 2026!';
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const MiB = 1024 * 1024;

type ChildMessage = { type: 'ready'; port: number } | { type: 'mail'; to: string; text: string };

// ---------------------------------------------------------------------------------------------
// Child: the server.
// ---------------------------------------------------------------------------------------------

async function runServer() {
  const { loadEnv } = await import('../server/env.ts');
  const { createRuntime } = await import('../server/runtime.ts');
  const runtime = await createRuntime({
    env: loadEnv({
      ...process.env,
      NODE_ENV: 'test',
      APP_URL: ORIGIN,
      LOG_LEVEL: 'warn',
      AUTH_IP_RATE_LIMIT: 'false',
    }),
    logger: pino({ level: 'warn' }),
    mailer: {
      send: async (message) => void process.send?.({ type: 'mail', to: message.to, text: message.text }),
    },
    serveWeb: false,
  });
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  const address = runtime.app.server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'stop') return;
    await runtime.close();
    process.exit(0);
  });
}

// ---------------------------------------------------------------------------------------------
// Parent: the clients and the measurements.
// ---------------------------------------------------------------------------------------------

/** A file of `size` bytes that file-type recognises as a PDF, as an upload body part. */
function pdfBlob(size: number): Blob {
  return new Blob([new Uint8Array(pdfOfSize(size))], { type: 'application/pdf' });
}

/** Upload `file` as document number `index`; resolves with the milliseconds to the 201 answer. */
type Upload = (file: Blob, index: number) => Promise<number>;

/**
 * A new provider, signed up (confirmed through the mail the child sends over IPC into `mail`) and
 * signed in, with a new application; returns its upload function.
 * @throws Error when a step of the sign-up fails, or (from the upload) on any answer but 201
 */
async function newUploader(baseUrl: string, mail: { to: string; text: string }[]): Promise<Upload> {
  const session = new HttpClient({ baseUrl, origin: ORIGIN });
  await signUpConfirmSignIn(
    session,
    {
      email: `bench.${randomBytes(4).toString('hex')}@bench.example`,
      password: PASSWORD,
      firstName: 'Bench',
      lastName: 'Provider',
    },
    linkFromMessages(mail),
  );
  const { body: application } = await session.json<{ id: string }>('POST', '/api/applications', {});
  return async (file, index) => {
    const form = new FormData();
    form.append('documentType', 'other');
    form.append('file', file, `bench-${index}.pdf`);
    const started = performance.now();
    const response = await session.request('POST', `/api/applications/${application.id}/documents`, form);
    const text = await response.text();
    if (response.status !== 201) throw new Error(`upload ${index} answered ${response.status}: ${text}`);
    return performance.now() - started;
  };
}

async function main() {
  // The database: a fresh one on DATABASE_URL's server, or embedded (DATABASE_URL unset in the child).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cred-bench-uploads-'));
  const database = process.env.DATABASE_URL
    ? await createDatabaseOn(process.env.DATABASE_URL, 'bench_uploads')
    : undefined;

  const s3 = process.env.BENCH_STORAGE === 's3' ? await startTestS3Server() : undefined;
  const child = fork(fileURLToPath(import.meta.url), ['--server'], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...s3?.env, DATA_DIR: dataDir, DATABASE_URL: database?.url ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const mail: { to: string; text: string }[] = [];
  const pid = child.pid!;

  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'mail') mail.push(message);
        if (message.type === 'ready') resolve(message.port);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    // Warm-up: one upload of each size, so the first run does not pay for lazy initialisation.
    const warmUp = await newUploader(baseUrl, mail);
    await warmUp(pdfBlob(MiB), 0);
    await warmUp(pdfBlob(10 * MiB - 1), 0);
    await new Promise((r) => setTimeout(r, 1000));
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) {
      idle.push(rssBytes(pid) / MiB);
      await new Promise((r) => setTimeout(r, 50));
    }
    const baseline = idle.sort((a, b) => a - b)[5]!;

    const runs: { label: string; size: number }[] = [
      { label: `${CONCURRENCY} x 10 MB - 1 B`, size: 10 * MiB - 1 },
      { label: `${CONCURRENCY} x 1 MB`, size: MiB },
    ];
    const results: { label: string; mib: number; peak: number; p50: number; p95: number; wall: number }[] =
      [];
    for (const run of runs) {
      const file = pdfBlob(run.size);
      // The upload rate limit (UPLOADS.perUser a minute) counts per provider: each run spreads its
      // uploads over fresh providers, signed in before the measurement starts.
      const uploaders = await Promise.all(
        Array.from({ length: Math.ceil(CONCURRENCY / UPLOADS.perUser) }, () => newUploader(baseUrl, mail)),
      );
      let peak = rssBytes(pid) / MiB;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssBytes(pid) / MiB);
      }, 50);
      const started = performance.now();
      // A failed upload must not leave the sampler reading a server that main's cleanup stops.
      const times = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) => uploaders[i % uploaders.length]!(file, i + 1)),
      ).finally(() => clearInterval(sampler));
      const wall = performance.now() - started;
      peak = Math.max(peak, rssBytes(pid) / MiB);
      times.sort((a, b) => a - b);
      results.push({
        label: run.label,
        mib: (run.size * CONCURRENCY) / MiB,
        peak,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        wall,
      });
      await new Promise((r) => setTimeout(r, 1000));
    }

    const storage = s3 ? 's3 (s3rver)' : (process.env.STORAGE_DRIVER ?? 'local');
    console.log(
      `\nUploads benchmark: server in its own process (pid ${pid}), storage driver ${storage}, ${os.cpus().length} CPUs, Node ${process.version}`,
    );
    console.log(`Server baseline RSS (idle, after warm-up): ${baseline.toFixed(1)} MiB\n`);
    console.log(
      'run                     in flight   peak RSS   peak - baseline   p50 upload   p95 upload   wall',
    );
    for (const r of results) {
      console.log(
        `${r.label.padEnd(22)}  ${`${r.mib.toFixed(0)} MiB`.padStart(9)}  ${`${r.peak.toFixed(1)} MiB`.padStart(10)}  ${`+${(r.peak - baseline).toFixed(1)} MiB`.padStart(16)}  ${`${r.p50.toFixed(0)} ms`.padStart(11)}  ${`${r.p95.toFixed(0)} ms`.padStart(11)}  ${`${r.wall.toFixed(0)} ms`.padStart(8)}`,
      );
    }
    const [big, small] = results;
    console.log(
      `\nPeak growth at 10x the bytes in flight: ${(big!.peak - baseline).toFixed(1)} MiB vs ${(small!.peak - baseline).toFixed(1)} MiB ` +
        `(buffering whole files would need about ${big!.mib.toFixed(0)} MiB more).`,
    );
  } finally {
    // A child that already exited (a failed start, a crash) has no IPC channel left to stop it.
    if (child.exitCode === null && child.signalCode === null) {
      child.send({ type: 'stop' });
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await database?.drop().catch(() => {});
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--server')) {
  runServer().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
