/**
 * /api/applications/:applicationId/sections/:slug: the one generic route set of the nine list
 * sections stored as rows (spec §2, §3, §7), driven by the registry. `:slug` is the section's route
 * slug, e.g. `professional-licenses`. Documents have their own routes (/documents).
 *
 * - GET    .../:slug          owner or admin -> 200 `{ rows: Row[] }` in the section's order
 * - POST   .../:slug          owner, add-form-plus-table sections (payors, certifications, cme,
 *                             peer-references); body: the section's row schema -> 201 Row
 * - PUT    .../:slug          owner, repeatable-card sections (professional-licenses, education,
 *                             work-history, malpractice-insurance, vaccinations); body
 *                             `{ rows: [{ id?, ...fields }] }`, saved atomically -> 200 `{ rows: Row[] }`
 * - DELETE .../:slug/:rowId   owner -> 204
 *
 * Row = the section's fields (empty optional fields null, dates 'YYYY-MM-DD') + `id` + `createdAt`.
 * Contract: domain/api/sections.ts (parameters, `{ rows }`, the row's `id` and `createdAt`).
 * Handlers: authenticate (plugin hook) -> validate the slug -> load -> authorize -> service (which
 * validates the body with the section's schema) -> present. Answers carry PHI: `cache-control:
 * no-store`, set for every /api answer in app.ts.
 */
import { z } from 'zod';
import {
  listSectionParamsSchema,
  listSectionRowParamsSchema,
  sectionRowsResponseSchema,
} from '../../domain/api/sections.ts';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import { sectionBySlug } from '../../domain/sections/registry.ts';
import type { SectionLayout } from '../../domain/sections/section.ts';
import type { AppInstance } from '../app-types.ts';
import {
  addRow,
  deleteRow,
  type ListSectionStore,
  listRows,
  listSectionStore,
  saveRows,
  storedListSections,
} from './list-sections.service.ts';
import { authorizeSectionAccess, sectionSaveAudit } from './section-access.ts';

const BASE = '/api/applications/:applicationId/sections';

const slugsOf = (layout: SectionLayout) =>
  storedListSections
    .filter((s) => s.layout === layout)
    .map((s) => s.slug)
    .join(', ');

/**
 * One stored row of any list section (exactly one of the nine shapes, derived from the tables); the
 * web reads it as domain/api/sections.ts `sectionRowSchema`.
 */
export const listSectionRowSchema = z.union(
  storedListSections.map((s) => listSectionStore(s.slug)!.rowSchema) as [z.ZodObject, ...z.ZodObject[]],
);
export const listSectionRowsSchema = sectionRowsResponseSchema(listSectionRowSchema);

const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  /** The section holds its maximum of rows (MAX_ROWS_PER_LIST_SECTION). */
  409: errorResponseSchema,
} as const;

/**
 * The section at `slug`, which must have `layout` when given.
 * @throws AppError not_found (404) for an unknown slug; bad_request (400) for the wrong kind of write
 */
function requireStore(slug: string, layout?: 'repeatable-cards' | 'add-form-table'): ListSectionStore {
  const store = listSectionStore(slug);
  if (!store) {
    const known = sectionBySlug(slug);
    if (known?.slug === 'documents')
      throw new AppError('not_found', 'Documents are managed at /api/applications/:applicationId/documents.');
    if (known)
      throw new AppError(
        'not_found',
        `${known.title} has its own route: .../sections/${known.slug} (GET, PUT).`,
      );
    throw new AppError(
      'not_found',
      `There is no section "${slug.slice(0, 60)}". Sections: ${storedListSections.map((s) => s.slug).join(', ')}.`,
    );
  }
  if (layout && store.section.layout !== layout) {
    throw new AppError(
      'bad_request',
      store.section.layout === 'repeatable-cards'
        ? `The ${store.section.title} section is saved as a whole screen: send PUT with { rows: [...] }.`
        : `The ${store.section.title} section adds one entry at a time: send POST with one entry.`,
    );
  }
  return store;
}

export async function listSectionRoutes(app: AppInstance) {
  app.get(
    `${BASE}/:slug`,
    {
      config: { access: 'signed-in' },
      schema: {
        summary: "The rows of one list section, in the section's order (owner or admin)",
        description:
          'Repeatable-card sections by card position; payors, certifications and peer references newest ' +
          'first; CME by completion date, newest first, undated last (spec §7, §9).',
        tags: ['sections'],
        params: listSectionParamsSchema,
        response: { 200: listSectionRowsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const store = requireStore(request.params.slug);
      const { application } = await authorizeSectionAccess(
        request,
        request.params.applicationId,
        'read',
        store.key,
      );
      const rows = await listRows(app.deps.db, store, application.id);
      return { rows };
    },
  );

  app.post(
    `${BASE}/:slug`,
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Add one row to an add-form-plus-table section (owner)',
        description:
          `Sections: ${slugsOf('add-form-table')}. Body: the section's row schema (domain/sections/<section>.ts); ` +
          'empty optional fields are stored as null. Repeatable-card sections answer 400: they are saved with PUT.',
        tags: ['sections'],
        params: listSectionParamsSchema,
        response: { 201: listSectionRowSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const store = requireStore(request.params.slug, 'add-form-table');
      const access = await authorizeSectionAccess(request, request.params.applicationId, 'write', store.key);
      const { application } = access;
      const row = await addRow(
        app.deps.db,
        store,
        application.id,
        request.body,
        sectionSaveAudit(access, store.key, 'row_added'),
      );
      request.log.info(
        { applicationId: application.id, section: store.key, rowId: row.id },
        'section row added',
      );
      return reply.status(201).send(row);
    },
  );

  app.put(
    `${BASE}/:slug`,
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Save a repeatable-card section as a whole screen, atomically (owner)',
        description:
          `Sections: ${slugsOf('repeatable-cards')}. Body: { rows: [{ id?, ...fields }] } in card order. ` +
          'All cards are saved in one transaction or none: cards with id update that row, cards without id ' +
          'are inserted, the array index becomes the position; saved rows left out are kept (DELETE removes ' +
          "them). A validation failure names the card: issues[].path like ['rows', 1, 'issueDate']. " +
          'Answers every row of the section after the save.',
        tags: ['sections'],
        params: listSectionParamsSchema,
        response: { 200: listSectionRowsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const store = requireStore(request.params.slug, 'repeatable-cards');
      const access = await authorizeSectionAccess(request, request.params.applicationId, 'write', store.key);
      const { application } = access;
      const rows = await saveRows(
        app.deps.db,
        store,
        application.id,
        request.body,
        sectionSaveAudit(access, store.key, 'rows_saved'),
      );
      request.log.info(
        { applicationId: application.id, section: store.key, rows: rows.length },
        'section saved',
      );
      return { rows };
    },
  );

  app.delete(
    `${BASE}/:slug/:rowId`,
    {
      config: { access: 'provider' },
      schema: {
        summary: 'Delete one row of a list section (owner)',
        tags: ['sections'],
        params: listSectionRowParamsSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const store = requireStore(request.params.slug);
      const access = await authorizeSectionAccess(request, request.params.applicationId, 'write', store.key);
      const { application } = access;
      await deleteRow(
        app.deps.db,
        store,
        application.id,
        request.params.rowId,
        sectionSaveAudit(access, store.key, 'row_deleted'),
      );
      request.log.info(
        { applicationId: application.id, section: store.key, rowId: request.params.rowId },
        'section row deleted',
      );
      return reply.status(204).send(null);
    },
  );
}
