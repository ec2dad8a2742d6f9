/** Helpers shared by the benchmarks (this file is not a benchmark: run-all only runs *.bench.ts). */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';

/** The password of the providers the load benchmarks sign up (bench:api, bench:cluster). */
export const BENCH_PASSWORD = 'bench provider passphrase 2026!';

/** The part of autocannon 9's programmatic API the benchmarks use (the package ships no types). */
export interface AutocannonClient {
  setHeaders(headers: Record<string, string>): void;
  setRequests(requests: { method: string; path: string; headers: Record<string, string> }[]): void;
}
/** autocannon's result: requests per second (average), latency in ms, and counts. */
export interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
/** Runs `connections` connections against `url` (one or several, taken in turn) for `duration` s. */
export const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string | string[];
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  setupClient?: (client: AutocannonClient) => void;
}) => Promise<AutocannonResult>;

/** The nearest-rank `p`th percentile (0-100) of `sorted`, which is in ascending order. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Resident set size of `pid` in bytes, from VmRSS in /proc/<pid>/status (Linux). */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Peak resident set size of `pid` in bytes, from VmHWM in /proc/<pid>/status (Linux). Writing '5' to
 * /proc/<pid>/clear_refs resets it (see resetPeakRss).
 */
export function peakRssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/** Reset this process's peak RSS to its current RSS (Linux 4.0+), so a later peak measures one step. */
export function resetPeakRss(): void {
  fs.writeFileSync('/proc/self/clear_refs', '5');
}

/**
 * A new empty database named `<prefix>_<random hex>` on the server of `adminUrl` (a URL whose role may
 * create databases); `drop()` removes it.
 */
export async function createDatabaseOn(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
