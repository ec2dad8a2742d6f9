/**
 * Exclusion screening routes (issue 30, decision 027; contract in domain/api/screening.ts), for
 * administrators (permission review:application:any):
 * - GET    /api/admin/exclusions                       sources, their lists and staleness; staged imports
 * - POST   /api/admin/exclusions/imports               multipart `file` (at most 300 MB): stage ('Import')
 * - POST   /api/admin/exclusions/imports/:id/apply     apply ('Apply'), then screen everyone
 * - DELETE /api/admin/exclusions/imports/:id           discard a staged import
 * - GET    /api/admin/screening-matches                the 'Screening Matches' queue
 * - POST   /api/admin/screening-matches/:id/decision   'Confirm Match' | 'Not the Same Person' | 'Accept Change'
 * The same import and apply run from `npm run exclusions:import -- FILE [--yes]`.
 */

import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  applyImportBodySchema,
  applyImportResultSchema,
  exclusionsOverviewSchema,
  findingDecisionBodySchema,
  screeningQueueSchema,
  stagedImportSchema,
} from '../../domain/api/screening.ts';
import { AppError, errorResponseSchema, errorResponses } from '../../domain/app-error.ts';
import { statesWithList } from '../../domain/screening/coverage.ts';
import { exclusionSources } from '../../domain/screening/exclusion-formats.ts';
import { isStaleList } from '../../domain/screening/staleness.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission, staffRoutePermission } from '../auth/actor.ts';
import { exclusionEntries } from '../db/schema/screening.ts';
import { assertStorableFileName } from '../http/unstorable-text.ts';
import { claimTempFile, sweepTempFiles } from '../storage/temp-files.ts';
import { appliedLists, statesWithoutListInUse } from './coverage.ts';
import {
  applyExclusionImport,
  discardExclusionImport,
  sourceLabel,
  stagedImports,
  stageExclusionFile,
} from './exclusion-imports.ts';
import { decideFinding, screeningQueue } from './findings.ts';
import { runScreeningMonitor } from './monitoring.ts';

/** Largest list file accepted, bytes (the LEIE full file is ~15 MB; SAM.gov's V2 extract ~90 MB). */
export const EXCLUSION_FILE_MAX_BYTES = 300 * 1024 * 1024;

const importIdParams = z.object({ id: z.coerce.number().int().positive() });
const findingIdParams = z.object({ id: z.uuid() });

/** Where an upload is spooled while it is read (DATA_DIR/tmp/exclusion-uploads, 0700). */
export function exclusionSpoolDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'exclusion-uploads');
}
/** Spool files' name prefix. */
const SPOOL_PREFIX = 'exclusions-';

