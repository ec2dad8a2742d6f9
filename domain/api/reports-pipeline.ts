/**
 * API contract of the pipeline reports of the 'Reports' tab (issue 34 items 2, 4, 5), for
 * administrators, the medical director and auditors (`read:report:any`). Validated by
 * server/reports/pipeline-reports.routes.ts; read by the web's 'Reports' tab.
 *
 * - GET /api/admin/reports/backlog[.csv]     open files by status and age bucket, the oldest ten
 * - GET /api/admin/reports/expirables[.csv]  credentials expiring per month for 12 months, by kind,
 *                                            and recredentialing due dates per month
 * - GET /api/admin/reports/screening[.csv]   monitoring runs and findings per month, open possible
 *                                            matches and their age, each list's last import
 *
 * Units: ages in whole UTC calendar days; months `YYYY-MM` (UTC); days `YYYY-MM-DD` (UTC); instants
 * ISO 8601 UTC; counts are rows. Age buckets are domain/reports/pipeline-buckets.ts `ageBuckets`.
 */
import { z } from 'zod';
import { credentialKinds } from '../credentials/expiring-credentials.ts';
import { ageBuckets } from '../reports/pipeline-buckets.ts';

// The screening report's range is every dated report's: domain/api/reports.ts `reportQuerySchema`.

const bucketCountsSchema = z.object(
  Object.fromEntries(ageBuckets.map((b) => [b, z.number().int()])) as Record<
    (typeof ageBuckets)[number],
    z.ZodNumber
  >,
);
/** A count per age bucket, every bucket present (0 when empty). */
export type BucketCounts = z.output<typeof bucketCountsSchema>;

// ---- GET /api/admin/reports/backlog ----------------------------------------------------------------------

/** The open statuses the backlog counts (domain/application-status.ts: completed, not yet decided). */
export const backlogStatuses = ['submitted', 'under_review'] as const;

/**
 * Query of the backlog (a snapshot at now, no range): `specialist`, the user id of the assigned
 * reviewer (`provider_applications.reviewer_id`, 'Assign' of issue 32), to see one person's files.
 */
export const backlogQuerySchema = z.object({
  specialist: z.string().trim().min(1).max(200, 'Unknown user').optional(),
});
export type BacklogQuery = z.output<typeof backlogQuerySchema>;

/** One of the oldest open files: its age in days since the attestation and its review page. */
export const backlogFileSchema = z.object({
  applicationId: z.string(),
  providerName: z.string(),
  status: z.enum(backlogStatuses),
  /** The attestation's instant (the latest one signed; the submission when none was recorded). */
  attestedAt: z.iso.datetime(),
  days: z.number().int(),
  /** The web's review page, `/admin/applications/<id>`. */
  path: z.string(),
});
export type BacklogFile = z.output<typeof backlogFileSchema>;

/**
 * Issue 34 item 2, at `asOf`: open files per status and age bucket (days since the attestation), the
 * totals, and the ten oldest (oldest attestation first).
 */
export const backlogReportSchema = z.object({
  asOf: z.iso.datetime(),
  specialist: z.string().nullable(),
  byStatus: z.array(
    z.object({ status: z.enum(backlogStatuses), buckets: bucketCountsSchema, total: z.number().int() }),
  ),
  total: bucketCountsSchema.extend({ total: z.number().int() }),
  oldest: z.array(backlogFileSchema),
});
export type BacklogReport = z.output<typeof backlogReportSchema>;

// ---- GET /api/admin/reports/expirables -------------------------------------------------------------------

const kindCountsSchema = z.object(
  Object.fromEntries(credentialKinds.map((k) => [k, z.number().int()])) as Record<
    (typeof credentialKinds)[number],
    z.ZodNumber
  >,
);

/**
 * Issue 34 item 4: for each of the twelve UTC months from now's (forecastMonths), the dated
 * credentials of current applications expiring in it by kind (the rows the 'Expiring' tab lists;
 * the running month counts from today), and the running credentials' recredentialing due dates
 * (`provider_credentials.ends_on`, NCQA CR 4's 36 months).
 */
export const expirablesReportSchema = z.object({
  asOf: z.iso.datetime(),
  months: z.array(
    z.object({
      month: z.string(),
      byKind: kindCountsSchema,
      credentials: z.number().int(),
      recredentialingDue: z.number().int(),
    }),
  ),
});
export type ExpirablesReport = z.output<typeof expirablesReportSchema>;

// ---- GET /api/admin/reports/screening --------------------------------------------------------------------

/**
 * Issue 34 item 5 over `from`..`to`: per UTC month, the monitoring runs (the monthly
 * 'exclusion-screening' job's finished runs, and the runs after each applied import) and the findings
 * recorded (by strength); at `asOf`, the possible matches still open with their age (days since found)
 * by bucket; and every source's last applied import (null: never imported).
 */
export const screeningReportSchema = z.object({
  asOf: z.iso.datetime(),
  from: z.iso.date(),
  to: z.iso.date(),
  months: z.array(
    z.object({
      month: z.string(),
      scheduledRuns: z.number().int(),
      importRuns: z.number().int(),
      matches: z.number().int(),
      possibleMatches: z.number().int(),
    }),
  ),
  openPossibleMatches: z.object({
    total: z.number().int(),
    buckets: bucketCountsSchema,
    /** Days since the oldest open one was found; null when none is open. */
    oldestDays: z.number().int().nullable(),
  }),
  sources: z.array(
    z.object({
      source: z.string(),
      label: z.string(),
      lastAppliedAt: z.iso.datetime().nullable(),
      /** Days since that import was applied; null when never. */
      days: z.number().int().nullable(),
      rows: z.number().int().nullable(),
    }),
  ),
});
export type ScreeningReport = z.output<typeof screeningReportSchema>;
