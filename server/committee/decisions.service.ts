/**
 * Decisions of files (issue 32 item 4, docs/decisions/029): 'Send for Decision' routes a file whose
 * checklist is complete to the medical director's 'Clean Files' list or to 'Ready for Committee'
 * (domain/committee/clean-file.ts decides which); the medical director approves a clean file or sends
 * it on to the committee. The specialist who verified a file cannot be its only decider. Every step
 * runs under the application's row lock, is audited, and refuses (409) with what to do instead.
 */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { providerFullName } from '../../domain/account.ts';
import type {
  DecisionFile,
  ReviewSignature,
  referralKinds,
  SendForDecisionResult,
} from '../../domain/api/committee.ts';
import { AppError } from '../../domain/app-error.ts';
import { type DecisionTrack, decisionTrackLabel } from '../../domain/committee/committee-decisions.ts';
import type { DecisionClockLimits } from '../../domain/committee/timeliness.ts';
import type { ApplicationCycle } from '../../domain/credentials/provider-credential.ts';
import { fileDutyRefusal } from '../../domain/review/file-duties.ts';
import { nextStatus } from '../../domain/review/review-workflow.ts';
import { itemsToRedo, type VerificationStatus } from '../../domain/review/verification-checklist.ts';
import type { FieldChange } from '../../domain/review/verification-fingerprint.ts';
import { screeningGapMessage } from '../../domain/screening/coverage.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Auth } from '../auth/auth.ts';
import { confirmReviewSignature } from '../auth/review-signature.ts';
import { staffWithPermission } from '../auth/staff-recipients.ts';
import type { Database, Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { committeeAgendaItems, committeeMeetings, decisionReferrals } from '../db/schema/committee.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import type { ReviewMail } from '../mail/review-mail.ts';
import {
  closeReferral,
  type LockedApplication,
  lockApplication,
  recordDecision,
  type TransitionOutcome,
} from '../review/review-decisions.service.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import type { RateLimits } from '../security/rate-limits.ts';
import { cleanFileNow, decisionClocks, verifiersIn } from './file-facts.ts';

/** The open referral of a locked application (its place on a decision list), or undefined. */
export async function openReferral(tx: Queryable, applicationId: string) {
  const [row] = await tx
    .select()
    .from(decisionReferrals)
    .where(and(eq(decisionReferrals.applicationId, applicationId), isNull(decisionReferrals.closedAt)));
  return row;
}

function auditOf(actor: Actor, application: LockedApplication) {
  return {
    actorUserId: actor.userId,
    subjectUserId: application.userId,
    resourceType: 'application',
    resourceId: application.id,
    ipAddress: actor.ipAddress,
  } as const;
}

/**
 * 'Send for Decision' (issue 32 item 4): an Under Review file with no open information request and
 * every checklist item verified (within `maxAgeDays`) or waived goes to 'Clean Files' when
 * `cleanFileReview` finds nothing, else to 'Ready for Committee' with the reasons.
 * @throws 409 when the file is not Under Review, a request is open, it is already on a list, items
 *   are left to verify (listed), or a screening list the provider needs is missing or stale (named)
 */
export async function sendForDecision(
  db: Database,
  cipher: FieldCipher,
  actor: Actor,
  applicationId: string,
  now: Date,
  maxAgeDays: number,
): Promise<SendForDecisionResult & { mails: ReviewMail[] }> {
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    if (application.applicationStatus !== 'under_review') {
      throw new AppError(
        'conflict',
        "'Send for Decision' needs a file that is Under Review. Reload to see its current status.",
      );
    }
    if (application.openRequest) {
      throw new AppError(
        'conflict',
        "An information request is waiting for the provider's response: send the file for decision once they have responded.",
      );
    }
    const open = await openReferral(tx, application.id);
    if (open) {
      throw new AppError(
        'conflict',
        `This file is on the '${decisionTrackLabel[open.track as DecisionTrack]}' list already.`,
      );
    }
    const verdict = await cleanFileNow(tx, cipher, application.id, now);
    const redo = itemsToRedo(
      verdict.checklist.map((i) => ({
        ...i,
        status: i.status as VerificationStatus,
        changes: i.changes as FieldChange[] | null,
      })),
      now,
      maxAgeDays,
    );
    if (verdict.checklist.length === 0) redo.push('The verification checklist is empty');
    if (redo.length > 0) {
      throw new AppError(
        'conflict',
        `'Send for Decision' needs every checklist item verified (within ${maxAgeDays} days) or waived. Redo: ${redo.join('; ')}.`,
        { reasons: redo },
      );
    }
    // Issue 51 item 1: a 'No match' stands only on current lists, whoever verified it and when
    // (after the items to redo: those come first).
    if (verdict.screeningGaps.length > 0)
      throw new AppError('conflict', screeningGapMessage(verdict.screeningGaps));
    const track: DecisionTrack = verdict.needed ? 'committee' : 'clean_files';
    await tx.insert(decisionReferrals).values({
      applicationId: application.id,
      track,
      reasons: verdict.reasons,
      sentAt: now,
      sentBy: actor.userId,
    });
    await recordAudit(tx, {
      action: 'review.sent_for_decision',
      ...auditOf(actor, application),
      details: { applicationId: application.id, track, reasons: verdict.reasons.length },
    });
    const mails = track === 'clean_files' ? await medicalDirectorMails(tx, application) : [];
    return { track, reasons: verdict.reasons, mails };
  });
}

