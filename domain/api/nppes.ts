/**
 * What 'Check NPPES' shows (issue 15 "NPPES look-up"; issue 30 item 6): the NPI Registry's record of
 * an NPI, in the words of the review page, and where it disagrees with the application. Built by
 * server/review/nppes.ts from the NPPES API 2.1 answer; the raw answer is kept on the checklist item.
 */
import { z } from 'zod';

export const nppesRecordSchema = z.object({
  npi: z.string(),
  /** NPI-1 (individual) or NPI-2 (organization). */
  enumerationType: z.string(),
  name: z.string(),
  /** The record's other names (former, professional), each one line, e.g. 'ELISE A MARTIN'. */
  otherNames: z.array(z.string()),
  credential: z.string().nullable(),
  /** 'Active' when NPPES says A, 'Deactivated' for D or a deactivated NPI (error 15), else what it says. */
  status: z.string(),
  /**
   * The registry's words when it answered that CMS deactivated the NPI (error 15, issue 52 item 2):
   * then no other field of the record is known. Null otherwise.
   */
  statusNote: z.string().nullable(),
  enumerationDate: z.string().nullable(),
  lastUpdated: z.string().nullable(),
  taxonomies: z.array(
    z.object({
      code: z.string(),
      description: z.string(),
      primary: z.boolean(),
      state: z.string().nullable(),
      license: z.string().nullable(),
    }),
  ),
  /**
   * Every practice location, one line each (issue 30 item 6): the primary (the LOCATION address)
   * first, then the record's `practiceLocations`, without repeats; empty when NPPES lists none.
   */
  practiceLocations: z.array(z.string()),
});
export type NppesRecord = z.infer<typeof nppesRecordSchema>;

/** POST .../verification-items/:itemId/nppes: the record and its mismatches with the application. */
export const nppesCheckSchema = z.object({
  /** When the record was fetched from NPPES (a cached answer keeps its first time). */
  fetchedAt: z.iso.datetime(),
  record: nppesRecordSchema,
  /**
   * Human-readable differences, e.g. "Name: NPPES has JANE DOE, the application Jane Smith", or
   * 'This NPI belongs to an organization' for an NPI-2 record (issue 30 item 6).
   */
  mismatches: z.array(z.string()),
});
export type NppesCheck = z.infer<typeof nppesCheckSchema>;
