/**
 * API contract of the admin dashboard (spec §2 /admin, §6, §7 "Admin"; issue 6): the request and
 * response schemas of GET /api/admin/stats, /providers, /providers/:userId, /documents,
 * /audit-log and /expiring-credentials (issue 14). Validated, serialised and documented (OpenAPI) by server/admin/admin.routes.ts; typed
 * on the web by web/features/admin/admin-api.ts. The admin notifications endpoints are in
 * domain/api/notifications.ts.
 *
 * Units: timestamps are ISO 8601 strings in UTC, file sizes are bytes, pages are 1-based. Lists are
 * paged and searched on the server (docs/decisions/009-admin-at-scale.md).
 */
import { z } from 'zod';

import { applicationStatuses } from '../application-status.ts';
import { auditActions } from '../audit-actions.ts';
import {
  credentialKinds,
  DEFAULT_EXPIRING_WINDOW,
  expiringWindows,
} from '../credentials/expiring-credentials.ts';
import { roles } from '../roles.ts';
import { documentTypes } from '../sections/documents.ts';
import { type SectionKey, sections } from '../sections/registry.ts';
import { catalogSections } from '../sections/section-catalog.ts';
import { applicationSchema } from './applications.ts';
import { filterDay, fromNotAfterTo, fromNotAfterToIssue } from './date-range.ts';
import { applicationCycleSchema, providerCredentialSchema } from './provider-credential.ts';

// ---- Paging and search ------------------------------------------------------------------------------

/** Rows per page when the caller does not say (spec: none; ours, decision 009). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page a caller may ask for (decision 009). */
export const MAX_PAGE_SIZE = 100;
/**
 * Longest search term kept, in characters; the server cuts longer terms after normalising them and
 * refuses a query string over twice this length.
 */
export const SEARCH_MAX_LENGTH = 100;

