/**
 * Decisions on a credentialing application (issue 13; issue 32, docs/decisions/029): every decision,
 * the medical director's, the committee's and the workflow integration's, is written by
 * `recordDecision` (or `recordAppealDecision` for an appeal) on an application locked with
 * `lockApplication`, in the caller's transaction: the status moves, the provider's credential is
 * granted, extended or ended, the decision is audited and announced, and its letter written
 * (decision-letter.ts). `closeReferral` takes a file off the decision lists.
 *
 * This is the review's public API for deciding: the committee and the cycles use it and nothing else
 * of the review's transitions.
 */

import { and, asc, eq, isNull } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import type { Decider } from '../../domain/committee/committee-decisions.ts';
import { isoDay, itemsToRedo, type VerificationStatus } from '../../domain/review/verification-checklist.ts';
import type { FieldChange } from '../../domain/review/verification-fingerprint.ts';
import { recordDecisionCredential } from '../credential/credential-record.ts';
import type { Database, Queryable } from '../db/client.ts';
import { committeeAgendaItems, committeeAppeals, decisionReferrals } from '../db/schema/committee.ts';
import { verificationItems } from '../db/schema/review.ts';
import type { ReviewMail } from '../mail/review-mail.ts';
import { letterMail, providerNameOf, writeDecisionLetter } from './decision-letter.ts';
import {
  announce,
  auditTransition,
  decide,
  emailOf,
  type LockedApplication,
  lockApplication,
  move,
  type ReviewCaller,
  type TransitionOutcome,
} from './review-transaction.ts';

// A decision is recorded on an application its caller has locked, in the caller's transaction.
export { type LockedApplication, lockApplication, type ReviewCaller, type TransitionOutcome };

/** A decision as `recordDecision` writes it (issue 13; issue 32: who decided, and on what terms). */
export interface DecisionRecord {
  to: 'approved' | 'rejected';
  /** Who decided (domain `deciders`). */
  by: Decider;
  /** The medical director, or the meeting's recorder; null for the integration. */
  decidedBy: string | null;
  /** The denial's reason, shown to the provider. */
  reason?: string;
  /** The committee's conditions of an 'Approve with Conditions'. */
  conditions?: string;
  /** When the credential takes effect (YYYY-MM-DD); the decision's day when absent. */
  effectiveDate?: string;
  now: Date;
  /** VERIFICATION_MAX_AGE_DAYS: an approval needs every verification younger than this. */
  maxAgeDays: number;
}

/**
 * Records a decision on a locked application in the caller's transaction: an approval is refused
 * (409, listing the items to redo) until every checklist item is verified (within `maxAgeDays`) or
 * waived; then the status moves, the provider's credential is granted, extended or ended (issue 29),
 * and the decision is audited and announced. The caller has checked who may decide (issue 32).
 * @returns the mail to send once committed
 */
export async function recordDecision(
  tx: Queryable,
  caller: ReviewCaller,
  application: LockedApplication,
  decision: DecisionRecord,
): Promise<TransitionOutcome> {
  const action = decision.to === 'approved' ? 'approve' : 'reject';
  const to = decide(application, action, caller.role);
  if (decision.to === 'approved') {
    const items = await tx
      .select({
        target: verificationItems.target,
        status: verificationItems.status,
        verifiedAt: verificationItems.verifiedAt,
        changes: verificationItems.changes,
        carriedForwardFrom: verificationItems.carriedForwardFrom,
      })
      .from(verificationItems)
      .where(eq(verificationItems.applicationId, application.id))
      .orderBy(asc(verificationItems.position));
    const redo = itemsToRedo(
      items.map((i) => ({
        ...i,
        status: i.status as VerificationStatus,
        changes: i.changes as FieldChange[] | null,
      })),
      decision.now,
      decision.maxAgeDays,
    );
    if (items.length === 0) redo.push('The verification checklist is empty: start the review first');
    if (redo.length > 0) {
      throw new AppError(
        'conflict',
        `'Approve' needs every checklist item verified (within ${decision.maxAgeDays} days) or waived. Redo: ${redo.join('; ')}.`,
        { reasons: redo },
      );
    }
  }
  const effectiveDate = decision.effectiveDate ?? isoDay(decision.now);
  await move(tx, application.id, application.applicationStatus, to, {
    decidedAt: decision.now,
    decisionReason: decision.reason ?? null,
    decidedByRole: decision.by,
    decidedBy: decision.decidedBy,
    effectiveDate: decision.to === 'approved' ? effectiveDate : null,
    decisionConditions: decision.conditions ?? null,
  });
  // Issue 29 item 1: the decision grants or extends the provider's credential (from the effective date,
  // issue 32), or ends a recredentialed one today; in this transaction.
  const credential = await recordDecisionCredential(
    tx,
    application,
    decision.to,
    decision.to === 'approved' ? new Date(`${effectiveDate}T00:00:00Z`) : decision.now,
    decision.now,
  );
  await auditTransition(
    tx,
    caller,
    application,
    action === 'approve' ? 'review.approved' : 'review.rejected',
    to,
    { decidedBy: decision.by },
  );
  await announce(tx, caller, application, to, decision.now);
  // Issue 32 item 6: the decision's letter, in the same transaction; the email carries its text.
  const letter = await writeDecisionLetter(
    tx,
    application.id,
    {
      kind: decision.to === 'approved' ? 'approval' : 'denial',
      providerName: await providerNameOf(tx, application),
      by: decision.by,
      decidedOn: isoDay(decision.now),
      effectiveDate: decision.to === 'approved' ? effectiveDate : null,
      endsOn: decision.to === 'approved' ? (credential?.endsOn ?? null) : null,
      conditions: decision.conditions ?? null,
      reason: decision.reason ?? null,
    },
    decision.now,
    decision.decidedBy,
  );
  const email = await emailOf(tx, application.userId);
  return {
    applicationStatus: to,
    mails: [
      ...(email
        ? [{ kind: decision.to, to: email, applicationId: application.id, letter: letterMail(letter) }]
        : []),
      ...(await specialistMail(tx, application, decision.decidedBy)),
    ],
  };
}

