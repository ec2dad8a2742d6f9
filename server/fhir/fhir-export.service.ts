/**
 * Bulk Data `$export` jobs (issue 33 item 3; FHIR Bulk Data Access IG v2, system level): the job
 * rows (`fhir_export_jobs`), the NDJSON files they write (`fhir_export_files`, objects in
 * `deps.storage` under `fhir-export/<jobId>/`), and the worker that runs them.
 *
 * The job table is the queue, as the product's other background work (the completion outbox,
 * notifications/completion-delivery.ts; status events): a kicked-off job is a 'queued' row, so it
 * survives a restart. A worker on every instance polls for 'queued' or 'running' jobs (and is woken
 * at once by a kick-off on its own instance) and runs one holding a PostgreSQL session advisory lock
 * on a dedicated connection: only one instance runs a job, and a job whose instance died (its
 * connection, and so its lock, gone) is taken over and run again from the start (its partial files
 * are deleted first). pg-boss is installed but used nowhere in the product; the table with a lock
 * needs no second queue schema.
 *
 * Memory is flat in the number of providers: resources are read in batches of
 * EXPORT_BATCH providers (credentialedProviderBatches) and streamed line by line into
 * the object (`storage.put` consumes a stream); a file holds at most MAX_LINES_PER_FILE resources.
 * Every resource is as of the job's `transactionTime` (the credential state at that instant).
 */
import { Readable } from 'node:stream';
import type { Resource } from '@medplum/fhirtypes';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type pg from 'pg';
import type { FhirResourceType } from '../../domain/api-clients.ts';
import type { Database } from '../db/client.ts';
import type { DatabaseHealth } from '../db/database-health.ts';
import { fhirExportFiles, fhirExportJobs } from '../db/schema/exports.ts';
import { credentialedProviderBatches } from '../directory/credentialed-providers.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { checklistItems, groupPage } from './fhir-read.service.ts';
import {
  toLocation,
  toOrganization,
  toPractitioner,
  toPractitionerRole,
  toVerificationResult,
} from './fhir-resources.ts';

/** Resources per NDJSON file; a type with more is split into files 1, 2, ... */
export const MAX_LINES_PER_FILE = 100_000;
/** Providers read per batch (6 queries a batch; one batch of facts in memory at a time). */
export const EXPORT_BATCH = 1000;
/** How often an idle worker looks for jobs, in ms. */
export const EXPORT_POLL_MS = 2_000;
/** Namespace of the jobs' advisory locks (the second key is hashtext(job id)). */
const LOCK_NAMESPACE = 33_003;

/** The object key of one NDJSON file. */
export function exportFileKey(jobId: string, type: string, seq: number): string {
  return `fhir-export/${jobId}/${type}-${seq}.ndjson`;
}

/** What the worker logs through (pino's or Fastify's logger). */
export interface ExportLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Thrown inside a run when the job was cancelled (DELETE of its status URL). */
class ExportCancelled extends Error {}
/** Thrown inside a run when this instance stops: the job stays 'running' for a later run to redo. */
class ExportInterrupted extends Error {}

type Job = typeof fhirExportJobs.$inferSelect;

/**
 * Every resource of `type` in the export, in order, as NDJSON lines (with the newline). Reads one
 * batch at a time; checks between batches that the job is still wanted (`stillRunning`).
 */
async function* ndjsonLines(
  db: Database,
  job: Job,
  type: FhirResourceType,
  stillRunning: () => Promise<boolean>,
): AsyncGenerator<string> {
  const now = job.transactionTime;
  const since = job.since ?? undefined;
  const line = (r: Resource) => `${JSON.stringify(r)}\n`;
  if (type === 'Organization') {
    let after: string | undefined;
    for (;;) {
      const groups = await groupPage(db, { now, after, limit: 500, updatedSince: since });
      for (const g of groups) yield line(toOrganization(g));
      if (groups.length < 500) return;
      after = groups[groups.length - 1]!.groupNpi;
      if (!(await stillRunning())) throw new ExportCancelled();
    }
  }
  // VerificationResult's `_since` is its item's change; the provider-derived types' their provider's.
  const batches = credentialedProviderBatches(db, {
    now,
    batchSize: EXPORT_BATCH,
    updatedSince: type === 'VerificationResult' ? undefined : since,
  });
  for await (const providers of batches) {
    if (type === 'Practitioner') for (const p of providers) yield line(toPractitioner(p));
    else if (type === 'PractitionerRole') {
      for (const p of providers) for (const l of p.practiceLocations) yield line(toPractitionerRole(p, l));
    } else if (type === 'Location') {
      for (const p of providers) for (const l of p.practiceLocations) yield line(toLocation(p, l));
    } else {
      const items = await checklistItems(
        db,
        providers.map((p) => p.applicationId),
        { updatedSince: since },
      );
      for (const p of providers)
        for (const i of items.get(p.applicationId) ?? []) yield line(toVerificationResult(p, i));
    }
    if (!(await stillRunning())) throw new ExportCancelled();
  }
}

