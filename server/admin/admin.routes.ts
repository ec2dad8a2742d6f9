/**
 * /api/admin: the admin dashboard's API (spec §2 /admin, §6, §7 "Admin"; issue 6). Admin only, on
 * the server: every route declares `access: 'admin'`, the plugin refuses anybody else before input
 * is even validated (401 without a session, 403 for a provider), and each handler requires its own
 * `read:*:any` permission. Handlers: authenticate -> validate -> load -> authorize -> service -> present.
 *
 * Document downloads are not here: admins use the documents route
 * `GET /api/documents/:documentId/download` (owner or admin; it writes 'document.download').
 */
import { z } from 'zod';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { applicationStatuses } from '../../domain/application-status.ts';
import { roles } from '../../domain/roles.ts';
import { documentTypes } from '../../domain/sections/documents.ts';
import { sections } from '../../domain/sections/registry.ts';
import type { AppInstance } from '../app-types.ts';
import { applicationSchema, presentApplication } from '../applications/applications.routes.ts';
import { auditActions, recordAudit } from '../audit/audit.service.ts';
import { requirePermission } from '../auth/actor.ts';
import {
  type CardDocument,
  DEFAULT_PAGE_SIZE,
  getAdminStats,
  getProviderDetails,
  listAllDocuments,
  listAuditEvents,
  listProviderCards,
  MAX_PAGE_SIZE,
  type Page,
  SEARCH_MAX_LENGTH,
} from './admin.service.ts';

// ---- Request schemas ------------------------------------------------------------------------------

const pagingQuery = {
  page: z.coerce
    .number({ error: 'page must be a whole number' })
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(1_000_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a whole number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(MAX_PAGE_SIZE, `pageSize may be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
};
const searchQuery = z
  .string()
  .max(SEARCH_MAX_LENGTH * 2, `Search with at most ${SEARCH_MAX_LENGTH} characters`)
  .optional();

export const providerListQuerySchema = z.object({ ...pagingQuery, search: searchQuery });
export const documentListQuerySchema = z.object({ ...pagingQuery, search: searchQuery });
export const auditLogQuerySchema = z.object({
  ...pagingQuery,
  action: z.enum(auditActions, { error: 'Choose an action from the list' }).optional(),
  subjectUserId: z.string().trim().min(1).max(200, 'Unknown user').optional(),
});
export const providerParamsSchema = z.object({ userId: z.string().min(1).max(200, 'Unknown user') });
export const providerDetailsQuerySchema = z.object({
  applicationId: z.uuid({ error: 'Choose an application from the list' }).optional(),
});

// ---- Response schemas -----------------------------------------------------------------------------

const pageFields = {
  total: z.number().int(),
  /** True when `total` is the search count cap and more rows match. */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
};

export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  totalApplications: z.number().int(),
  totalDocuments: z.number().int(),
});

export const cardDocumentSchema = z.object({
  id: z.uuid(),
  documentName: z.string(),
  documentType: z.enum(documentTypes),
  fileSize: z.number().int(),
  mimeType: z.string(),
});

export const providerCardSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.enum(roles),
  joinedAt: z.iso.datetime(),
  currentApplication: z
    .object({ id: z.uuid(), applicationStatus: z.enum(applicationStatuses), createdAt: z.iso.datetime() })
    .nullable(),
  applicationCount: z.number().int(),
  documentCount: z.number().int(),
  documents: z.array(cardDocumentSchema),
});
export const providerListSchema = z.object({ providers: z.array(providerCardSchema), ...pageFields });

const sectionValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const sectionDataSchema = z.object({
  key: z.enum(sections.map((s) => s.key) as [string, ...string[]]),
  title: z.string(),
  rows: z.array(z.object({ id: z.uuid() }).catchall(sectionValueSchema)),
});
export const providerDetailsSchema = z.object({
  profile: z.object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    role: z.enum(roles),
    joinedAt: z.iso.datetime(),
  }),
  applications: z.array(applicationSchema),
  selectedApplicationId: z.uuid().nullable(),
  sections: z.array(sectionDataSchema),
});

export const documentListSchema = z.object({
  documents: z.array(
    cardDocumentSchema.extend({
      applicationId: z.uuid(),
      uploadedAt: z.iso.datetime(),
      owner: z
        .object({ userId: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() })
        .nullable(),
    }),
  ),
  ...pageFields,
});

const auditPersonSchema = z.object({ userId: z.string(), name: z.string(), email: z.string() }).nullable();
export const auditLogSchema = z.object({
  events: z.array(
    z.object({
      id: z.number().int(),
      occurredAt: z.iso.datetime(),
      action: z.string(),
      actor: auditPersonSchema,
      subject: auditPersonSchema,
      resourceType: z.string().nullable(),
      resourceId: z.string().nullable(),
      ipAddress: z.string().nullable(),
      details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
    }),
  ),
  /** The actions the filter offers. */
  actions: z.array(z.string()),
  ...pageFields,
});

const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
} as const;

function pageFieldsOf<T>(page: Page<T>) {
  return { total: page.total, totalCapped: page.totalCapped, page: page.page, pageSize: page.pageSize };
}

const presentCardDocument = (d: CardDocument) => ({
  id: d.id,
  documentName: d.documentName,
  documentType: d.documentType,
  fileSize: d.fileSize,
  mimeType: d.mimeType,
});

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
        summary: 'Users newest first, searched by name or email substring, one card each (spec §2 /admin)',
        tags: ['admin'],
        querystring: providerListQuerySchema,
        response: { 200: providerListSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:provider:any');
      const page = await listProviderCards(app.deps.db, request.query);
      return {
        providers: page.items.map((p) => ({
          ...p,
          joinedAt: p.joinedAt.toISOString(),
          currentApplication: p.currentApplication && {
            ...p.currentApplication,
            createdAt: p.currentApplication.createdAt.toISOString(),
          },
          documents: p.documents.map(presentCardDocument),
        })),
        ...pageFieldsOf(page),
      };
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
          "Every document newest first, optionally of users matching a name or email (spec §2 'All Documents')",
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
        summary: 'Audit events newest first, filtered by action and/or subject user (issue 6)',
        tags: ['admin'],
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requirePermission(request, 'read:audit:any');
      const page = await listAuditEvents(app.deps.db, request.query);
      return {
        events: page.items.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() })),
        actions: [...auditActions],
        ...pageFieldsOf(page),
      };
    },
  );
}
