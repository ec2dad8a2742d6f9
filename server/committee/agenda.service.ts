/**
 * A committee meeting's agenda (issue 32 items 5 and 6, docs/decisions/029): the 'Ready for Committee'
 * files on it, their order, who is recused from each, and each file's recorded decision ('Record
 * Decision'), which decides the application through review/review-decisions.service.ts. Every change
 * locks the meeting's row first (meetings.service.ts `openMeeting`), so nothing changes a closed
 * meeting and two recorders never both decide one file.
 */

import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { decisionTextMissing, type RecordDecision } from '../../domain/api/committee.ts';
import { AppError } from '../../domain/app-error.ts';
import { isoDay } from '../../domain/calendar.ts';
import {
  AGENDA_ITEMS_MAX,
  beforeMeetingStart,
  committeeDecisionLabel,
  tallyVotes,
} from '../../domain/committee/committee-decisions.ts';
import { recusalOf } from '../../domain/review/file-duties.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import { decideMonitoring } from '../credential/standing.ts';
import { type Database, type Queryable, readAll } from '../db/client.ts';
import {
  committeeAgendaItems,
  committeeMeetings,
  decisionLetters,
  decisionReferrals,
} from '../db/schema/committee.ts';
import { providerApplications } from '../db/schema/core.ts';
import {
  closeReferral,
  lockApplication,
  recordAppealDecision,
  recordDecision,
  type TransitionOutcome,
} from '../review/review-decisions.service.ts';
import { openReferral } from './decisions.service.ts';
import { reviseInvitation } from './meeting-notices.ts';
import { itemNotFound, membersOf, openMeeting } from './meeting-rows.ts';
import { itemFileFacts, presentMembers } from './votes.service.ts';

/** An item of the meeting's agenda. @throws 404 when the meeting has no such item */
async function agendaItem(tx: Queryable, meetingId: string, itemId: string) {
  if (!isUuid(itemId)) throw itemNotFound();
  const [item] = await tx
    .select()
    .from(committeeAgendaItems)
    .where(and(eq(committeeAgendaItems.id, itemId), eq(committeeAgendaItems.meetingId, meetingId)));
  if (!item) throw itemNotFound();
  return item;
}

/** @throws 409 once the committee has decided the item: its decision is part of the minutes. */
function undecided(item: typeof committeeAgendaItems.$inferSelect) {
  if (item.decision) {
    throw new AppError(
      'conflict',
      'The committee has decided this file: its decision is part of the minutes.',
    );
  }
}

/** The audit row of an agenda change (`committee.agenda_changed`) with what changed. */
async function auditAgenda(
  tx: Queryable,
  actor: Actor,
  meetingId: string,
  details: Record<string, string | number>,
) {
  await recordAudit(tx, {
    action: 'committee.agenda_changed',
    actorUserId: actor.userId,
    resourceType: 'committee_meeting',
    resourceId: meetingId,
    ipAddress: actor.ipAddress,
    details,
  });
}

/**
 * Adds a 'Ready for Committee' file to the end of an open meeting's agenda.
 * @throws 409 when the file is not on that list, or is on an agenda already (naming the meeting)
 */
export async function addAgendaItem(db: Database, actor: Actor, meetingId: string, applicationId: string) {
  await db.transaction(async (tx) => {
    const meeting = await openMeeting(tx, meetingId);
    const application = await lockApplication(tx, applicationId);
    const referral = await openReferral(tx, application.id);
    if (referral?.track !== 'committee') {
      throw new AppError(
        'conflict',
        "Only files on the 'Ready for Committee' list can be added to an agenda. Reload to see the list.",
      );
    }
    // Issue 32 item 6, issue 50 item 8: an appeal is heard at a meeting that starts after the denial
    // letter (the provider's notice of the decision), never at or before it.
    if (referral.kind === 'appeal') {
      const [letter] = await tx
        .select({ createdAt: decisionLetters.createdAt })
        .from(decisionLetters)
        .where(and(eq(decisionLetters.applicationId, application.id), eq(decisionLetters.kind, 'denial')))
        .orderBy(desc(decisionLetters.createdAt))
        .limit(1);
      const [denied] = await tx
        .select({ decidedAt: providerApplications.decidedAt })
        .from(providerApplications)
        .where(eq(providerApplications.id, application.id));
      const since = letter?.createdAt ?? denied?.decidedAt;
      if (since && meeting.scheduledAt <= since) {
        throw new AppError(
          'conflict',
          `An appeal is heard at a meeting that starts after the denial letter of ${since.toISOString().slice(0, 16).replace('T', ' ')} UTC: choose a later meeting.`,
        );
      }
    }
    const [elsewhere] = await tx
      .select({ scheduledAt: committeeMeetings.scheduledAt })
      .from(committeeAgendaItems)
      .innerJoin(committeeMeetings, eq(committeeMeetings.id, committeeAgendaItems.meetingId))
      .where(
        and(eq(committeeAgendaItems.applicationId, application.id), isNull(committeeAgendaItems.decision)),
      );
    if (elsewhere) {
      throw new AppError(
        'conflict',
        `This file is on the agenda of the meeting of ${elsewhere.scheduledAt.toISOString().slice(0, 10)} already: remove it there first.`,
      );
    }
    const [{ count, last } = { count: 0, last: 0 }] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        last: sql<number>`coalesce(max(${committeeAgendaItems.position}), 0)::int`,
      })
      .from(committeeAgendaItems)
      .where(eq(committeeAgendaItems.meetingId, meetingId));
    if (count >= AGENDA_ITEMS_MAX) {
      throw new AppError(
        'conflict',
        `An agenda holds at most ${AGENDA_ITEMS_MAX} files: plan another meeting.`,
      );
    }
    await tx.insert(committeeAgendaItems).values({
      meetingId,
      applicationId: application.id,
      referralId: referral.id,
      position: last + 1,
    });
    await reviseInvitation(tx, meetingId);
    await auditAgenda(tx, actor, meetingId, { change: 'added', applicationId: application.id });
  });
}

