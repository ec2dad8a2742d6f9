/**
 * Prometheus metrics of one instance (issue 54 item 2), for an operator's collector to scrape at
 * `GET /metrics` on METRICS_PORT (metrics-server.ts). What is measured:
 *
 * - `credentialing_http_requests_total{method,route,status_code}` and
 *   `credentialing_http_request_duration_seconds{method,route}` (histogram): each answer, labelled by
 *   the route's pattern (`/api/applications/:applicationId`), never the path a caller sent, so no
 *   identifier, email or token becomes a label; requests no route matched are `route="unmatched"`.
 * - `credentialing_http_server_errors_total{method,route}`: answers with a 5xx status.
 * - `credentialing_db_pool_clients{state}` (total, idle, waiting): the instance's PostgreSQL pool;
 *   `waiting` counts requests queued for a connection.
 * - `credentialing_outbox_messages{outbox,status}`: completion notifications and status events by
 *   delivery status (pending, failed, …), read from the database at scrape time.
 * - `credentialing_scheduled_job_last_success_timestamp_seconds{job}`: when each scheduled job last
 *   finished (any instance), Unix seconds; absent for a job that never finished.
 * - `credentialing_exclusion_list_age_seconds{source}`: time since each exclusion list's newest
 *   applied import; absent for a list never imported.
 * - the prom-client defaults with the `credentialing_` prefix (process CPU, memory, event loop lag,
 *   open file descriptors, garbage collection).
 *
 * Labels hold only route patterns, methods, status codes and fixed names (job, list, outbox, status):
 * nothing a caller sent.
 */
import client from 'prom-client';
import type { DatabaseHandle } from '../db/client.ts';

declare module '../app-types.ts' {
  interface AppDeps {
    /** This instance's metrics when METRICS_PORT is set (runtime.ts), else undefined. */
    metrics?: AppMetrics;
  }
}

const PREFIX = 'credentialing_';

/** Seconds: from 5 ms to 10 s, where the product's goals sit (p99 under 100 ms, screens under 1 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface AppMetrics {
  /** The registry to serve (its `metrics()` is the exposition text). */
  registry: client.Registry;
  /**
   * Count one answer. @param route the matched route's pattern (undefined: no route matched)
   * @param seconds from the request's arrival to the answer
   */
  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void;
}

/**
 * The metrics of one instance on `database`: request counters fed by `observeRequest`, and gauges
 * read when scraped (the pool now; the outboxes, jobs and lists with one query each).
 */
export function createAppMetrics(database: DatabaseHandle): AppMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const requests = new client.Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP answers, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const durations = new client.Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from a request to its answer, seconds, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const serverErrors = new client.Counter({
    name: `${PREFIX}http_server_errors_total`,
    help: 'Answers with a 5xx status, by method and route pattern.',
    labelNames: ['method', 'route'],
    registers: [registry],
  });
  new client.Gauge({
    name: `${PREFIX}db_pool_clients`,
    help: "This instance's PostgreSQL pool: connections open (total), idle, and requests waiting for one.",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { pool } = database;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new client.Gauge({
    name: `${PREFIX}outbox_messages`,
    help: 'Completion notifications and status events, by outbox and delivery status.',
    labelNames: ['outbox', 'status'],
    registers: [registry],
    async collect() {
      const { rows } = await database.pool.query<{ outbox: string; status: string; n: number }>(
        `select 'completion_notifications' as outbox, status::text as status, count(*)::int as n
           from completion_notifications group by status
         union all
         select 'status_events', status, count(*)::int from status_events group by status`,
      );
      this.reset();
      for (const row of rows) this.set({ outbox: row.outbox, status: row.status }, row.n);
    },
  });
  new client.Gauge({
    name: `${PREFIX}scheduled_job_last_success_timestamp_seconds`,
    help: 'When each scheduled job last finished on any instance, Unix seconds.',
    labelNames: ['job'],
    registers: [registry],
    async collect() {
      const { rows } = await database.pool.query<{ job: string; at: number }>(
        `select job, extract(epoch from max(finished_at))::float8 as at
           from scheduled_job_runs where finished_at is not null group by job`,
      );
      this.reset();
      for (const row of rows) this.set({ job: row.job }, row.at);
    },
  });
  new client.Gauge({
    name: `${PREFIX}exclusion_list_age_seconds`,
    help: "Seconds since each exclusion list's newest applied import.",
    labelNames: ['source'],
    registers: [registry],
    async collect() {
      const { rows } = await database.pool.query<{ source: string; age: number }>(
        `select source, extract(epoch from now() - max(applied_at))::float8 as age
           from exclusion_imports where status = 'applied' group by source`,
      );
      this.reset();
      for (const row of rows) this.set({ source: row.source }, row.age);
    },
  });

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      const pattern = route ?? 'unmatched';
      requests.inc({ method, route: pattern, status_code: String(statusCode) });
      durations.observe({ method, route: pattern }, seconds);
      if (statusCode >= 500) serverErrors.inc({ method, route: pattern });
    },
  };
}
