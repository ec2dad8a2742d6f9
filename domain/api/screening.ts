/**
 * API contract of exclusion screening (issue 30, docs/decisions/027-exclusion-screening.md), all for
 * administrators. Validated by server/screening/screening.routes.ts; read by the admin's 'Exclusions'
 * and 'Screening Matches' tabs (web/features/screening/).
 *
 * - GET    /api/admin/exclusions                          every source: its list, last import, staleness;
 *                                                         and the imports staged and not yet applied
 * - POST   /api/admin/exclusions/imports                  multipart `file`: read and stage ('Import')
 * - POST   /api/admin/exclusions/imports/:id/apply        make a staged import the list ('Apply')
 * - DELETE /api/admin/exclusions/imports/:id              discard a staged import
 * - GET    /api/admin/screening-matches                   the queue: open possible matches, pending changes
 * - POST   /api/admin/screening-matches/:id/decision      'Confirm Match' | 'Not the Same Person' | 'Accept Change'
 *
 * Units: timestamps ISO 8601 UTC; dates YYYY-MM-DD; counts are rows.
 */
import { z } from 'zod';

/** A source is stale when its list was last applied more than this many days ago (issue 30 item 5). */
export const STALE_SOURCE_DAYS = 35;
/** A full file shrinking a list by more than this fraction needs a reason (issue 30 item 2). */
export const SHRINK_LIMIT = 0.1;
/** Longest reason (confirming a shrinking file, or a screening decision), characters. */
export const SCREENING_REASON_MAX = 1000;

export const exclusionFileKinds = ['full', 'additions', 'reinstatements'] as const;

/** One list row as the admin sees it (sample rows, the list side of a finding). */
export const exclusionRowSchema = z.object({
  /** 'LAST, FIRST MIDDLE', or the business name. */
  name: z.string(),
  npi: z.string().nullable(),
  dob: z.string().nullable(),
  address: z.string(),
  licenseNumber: z.string(),
  providerType: z.string(),
  exclusionType: z.string(),
  exclusionDate: z.string().nullable(),
  reinstatementDate: z.string().nullable(),
  /** The file's line. */
  line: z.number().int(),
});
export type ExclusionRow = z.infer<typeof exclusionRowSchema>;

/** A staged import: what 'Apply' would do. */
export const stagedImportSchema = z.object({
  id: z.number().int(),
  source: z.string(),
  sourceLabel: z.string(),
  kind: z.enum(exclusionFileKinds),
  /** e.g. "OIG LEIE monthly reinstatements". */
  formatLabel: z.string(),
  fileName: z.string(),
  encoding: z.enum(['utf-8', 'windows-1252']),
  stagedAt: z.iso.datetime(),
  rowCount: z.number().int(),
  skippedCount: z.number().int(),
  /** The first skipped lines (at most 200), each with why. */
  skipped: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  /** The first rows of the file. */
  sample: z.array(exclusionRowSchema),
  /** Rows the source's list has now. */
  currentRows: z.number().int(),
  /**
   * Why 'Apply' needs a reason (a full file that is empty or shrinks the list by more than 10 %), in
   * words; null when it does not.
   */
  needsReason: z.string().nullable(),
});
export type StagedImport = z.infer<typeof stagedImportSchema>;

export const exclusionSourceStatusSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Two-letter state of a state Medicaid list; null for federal lists. */
  state: z.string().nullable(),
  publisher: z.string(),
  /** Where to download the file. */
  url: z.string(),
  /** Rows on the list now (ended exclusions included), and those in force today. */
  rows: z.number().int(),
  activeRows: z.number().int(),
  lastApplied: z
    .object({
      appliedAt: z.iso.datetime(),
      fileName: z.string(),
      kind: z.enum(exclusionFileKinds),
      rowCount: z.number().int(),
    })
    .nullable(),
  /** Never imported, or last applied more than STALE_SOURCE_DAYS days ago. */
  stale: z.boolean(),
});
export type ExclusionSourceStatus = z.infer<typeof exclusionSourceStatusSchema>;

/**
 * Which states the product has an exclusion list for, and the states of providers in credentialing
 * (completed, under review or approved) that it has none for (issue 51 item 1).
 */
export const stateCoverageSchema = z.object({
  /** Two-letter states with a state Medicaid list in the product, sorted. */
  statesWithList: z.array(z.string()),
  /** States where providers are licensed or practise that have no list here, with how many providers. */
  statesWithoutList: z.array(z.object({ state: z.string(), providers: z.number().int() })),
});
export type StateCoverage = z.infer<typeof stateCoverageSchema>;

