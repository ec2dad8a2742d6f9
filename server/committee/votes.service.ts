/**
 * A committee that decides as the record says (issue 50 items 2-4, 7; NCQA CR2): attendance marked
 * by the recorder or by members joining, from the meeting's start only; each present member's own
 * signed vote on each file; and the tally 'Record Decision' takes. Who may vote on a file is
 * domain/review/file-duties.ts `recusalOf`: not their own file, not a file they are recused from, not
 * a file they verified, not the appeal of a denial they voted on. Every change locks the meeting's row
 * first (meetings.service.ts `openMeeting`), so a vote and the decision it counts toward never cross.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { MemberVoteBody } from '../../domain/api/committee.ts';
import { AppError } from '../../domain/app-error.ts';
import { beforeMeetingStart } from '../../domain/committee/committee-decisions.ts';
import { fileDutyRefusal } from '../../domain/review/file-duties.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Auth } from '../auth/auth.ts';
import { confirmReviewSignature } from '../auth/review-signature.ts';
import type { Database, Queryable } from '../db/client.ts';
import {
  committeeAgendaItems,
  committeeMeetingMembers,
  committeeVotes,
  decisionReferrals,
} from '../db/schema/committee.ts';
import { providerApplications } from '../db/schema/core.ts';
import type { RateLimits } from '../security/rate-limits.ts';
import { type AgendaFileFacts, agendaFacts } from './agenda-facts.ts';
import { itemNotFound, meetingRow, openMeeting } from './meeting-rows.ts';

/**
 * The facts of `item`'s file that decide recusals and the tally (agenda-facts.ts, for one item), in
 * the caller's transaction.
 */
export async function itemFileFacts(
  db: Queryable,
  item: { id: string; applicationId: string; referralId: string; recusedMemberIds: readonly string[] },
): Promise<AgendaFileFacts> {
  const [row] = await db
    .select({ providerId: providerApplications.userId, kind: decisionReferrals.kind })
    .from(providerApplications)
    .innerJoin(decisionReferrals, eq(decisionReferrals.id, item.referralId))
    .where(eq(providerApplications.id, item.applicationId));
  const facts = await agendaFacts(
    db,
    [{ ...item, kind: row?.kind ?? 'decision', providerId: row?.providerId ?? '' }],
    '',
  );
  return facts.get(item.id)!;
}

/** The members present at `meetingId`. */
export async function presentMembers(db: Queryable, meetingId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: committeeMeetingMembers.userId })
    .from(committeeMeetingMembers)
    .where(
      and(eq(committeeMeetingMembers.meetingId, meetingId), isNotNull(committeeMeetingMembers.presentAt)),
    );
  return rows.map((r) => r.userId);
}

/**
 * 'Mark present' by the recorder (issue 50 item 6): the members present are exactly `memberIds`; each
 * newly present member is marked by the recorder, one no longer listed is absent again. Only from the
 * meeting's start (item 3).
 * @throws AppError conflict (before the start, a closed meeting), validation_failed (not a member)
 */
export async function setAttendance(
  db: Database,
  actor: Actor,
  meetingId: string,
  memberIds: readonly string[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const meeting = await openMeeting(tx, meetingId);
    const early = beforeMeetingStart(meeting.scheduledAt, now, 'attendance is taken');
    if (early) throw new AppError('conflict', early);
    const members = await tx
      .select({ userId: committeeMeetingMembers.userId })
      .from(committeeMeetingMembers)
      .where(eq(committeeMeetingMembers.meetingId, meetingId));
    const ids = new Set(members.map((m) => m.userId));
    const wanted = [...new Set(memberIds)];
    if (wanted.some((id) => !ids.has(id))) {
      throw new AppError(
        'validation_failed',
        'Only members of this meeting can be marked present. Reload the meeting.',
        {
          issues: [{ path: ['memberIds'], message: 'Choose members of this meeting' }],
        },
      );
    }
    if (wanted.length > 0) {
      await tx
        .update(committeeMeetingMembers)
        .set({ presentAt: now, presentMarkedBy: actor.userId })
        .where(
          and(
            eq(committeeMeetingMembers.meetingId, meetingId),
            inArray(committeeMeetingMembers.userId, wanted),
            isNull(committeeMeetingMembers.presentAt),
          ),
        );
    }
    await tx
      .update(committeeMeetingMembers)
      .set({ presentAt: null, presentMarkedBy: null })
      .where(
        and(
          eq(committeeMeetingMembers.meetingId, meetingId),
          wanted.length > 0
            ? sql`${committeeMeetingMembers.userId} <> all(${sql.param(wanted)}::text[])`
            : undefined,
        ),
      );
    await recordAudit(tx, {
      action: 'committee.attendance_recorded',
      actorUserId: actor.userId,
      resourceType: 'committee_meeting',
      resourceId: meetingId,
      ipAddress: actor.ipAddress,
      details: { present: wanted.length },
    });
  });
}