/** `page` (1-based, default 1) and `pageSize` (1..MAX_PAGE_SIZE, default DEFAULT_PAGE_SIZE) of a list. */
const pageQueryShape = {
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

/**
 * Free text matched as a substring of a user's name or email, case-insensitive, or (issue 28) exactly
 * an NPI or a license number of one of the user's applications; '' or absent = all.
 */
const searchQuery = z
  .string()
  .max(SEARCH_MAX_LENGTH * 2, `Search with at most ${SEARCH_MAX_LENGTH} characters`)
  .optional();

/**
 * Where a list page sits: `total` rows match (searches and the documents and audit lists are counted
 * up to 10,000 only), `page` of `pageSize` rows is shown.
 */
export const pageInfoSchema = z.object({
  total: z.number().int(),
  /** True when `total` is the search count cap and more rows match ("10,000+"). */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PageInfo = z.output<typeof pageInfoSchema>;

// ---- GET /api/admin/stats -------------------------------------------------------------------------------

/** The dashboard counters (spec §2 /admin "Counters"): exact totals of profiles, applications, documents. */
export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  totalApplications: z.number().int(),
  totalDocuments: z.number().int(),
});
export type AdminStats = z.output<typeof adminStatsSchema>;

// ---- GET /api/admin/providers ---------------------------------------------------------------------------

/** Query of the 'Users & Applications' tab: paging plus the search box (spec §2 /admin). */
export const providerListQuerySchema = z.object({ ...pageQueryShape, search: searchQuery });
export type ProviderListQuery = z.output<typeof providerListQuerySchema>;

/** A document as a provider card lists it (a download button per document, spec §2 /admin). */
export const cardDocumentSchema = z.object({
  id: z.uuid(),
  documentName: z.string(),
  documentType: z.enum(documentTypes),
  /** Bytes. */
  fileSize: z.number().int(),
  mimeType: z.string(),
});
export type CardDocument = z.output<typeof cardDocumentSchema>;

/** Who a provider is, as the card and the details dialog show it (spec §3 profiles, §6 role). */
const providerIdentityFields = {
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.enum(roles),
  /** profiles.created_at. */
  joinedAt: z.iso.datetime(),
};

/** One card of the 'Users & Applications' tab (spec §2 /admin "Per-user card"). */
export const providerCardSchema = z.object({
  ...providerIdentityFields,
  /** The current application (spec §4: first draft, else newest), or null ('No Application'). */
  currentApplication: z
    .object({
      id: z.uuid(),
      applicationStatus: z.enum(applicationStatuses),
      createdAt: z.iso.datetime(),
      /** When it was completed (issue 13), null while a draft. */
      submittedAt: z.iso.datetime().nullable(),
      /** Exclusion screening standing of the application from its findings (issues 15, 30; decision 027). */
      exclusionMatch: z.enum(['match', 'possible_match']).nullable(),
      /** Which credentialing cycle it is (issue 29). */
      cycle: applicationCycleSchema,
    })
    .nullable(),
  /** The provider's credential, apart from the cycle in progress (issue 29 item 1). */
  credential: providerCredentialSchema,
  applicationCount: z.number().int(),
  /** Documents of all the user's applications. */
  documentCount: z.number().int(),
  /** The newest of them (at most 10), newest first. */
  documents: z.array(cardDocumentSchema),
});
export type ProviderCard = z.output<typeof providerCardSchema>;

/** Users newest first (profiles.created_at), one card each, and where the page sits. */
export const providerListSchema = z.object({
  providers: z.array(providerCardSchema),
  ...pageInfoSchema.shape,
});
export type ProviderList = z.output<typeof providerListSchema>;

// ---- GET /api/admin/providers/:userId ---------------------------------------------------------------------

/** Path parameters: the user's id (any text up to 200 characters; an unknown one answers 404). */
export const providerParamsSchema = z.object({ userId: z.string().min(1).max(200, 'Unknown user') });

/** `applicationId` picks one of the user's applications; absent = the current one (spec §4). */
export const providerDetailsQuerySchema = z.object({
  applicationId: z.uuid({ error: 'Choose an application from the list' }).optional(),
});
export type ProviderDetailsQuery = z.output<typeof providerDetailsQuerySchema>;

/** A section value as JSON carries it: dates as 'YYYY-MM-DD' (or ISO 8601 for timestamps). */
const sectionValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type SectionValue = z.output<typeof sectionValueSchema>;

/**
 * One section of the chosen application. Each row is its `id` plus the registry's `fields` of that
 * section (domain/sections/registry.ts), plus `uploadedAt` for documents; the SSN is masked as
 * `***-**-1234` (spec §6 "SSN is shown masked").
 */
export const sectionDataSchema = z.object({
  key: z.enum(sections.map((s) => s.key) as [SectionKey, ...SectionKey[]]),
  title: z.string(),
  rows: z.array(z.object({ id: z.uuid() }).catchall(sectionValueSchema)),
});
export type SectionData = z.output<typeof sectionDataSchema>;
export type SectionRowValues = SectionData['rows'][number];

/** The details dialog (spec §2 /admin "Details dialog", §7 "per-user detail"). */
export const providerDetailsSchema = z.object({
  profile: z.object(providerIdentityFields),
  /** All the user's applications, newest first, with progress. */
  applications: z.array(applicationSchema),
  /** The provider's credential, apart from the cycle in progress (issue 29 item 1). */
  credential: providerCredentialSchema,
  /** The application whose sections are shown: the requested one, else the current one; null if none. */
  selectedApplicationId: z.uuid().nullable(),
  /** Every section in registry order (empty when the user has no application). */
  sections: z.array(sectionDataSchema),
});
export type ProviderDetails = z.output<typeof providerDetailsSchema>;

// ---- GET /api/admin/documents ------------------------------------------------------------------------------

/** Query of the 'All Documents' tab: paging plus the search box (documents of matching users). */
export const documentListQuerySchema = z.object({ ...pageQueryShape, search: searchQuery });
export type DocumentListQuery = z.output<typeof documentListQuerySchema>;

/** A row of the 'All Documents' tab. `owner` is null when the user's profile is gone. */
export const documentListItemSchema = cardDocumentSchema.extend({
  applicationId: z.uuid(),
  uploadedAt: z.iso.datetime(),
  owner: z
    .object({ userId: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() })
    .nullable(),
});
export type DocumentListItem = z.output<typeof documentListItemSchema>;

/** Every document, newest first (spec §7: uploaded_at descending), and where the page sits. */
export const documentListSchema = z.object({
  documents: z.array(documentListItemSchema),
  ...pageInfoSchema.shape,
});
export type DocumentList = z.output<typeof documentListSchema>;

// ---- GET /api/admin/audit-log --------------------------------------------------------------------------------

/**
 * The audit log's filter (issue 6; issue 34): one action (domain/audit-actions.ts), the subject (the
 * provider whose record was touched) and the actor by user id, and a date range `from`..`to`
 * (`YYYY-MM-DD`, UTC calendar days, both inclusive, each optional, `from` <= `to`). Ids only: never a
 * name or email, so the filter can sit in a URL and in the export's audit details.
 */
export const auditLogFilterShape = {
  action: z.enum(auditActions, { error: 'Choose an action from the list' }).optional(),
  subjectUserId: z.string().trim().min(1).max(200, 'Unknown user').optional(),
  actorUserId: z.string().trim().min(1).max(200, 'Unknown user').optional(),
  from: filterDay('From'),
  to: filterDay('To'),
};

/** Query of GET /api/admin/audit-log/export: the filter, no paging. */
export const auditLogExportQuerySchema = z
  .object(auditLogFilterShape)
  .refine(fromNotAfterTo, fromNotAfterToIssue);
export type AuditLogFilter = z.output<typeof auditLogExportQuerySchema>;

/** Query of GET /api/admin/audit-log (issue 6, issue 34): paging plus the filter. */
export const auditLogQuerySchema = z
  .object({ ...pageQueryShape, ...auditLogFilterShape })
  .refine(fromNotAfterTo, fromNotAfterToIssue);
export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;

/** A person named in an audit event (from the account table: name and email only, no PHI). */
export const auditPersonSchema = z.object({ userId: z.string(), name: z.string(), email: z.string() });
export type AuditPerson = z.output<typeof auditPersonSchema>;

/** One audit event (HIPAA 164.312(b)). Identifiers only: `details` never holds PHI. */
export const auditEventSchema = z.object({
  id: z.number().int(),
  occurredAt: z.iso.datetime(),
  action: z.string(),
  /** Null for anonymous events (a failed sign-in) and CLI changes. */
  actor: auditPersonSchema.nullable(),
  subject: auditPersonSchema.nullable(),
  resourceType: z.string().nullable(),
  resourceId: z.string().nullable(),
  ipAddress: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
});
export type AuditEvent = z.output<typeof auditEventSchema>;

/** Audit events newest first, the actions the filter offers, and where the page sits. */
export const auditLogSchema = z.object({
  events: z.array(auditEventSchema),
  /** The actions the filter offers (domain/audit-actions.ts). */
  actions: z.array(z.string()),
  /**
   * The people the filter names by id, as the account table names them (null: no such filter, or
   * no such user), so the filter's controls can show a name the URL does not hold.
   */
  filterPeople: z.object({ subject: auditPersonSchema.nullable(), actor: auditPersonSchema.nullable() }),
  ...pageInfoSchema.shape,
});
export type AuditLog = z.output<typeof auditLogSchema>;

/** GET /api/admin/audit-log/actors: the people the actor filter offers (everyone holding a staff role). */
export const auditActorListSchema = z.object({ people: z.array(auditPersonSchema) });
export type AuditActorList = z.output<typeof auditActorListSchema>;

// ---- GET /api/admin/expiring-credentials (issue 14) -------------------------------------------------------

/**
 * Filter of the 'Expiring' tab and its CSV export (issue 14): the window ('expired', or '7', '30',
 * '60', '90' = expired or expiring within that many days; default '90') and one credential kind
 * (absent = all seven).
 */
const expiringFilterShape = {
  window: z
    .enum(expiringWindows, { error: `window must be one of ${expiringWindows.join(', ')}` })
    .default(DEFAULT_EXPIRING_WINDOW),
  kind: z.enum(credentialKinds, { error: `kind must be one of ${credentialKinds.join(', ')}` }).optional(),
};

/** Query of GET /api/admin/expiring-credentials/export.csv: the tab's filter, no paging. */
export const expiringExportQuerySchema = z.object(expiringFilterShape);
export type ExpiringExportQuery = z.output<typeof expiringExportQuerySchema>;

/** Query of GET /api/admin/expiring-credentials: the filter plus paging. */
export const expiringListQuerySchema = z.object({ ...pageQueryShape, ...expiringFilterShape });
export type ExpiringListQuery = z.output<typeof expiringListQuerySchema>;

/** One dated credential of a provider's current application, as the 'Expiring' tab lists it. */
export const expiringListItemSchema = z.object({
  kind: z.enum(credentialKinds),
  /** The section that holds it (section-catalog key). */
  sectionKey: z.enum(catalogSections.map((s) => s.key) as [string, ...string[]]),
  /** The section row's id (the personal information row for a driver's license). */
  rowId: z.uuid(),
  applicationId: z.uuid(),
  /** What the provider calls it: 'Medical License IL-20 (IL)', 'MedPro P-1'. */
  name: z.string(),
  /** The issuing state (licenses, driver's license, hospital privileges), else null (issue 33 item 2). */
  state: z.string().nullable(),
  /** The license or policy number, else null. */
  number: z.string().nullable(),
  /** `YYYY-MM-DD`. */
  expiresOn: z.iso.date(),
  /** Calendar days from today (UTC); negative once expired. */
  daysLeft: z.number().int(),
  urgency: z.enum(['expired', 'within_7', 'within_30', 'within_60', 'within_90']),
  provider: z.object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    /** The application's NPI, or null when not given (issue 33 item 2). */
    npi: z.string().nullable(),
  }),
});
export type ExpiringListItem = z.output<typeof expiringListItemSchema>;

/** One page of the 'Expiring' tab, soonest (most overdue) first; totals counted up to 10,000. */
export const expiringListSchema = z.object({
  credentials: z.array(expiringListItemSchema),
  ...pageInfoSchema.shape,
});
export type ExpiringList = z.output<typeof expiringListSchema>;
