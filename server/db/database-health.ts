/**
 * Whether the database answers, as the server last saw it (issue 19 items 1 and 2). It is told by
 * requests that failed at the connection level, by the pool, by the embedded cluster's supervisor
 * and by its own cheap `select 1` probe, and it logs one line per change of state instead of one
 * per failed request:
 *
 * - `database unreachable` (error) when it goes down, with the error's code;
 * - `N requests refused while the database is unreachable` (warn) at most once per summary interval;
 * - `database back` (info) with the outage's duration and the requests refused since the last summary.
 */
import { DrizzleQueryError } from 'drizzle-orm';

/** Where the monitor writes; `info` and `error` fall back to `warn` (the pool's minimal logger). */
export interface DatabaseHealthLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info?(fields: Record<string, unknown>, message: string): void;
  error?(fields: Record<string, unknown>, message: string): void;
}

export interface DatabaseHealthOptions {
  /** Resolves when the database answers a trivial query on a new connection, rejects otherwise. */
  probe: () => Promise<unknown>;
  logger?: DatabaseHealthLogger;
  /** Milliseconds between probes; 0 (default): probe only when asked (`check()`). */
  probeIntervalMs?: number;
  /** At most one "requests refused" line per this many milliseconds (default 10 000). */
  summaryIntervalMs?: number;
  /** Port of the database server: a socket error naming it is the database's (default: none). */
  port?: number;
}

export interface DatabaseHealth {
  /** False from the first connection-level failure until a query succeeds again. */
  readonly reachable: boolean;
  /** Whether `error` (or what it wraps) means the database cannot be reached, rather than a bad query. */
  isUnavailable(error: unknown): boolean;
  /** The database is known to be down (its process exited, a probe failed); logs once per outage. */
  reportUnreachable(error: unknown): void;
  /**
   * A query failed at the connection level: probe on a new connection before saying the database
   * is down (one stale pooled connection failing is not an outage).
   */
  suspect(error: unknown): void;
  /** A request was answered 503 because of the outage: counted in the summary line, not logged itself. */
  countRefused(): void;
  /** Probe now; marks the database back (or down) by the answer. Resolves to whether it answered. */
  check(): Promise<boolean>;
  /** Stop the probe and summary timers. */
  stop(): void;
}

/** Socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not yet there (PostgreSQL appendix A): class 08
 * (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
 */
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03';
}

/** Messages of pg and pg-pool for a connection that was lost or could not be made in time. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Connection ended unexpectedly/,
];

function causesOf(error: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (value: unknown, depth: number) => {
    if (!value || typeof value !== 'object' || depth > 5) return;
    const record = value as Record<string, unknown>;
    found.push(record);
    visit(record.cause, depth + 1);
    // Connecting to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with both.
    if (Array.isArray(record.errors)) for (const inner of record.errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found;
}

/**
 * Whether `error` means the database cannot be reached. A socket error (ECONNREFUSED …) counts
 * when it comes through Drizzle or names the database's port: the same codes from SMTP or object
 * storage are not the database's.
 */