/** Run `job` to its end: write every type's files, then mark it completed (or failed). */
export async function runExportJob(
  deps: { db: Database; storage: ObjectStorage; logger: ExportLogger },
  job: Job,
  options: { now?: () => Date; interrupted?: () => boolean } = {},
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { db, storage } = deps;
  await removeExportFiles(db, storage, job.id);
  const [started] = await db
    .update(fhirExportJobs)
    .set({ status: 'running', startedAt: now(), error: null })
    .where(and(eq(fhirExportJobs.id, job.id), inArray(fhirExportJobs.status, ['queued', 'running'])))
    .returning();
  if (!started) return;
  const stillRunning = async () => {
    if (options.interrupted?.()) throw new ExportInterrupted();
    const [row] = await db
      .select({ status: fhirExportJobs.status })
      .from(fhirExportJobs)
      .where(eq(fhirExportJobs.id, job.id));
    return row?.status === 'running';
  };
  try {
    for (const type of job.types as FhirResourceType[]) {
      const lines = ndjsonLines(db, job, type, stillRunning)[Symbol.asyncIterator]();
      let exhausted = false;
      for (let seq = 1; !exhausted; seq++) {
        let count = 0;
        const body = Readable.from(
          (async function* () {
            while (count < MAX_LINES_PER_FILE) {
              const next = await lines.next();
              if (next.done) {
                exhausted = true;
                return;
              }
              count++;
              yield next.value;
            }
          })(),
        );
        const key = exportFileKey(job.id, type, seq);
        await storage.put(key, body, { contentType: 'application/fhir+ndjson' });
        if (count === 0) {
          // Bulk Data IG: a type with no resources has no output entry.
          await storage.delete(key);
          break;
        }
        await db
          .insert(fhirExportFiles)
          .values({ jobId: job.id, resourceType: type, seq, storageKey: key, count });
      }
    }
    const [done] = await db
      .update(fhirExportJobs)
      .set({ status: 'completed', completedAt: now() })
      .where(and(eq(fhirExportJobs.id, job.id), eq(fhirExportJobs.status, 'running')))
      .returning({ id: fhirExportJobs.id });
    if (!done) await removeExportFiles(db, storage, job.id);
  } catch (error) {
    if (error instanceof ExportInterrupted) return;
    if (error instanceof ExportCancelled) {
      await removeExportFiles(db, storage, job.id);
      return;
    }
    deps.logger.error({ err: error, jobId: job.id }, 'FHIR export failed');
    await db
      .update(fhirExportJobs)
      .set({
        status: 'failed',
        completedAt: now(),
        error: 'The export failed on the server. Start a new export.',
      })
      .where(eq(fhirExportJobs.id, job.id));
    await removeExportFiles(db, storage, job.id).catch(() => {});
  }
}

/** Delete a job's files: the objects, then their rows. */
export async function removeExportFiles(db: Database, storage: ObjectStorage, jobId: string): Promise<void> {
  const files = await db
    .select({ key: fhirExportFiles.storageKey })
    .from(fhirExportFiles)
    .where(eq(fhirExportFiles.jobId, jobId));
  for (const f of files) await storage.delete(f.key);
  // A file being written when the process died has no row yet: its key is derived.
  for await (const object of storage.list(`fhir-export/${jobId}/`)) await storage.delete(object.key);
  await db.delete(fhirExportFiles).where(eq(fhirExportFiles.jobId, jobId));
}

