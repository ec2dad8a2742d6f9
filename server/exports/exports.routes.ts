/**
 * Files that leave the product (issue 33, docs/decisions/030):
 *
 * - GET /api/admin/applications/:applicationId/file-summary.pdf: the Credentialing File Summary
 *   ('Download File Summary' on the review page); staff who may read files
 *   (`read:application:any`); audited as 'export.file_summary_downloaded'.
 * - GET /api/admin/roster.csv and /api/admin/roster.xlsx: the roster of credentialed providers
 *   ('Export Roster'), streamed; staff who read providers' sections, or an API client whose token
 *   grants `roster.read` (machines load rosters); audited as 'export.roster_downloaded'.
 * - GET and PUT /api/admin/roster/columns: the administrator's remembered column choice.
 */
import { PassThrough, Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  type RosterCsvQuery,
  rosterColumnChoiceSchema,
  rosterColumnsAnswerSchema,
  rosterCsvQuerySchema,
  rosterQuerySchema,
} from '../../domain/api/exports.ts';
import { reviewParamsSchema } from '../../domain/api/review.ts';
import { errorResponses } from '../../domain/app-error.ts';
import { isoDay } from '../../domain/calendar.ts';
import { defaultRosterColumns, rosterFileName, rosterFormats } from '../../domain/exports/roster.ts';
import { hasBearerToken, requireApiClient } from '../api-clients/bearer.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requirePermission } from '../auth/actor.ts';
import { requireFileReader } from '../auth/file-readers.ts';
import { credentialedProviderBatches } from '../directory/credentialed-providers.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { fileSummaryPdf } from './file-summary.ts';
import { rosterColumnsOf, rosterCsv, saveRosterColumns, writeRosterXlsx } from './roster.ts';

const contentTypes = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

const rosterColumnsText =
  "Columns: `columns` (comma-separated keys of domain/exports/roster.ts), else the administrator's remembered choice, else the default layout. Phones are written `(305) 555-0100` (another country's as dialled from the US, `011 44 …`), the extension in 'Phone Extension'. An API client calls with `Authorization: Bearer <token>` granting `roster.read`. Audited as 'export.roster_downloaded'.";

/** The OpenAPI description of each roster download. */
const rosterDescription = {
  csv: `${rosterColumnsText} RFC 4180, UTF-8 with a byte order mark (Excel needs it; \`bom=false\` leaves it out for a plain \`utf-8\` reader). For a spreadsheet, every text a spreadsheet would evaluate is defused with a \`'\`: a cell starting with \`=\`, \`+\`, \`-\`, \`@\`, tab or CR, and a formula character after a \`,\`, \`;\`, tab or line break inside a cell (a \`;\`-locale spreadsheet splits cells there). A machine that parses the CSV asks \`guard=none\`: every value exactly as stored, nothing defused (never open that file in a spreadsheet). Same authorization either way.`,
  xlsx: `${rosterColumnsText} Dates are Excel dates (shown \`yyyy-mm-dd\`); identifiers (NPI, license and DEA numbers, ZIP code, phone) are text cells, so leading zeros stay and no text cell is ever a formula.`,
} as const;

/** The staff permissions of the roster: it lists providers and their sections' credentials. */
async function rosterReader(request: FastifyRequest) {
  const actor = await requirePermission(request, 'read:provider:any');
  await requirePermission(request, 'read:section:any');
  return actor;
}