/** Removes an undecided file from an open meeting's agenda (it stays 'Ready for Committee'). */
export async function removeAgendaItem(db: Database, actor: Actor, meetingId: string, itemId: string) {
  await db.transaction(async (tx) => {
    await openMeeting(tx, meetingId);
    const item = await agendaItem(tx, meetingId, itemId);
    undecided(item);
    await tx.delete(committeeAgendaItems).where(eq(committeeAgendaItems.id, item.id));
    await reviseInvitation(tx, meetingId);
    await auditAgenda(tx, actor, meetingId, { change: 'removed', applicationId: item.applicationId });
  });
}

/** Puts the agenda in the order of `itemIds`, which must name every item once (400 otherwise). */
export async function reorderAgenda(
  db: Database,
  actor: Actor,
  meetingId: string,
  itemIds: readonly string[],
) {
  await db.transaction(async (tx) => {
    await openMeeting(tx, meetingId);
    const items = await tx
      .select({ id: committeeAgendaItems.id })
      .from(committeeAgendaItems)
      .where(eq(committeeAgendaItems.meetingId, meetingId));
    const current = new Set(items.map((i) => i.id));
    if (
      itemIds.length !== current.size ||
      new Set(itemIds).size !== itemIds.length ||
      itemIds.some((id) => !current.has(id))
    ) {
      throw new AppError(
        'validation_failed',
        'The agenda changed meanwhile: reload the meeting and order it again.',
        {
          issues: [{ path: ['itemIds'], message: 'Name every file of the agenda once' }],
        },
      );
    }
    for (const [index, id] of itemIds.entries()) {
      await tx
        .update(committeeAgendaItems)
        .set({ position: index + 1 })
        .where(eq(committeeAgendaItems.id, id));
    }
    await reviseInvitation(tx, meetingId);
    await auditAgenda(tx, actor, meetingId, { change: 'reordered', files: itemIds.length });
  });
}

/** Sets who is recused for an undecided file; every one must be a member of the meeting (400). */
export async function setRecusals(
  db: Database,
  actor: Actor,
  meetingId: string,
  itemId: string,
  memberIds: readonly string[],
) {
  await db.transaction(async (tx) => {
    await openMeeting(tx, meetingId);
    const item = await agendaItem(tx, meetingId, itemId);
    undecided(item);
    const members = new Set((await membersOf(tx, meetingId)).map((m) => m.userId));
    if (memberIds.some((id) => !members.has(id))) {
      throw new AppError(
        'validation_failed',
        'Only members of this meeting can be recused. Reload the meeting.',
        {
          issues: [{ path: ['memberIds'], message: 'Choose members of this meeting' }],
        },
      );
    }
    const recused = [...new Set(memberIds)];
    await tx
      .update(committeeAgendaItems)
      .set({ recusedMemberIds: recused })
      .where(eq(committeeAgendaItems.id, item.id));
    await auditAgenda(tx, actor, meetingId, {
      change: 'recusals',
      applicationId: item.applicationId,
      recused: recused.length,
    });
  });
}