/**
 * Issue 50 item 9: each medical director is told a clean file waits on their list, but not about
 * their own file (they cannot decide it, domain/review/file-duties.ts).
 */
async function medicalDirectorMails(tx: Queryable, application: LockedApplication): Promise<ReviewMail[]> {
  const directors = await staffWithPermission(tx, 'decide:application:any', application.userId);
  return directors.map((d) => ({ kind: 'clean_file_waiting', to: d.email, applicationId: application.id }));
}

/** The open referral of `application` on `track`. @throws 409 naming where it is instead */
async function referralOn(tx: Queryable, application: LockedApplication, track: DecisionTrack, step: string) {
  const open = await openReferral(tx, application.id);
  if (open?.track === track) return open;
  throw new AppError(
    'conflict',
    open
      ? `'${step}' is for files on the '${decisionTrackLabel[track]}' list; this one is on '${decisionTrackLabel[open.track as DecisionTrack]}'.`
      : `'${step}' is for files on the '${decisionTrackLabel[track]}' list: send the file for decision first. Reload to see where it is.`,
  );
}

/**
 * 'Send to Committee' (issue 32 item 4): the medical director sends a clean file on to the committee,
 * with a note of what it should look at.
 */
export async function sendToCommittee(
  db: Database,
  actor: Actor,
  applicationId: string,
  note: string,
): Promise<SendForDecisionResult> {
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    const referral = await referralOn(tx, application, 'clean_files', 'Send to Committee');
    await tx
      .update(decisionReferrals)
      .set({ track: 'committee', note })
      .where(eq(decisionReferrals.id, referral.id));
    await recordAudit(tx, {
      action: 'review.sent_to_committee',
      ...auditOf(actor, application),
      details: { applicationId: application.id, noteLength: note.length },
    });
    return { track: 'committee', reasons: referral.reasons };
  });
}

/**
 * 'Approve' of a clean file by the medical director (issue 32 item 4; NCQA CR 2). Refused (409) unless
 * the file is on 'Clean Files' and still clean now (a discrepancy or a match since it was sent sends
 * it to the committee instead), and (403) when the caller verified or waived any of its items: the
 * specialist who verified a file cannot be its only decider.
 */
