/**
 * /api/admin: the admin dashboard's API (spec §2 /admin, §6, §7 "Admin"; issue 6). Admin only, on
 * the server: every route declares `access: 'admin'`, the plugin refuses anybody else before input
 * is even validated (401 without a session, 403 for a provider), and each handler requires its own
 * `read:*:any` permission. Handlers: authenticate -> validate -> load -> authorize -> service -> present.
 * Request and response schemas: domain/api/admin.ts (shared with the web).
 *
 * Document downloads are not here: admins use the documents route
 * `GET /api/documents/:documentId/download` (owner or admin; it writes 'document.download').
 */
import {
  adminStatsSchema,
  auditLogQuerySchema,
  auditLogSchema,
  type CardDocument,
  documentListQuerySchema,
  documentListSchema,
  type PageInfo,
  providerDetailsQuerySchema,
  providerDetailsSchema,
  providerListQuerySchema,
  providerListSchema,
  providerParamsSchema,
} from '../../domain/api/admin.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { auditActions } from '../../domain/audit-actions.ts';
import type { AppInstance } from '../app-types.ts';
import { presentApplication } from '../applications/applications.routes.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requirePermission } from '../auth/actor.ts';
import { listAuditEvents } from './admin-audit.service.ts';
import { listAllDocuments } from './admin-documents.service.ts';
import { getProviderDetails } from './admin-provider-details.service.ts';
import { listProviderCards } from './admin-providers.service.ts';
import { getAdminStats } from './admin-stats.service.ts';

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
            submittedAt: p.currentApplication.submittedAt?.toISOString() ?? null,
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