/**
 * 'Record Decision' (issue 32 item 5; issue 50 item 2): the recorder writes the minutes (the text the
 * decision needs, the discussion); the decision is the tally of the members' own votes (domain
 * `tallyVotes`: a quorum of members present and not recused, and one decision with the votes of more
 * than half of them), from the meeting's start only (item 3). It is carried out: an approval (with
 * its conditions and effective date) or a denial decides the application (review/review-
 * decisions.service.ts `recordDecision`); a deferral sends the file back to its specialist with what is
 * missing; an appeal's or a monitoring finding's outcome as their own.
 * @returns the mail to send once committed
 */
export async function recordCommitteeDecision(
  db: Database,
  actor: Actor,
  meetingId: string,
  itemId: string,
  body: RecordDecision,
  now: Date,
  maxAgeDays: number,
): Promise<TransitionOutcome | null> {
  return db.transaction(async (tx) => {
    const meeting = await openMeeting(tx, meetingId);
    const early = beforeMeetingStart(meeting.scheduledAt, now, 'decisions are recorded');
    if (early) throw new AppError('conflict', early);
    const item = await agendaItem(tx, meetingId, itemId);
    undecided(item);
    const application = await lockApplication(tx, item.applicationId);
    // One after the other: a transaction is one connection (readAll).
    const [present, facts] = await readAll(tx, [
      () => presentMembers(tx, meetingId),
      () => itemFileFacts(tx, item),
    ]);
    const voters = present.filter((id) => recusalOf(id, facts) === null);
    const tally = tallyVotes({ voters, quorum: meeting.quorum, votes: facts.votes });
    if (!tally.ok) throw new AppError('conflict', tally.message);
    const decision = tally.decision;
    if (decision !== 'approve' && body.text.length === 0) {
      throw new AppError('validation_failed', decisionTextMissing[decision], {
        issues: [{ path: ['text'], message: decisionTextMissing[decision] }],
      });
    }
    const approving = decision === 'approve' || decision === 'approve_with_conditions';
    const effectiveDate = approving ? (body.effectiveDate ?? isoDay(now)) : undefined;
    await tx
      .update(committeeAgendaItems)
      .set({
        decision,
        decisionText: body.text,
        votesFor: tally.votesFor,
        votesAgainst: tally.votesAgainst,
        votesAbstained: tally.votesAbstained,
        presentMemberIds: voters,
        discussion: body.discussion,
        effectiveDate: effectiveDate ?? null,
        decidedAt: now,
        decidedBy: actor.userId,
      })
      .where(eq(committeeAgendaItems.id, item.id));
    await recordAudit(tx, {
      action: 'committee.decision_recorded',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: {
        applicationId: application.id,
        meetingId,
        decision: committeeDecisionLabel[decision],
        votesFor: tally.votesFor,
        votesAgainst: tally.votesAgainst,
        votesAbstained: tally.votesAbstained,
      },
    });
    const [referral] = await tx
      .select({ kind: decisionReferrals.kind })
      .from(decisionReferrals)
      .where(eq(decisionReferrals.id, item.referralId));
    if (referral?.kind === 'monitoring') {
      // Issue 49 item 2: a suspended credential continues or ends; a deferral waits for another meeting.
      if (decision === 'defer') return null;
      await closeReferral(tx, application.id, approving ? 'approved' : 'rejected', now, body.text || null);
      await decideMonitoring(tx, {
        userId: application.userId,
        decision: approving ? 'continue' : 'terminate',
        by: actor.userId,
        now,
      });
      return null;
    }
    if (referral?.kind === 'appeal') {
      // Issue 32 item 6: a deferred appeal waits on 'Ready for Committee' for another meeting; any other
      // decision on it is final.
      if (decision === 'defer') return null;
      const outcome = await recordAppealDecision(tx, { actor, role: 'reviewer' }, application, {
        outcome: approving ? 'approved' : 'upheld',
        decidedBy: actor.userId,
        reason: approving ? undefined : body.text,
        conditions: decision === 'approve_with_conditions' ? body.text : undefined,
        effectiveDate,
        now,
      });
      await closeReferral(tx, application.id, approving ? 'approved' : 'rejected', now);
      return outcome;
    }
    if (decision === 'defer') {
      await closeReferral(tx, application.id, 'deferred', now, body.text);
      return null;
    }
    const outcome = await recordDecision(tx, { actor, role: 'reviewer' }, application, {
      to: approving ? 'approved' : 'rejected',
      by: 'committee',
      decidedBy: actor.userId,
      reason: approving ? undefined : body.text,
      conditions: decision === 'approve_with_conditions' ? body.text : undefined,
      effectiveDate,
      now,
      maxAgeDays,
    });
    await closeReferral(tx, application.id, approving ? 'approved' : 'rejected', now);
    return outcome;
  });
}