export async function exportRoutes(app: AppInstance) {
  app.get(
    '/api/admin/applications/:applicationId/file-summary.pdf',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'The Credentialing File Summary as a tagged PDF: identity (SSN masked), checklist, discrepancies and waivers, screening, attestation, decision (issue 33 item 1)',
        description:
          "409 before the provider completes the application (no snapshot). Audited as 'export.file_summary_downloaded'.",
        tags: ['exports'],
        params: reviewParamsSchema,
      },
    },
    async (request, reply) => {
      // Issue 50 item 6: a committee member reads the summary of a file on their meeting's agenda too.
      const actor = await requireFileReader(request, request.params.applicationId, 'file summary');
      const { applicationId } = request.params;
      const summary = await fileSummaryPdf(app.deps.db, applicationId, {
        cipher: app.deps.cipher,
        validDays: app.deps.env.ATTESTATION_VALID_DAYS,
        verificationMaxAgeDays: app.deps.env.VERIFICATION_MAX_AGE_DAYS,
        now: new Date(),
        callerRoles: actor.roles,
      });
      // Written before the file leaves: an access that cannot be audited fails (HIPAA 164.312(b)).
      await recordAudit(app.deps.db, {
        action: 'export.file_summary_downloaded',
        actorUserId: actor.userId,
        // Whose file left: the audit log's provider filter finds the download (HIPAA 164.312(b)).
        subjectUserId: summary.providerUserId,
        resourceType: 'application',
        resourceId: applicationId,
        ipAddress: actor.ipAddress,
        details: { version: summary.version },
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${summary.fileName}"`)
        .send(summary.pdf);
    },
  );

  for (const format of rosterFormats) {
    app.get(
      `/api/admin/roster.${format}`,
      {
        config: { access: 'admin' },
        // Before the query is validated: an anonymous caller gets 401 and a provider 403 whatever they send.
        onRequest: async (request) => {
          if (!hasBearerToken(request)) await rosterReader(request);
        },
        schema: {
          summary: `The roster of credentialed providers as ${format.toUpperCase()}, one row per provider and practice location, streamed (issue 33 item 2)`,
          description: rosterDescription[format],
          tags: ['exports'],
          querystring: format === 'csv' ? rosterCsvQuerySchema : rosterQuerySchema,
        },
      },
      async (request, reply) => {
        const now = new Date();
        // The XLSX's query has neither guard nor bom: they stay undefined there.
        const query: RosterCsvQuery = request.query;
        let columns = query.columns;
        const guard = query.guard ?? 'formulas';
        let actor: { userId: string | null; ipAddress: string; apiClientId?: string };
        if (hasBearerToken(request)) {
          const client = await requireApiClient(request, reply, 'roster.read');
          actor = { userId: null, ipAddress: client.ipAddress, apiClientId: client.apiClientId };
          columns ??= defaultRosterColumns;
        } else {
          const staff = await rosterReader(request);
          actor = { userId: staff.userId, ipAddress: staff.ipAddress };
          columns ??= (await rosterColumnsOf(app.deps.db, staff.userId)).columns;
        }
        // Written before any row leaves: an export that cannot be audited fails (HIPAA 164.312(b)).
        await recordAudit(app.deps.db, {
          action: 'export.roster_downloaded',
          actorUserId: actor.userId,
          ipAddress: actor.ipAddress,
          resourceType: actor.apiClientId ? 'api_client' : null,
          resourceId: actor.apiClientId ?? null,
          // Only an unguarded download says so: the default leaves the details as they were.
          details: { format, columns: columns.length, ...(guard === 'none' ? { guard } : {}) },
        });
        const batches = credentialedProviderBatches(app.deps.db, { now });
        reply
          .header('content-type', contentTypes[format])
          .header('content-disposition', attachmentDisposition(rosterFileName(isoDay(now), format)))
          .header('x-content-type-options', 'nosniff');
        if (format === 'csv') {
          return reply.send(
            Readable.from(rosterCsv(batches, columns, { guard, bom: query.bom !== 'false' })),
          );
        }
        const output = new PassThrough();
        // A failure mid-file (the database gone) ends the download with an error: the client sees a
        // cut transfer, never a truncated file passed off as complete.
        writeRosterXlsx(batches, columns, output, now).catch((error: unknown) => {
          request.log.error({ err: error }, 'roster XLSX failed');
          output.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        return reply.send(output);
      },
    );
  }

  app.get(
    '/api/admin/roster/columns',
    {
      config: { access: 'admin' },
      schema: {
        summary: "The caller's remembered roster columns, or the default layout (issue 33 item 2)",
        tags: ['exports'],
        response: { 200: rosterColumnsAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await rosterReader(request);
      return rosterColumnsOf(app.deps.db, actor.userId);
    },
  );

  app.put(
    '/api/admin/roster/columns',
    {
      config: { access: 'admin' },
      onRequest: async (request) => {
        await rosterReader(request);
      },
      schema: {
        summary: "Remembers the caller's roster columns, in order, for their next 'Export Roster'",
        tags: ['exports'],
        body: rosterColumnChoiceSchema,
        response: { 200: rosterColumnsAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await rosterReader(request);
      await saveRosterColumns(app.deps.db, actor.userId, request.body.columns, new Date());
      return { columns: request.body.columns, isDefault: false };
    },
  );
}