/** GET /api/admin/exclusions */
export const exclusionsOverviewSchema = z.object({
  sources: z.array(exclusionSourceStatusSchema),
  staged: z.array(stagedImportSchema),
  stateCoverage: stateCoverageSchema,
});
export type ExclusionsOverview = z.infer<typeof exclusionsOverviewSchema>;

/** POST .../imports/:id/apply */
export const applyImportBodySchema = z.object({
  /** Required when the staged import's `needsReason` is not null. */
  reason: z.string().trim().max(SCREENING_REASON_MAX).optional(),
});
export type ApplyImportBody = z.infer<typeof applyImportBodySchema>;

export const applyImportResultSchema = z.object({
  source: z.string(),
  sourceLabel: z.string(),
  kind: z.enum(exclusionFileKinds),
  rowsBefore: z.number().int(),
  rowsAfter: z.number().int(),
  /** Rows added (full file, supplement) or exclusions ended (reinstatements). */
  changedRows: z.number().int(),
  /** Reinstatement rows that matched no exclusion on the list. */
  unmatchedRows: z.number().int(),
  /** Applications screened after the apply (under review and approved). */
  screened: z.number().int(),
  /** Findings recorded by that screening: matches and possible matches. */
  newMatches: z.number().int(),
  newPossibleMatches: z.number().int(),
});
export type ApplyImportResult = z.infer<typeof applyImportResultSchema>;

export const findingDecisions = ['confirm_match', 'not_same_person', 'accept_change'] as const;
export type FindingDecision = (typeof findingDecisions)[number];
/** The button of each decision (issue 30 item 4). */
export const findingDecisionLabel: Record<FindingDecision, string> = {
  confirm_match: 'Confirm Match',
  not_same_person: 'Not the Same Person',
  accept_change: 'Accept Change',
};

/** One line of the side-by-side view: the provider's value, the list row's, and whether they agree. */
export const comparisonLineSchema = z.object({
  label: z.string(),
  provider: z.string(),
  list: z.string(),
  /** 'same' | 'different' | 'unknown' (one side has no value). */
  agreement: z.enum(['same', 'different', 'unknown']),
});
export type ComparisonLine = z.infer<typeof comparisonLineSchema>;

export const screeningFindingSchema = z.object({
  id: z.uuid(),
  applicationId: z.uuid(),
  providerName: z.string(),
  source: z.string(),
  sourceLabel: z.string(),
  /** 'match' (NPI, or name + birth date) or 'possible_match' (name only). */
  strength: z.enum(['match', 'possible_match']),
  matchedOn: z.enum(['npi', 'name_dob', 'name']),
  status: z.enum(['open', 'confirmed', 'cleared']),
  /** 'no_longer_listed': the row ended or left the list; a reviewer accepts the change. */
  pendingChange: z.enum(['no_longer_listed']).nullable(),
  foundAt: z.iso.datetime(),
  comparison: z.array(comparisonLineSchema),
  entry: exclusionRowSchema,
});
export type ScreeningFinding = z.infer<typeof screeningFindingSchema>;

/** GET /api/admin/screening-matches */
export const screeningQueueSchema = z.object({ findings: z.array(screeningFindingSchema) });
export type ScreeningQueue = z.infer<typeof screeningQueueSchema>;

/** A reason a person gives (a screening decision; applying a shrinking file), trimmed, 1..1000 characters. */
const screeningReason = (missing: string) =>
  z
    .string()
    .trim()
    .min(1, missing)
    .max(SCREENING_REASON_MAX, `Keep the reason under ${SCREENING_REASON_MAX} characters.`);

/** POST /api/admin/screening-matches/:id/decision */
export const findingDecisionBodySchema = z.object({
  decision: z.enum(findingDecisions),
  reason: screeningReason('Give the reason for this decision.'),
});

/**
 * 'Apply' of an import whose `needsReason` is set: the reason is required (the dialog validates with
 * this; the server refuses the apply without one, 409, in server/screening/exclusion-imports.ts).
 */
export const requiredApplyReasonSchema = z.object({
  reason: screeningReason('Give the reason for applying this file.'),
});
export type FindingDecisionBody = z.infer<typeof findingDecisionBodySchema>;
