/**
 * The `$export` job queue (issue 33, Bulk Data): a job survives a restart. A job left 'running' by
 * an instance that died (no session holds its advisory lock) is taken over by a worker, its partial
 * file deleted and everything written again; a queued job runs; two workers never run one job twice.
 */
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpStaff, type TestApp } from '../../tests/harness.ts';
import { registerTestClient } from '../api-clients/testing.ts';
import { approveCleanFile, reviewedFile } from '../committee/testing/decide.ts';
import { fhirExportFiles, fhirExportJobs } from '../db/schema/exports.ts';
import { exportFileKey, startExportWorker, sweepExpiredExports } from './fhir-export.service.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  const specialist = await signUpStaff(app, 'specialist');
  const { applicationId } = await reviewedFile(app, specialist);
  await approveCleanFile(app, specialist, applicationId);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('$export jobs', () => {
  it('takes over a job a dead instance left running, and runs a queued one, each once', async () => {
    const { db, storage, database } = app.runtime.deps;
    const client = await registerTestClient(app, ['system/*.read']);
    const now = new Date();
    // First, a job an instance was writing when it died: a partial file in storage, status 'running'.
    const [interrupted] = await db
      .insert(fhirExportJobs)
      .values({
        apiClientId: client.id,
        requestUrl: 'http://localhost/fhir/$export',
        types: ['Practitioner'],
        status: 'running',
        transactionTime: now,
        createdAt: now,
        startedAt: now,
      })
      .returning();
    const partialKey = exportFileKey(interrupted!.id, 'Practitioner', 2);
    await storage.put(partialKey, Readable.from(['{"partial":']), { contentType: 'application/fhir+ndjson' });
    const [queued] = await db
      .insert(fhirExportJobs)
      .values({
        apiClientId: client.id,
        requestUrl: 'http://localhost/fhir/$export?_type=Location',
        types: ['Location'],
        status: 'queued',
        transactionTime: now,
        createdAt: now,
      })
      .returning();
    // Then two workers start (the app's own is running too): each job is run once, by one of them.
    const logger = pino({ level: 'silent' });
    const workers = [1, 2].map(() =>
      startExportWorker({ db, pool: database.pool, storage, logger, pollMs: 50 }),
    );
    for (let i = 0; i < 100; i++) {
      const rows = await db.select().from(fhirExportJobs);
      if (rows.every((r) => r.status === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.all(workers.map((w) => w.stop()));
    for (const job of [interrupted!, queued!]) {
      const [row] = await db.select().from(fhirExportJobs).where(eq(fhirExportJobs.id, job.id));
      expect(row?.status).toBe('completed');
      const files = await db.select().from(fhirExportFiles).where(eq(fhirExportFiles.jobId, job.id));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ seq: 1, count: 1 });
    }
    await expect(storage.stat(partialKey)).rejects.toThrow();
  });

  it('sweeps exports finished more than the retention ago, files included; keeps newer ones (issue 52 item 3)', async () => {
    const { db, storage, database } = app.runtime.deps;
    const client = await registerTestClient(app, ['system/*.read']);
    const now = new Date();
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    // First, three finished exports: completed 25 h ago (with its file), failed 30 h ago, completed 23 h ago.
    const finished = async (status: string, completedAt: Date) => {
      const [job] = await db
        .insert(fhirExportJobs)
        .values({
          apiClientId: client.id,
          requestUrl: 'http://localhost/fhir/$export',
          types: ['Practitioner'],
          status,
          transactionTime: completedAt,
          createdAt: completedAt,
          completedAt,
        })
        .returning();
      const key = exportFileKey(job!.id, 'Practitioner', 1);
      await storage.put(key, Readable.from(['{}\n']), { contentType: 'application/fhir+ndjson' });
      await db.insert(fhirExportFiles).values({
        jobId: job!.id,
        resourceType: 'Practitioner',
        seq: 1,
        storageKey: key,
        count: 1,
      });
      return { id: job!.id, key };
    };
    const old = await finished('completed', hoursAgo(25));
    const failed = await finished('failed', hoursAgo(30));
    const recent = await finished('completed', hoursAgo(23));
    // Then the sweep at `now` with the default 24 h deletes the two older ones, rows and files.
    expect(await sweepExpiredExports({ db, storage }, now, 24)).toBe(2);
    for (const gone of [old, failed]) {
      expect(await db.select().from(fhirExportJobs).where(eq(fhirExportJobs.id, gone.id))).toEqual([]);
      await expect(storage.stat(gone.key)).rejects.toThrow();
    }
    expect(await db.select().from(fhirExportJobs).where(eq(fhirExportJobs.id, recent.id))).toHaveLength(1);
    await storage.stat(recent.key);
    // Finally, a worker whose clock is 2 h later with a 24 h retention sweeps the last one on its first tick.
    const worker = startExportWorker({
      db,
      pool: database.pool,
      storage,
      logger: pino({ level: 'silent' }),
      pollMs: 60_000,
      retentionHours: 24,
      now: () => new Date(now.getTime() + 2 * 3_600_000),
    });
    await worker.idle();
    await worker.stop();
    expect(await db.select().from(fhirExportJobs).where(eq(fhirExportJobs.id, recent.id))).toEqual([]);
    await expect(storage.stat(recent.key)).rejects.toThrow();
  });
});
