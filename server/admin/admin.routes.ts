/**
 * /api/admin: the admin dashboard's API (spec §2 /admin, §6, §7 "Admin"; issue 6). Admin only, on
 * the server: every route declares `access: 'admin'`, the plugin refuses anybody else before input
 * is even validated (401 without a session, 403 for a provider), and each handler requires its own
 * `read:*:any` permission. Handlers: authenticate -> validate -> load -> authorize -> service -> present.
 * Request and response schemas: domain/api/admin.ts (shared with the web).
 *
 * The 'Expiring' tab (issue 14, decision 023): GET /api/admin/expiring-credentials (one page) and
 * GET /api/admin/expiring-credentials/export (the same filter as a streamed CSV download, audited).
 * The 'Audit Log' tab (issue 6; issue 34): GET /api/admin/audit-log (one page of the filter),
 * GET /api/admin/audit-log/actors (the actor filter's list) and GET /api/admin/audit-log/export (the
 * filter as a streamed CSV download, itself audited as 'admin.export_audit_log').
 *
 * Document downloads are not here: admins use the documents route
 * `GET /api/documents/:documentId/download` (owner or admin; it writes 'document.download').
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  type AuditLogFilter,
  adminStatsSchema,
  auditActorListSchema,
  auditLogExportQuerySchema,
  auditLogQuerySchema,
  auditLogSchema,
  type CardDocument,
  documentListQuerySchema,
  documentListSchema,
  type ExpiringListItem,
  expiringExportQuerySchema,
  expiringListQuerySchema,
  expiringListSchema,
  type PageInfo,
  providerDetailsQuerySchema,
  providerDetailsSchema,
  providerListQuerySchema,
  providerListSchema,
  providerParamsSchema,
} from '../../domain/api/admin.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { auditActionLabel, auditActions } from '../../domain/audit-actions.ts';
import { nextUtcDayStart } from '../../domain/calendar.ts';
import { credentialKindLabel, daysLeftText } from '../../domain/credentials/expiring-credentials.ts';
import { sectionCatalog } from '../../domain/sections/section-catalog.ts';
import type { AppInstance } from '../app-types.ts';
import { presentApplication } from '../applications/applications.routes.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requirePermission } from '../auth/actor.ts';
import { findProviderCredential, presentCredential } from '../credential/credential-record.ts';
import {
  type ExpiringFilter,
  expiringCredentialBatches,
  isoDayFrom,
} from '../credentials/current-credentials.ts';
import { attachmentDisposition } from '../documents/content-disposition.ts';
import { CSV_BOM, csvRecord } from '../http/csv.ts';
import {
  type AuditEventItem,
  auditEventBatches,
  filterPeopleOf,
  listAuditActors,
  listAuditEvents,
} from './admin-audit.service.ts';
import { listAllDocuments } from './admin-documents.service.ts';
import { listExpiringCredentials } from './admin-expiring.service.ts';
import { normalizeSearch, type Page } from './admin-list-query.ts';
import { getProviderDetails } from './admin-provider-details.service.ts';
import { listProviderCards, type ProviderCard } from './admin-providers.service.ts';
import { getAdminStats } from './admin-stats.service.ts';
import { sendRememberedAnswer } from './list-cache.ts';

const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
} as const;

function pageFieldsOf(page: PageInfo): PageInfo {
  return { total: page.total, totalCapped: page.totalCapped, page: page.page, pageSize: page.pageSize };
}

const presentCardDocument = (d: CardDocument) => ({
  id: d.id,
  documentName: d.documentName,
  documentType: d.documentType,
  fileSize: d.fileSize,
  mimeType: d.mimeType,
});

/**
 * The export's columns (issue 14; issue 33 item 2 adds NPI, State, Number and Link): one header row,
 * then one record per credential. 'Link' is the application's review page (APP_URL), where the
 * provider's file opens.
 */
const expiringCsvHeader = [
  'Provider',
  'Email',
  'NPI',
  'Credential type',
  'Credential',
  'State',
  'Number',
  'Section',
  'Expires on',
  'Days left',
  'Status',
  'Link',
];