export function isDatabaseUnavailableError(error: unknown, databasePort?: number): boolean {
  const chain = causesOf(error);
  // DrizzleQueryError keeps the name "Error": recognise it by class.
  const throughDrizzle = chain.some((e) => e instanceof DrizzleQueryError);
  return chain.some((e) => {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (isUnavailableSqlState(code) && (typeof e.severity === 'string' || typeof e.routine === 'string')) {
      return true;
    }
    if (DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return true;
    return (
      SOCKET_CODES.has(code) && (throughDrizzle || (databasePort !== undefined && e.port === databasePort))
    );
  });
}

/**
 * Whether `error` is a socket error (ECONNRESET, ECONNREFUSED ...) anywhere in its causes: for code
 * that talks only to the database, where such an error can only be the database's (a pooled
 * connection made by `db.transaction()` fails outside Drizzle's query wrapper and names no port).
 */
export function isSocketError(error: unknown): boolean {
  return causesOf(error).some((e) => typeof e.code === 'string' && SOCKET_CODES.has(e.code));
}

function codeOf(error: unknown): string | undefined {
  for (const e of causesOf(error)) if (typeof e.code === 'string') return e.code.slice(0, 60);
  return undefined;
}

/** A monitor of one database; see the file comment. Timers are unref'd: they never keep a process up. */
export function createDatabaseHealth(options: DatabaseHealthOptions): DatabaseHealth {
  const logger = options.logger;
  const summaryIntervalMs = options.summaryIntervalMs ?? 10_000;
  let reachable = true;
  let downSince = 0;
  let refusedSinceSummary = 0;
  let summaryTimer: NodeJS.Timeout | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  let probing: Promise<boolean> | undefined;
  let stopped = false;
  // Counts the outages reported. A probe's answer is from when its connection was made: one that
  // began before the latest outage was reported (a `select 1` answered just before a kill -9) says
  // nothing about the database now, and must not log it back.
  let outages = 0;

  const info = (fields: Record<string, unknown>, message: string) =>
    (logger?.info ?? logger?.warn)?.call(logger, fields, message);
  const error = (fields: Record<string, unknown>, message: string) =>
    (logger?.error ?? logger?.warn)?.call(logger, fields, message);

  function flushSummary() {
    summaryTimer = undefined;
    if (refusedSinceSummary === 0) return;
    logger?.warn(
      { refusedRequests: refusedSinceSummary },
      reachable
        ? // The probe got through: the pool had no connection for them in time (busy, or stale ones).
          `${refusedSinceSummary} requests refused: no database connection within the timeout`
        : `${refusedSinceSummary} requests refused while the database is unreachable`,
    );
    refusedSinceSummary = 0;
  }

  function markReachable() {
    if (reachable) return;
    reachable = true;
    if (summaryTimer) clearTimeout(summaryTimer);
    summaryTimer = undefined;
    const outageMs = Date.now() - downSince;
    info(
      { outageMs, refusedRequests: refusedSinceSummary },
      `database back after ${(outageMs / 1000).toFixed(1)} s`,
    );
    refusedSinceSummary = 0;
  }

  const health: DatabaseHealth = {
    get reachable() {
      return reachable;
    },
    isUnavailable: (err) => isDatabaseUnavailableError(err, options.port),
    reportUnreachable(err) {
      if (!reachable || stopped) return;
      reachable = false;
      outages++;
      downSince = Date.now();
      error({ code: codeOf(err) }, 'database unreachable');
      // Requests stop finding out once it is back: probe until then, even without a periodic probe.
      scheduleProbe();
    },
    suspect(err) {
      if (reachable && !stopped && isDatabaseUnavailableError(err, options.port)) void health.check();
    },
    countRefused() {
      refusedSinceSummary++;
      if (!summaryTimer && !stopped) summaryTimer = setTimeout(flushSummary, summaryIntervalMs).unref();
    },
    check() {
      const outagesBefore = outages;
      probing ??= options
        .probe()
        .then(
          () => {
            if (outages !== outagesBefore) return false; // Stale: the next probe decides.
            markReachable();
            return true;
          },
          (err: unknown) => {
            // A query error that is not about reaching the server (e.g. permissions) is not an outage.
            if (isDatabaseUnavailableError(err, options.port)) health.reportUnreachable(err);
            return false;
          },
        )
        .finally(() => {
          probing = undefined;
        });
      return probing;
    },
    stop() {
      stopped = true;
      if (summaryTimer) clearTimeout(summaryTimer);
      if (probeTimer) clearTimeout(probeTimer);
      summaryTimer = probeTimer = undefined;
    },
  };

  /** While down, probe every interval (1 s without a configured one); while up, only if configured. */
  function scheduleProbe() {
    if (stopped || probeTimer) return;
    const interval = options.probeIntervalMs || (reachable ? 0 : 1000);
    if (!interval) return;
    probeTimer = setTimeout(() => {
      probeTimer = undefined;
      void health.check().finally(scheduleProbe);
    }, interval).unref();
  }
  scheduleProbe();
  return health;
}

/**
 * `logger`, except that its error lines go to debug while `health` says the database is down:
 * for libraries that log each failed request themselves (better-auth logs INTERNAL_SERVER_ERROR for
 * every session it cannot read), whose requests the error handler already counts as refused.
 */
export function quietWhileUnreachable<L extends { error: unknown; debug: unknown }>(
  logger: L,
  health: Pick<DatabaseHealth, 'reachable'>,
): L {
  return new Proxy(logger, {
    get(target, property, receiver) {
      if (property === 'error' && !health.reachable) return Reflect.get(target, 'debug', receiver);
      return Reflect.get(target, property, receiver);
    },
  });
}
