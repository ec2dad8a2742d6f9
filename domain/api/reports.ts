/**
 * API contract of the decision-centred reports (issue 34 items 1, 3 and 6): Turnaround, Timeliness
 * and Workload, under GET /api/admin/reports/*. Validated and serialised by
 * server/reports/decision-reports.routes.ts; typed on the web by the 'Reports' tab.
 *
 * Units: days are elapsed or calendar days as each field says; months are UTC calendar months
 * ('YYYY-MM', domain/reports/report-math.ts `monthsBetween`), one entry per month the range touches,
 * empty months included. Percentiles are linear interpolation (PostgreSQL `percentile_cont`).
 */
import { z } from 'zod';
import { applicationCycles } from '../credentials/provider-credential.ts';
import { monthsBetween, REPORT_MAX_MONTHS } from '../reports/report-math.ts';
import { filterDay, fromNotAfterTo, fromNotAfterToIssue } from './date-range.ts';

/**
 * The query of every decision report: a range of UTC days `from`..`to` (YYYY-MM-DD, both inclusive;
 * both or neither: neither = the last 12 months, `defaultReportRange`), touching at most
 * REPORT_MAX_MONTHS (36) months, and for Workload optionally one `specialist` (a user id).
 */
export const reportQuerySchema = z
  .object({
    from: filterDay('From'),
    to: filterDay('To'),
    specialist: z.string().trim().min(1).max(200, 'Unknown user').optional(),
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), {
    error: 'Give both From and To, or neither',
    path: ['to'],
  })
  .refine(fromNotAfterTo, fromNotAfterToIssue)
  .refine((q) => !q.from || !q.to || monthsBetween(q.from, q.to).length <= REPORT_MAX_MONTHS, {
    error: `A report covers at most ${REPORT_MAX_MONTHS} months`,
    path: ['from'],
  });
export type ReportQuery = z.output<typeof reportQuerySchema>;

const monthSchema = z.string().regex(/^\d{4}-\d{2}$/);
const rangeShape = {
  /** The range reported, YYYY-MM-DD, both inclusive (the defaults filled in). */
  from: z.iso.date(),
  to: z.iso.date(),
};

/** Median and 90th percentile of a set of durations in days (one decimal); null when no file counts. */
export const durationStatsSchema = z.object({
  /** Files counted. */
  files: z.number().int(),
  medianDays: z.number().nullable(),
  p90Days: z.number().nullable(),
});
export type DurationStats = z.output<typeof durationStatsSchema>;

/** The stages of a file between completion and decision (issue 34 item 1), in order. */
export const turnaroundStages = [
  'waitingForReview',
  'inReview',
  'waitingForProvider',
  'waitingForDecision',
] as const;
export type TurnaroundStage = (typeof turnaroundStages)[number];

/** The stages' labels, as the issue names them. */
export const turnaroundStageLabel: Record<TurnaroundStage, string> = {
  waitingForReview: 'Waiting for review',
  inReview: 'In review',
  waitingForProvider: 'Waiting for the provider',
  waitingForDecision: 'Waiting for decision',
};

/** The cycles' labels (provider_applications.cycle). */
export const cycleLabel: Record<(typeof applicationCycles)[number], string> = {
  initial: 'Initial',
  recredentialing: 'Recredentialing',
};

/**
 * GET /api/admin/reports/turnaround: per UTC month of decision (approved or rejected), the days from
 * completion (the completion attestation) to the decision, for all files and split initial /
 * recredentialing, and the days each stage took (server/reports/decision-reports.ts says how each is
 * measured). Elapsed days (hours / 24), one decimal.
 */
export const turnaroundReportSchema = z.object({
  ...rangeShape,
  months: z.array(
    z.object({
      month: monthSchema,
      all: durationStatsSchema,
      initial: durationStatsSchema,
      recredentialing: durationStatsSchema,
      stages: z.object({
        waitingForReview: durationStatsSchema,
        inReview: durationStatsSchema,
        waitingForProvider: durationStatsSchema,
        waitingForDecision: durationStatsSchema,
      }),
    }),
  ),
});
export type TurnaroundReport = z.output<typeof turnaroundReportSchema>;

/** A clock a late decision missed (domain/committee/timeliness.ts `DecisionDue['basis']`). */
export const timelinessClocks = ['attestation', 'verification'] as const;

/**
 * GET /api/admin/reports/timeliness (NCQA CR 3; issue 34 item 3): per UTC month of decision, the
 * decisions made within ATTESTATION_VALID_DAYS of the attestation in force and within
 * VERIFICATION_MAX_AGE_DAYS of the oldest verification (UTC calendar days, as the decision clock
 * counts them), and the files that missed either, oldest decision first.
 */
export const timelinessReportSchema = z.object({
  ...rangeShape,
  limits: z.object({ attestationValidDays: z.number().int(), verificationMaxAgeDays: z.number().int() }),
  months: z.array(
    z.object({
      month: monthSchema,
      decided: z.number().int(),
      withinAttestation: z.number().int(),
      withinVerification: z.number().int(),
      /** Within both limits. */
      timely: z.number().int(),
      /** `timely` / `decided` as a percentage, one decimal; null in a month without decisions. */
      timelyPercent: z.number().nullable(),
    }),
  ),
  missed: z.array(
    z.object({
      applicationId: z.uuid(),
      providerName: z.string(),
      cycle: z.enum(applicationCycles),
      /** YYYY-MM-DD (UTC). */
      decidedOn: z.iso.date(),
      /** Calendar days from the attestation in force to the decision; null without an attestation. */
      daysFromAttestation: z.number().int().nullable(),
      /** Calendar days from the oldest verification to the decision; null without one. */
      daysFromOldestVerification: z.number().int().nullable(),
      missedClocks: z.array(z.enum(timelinessClocks)),
    }),
  ),
});
export type TimelinessReport = z.output<typeof timelinessReportSchema>;

/**
 * GET /api/admin/reports/workload (issue 34 item 6; issue 50 item 9): per staff member and UTC month,
 * the files they decided (the medical director's clean-file decisions, and each committee decision
 * for every member who voted on it), the committee decisions they recorded as the meeting's secretary,
 * and the checklist items they verified (verification_items.validator_id, by verified_at). Only
 * months with work are listed, by month then name.
 */
export const workloadReportSchema = z.object({
  ...rangeShape,
  rows: z.array(
    z.object({
      month: monthSchema,
      userId: z.string(),
      name: z.string(),
      filesDecided: z.number().int(),
      /** Committee decisions they recorded (not decided: the members' votes decided them). */
      filesRecorded: z.number().int(),
      itemsVerified: z.number().int(),
    }),
  ),
});
export type WorkloadReport = z.output<typeof workloadReportSchema>;
