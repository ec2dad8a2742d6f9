/**
 * What the reports read instead of recomputing it per request (issue 34, docs/decisions/031).
 *
 * - decision_facts: each decided file's figures as they stood when the decision was recorded: the
 *   completion, the days of each stage, the attestation in force and the oldest verification. One row
 *   per application while it is approved or rejected. Written by the trigger `decision_facts_record`
 *   (migration 0031), which fires at the commit of every change of an application's status or
 *   decision time, so no decision path can forget it; the migration filled it for the decisions
 *   recorded before. The Turnaround and Timeliness reports aggregate it (server/reports/).
 */
import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

export const decisionFacts = pgTable(
  'decision_facts',
  {
    applicationId: uuid('application_id')
      .primaryKey()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
    /** 'approved' or 'rejected'. */
    outcome: text('outcome').notNull(),
    /** 'initial' or 'recredentialing'. */
    cycle: text('cycle').notNull(),
    /** The completion attestation's signing, else submitted_at (files completed before attestations). */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Elapsed days (hours / 24): completion to decision; null without a completion. */
    totalDays: doublePrecision('total_days'),
    /** submitted_at -> review_started_at; null when the review was never started. */
    waitingReviewDays: doublePrecision('waiting_review_days'),
    /** The rest of the review: never below 0; null when the review was never started. */
    inReviewDays: doublePrecision('in_review_days'),
    /** The information requests open before the decision; null when the review was never started. */
    waitingProviderDays: doublePrecision('waiting_provider_days'),
    /** The 'Send for Decision' referrals open before the decision (0 when never sent). */
    waitingDecisionDays: doublePrecision('waiting_decision_days').notNull(),
    /** The latest attestation signed at or before the decision (the one in force); null: none. */
    attestedAt: timestamp('attested_at', { withTimezone: true }),
    /** The earliest verified_at of the items verified on or before the decision's UTC day; null: none. */
    oldestVerifiedOn: date('oldest_verified_on', { mode: 'string' }),
  },
  (t) => [
    index('decision_facts_decided_idx').on(t.decidedAt),
    check('decision_facts_outcome_check', sql`${t.outcome} in ('approved', 'rejected')`),
  ],
);
