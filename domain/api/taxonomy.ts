/**
 * API contract of the NUCC Health Care Provider Taxonomy code set (issue 31 item 1): GET /api/taxonomy
 * answers the shipped code set (domain/sections/taxonomy/nucc-taxonomy-<version>.csv) in the file's
 * order, for the Specialties screen's search. Validated and serialised by
 * server/sections/taxonomy.routes.ts; typed on the web by the Specialties fields
 * (web/features/sections/fields/specialty-fields.tsx).
 */
import { z } from 'zod';

/** One code of the code set (domain/sections/taxonomy/nucc-taxonomy.ts `TaxonomyEntry`). */
export const taxonomyEntrySchema = z.object({
  /** Ten characters ending in X, e.g. '207RC0000X'. */
  code: z.string(),
  /** Level I, e.g. 'Allopathic & Osteopathic Physicians'. */
  grouping: z.string(),
  /** Level II, e.g. 'Internal Medicine'. */
  classification: z.string(),
  /** Level III, e.g. 'Cardiovascular Disease'; '' for a classification-level code. */
  specialization: z.string(),
  /** NUCC's display name, e.g. 'Cardiovascular Disease Physician'. */
  displayName: z.string(),
  /** 'Individual' or 'Non-Individual'. */
  section: z.string(),
});

/** The body of GET /api/taxonomy: the code set's version (e.g. '26.1') and every code, in file order. */
export const taxonomyResponseSchema = z.object({
  version: z.string(),
  entries: z.array(taxonomyEntrySchema),
});
export type TaxonomyResponse = z.infer<typeof taxonomyResponseSchema>;