/** How often a worker sweeps expired exports, in milliseconds. */
export const EXPORT_SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Delete the exports that finished (completed, failed or cancelled) more than `retentionHours`
 * before `now`: their files in storage, their file rows and the job row, so the status URL answers
 * 404 (Bulk Data IG 2.0 lets a server remove files after a period it states; issue 52 item 3).
 * Idempotent, so instances may sweep at once. Returns how many exports were deleted.
 */
export async function sweepExpiredExports(
  deps: { db: Database; storage: ObjectStorage },
  now: Date,
  retentionHours: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionHours * 3_600_000);
  const expired = await deps.db
    .select({ id: fhirExportJobs.id })
    .from(fhirExportJobs)
    .where(
      and(
        inArray(fhirExportJobs.status, ['completed', 'failed', 'cancelled']),
        lt(fhirExportJobs.completedAt, cutoff),
      ),
    )
    .limit(500);
  for (const job of expired) {
    await removeExportFiles(deps.db, deps.storage, job.id);
    await deps.db.delete(fhirExportJobs).where(eq(fhirExportJobs.id, job.id));
  }
  return expired.length;
}

/** The worker of one instance: `wake()` after a kick-off, `stop()` on close. */
export interface ExportWorker {
  wake(): void;
  stop(): Promise<void>;
  /** Resolves when no job is waiting or running on this instance (tests). */
  idle(): Promise<void>;
}

/**
 * Start polling for export jobs every `pollMs` (EXPORT_POLL_MS). One job at a time per instance;
 * each under its advisory lock on a dedicated connection of `pool`. Every EXPORT_SWEEP_EVERY_MS it
 * also sweeps the exports finished more than `retentionHours` ago (`sweepExpiredExports`).
 */
export function startExportWorker(deps: {
  db: Database;
  pool: pg.Pool;
  storage: ObjectStorage;
  logger: ExportLogger;
  /** The database's health (issue 19): while it is unreachable the monitor speaks, not each tick. */
  health?: Pick<DatabaseHealth, 'isUnavailable' | 'suspect'>;
  pollMs?: number;
  /** FHIR_EXPORT_RETENTION_HOURS: finished exports older than this are swept (default 24). */
  retentionHours?: number;
  /** The clock (tests); default the system's. */
  now?: () => Date;
}): ExportWorker {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  let lastSweep = 0;
  const runOnce = async () => {
    const now = deps.now?.() ?? new Date();
    if (now.getTime() - lastSweep >= EXPORT_SWEEP_EVERY_MS) {
      lastSweep = now.getTime();
      const swept = await sweepExpiredExports(deps, now, deps.retentionHours ?? 24);
      if (swept > 0) deps.logger.info({ swept }, 'FHIR exports past their retention deleted');
    }
    const candidates = await deps.db
      .select()
      .from(fhirExportJobs)
      .where(inArray(fhirExportJobs.status, ['queued', 'running']))
      .orderBy(asc(fhirExportJobs.createdAt))
      .limit(20);
    for (const job of candidates) {
      if (stopped) return;
      const client = await deps.pool.connect();
      try {
        const locked = await client.query<{ ok: boolean }>(
          'select pg_try_advisory_lock($1, hashtext($2)) as ok',
          [LOCK_NAMESPACE, job.id],
        );
        if (!locked.rows[0]?.ok) continue;
        try {
          // Re-read under the lock: another instance may have finished it meanwhile.
          const [current] = await deps.db.select().from(fhirExportJobs).where(eq(fhirExportJobs.id, job.id));
          if (current && (current.status === 'queued' || current.status === 'running')) {
            await runExportJob(deps, current, { interrupted: () => stopped });
          }
        } finally {
          await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_NAMESPACE, job.id]);
        }
      } finally {
        client.release();
      }
    }
  };

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await runOnce().catch((error) => {
          if (deps.health?.isUnavailable(error)) deps.health.suspect(error);
          else deps.logger.warn({ err: error }, 'FHIR export worker tick failed');
        });
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };

  timer = setInterval(tick, deps.pollMs ?? EXPORT_POLL_MS);
  timer.unref();
  tick();
  return {
    wake: tick,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A job in flight stops at its next batch and is left 'running': another instance (or this one
      // after a restart) takes it over and writes it again from the start.
      await running;
    },
  };
}
