/**
 * The OIG LEIE list's API (issue 15, decision 020): GET /api/admin/leie and the answer of
 * POST /api/admin/leie/import. Validated by server/review/leie.routes.ts, read by the admin's
 * 'Exclusions' tab.
 */
import { z } from 'zod';

/** GET /api/admin/leie: the current list. */
export const leieStatusSchema = z.object({
  /** null before the first import. */
  importedAt: z.iso.datetime().nullable(),
  fileName: z.string().nullable(),
  rowCount: z.number().int().nullable(),
});
/** POST /api/admin/leie/import: what was imported and screened. */
export const leieImportResultSchema = z.object({
  importedAt: z.iso.datetime(),
  fileName: z.string(),
  rowCount: z.number().int(),
  /** Applications under review screened again against the new list. */
  rescreened: z.number().int(),
  /** Approved applications screened (ongoing monitoring). */
  approvedScreened: z.number().int(),
  /** Approved applications that match now and did not before: the admins were emailed. */
  newMatches: z.number().int(),
});

export type LeieStatus = z.infer<typeof leieStatusSchema>;
export type LeieImportResult = z.infer<typeof leieImportResultSchema>;