function expiringCsvCells(c: ExpiringListItem, appUrl: string) {
  return [
    `${c.provider.firstName} ${c.provider.lastName}`.trim(),
    c.provider.email,
    c.provider.npi,
    credentialKindLabel[c.kind],
    c.name,
    c.state,
    c.number,
    sectionCatalog[c.sectionKey as keyof typeof sectionCatalog].title,
    c.expiresOn,
    c.daysLeft,
    daysLeftText(c.daysLeft),
    `${appUrl}/admin/applications/${c.applicationId}`,
  ];
}

/** The BOM and header, then the records of every batch: text chunks of one batch each. */
async function* expiringCsv(
  batches: AsyncIterable<ExpiringListItem[]>,
  appUrl: string,
): AsyncGenerator<string> {
  yield CSV_BOM + csvRecord(expiringCsvHeader);
  for await (const batch of batches) yield batch.map((c) => csvRecord(expiringCsvCells(c, appUrl))).join('');
}

/**
 * The audit log export's columns (issue 34): one header row, then one record per event, newest
 * first. Time is ISO 8601 in UTC (milliseconds); actor and subject are the account's name and user
 * id (empty for anonymous events); details are the event's JSON object as stored (never PHI).
 */
const auditCsvHeader = [
  'Time (UTC)',
  'Action',
  'Action label',
  'Actor',
  'Actor ID',
  'Subject',
  'Subject ID',
  'Resource type',
  'Resource ID',
  'IP address',
  'Details',
];

function auditCsvCells(e: AuditEventItem) {
  return [
    e.occurredAt.toISOString(),
    e.action,
    (auditActionLabel as Record<string, string>)[e.action] ?? '',
    e.actor?.name,
    e.actor?.userId,
    e.subject?.name,
    e.subject?.userId,
    e.resourceType,
    e.resourceId,
    e.ipAddress,
    e.details ? JSON.stringify(e.details) : null,
  ];
}

/** The BOM and header, then the records of every batch: text chunks of one batch each. */
async function* auditCsv(batches: AsyncIterable<AuditEventItem[]>): AsyncGenerator<string> {
  yield CSV_BOM + csvRecord(auditCsvHeader);
  for await (const batch of batches) yield batch.map((e) => csvRecord(auditCsvCells(e))).join('');
}

/**
 * What the export's audit event says of its filter (issue 34): the action and the date range as
 * given, and only whether a subject or actor was chosen, never who (no names, no ids of providers).
 */
export function auditExportDetails(filter: AuditLogFilter): Record<string, string | boolean> {
  return {
    action: filter.action ?? 'all',
    from: filter.from ?? 'any',
    to: filter.to ?? 'any',
    subjectFiltered: Boolean(filter.subjectUserId),
    actorFiltered: Boolean(filter.actorUserId),
  };
}

/** The 'Users & Applications' answer (providerListSchema) of `page` at `now` (credential states by UTC day). */
function presentProviderList(page: Page<ProviderCard>, now: Date) {
  return {
    providers: page.items.map((p) => ({
      ...p,
      credential: presentCredential(p.credential, now),
      joinedAt: p.joinedAt.toISOString(),
      currentApplication: p.currentApplication && {
        ...p.currentApplication,
        createdAt: p.currentApplication.createdAt.toISOString(),
        submittedAt: p.currentApplication.submittedAt?.toISOString() ?? null,
      },
      documents: p.documents.map(presentCardDocument),
    })),
    ...pageFieldsOf(page),
  };
}

// ---- Routes -----------------------------------------------------------------------------------------