/**
 * Issue 50 item 9: the file's specialist (its assigned reviewer) is told a decision was recorded,
 * unless they recorded it themselves.
 */
async function specialistMail(
  tx: Queryable,
  application: LockedApplication,
  decidedBy: string | null,
): Promise<ReviewMail[]> {
  if (application.reviewerId === decidedBy) return [];
  const email = await emailOf(tx, application.reviewerId);
  return email ? [{ kind: 'decision_recorded', to: email, applicationId: application.id }] : [];
}

/** An appeal's decision (issue 32 item 6) as `recordAppealDecision` writes it. */
export interface AppealDecisionRecord {
  /** 'approved': the denial is reversed; 'upheld': it stands. Either is final. */
  outcome: 'approved' | 'upheld';
  decidedBy: string;
  /** Upheld: why; approved: the conditions, if any. */
  reason?: string;
  conditions?: string;
  effectiveDate?: string;
  now: Date;
}

/**
 * Records the committee's decision on the appeal of a denied (`rejected`) application, in the
 * caller's transaction: 'approved' moves it to approved (the one move out of a final status, issue 32
 * item 6), grants the credential from the effective date and announces the change; 'upheld' leaves it
 * rejected. Either way the appeal gets its outcome, and the provider a letter saying it is final.
 * @throws 409 when the application is not rejected or its appeal was decided already
 */
export async function recordAppealDecision(
  tx: Queryable,
  caller: ReviewCaller,
  application: LockedApplication,
  decision: AppealDecisionRecord,
): Promise<TransitionOutcome> {
  if (application.applicationStatus !== 'rejected') {
    throw new AppError(
      'conflict',
      'Only a denied application is appealed. Reload to see its current status.',
    );
  }
  const decided = await tx
    .update(committeeAppeals)
    .set({ outcome: decision.outcome, decidedAt: decision.now })
    .where(and(eq(committeeAppeals.applicationId, application.id), isNull(committeeAppeals.outcome)))
    .returning({ id: committeeAppeals.id });
  if (decided.length === 0) {
    throw new AppError('conflict', 'This appeal has been decided already: its decision is final.');
  }
  const approved = decision.outcome === 'approved';
  const effectiveDate = decision.effectiveDate ?? isoDay(decision.now);
  let endsOn: string | null = null;
  if (approved) {
    await move(tx, application.id, 'rejected', 'approved', {
      decidedAt: decision.now,
      decisionReason: null,
      decidedByRole: 'committee',
      decidedBy: decision.decidedBy,
      effectiveDate,
      decisionConditions: decision.conditions ?? null,
    });
    const credential = await recordDecisionCredential(
      tx,
      application,
      'approved',
      new Date(`${effectiveDate}T00:00:00Z`),
      decision.now,
    );
    endsOn = credential?.endsOn ?? null;
    await announce(tx, caller, application, 'approved', decision.now);
  }
  const to = approved ? 'approved' : 'rejected';
  await auditTransition(tx, caller, application, 'review.appeal_decided', to, { outcome: decision.outcome });
  const letter = await writeDecisionLetter(
    tx,
    application.id,
    {
      kind: approved ? 'appeal_approved' : 'appeal_upheld',
      providerName: await providerNameOf(tx, application),
      by: 'committee',
      decidedOn: isoDay(decision.now),
      effectiveDate: approved ? effectiveDate : null,
      endsOn,
      conditions: decision.conditions ?? null,
      reason: decision.reason ?? null,
    },
    decision.now,
  );
  const email = await emailOf(tx, application.userId);
  return {
    applicationStatus: to,
    mails: [
      ...(email
        ? [
            {
              kind: to,
              to: email,
              applicationId: application.id,
              letter: letterMail(letter),
            } satisfies ReviewMail,
          ]
        : []),
      ...(await specialistMail(tx, application, decision.decidedBy)),
    ],
  };
}

/**
 * 'Approve' or 'Reject' by the workflow integration (issue 13 "Integration"; issue 32: the
 * organization's own decision system, recorded as the integration's).
 */
export async function integrationDecision(
  db: Database,
  caller: ReviewCaller,
  applicationId: string,
  decision: Omit<DecisionRecord, 'by' | 'decidedBy'>,
): Promise<TransitionOutcome> {
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    const outcome = await recordDecision(tx, caller, application, {
      ...decision,
      by: 'integration',
      decidedBy: null,
    });
    await closeReferral(tx, application.id, decision.to, decision.now);
    return outcome;
  });
}

/**
 * Takes a decided, deferred or closed file off the decision lists (issue 32): its open referral is
 * closed with `outcome`, and it leaves any agenda where it is still undecided (a closed meeting has
 * none). Nothing happens when the file was not sent for decision.
 */
export async function closeReferral(
  tx: Queryable,
  applicationId: string,
  outcome: 'approved' | 'rejected' | 'deferred' | 'withdrawn',
  now: Date,
  outcomeText: string | null = null,
): Promise<void> {
  await tx
    .delete(committeeAgendaItems)
    .where(and(eq(committeeAgendaItems.applicationId, applicationId), isNull(committeeAgendaItems.decision)));
  await tx
    .update(decisionReferrals)
    .set({ closedAt: now, outcome, outcomeText })
    .where(and(eq(decisionReferrals.applicationId, applicationId), isNull(decisionReferrals.closedAt)));
}