export async function screeningRoutes(app: AppInstance) {
  // Uploads are spooled to a folder of their own: a file left by a process killed mid-upload is swept
  // at the next start (server/storage/temp-files.ts: never a file in use, also with other instances).
  const spoolDir = exclusionSpoolDir(app.deps.env.dataDir);
  fs.mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  await sweepTempFiles(spoolDir, { prefix: SPOOL_PREFIX, recursive: false }).catch((error: unknown) =>
    app.log.warn({ reason: (error as Error).message }, 'could not sweep the exclusion upload spool'),
  );
  await app.register(multipart, {
    limits: { fileSize: EXCLUSION_FILE_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 20 },
    throwFileSizeLimit: true,
  });
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
  });
  const monitorDeps = (logger: AppInstance['log']) => ({
    db: app.deps.db,
    mailer: app.deps.mailer,
    appUrl: app.deps.env.appUrl,
    logger,
  });

  app.get(
    '/api/admin/exclusions',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "Exclusion list sources, their current lists and staleness, staged imports (issue 30), and the providers' states without a list (issue 51)",
        tags: ['screening'],
        response: { 200: exclusionsOverviewSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async () => {
      const db = app.deps.db;
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const [counts, lists, staged, statesWithoutList] = await Promise.all([
        db
          .select({
            source: exclusionEntries.source,
            rows: count(),
            active: sql<number>`count(*) filter (where ${exclusionEntries.reinstatementDate} is null or ${exclusionEntries.reinstatementDate} > ${today}::date)::int`,
          })
          .from(exclusionEntries)
          .where(eq(exclusionEntries.staged, false))
          .groupBy(exclusionEntries.source),
        appliedLists(db),
        stagedImports(db),
        statesWithoutListInUse(db),
      ]);
      return {
        sources: exclusionSources.map((source) => {
          const c = counts.find((x) => x.source === source.id);
          const l = lists.find((x) => x.source === source.id);
          return {
            id: source.id,
            label: source.label,
            state: source.state,
            publisher: source.publisher,
            url: source.url,
            rows: c?.rows ?? 0,
            activeRows: Number(c?.active ?? 0),
            lastApplied: l
              ? {
                  appliedAt: l.appliedAt.toISOString(),
                  fileName: l.fileName,
                  kind: l.kind,
                  rowCount: l.fileRows,
                }
              : null,
            stale: isStaleList(l?.appliedAt ?? null, now),
          };
        }),
        staged,
        stateCoverage: { statesWithList: [...statesWithList].sort(), statesWithoutList },
      };
    },
  );

  app.post(
    '/api/admin/exclusions/imports',
    {
      config: { access: 'admin' },
      bodyLimit: EXCLUSION_FILE_MAX_BYTES + 64 * 1024,
      schema: {
        summary: 'Read an exclusion list file and stage it (Import); nothing changes until Apply',
        description:
          'multipart/form-data, one part `file`: OIG LEIE UPDATED.csv / YYMMEXCL.csv / YYMMREIN.csv, the SAM.gov V2 public extract (CSV or its ZIP), or a state Medicaid list (the New York XLSX too). The source is detected from the header, the kind from the rows (and the name for YYMMEXCL.csv). Skipped rows are listed by line.',
        tags: ['screening'],
        consumes: ['multipart/form-data'],
        response: { 200: stagedImportSchema, ...errorResponses, 413: errorResponseSchema },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      if (!request.isMultipart()) {
        throw new AppError(
          'bad_request',
          'Send the list file as multipart/form-data in the part named "file".',
        );
      }
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw new AppError('bad_request', 'Choose the exclusion list file to import.');
      }
      assertStorableFileName(part);
      const spool = claimTempFile(spoolDir, SPOOL_PREFIX, '.csv');
      try {
        await pipeline(part.file, fs.createWriteStream(spool.file, { mode: 0o600 })).catch(
          (error: unknown) => {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated) {
              throw new AppError(
                'payload_too_large',
                'The file is larger than 300 MB: it is not an exclusion list.',
              );
            }
            throw error;
          },
        );
        if (part.file.truncated) {
          throw new AppError(
            'payload_too_large',
            'The file is larger than 300 MB: it is not an exclusion list.',
          );
        }
        const staged = await stageExclusionFile(app.deps.db, spool.file, {
          fileName: part.filename,
          stagedBy: actor.userId,
          now: new Date(),
          // An archive's text is unpacked beside the upload, so the start-up sweep covers it too.
          unpack: { dir: spoolDir, prefix: SPOOL_PREFIX },
        });
        request.log.info(
          {
            importId: staged.id,
            source: staged.source,
            kind: staged.kind,
            rows: staged.rowCount,
            skipped: staged.skippedCount,
          },
          'exclusion list staged',
        );
        return staged;
      } finally {
        await fs.promises.rm(spool.file, { force: true });
        spool.release();
      }
    },
  );

  app.post(
    '/api/admin/exclusions/imports/:id/apply',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Apply a staged import to its list, then screen every application under review and approved',
        tags: ['screening'],
        params: importIdParams,
        body: applyImportBodySchema,
        response: { 200: applyImportResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const { id } = request.params as z.infer<typeof importIdParams>;
      const body = request.body as z.infer<typeof applyImportBodySchema>;
      const applied = await applyExclusionImport(app.deps.db, id, {
        appliedBy: actor.userId,
        reason: body.reason,
        now: new Date(),
        ipAddress: actor.ipAddress,
      });
      const run = await runScreeningMonitor(monitorDeps(request.log), new Date(), 'apply');
      return {
        ...applied,
        sourceLabel: sourceLabel(applied.source),
        screened: run.screened,
        newMatches: run.newMatches.length,
        newPossibleMatches: run.newPossibleMatches,
      };
    },
  );

  app.delete(
    '/api/admin/exclusions/imports/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Discard a staged import (its rows go; the lists are unchanged)',
        tags: ['screening'],
        params: importIdParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const { id } = request.params as z.infer<typeof importIdParams>;
      await discardExclusionImport(app.deps.db, id, { userId: actor.userId, ipAddress: actor.ipAddress });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/admin/screening-matches',
    {
      config: { access: 'admin' },
      schema: {
        summary: "The 'Screening Matches' queue: open possible matches and findings whose list row ended",
        tags: ['screening'],
        response: { 200: screeningQueueSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async () => ({ findings: await screeningQueue(app.deps.db) }),
  );

  app.post(
    '/api/admin/screening-matches/:id/decision',
    {
      config: { access: 'admin', fileDuty: { duty: 'decide_screening_match', file: 'screening_finding' } },
      schema: {
        summary: "'Confirm Match', 'Not the Same Person' or 'Accept Change' on one finding, with a reason",
        tags: ['screening'],
        params: findingIdParams,
        body: findingDecisionBodySchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, staffRoutePermission(request, 'review:application:any'));
      const { id } = request.params as z.infer<typeof findingIdParams>;
      const body = request.body as z.infer<typeof findingDecisionBodySchema>;
      await decideFinding(app.deps.db, id, {
        decision: body.decision,
        reason: body.reason,
        by: actor.userId,
        ipAddress: actor.ipAddress,
        now: new Date(),
      });
      return reply.code(204).send(null);
    },
  );
}