export async function adminRoutes(app: AppInstance) {
  // Every admin route needs at least this permission; checked on request, before the query string is
  // validated, so an anonymous caller gets 401 and a provider 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'read:provider:any');
  });

  app.get(
    '/api/admin/stats',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Counters of the admin dashboard: total users, applications and documents (spec §2 /admin)',
        tags: ['admin'],
        response: { 200: adminStatsSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:application:any');
      return getAdminStats(app.deps.db);
    },
  );

  app.get(
    '/api/admin/providers',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Users newest first, searched by name or email substring or exact NPI or license number, one card each (spec §2 /admin)',
        tags: ['admin'],
        querystring: providerListQuerySchema,
        response: { 200: providerListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await requirePermission(request, 'read:provider:any');
      const now = new Date();
      const { search, page, pageSize } = request.query;
      // Remembered until a write changes the list or the UTC day changes a credential's state.
      const key = `${normalizeSearch(search)}\u0000${page}\u0000${pageSize}`;
      return sendRememberedAnswer(reply, app.deps.db, 'providers', key, async () => ({
        body: presentProviderList(await listProviderCards(app.deps.db, request.query), now),
        validUntil: nextUtcDayStart(now),
      }));
    },
  );

  app.get(
    '/api/admin/providers/:userId',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "One user's profile, applications and every section of one application, SSN masked (spec §2 details dialog)",
        description:
          "Audited as 'admin.view_provider'. `applicationId` picks one of the user's applications; default: the current one.",
        tags: ['admin'],
        params: providerParamsSchema,
        querystring: providerDetailsQuerySchema,
        response: { 200: providerDetailsSchema, ...errorResponses, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'read:provider:any');
      await requirePermission(request, 'read:section:any');
      const details = await getProviderDetails(
        app.deps.db,
        request.params.userId,
        request.query.applicationId,
      );
      // Written before the data leaves: an access that cannot be audited fails (HIPAA 164.312(b)).
      await recordAudit(app.deps.db, {
        action: 'admin.view_provider',
        actorUserId: actor.userId,
        subjectUserId: details.profile.userId,
        resourceType: details.selectedApplicationId ? 'application' : 'profile',
        resourceId: details.selectedApplicationId ?? details.profile.userId,
        ipAddress: actor.ipAddress,
      });
      return {
        profile: { ...details.profile, joinedAt: details.profile.joinedAt.toISOString() },
        applications: details.applications.map(presentApplication),
        credential: presentCredential(
          await findProviderCredential(app.deps.db, details.profile.userId),
          new Date(),
        ),
        selectedApplicationId: details.selectedApplicationId,
        sections: details.sections,
      };
    },
  );

  app.get(
    '/api/admin/documents',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "Every document newest first, optionally of users matching a name or email, an NPI or a license number (spec §2 'All Documents')",
        tags: ['admin'],
        querystring: documentListQuerySchema,
        response: { 200: documentListSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:document:any');
      const page = await listAllDocuments(app.deps.db, request.query);
      return {
        documents: page.items.map((d) => ({ ...d, uploadedAt: d.uploadedAt.toISOString() })),
        ...pageFieldsOf(page),
      };
    },
  );

  app.get(
    '/api/admin/audit-log',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Audit events newest first, filtered by action, subject user, actor and a range of UTC days (issues 6, 34)',
        description:
          '`from`/`to`: `YYYY-MM-DD`, UTC calendar days, both inclusive. `filterPeople` names the subject and actor the filter holds by id. Totals stop at 10,000.',
        tags: ['admin'],
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:audit:any');
      const [page, filterPeople] = await Promise.all([
        listAuditEvents(app.deps.db, request.query),
        filterPeopleOf(app.deps.db, request.query),
      ]);
      return {
        events: page.items.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() })),
        actions: [...auditActions],
        filterPeople,
        ...pageFieldsOf(page),
      };
    },
  );

  app.get(
    '/api/admin/audit-log/actors',
    {
      config: { access: 'admin' },
      schema: {
        summary: "The 'Audit Log' actor filter's people: everyone holding a staff role, by name (issue 34)",
        tags: ['admin'],
        response: { 200: auditActorListSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:audit:any');
      return { people: await listAuditActors(app.deps.db) };
    },
  );

  app.get(
    '/api/admin/audit-log/export',
    {
      config: { access: 'admin' },
      // A HEAD would run the export and write it to the audit log.
      exposeHeadRoute: false,
      schema: {
        summary: "The 'Audit Log' tab's filter as a CSV download, every event, streamed (issue 34)",
        description:
          "Same filter as GET /api/admin/audit-log, no paging; newest first, read in keyset batches. text/csv (UTF-8 with a BOM, CRLF, RFC 4180 quoting; text cells starting with = + - @ tab or CR prefixed with ' against formula injection), one header row. Audited as 'admin.export_audit_log' (the filter's action and dates, and whether a subject or actor was chosen; no names).",
        tags: ['admin'],
        querystring: auditLogExportQuerySchema,
        response: { 200: z.unknown().describe('The CSV file'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'read:audit:any');
      const filter: AuditLogFilter = request.query;
      // Written before any row leaves: an export that cannot be audited fails (HIPAA 164.312(b)).
      // The export's own event is then the file's first row when the filter matches it.
      await recordAudit(app.deps.db, {
        action: 'admin.export_audit_log',
        actorUserId: actor.userId,
        ipAddress: actor.ipAddress,
        details: auditExportDetails(filter),
      });
      const fileName = `audit-log-${filter.from ?? 'start'}-to-${filter.to ?? isoDayFrom(new Date(), 0)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(auditCsv(auditEventBatches(app.deps.db, filter))));
    },
  );

  app.get(
    '/api/admin/expiring-credentials',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "'Expiring' tab: credentials of current applications expired or expiring within a window, soonest first (issue 14)",
        description:
          "`window`: 'expired', or '7', '30', '60', '90' (default) = expired or expiring within that many days (UTC calendar days); `kind`: one credential kind, default all. Sorted by expiry date, then row id. Totals stop at 10,000.",
        tags: ['admin'],
        querystring: expiringListQuerySchema,
        response: { 200: expiringListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await requirePermission(request, 'read:provider:any');
      await requirePermission(request, 'read:section:any');
      const now = new Date();
      const { window, kind, page, pageSize } = request.query;
      // Remembered until a write changes the list or the UTC day moves the window and the days left.
      const key = `${window}\u0000${kind ?? 'all'}\u0000${page}\u0000${pageSize}`;
      return sendRememberedAnswer(reply, app.deps.db, 'expiring', key, async () => {
        const listed = await listExpiringCredentials(app.deps.db, request.query, now);
        return {
          body: { credentials: listed.items, ...pageFieldsOf(listed) },
          validUntil: nextUtcDayStart(now),
        };
      });
    },
  );

  app.get(
    '/api/admin/expiring-credentials/export',
    {
      config: { access: 'admin' },
      // A HEAD would run the export and write it to the audit log.
      exposeHeadRoute: false,
      schema: {
        summary: "The 'Expiring' tab's filter as a CSV download, every row, streamed (issue 14)",
        description:
          "Same `window` and `kind` as GET /api/admin/expiring-credentials, no paging. text/csv (UTF-8 with a BOM, CRLF, RFC 4180 quoting; text cells starting with = + - @ tab or CR prefixed with ' against formula injection), one header row. Audited as 'admin.export_expiring_credentials'.",
        tags: ['admin'],
        querystring: expiringExportQuerySchema,
        response: { 200: z.unknown().describe('The CSV file'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'read:provider:any');
      await requirePermission(request, 'read:section:any');
      const filter: ExpiringFilter = request.query;
      const now = new Date();
      // Written before any row leaves: an export that cannot be audited fails (HIPAA 164.312(b)).
      await recordAudit(app.deps.db, {
        action: 'admin.export_expiring_credentials',
        actorUserId: actor.userId,
        ipAddress: actor.ipAddress,
        details: { window: filter.window, kind: filter.kind ?? 'all' },
      });
      const fileName = `expiring-credentials-${filter.window === 'expired' ? 'expired' : `${filter.window}-days`}-${filter.kind ?? 'all'}-${isoDayFrom(now, 0)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('x-content-type-options', 'nosniff')
        .send(
          Readable.from(
            expiringCsv(expiringCredentialBatches(app.deps.db, filter, now), app.deps.env.appUrl),
          ),
        );
    },
  );
}