export async function approveCleanFile(
  deps: { db: Database; cipher: FieldCipher; auth: Auth; rateLimits: RateLimits },
  actor: Actor,
  applicationId: string,
  signature: ReviewSignature,
  now: Date,
  maxAgeDays: number,
): Promise<TransitionOutcome> {
  const { db, cipher } = deps;
  return db.transaction(async (tx) => {
    const application = await lockApplication(tx, applicationId);
    // The state machine's refusal first (a decided file: "the decision is final").
    const state = nextStatus(
      { status: application.applicationStatus, openRequest: application.openRequest !== null },
      'approve',
      'reviewer',
    );
    if (!state.ok) throw new AppError('conflict', state.message);
    await referralOn(tx, application, 'clean_files', 'Approve');
    const verdict = await cleanFileNow(tx, cipher, application.id, now);
    // Who verified it, from the checklist just read.
    const verifiers = verifiersIn(verdict.checklist);
    if (verdict.needed) {
      throw new AppError(
        'conflict',
        `This file is no longer clean (${verdict.reasons.join('; ')}): use 'Send to Committee'.`,
        { reasons: verdict.reasons },
      );
    }
    // Issue 50 item 1: never the director's own file, nor a file they verified (domain/review/file-duties.ts).
    const refusal = fileDutyRefusal(
      actor,
      { providerId: application.userId, verifierIds: verifiers },
      'approve',
    );
    if (refusal) throw new AppError('forbidden', refusal);
    // Issue 50 item 7: 'I reviewed this file', signed with the director's second factor.
    await confirmReviewSignature(deps, actor.userId, signature);
    const outcome = await recordDecision(tx, { actor, role: 'reviewer' }, application, {
      to: 'approved',
      by: 'medical_director',
      decidedBy: actor.userId,
      now,
      maxAgeDays,
    });
    await closeReferral(tx, application.id, 'approved', now);
    return outcome;
  });
}

/**
 * The files on a decision list (issue 32 items 4 and 7), oldest sent first, each with its clock and
 * the open meeting whose agenda holds it.
 */
export async function decisionList(
  db: Database,
  track: DecisionTrack,
  limits: DecisionClockLimits,
  now: Date,
): Promise<DecisionFile[]> {
  const rows = await db
    .select({
      applicationId: decisionReferrals.applicationId,
      sentAt: decisionReferrals.sentAt,
      sentBy: user.name,
      reasons: decisionReferrals.reasons,
      note: decisionReferrals.note,
      kind: decisionReferrals.kind,
      cycle: providerApplications.cycle,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(decisionReferrals)
    .innerJoin(providerApplications, eq(providerApplications.id, decisionReferrals.applicationId))
    .leftJoin(profiles, eq(profiles.userId, providerApplications.userId))
    .leftJoin(user, eq(user.id, decisionReferrals.sentBy))
    .where(and(isNull(decisionReferrals.closedAt), eq(decisionReferrals.track, track)))
    .orderBy(asc(decisionReferrals.sentAt), asc(decisionReferrals.applicationId))
    .limit(500);
  const ids = rows.map((r) => r.applicationId);
  const [clocks, agenda] = await Promise.all([
    decisionClocks(db, ids, limits, now),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .select({
            applicationId: committeeAgendaItems.applicationId,
            meetingId: committeeMeetings.id,
            scheduledAt: committeeMeetings.scheduledAt,
          })
          .from(committeeAgendaItems)
          .innerJoin(committeeMeetings, eq(committeeMeetings.id, committeeAgendaItems.meetingId))
          .where(
            and(inArray(committeeAgendaItems.applicationId, ids), isNull(committeeAgendaItems.decision)),
          ),
  ]);
  const onAgenda = new Map(agenda.map((a) => [a.applicationId, a]));
  return rows.map((row) => {
    const meeting = onAgenda.get(row.applicationId);
    return {
      applicationId: row.applicationId,
      kind: row.kind as (typeof referralKinds)[number],
      providerName: providerFullName(row),
      cycle: row.cycle as ApplicationCycle,
      sentAt: row.sentAt.toISOString(),
      sentBy: row.sentBy,
      reasons: row.reasons,
      note: row.note,
      decisionDue: clocks.get(row.applicationId) ?? null,
      meeting: meeting
        ? { meetingId: meeting.meetingId, scheduledAt: meeting.scheduledAt.toISOString() }
        : null,
    };
  });
}