/**
 * 'Join Meeting' by a member (issue 50 item 6): marks themselves present, from the start on.
 * @throws AppError not_found (not a member), conflict (before the start, closed)
 */
export async function joinMeeting(db: Database, actor: Actor, meetingId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const meeting = await openMeeting(tx, meetingId);
    const early = beforeMeetingStart(meeting.scheduledAt, now, 'members join');
    if (early) throw new AppError('conflict', early);
    const joined = await tx
      .update(committeeMeetingMembers)
      .set({
        presentAt: sql`coalesce(${committeeMeetingMembers.presentAt}, ${now.toISOString()}::timestamptz)`,
        presentMarkedBy: sql`coalesce(${committeeMeetingMembers.presentMarkedBy}, ${actor.userId})`,
      })
      .where(
        and(
          eq(committeeMeetingMembers.meetingId, meetingId),
          eq(committeeMeetingMembers.userId, actor.userId),
        ),
      )
      .returning({ userId: committeeMeetingMembers.userId });
    if (joined.length === 0) {
      throw new AppError('not_found', 'Meeting not found. Return to the Committee tab and choose a meeting.');
    }
    await recordAudit(tx, {
      action: 'committee.member_joined',
      actorUserId: actor.userId,
      resourceType: 'committee_meeting',
      resourceId: meetingId,
      ipAddress: actor.ipAddress,
      details: { meetingId },
    });
  });
}

/**
 * A member's own vote on a file (issue 50 item 2), signed "I reviewed this file" with their second
 * factor (item 7). Only the member casts or changes it, while present, not recused (their own file,
 * a recorded recusal, a file they verified, the appeal of a denial they voted on), from the meeting's
 * start, until the decision is recorded. Two votes of one member at once: one row (the key), the
 * later wins.
 * @throws AppError not_found (no such item, not a member), forbidden (recused: the reason), conflict
 *   (before the start, not present, decided, closed), validation_failed (a wrong code), 429
 */
export async function castVote(
  deps: { db: Database; auth: Auth; rateLimits: RateLimits },
  actor: Actor,
  meetingId: string,
  itemId: string,
  body: MemberVoteBody,
  now: Date,
): Promise<void> {
  // The meeting and the item must exist (404 before any code is checked); then the signature, outside
  // the meeting's lock, so a wrong code never holds the meeting.
  await meetingRow(deps.db, meetingId, false);
  const [exists] = await deps.db
    .select({ id: committeeAgendaItems.id })
    .from(committeeAgendaItems)
    .where(and(eq(committeeAgendaItems.id, itemId), eq(committeeAgendaItems.meetingId, meetingId)));
  if (!exists) throw itemNotFound();
  await confirmReviewSignature(deps, actor.userId, { reviewed: body.reviewed, code: body.code });
  await deps.db.transaction(async (tx) => {
    const meeting = await openMeeting(tx, meetingId);
    const [item] = await tx
      .select()
      .from(committeeAgendaItems)
      .where(and(eq(committeeAgendaItems.id, itemId), eq(committeeAgendaItems.meetingId, meetingId)));
    if (!item) throw itemNotFound();
    const [member] = await tx
      .select({ presentAt: committeeMeetingMembers.presentAt })
      .from(committeeMeetingMembers)
      .where(
        and(
          eq(committeeMeetingMembers.meetingId, meetingId),
          eq(committeeMeetingMembers.userId, actor.userId),
        ),
      );
    if (!member) throw new AppError('forbidden', 'Only members of this meeting vote on its files.');
    const early = beforeMeetingStart(meeting.scheduledAt, now, 'votes are taken');
    if (early) throw new AppError('conflict', early);
    if (item.decision) {
      throw new AppError(
        'conflict',
        'The committee has decided this file: its decision is part of the minutes.',
      );
    }
    const facts = await itemFileFacts(tx, item);
    const refusal = fileDutyRefusal(actor, facts, 'vote');
    if (refusal) throw new AppError('forbidden', refusal);
    if (facts.recusedIds.includes(actor.userId)) {
      throw new AppError('forbidden', 'You are recused from this file: you do not vote on it.');
    }
    if (!member.presentAt) {
      throw new AppError('conflict', "Join the meeting first ('Join Meeting'): members vote while present.");
    }
    await tx
      .insert(committeeVotes)
      .values({
        agendaItemId: item.id,
        memberId: actor.userId,
        vote: body.vote,
        reviewedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [committeeVotes.agendaItemId, committeeVotes.memberId],
        set: { vote: body.vote, reviewedAt: now, updatedAt: now },
      });
    await recordAudit(tx, {
      action: 'committee.vote_cast',
      actorUserId: actor.userId,
      subjectUserId: facts.providerId,
      resourceType: 'application',
      resourceId: item.applicationId,
      ipAddress: actor.ipAddress,
      details: { meetingId, itemId: item.id, vote: body.vote, signed: true },
    });
  });
}
