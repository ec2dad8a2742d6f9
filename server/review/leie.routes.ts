/**
 * The OIG LEIE list (issue 15), administrators only:
 * - GET  /api/admin/leie          the current list: when it was imported, from which file, how many rows
 * - POST /api/admin/leie/import   multipart `file`: the LEIE full file UPDATED.csv (at most 200 MB);
 *   replaces the list in one transaction (a bad file leaves the previous one), then re-screens every
 *   application under review and every approved one (ongoing monitoring: a new match emails every
 *   administrator and flags the provider's card). Also `npm run leie:import -- FILE`.
 */
import multipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { leieImportResultSchema, leieStatusSchema } from '../../domain/api/leie.ts';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requirePermission } from '../auth/actor.ts';
import type { Database } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { providerApplications, userRoles } from '../db/schema/core.ts';
import { assertStorableFileName } from '../http/unstorable-text.ts';
import type { Mailer } from '../mail/mailer.ts';
import { importLeie, latestLeieImport, rescreenApproved, screenApplication } from './leie.ts';
import { exclusionAlertMessage } from './review-mail.ts';

/** Largest LEIE file accepted, bytes (the full file is about 15 MB with some 80,000 rows). */
export const LEIE_MAX_BYTES = 200 * 1024 * 1024;

/** Screen every application under review against the current list; returns how many. */
export async function rescreenUnderReview(db: Database): Promise<number> {
  const rows = await db
    .select({ id: providerApplications.id })
    .from(providerApplications)
    .where(eq(providerApplications.applicationStatus, 'under_review'));
  for (const row of rows) await screenApplication(db, row.id);
  return rows.length;
}

/**
 * What follows every import (admin upload and `npm run leie:import`): applications under review are
 * screened again, approved ones too (ongoing monitoring), and a new match among the approved emails
 * every administrator. A failed email is logged; the import stands.
 */
export async function afterLeieImport(
  deps: { db: Database; mailer: Mailer; appUrl: string; logger: Pick<FastifyBaseLogger, 'error'> },
  now: Date,
): Promise<{ rescreened: number; monitored: Awaited<ReturnType<typeof rescreenApproved>> }> {
  const rescreened = await rescreenUnderReview(deps.db);
  const monitored = await rescreenApproved(deps.db, now);
  if (monitored.newMatches.length > 0) {
    const admins = await deps.db
      .select({ email: user.email })
      .from(userRoles)
      .innerJoin(user, eq(user.id, userRoles.userId))
      .where(eq(userRoles.role, 'admin'));
    await Promise.all(
      admins.map(({ email }) =>
        deps.mailer
          .send(exclusionAlertMessage(email, monitored.newMatches.length, deps.appUrl))
          .catch((error: unknown) => deps.logger.error({ err: error }, 'could not send the exclusion alert')),
      ),
    );
  }
  return { rescreened, monitored };
}

export async function leieRoutes(app: AppInstance) {
  await app.register(multipart, {
    limits: { fileSize: LEIE_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 20 },
    throwFileSizeLimit: true,
  });
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'review:application:any');
  });

  app.get(
    '/api/admin/leie',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'The current OIG LEIE list: import time, file and row count (issue 15)',
        tags: ['review'],
        response: { 200: leieStatusSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async () => {
      const last = await latestLeieImport(app.deps.db);
      return {
        importedAt: last?.importedAt.toISOString() ?? null,
        fileName: last?.fileName ?? null,
        rowCount: last?.rowCount ?? null,
      };
    },
  );

  app.post(
    '/api/admin/leie/import',
    {
      config: { access: 'admin' },
      bodyLimit: LEIE_MAX_BYTES + 64 * 1024,
      schema: {
        summary:
          'Import the OIG LEIE full file (UPDATED.csv), replacing the list; re-screens applications under review',
        description:
          'multipart/form-data, one part `file`. The header must be the 18 LEIE columns (LASTNAME ... WVRSTATE); a bad file is refused (400) and the previous list stays.',
        tags: ['review'],
        consumes: ['multipart/form-data'],
        response: {
          200: leieImportResultSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          413: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'review:application:any');
      if (!request.isMultipart()) {
        throw new AppError(
          'bad_request',
          'Send the LEIE file as multipart/form-data in the part named "file".',
        );
      }
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw new AppError('bad_request', 'Choose the LEIE file (UPDATED.csv) to import.');
      }
      // The file name is stored with the import (leie_imports.file_name).
      assertStorableFileName(part);
      const started = performance.now();
      const imported = await importLeie(app.deps.db, part.file, {
        fileName: part.filename,
        importedBy: actor.userId,
        now: new Date(),
      });
      if (part.file.truncated) {
        throw new AppError(
          'payload_too_large',
          'The file is larger than 200 MB: it cannot be the LEIE full file.',
        );
      }
      await recordAudit(app.deps.db, {
        action: 'review.leie_imported',
        actorUserId: actor.userId,
        resourceType: 'leie_import',
        resourceId: String(imported.id),
        ipAddress: actor.ipAddress,
        details: { rowCount: imported.rowCount },
      });
      const { rescreened, monitored } = await afterLeieImport(
        { db: app.deps.db, mailer: app.deps.mailer, appUrl: app.deps.env.appUrl, logger: request.log },
        new Date(),
      );
      request.log.info(
        {
          rowCount: imported.rowCount,
          rescreened,
          approvedScreened: monitored.screened,
          newMatches: monitored.newMatches.length,
          ms: Math.round(performance.now() - started),
        },
        'LEIE imported',
      );
      return {
        importedAt: imported.importedAt.toISOString(),
        fileName: imported.fileName,
        rowCount: imported.rowCount,
        rescreened,
        approvedScreened: monitored.screened,
        newMatches: monitored.newMatches.length,
      };
    },
  );
}
