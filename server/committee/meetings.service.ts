/**
 * The credentialing committee's meetings (issue 32 item 5, docs/decisions/029; NCQA CR 2: a committee
 * of participating practitioners that meets in real time, reviews the files that are not clean and
 * documents its reasoning). A meeting has members (Committee Members and Medical Directors) and a
 * quorum; its agenda is built from 'Ready for Committee'; each file gets recusals and one recorded
 * decision with its votes; 'Close Meeting' freezes it all. Every change locks the meeting's row, so
 * nothing changes a closed meeting and two recorders never both decide one file.
 *
 * Who sees what: `manage:meeting:any` prepares meetings and records decisions; `read:meeting:any`
 * reads every meeting; a Committee Member (`read:meeting:member`) reads only the meetings they belong
 * to (others answer 404) and not the files they are recused from (403).
 */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { providerFullName } from '../../domain/account.ts';
import type {
  FileSummary,
  Meeting,
  MeetingSummary,
  NewMeeting,
  RecordDecision,
} from '../../domain/api/committee.ts';
import { AppError } from '../../domain/app-error.ts';
import {
  AGENDA_ITEMS_MAX,
  type CommitteeDecision,
  checkVote,
  committeeDecisionLabel,
  defaultQuorum,
} from '../../domain/committee/committee-decisions.ts';
import type { DecisionClockLimits } from '../../domain/committee/timeliness.ts';
import {
  type ApplicationCycle,
  credentialState,
  rejectionEndsCredentialText,
} from '../../domain/credentials/provider-credential.ts';
import { hasPermission } from '../../domain/permissions.ts';
import type { AccessRole } from '../../domain/roles.ts';
import { isUuid } from '../../domain/uuid.ts';
import { findProviderCredentials } from '../applications/provider-credential.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import { type Database, type Queryable, readAll } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import {
  committeeAgendaItems,
  committeeAppeals,
  committeeMeetingMembers,
  committeeMeetings,
  decisionReferrals,
} from '../db/schema/committee.ts';
import { profiles, providerApplications, staffRoleGrants } from '../db/schema/core.ts';
import {
  closeReferral,
  lockApplication,
  recordAppealDecision,
  recordDecision,
  type TransitionOutcome,
} from '../review/review-decisions.service.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { openReferral } from './decisions.service.ts';
import { fileSummaryFacts, verifiersOf } from './file-facts.ts';

/** Who is looking: their user id and the roles they act with. */
export interface MeetingViewer {
  userId: string;
  roles: readonly AccessRole[];
}

const meetingNotFound = () =>
  new AppError('not_found', 'Meeting not found. Return to the Committee tab and choose a meeting.');
const itemNotFound = () =>
  new AppError('not_found', 'That file is not on this agenda any more. Reload the meeting.');

/** Who may sit on a meeting: everyone holding the Committee Member or Medical Director role. */
export async function committeeMembers(db: Queryable) {
  return db
    .selectDistinct({ userId: user.id, name: user.name, email: user.email })
    .from(staffRoleGrants)
    .innerJoin(user, eq(user.id, staffRoleGrants.userId))
    .where(inArray(staffRoleGrants.role, ['committee', 'medical_director']))
    .orderBy(asc(user.name), asc(user.id))
    .limit(500);
}

/** 'New Meeting': its members must be committee members or medical directors (400 otherwise). */
export async function createMeeting(
  db: Database,
  actor: Actor,
  body: NewMeeting,
  now: Date,
): Promise<string> {
  return db.transaction(async (tx) => {
    const eligible = await committeeMembers(tx);
    const byId = new Map(eligible.map((m) => [m.userId, m]));
    const strangers = body.memberIds.filter((id) => !byId.has(id));
    if (strangers.length > 0) {
      throw new AppError(
        'validation_failed',
        'Only Committee Members and Medical Directors can sit on a meeting: give them a role on the Staff tab first.',
        { issues: [{ path: ['memberIds'], message: 'Choose committee members' }] },
      );
    }
    const quorum = body.quorum ?? defaultQuorum(body.memberIds.length);
    const [meeting] = await tx
      .insert(committeeMeetings)
      .values({ scheduledAt: new Date(body.scheduledAt), quorum, createdBy: actor.userId, createdAt: now })
      .returning({ id: committeeMeetings.id });
    const meetingId = (meeting as { id: string }).id;
    await tx
      .insert(committeeMeetingMembers)
      .values(body.memberIds.map((userId) => ({ meetingId, userId, name: byId.get(userId)?.name ?? '' })));
    await recordAudit(tx, {
      action: 'committee.meeting_created',
      actorUserId: actor.userId,
      resourceType: 'committee_meeting',
      resourceId: meetingId,
      ipAddress: actor.ipAddress,
      details: { scheduledAt: body.scheduledAt, members: body.memberIds.length, quorum },
    });
    return meetingId;
  });
}

async function meetingRow(db: Queryable, meetingId: string, lock: boolean) {
  if (!isUuid(meetingId)) throw meetingNotFound();
  const query = db.select().from(committeeMeetings).where(eq(committeeMeetings.id, meetingId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw meetingNotFound();
  return row;
}

async function membersOf(db: Queryable, meetingId: string) {
  return db
    .select({ userId: committeeMeetingMembers.userId, name: committeeMeetingMembers.name, email: user.email })
    .from(committeeMeetingMembers)
    .leftJoin(user, eq(user.id, committeeMeetingMembers.userId))
    .where(eq(committeeMeetingMembers.meetingId, meetingId))
    .orderBy(asc(committeeMeetingMembers.name));
}

/** The meeting when `viewer` may read it. @throws 404 for a meeting they do not belong to */
async function readableMeeting(db: Queryable, meetingId: string, viewer: MeetingViewer) {
  const row = await meetingRow(db, meetingId, false);
  const members = await membersOf(db, meetingId);
  if (!hasPermission(viewer.roles, 'read:meeting:any') && !members.some((m) => m.userId === viewer.userId)) {
    throw meetingNotFound();
  }
  return { row, members };
}

/**
 * A meeting as its page shows it (domain/api/committee.ts `Meeting`); `now` dates what a denial would
 * do to a credential.
 */
export async function getMeeting(
  db: Queryable,
  meetingId: string,
  viewer: MeetingViewer,
  now: Date,
): Promise<Meeting> {
  const { row, members } = await readableMeeting(db, meetingId, viewer);
  const items = await db
    .select({
      item: committeeAgendaItems,
      reasons: decisionReferrals.reasons,
      kind: decisionReferrals.kind,
      userId: providerApplications.userId,
      cycle: providerApplications.cycle,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(committeeAgendaItems)
    .innerJoin(decisionReferrals, eq(decisionReferrals.id, committeeAgendaItems.referralId))
    .innerJoin(providerApplications, eq(providerApplications.id, committeeAgendaItems.applicationId))
    .leftJoin(profiles, eq(profiles.userId, providerApplications.userId))
    .where(eq(committeeAgendaItems.meetingId, meetingId))
    .orderBy(asc(committeeAgendaItems.position));
  // Issue 29 item 1: a recredentialing denial ends a held credential; 'Record Decision' says so first.
  const credentials = await findProviderCredentials(
    db,
    items.filter((i) => i.item.decision === null && i.kind === 'decision').map((i) => i.userId),
  );
  return {
    meetingId: row.id,
    scheduledAt: row.scheduledAt.toISOString(),
    quorum: row.quorum,
    members: members.map((m) => ({ userId: m.userId, name: m.name, email: m.email ?? '' })),
    closedAt: row.closedAt?.toISOString() ?? null,
    canManage: hasPermission(viewer.roles, 'manage:meeting:any'),
    agenda: items.map(({ item, reasons, kind, userId, cycle, firstName, lastName }) => {
      const callerRecused = item.recusedMemberIds.includes(viewer.userId);
      const providerName = providerFullName({ firstName, lastName });
      const credential = credentials.get(userId) ?? null;
      return {
        itemId: item.id,
        applicationId: item.applicationId,
        kind: kind as 'decision' | 'appeal',
        providerName: callerRecused ? '' : providerName,
        position: item.position,
        recusedMemberIds: item.recusedMemberIds,
        callerRecused,
        reasons: callerRecused ? [] : reasons,
        denialEndsCredential:
          callerRecused || item.decision !== null || kind !== 'decision'
            ? null
            : rejectionEndsCredentialText(
                cycle as ApplicationCycle,
                credentialState(credential, now),
                providerName,
                now,
              ),
        decision:
          item.decision && item.decidedAt
            ? {
                decision: item.decision as CommitteeDecision,
                text: item.decisionText ?? '',
                votesFor: item.votesFor ?? 0,
                votesAgainst: item.votesAgainst ?? 0,
                votesAbstained: item.votesAbstained ?? 0,
                presentMemberIds: item.presentMemberIds ?? [],
                discussion: callerRecused ? '' : (item.discussion ?? ''),
                effectiveDate: item.effectiveDate,
                decidedAt: item.decidedAt.toISOString(),
              }
            : null,
      };
    }),
  };
}

/** The meetings `viewer` may read, newest first (a Committee Member: theirs only). */
export async function listMeetings(db: Queryable, viewer: MeetingViewer): Promise<MeetingSummary[]> {
  const all = hasPermission(viewer.roles, 'read:meeting:any');
  const rows = await db
    .select({
      meetingId: committeeMeetings.id,
      scheduledAt: committeeMeetings.scheduledAt,
      closedAt: committeeMeetings.closedAt,
      memberCount: sql<number>`(select count(*)::int from ${committeeMeetingMembers} m where m.meeting_id = ${committeeMeetings.id})`,
      files: sql<number>`(select count(*)::int from ${committeeAgendaItems} a where a.meeting_id = ${committeeMeetings.id})`,
      decided: sql<number>`(select count(*)::int from ${committeeAgendaItems} a where a.meeting_id = ${committeeMeetings.id} and a.decision is not null)`,
    })
    .from(committeeMeetings)
    .where(
      all
        ? undefined
        : sql`exists (select 1 from ${committeeMeetingMembers} m where m.meeting_id = ${committeeMeetings.id} and m.user_id = ${viewer.userId})`,
    )
    .orderBy(desc(committeeMeetings.scheduledAt), desc(committeeMeetings.id))
    .limit(200);
  return rows.map((r) => ({
    ...r,
    scheduledAt: r.scheduledAt.toISOString(),
    closedAt: r.closedAt?.toISOString() ?? null,
  }));
}

/** The meeting locked for a change; refused (409) once closed. */
async function openMeeting(tx: Queryable, meetingId: string) {
  const row = await meetingRow(tx, meetingId, true);
  if (row.closedAt) {
    throw new AppError('conflict', 'This meeting is closed: its minutes are final and cannot change.');
  }
  return row;
}

async function agendaItem(tx: Queryable, meetingId: string, itemId: string) {
  if (!isUuid(itemId)) throw itemNotFound();
  const [item] = await tx
    .select()
    .from(committeeAgendaItems)
    .where(and(eq(committeeAgendaItems.id, itemId), eq(committeeAgendaItems.meetingId, meetingId)));
  if (!item) throw itemNotFound();
  return item;
}

function undecided(item: typeof committeeAgendaItems.$inferSelect) {
  if (item.decision) {
    throw new AppError(
      'conflict',
      'The committee has decided this file: its decision is part of the minutes.',
    );
  }
}

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
    // Issue 32 item 6: an appeal is heard at a meeting held after the denial.
    if (referral.kind === 'appeal') {
      const [denied] = await tx
        .select({ decidedAt: providerApplications.decidedAt })
        .from(providerApplications)
        .where(eq(providerApplications.id, application.id));
      if (denied?.decidedAt && meeting.scheduledAt <= denied.decidedAt) {
        throw new AppError(
          'conflict',
          'An appeal is heard at a later meeting than the one that denied the file: choose a meeting after the denial.',
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
 * 'Record Decision' (issue 32 item 5): checks the vote (domain `checkVote`: quorum of members present
 * and not recused, every one counted, more for than against, not only the file's verifiers), records
 * it in the minutes and carries it out: an approval (with its conditions and effective date) or a
 * denial decides the application (review/review-decisions.service.ts `recordDecision`); a deferral
 * sends the file back to its specialist with what is missing.
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
    const item = await agendaItem(tx, meetingId, itemId);
    undecided(item);
    const application = await lockApplication(tx, item.applicationId);
    // One after the other: a transaction is one connection (readAll).
    const [members, verifiers] = await readAll(tx, [
      () => membersOf(tx, meetingId),
      () => verifiersOf(tx, application.id),
    ]);
    const vote = checkVote({
      members: members.map((m) => m.userId),
      present: body.presentMemberIds,
      recused: item.recusedMemberIds,
      quorum: meeting.quorum,
      votesFor: body.votesFor,
      votesAgainst: body.votesAgainst,
      votesAbstained: body.votesAbstained,
      verifiers,
    });
    if (!vote.ok) throw new AppError('conflict', vote.message);
    const approving = body.decision === 'approve' || body.decision === 'approve_with_conditions';
    await tx
      .update(committeeAgendaItems)
      .set({
        decision: body.decision,
        decisionText: body.text,
        votesFor: body.votesFor,
        votesAgainst: body.votesAgainst,
        votesAbstained: body.votesAbstained,
        presentMemberIds: [...new Set(body.presentMemberIds)],
        discussion: body.discussion,
        effectiveDate: approving ? (body.effectiveDate ?? null) : null,
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
        decision: committeeDecisionLabel[body.decision],
        votesFor: body.votesFor,
        votesAgainst: body.votesAgainst,
        votesAbstained: body.votesAbstained,
      },
    });
    const [referral] = await tx
      .select({ kind: decisionReferrals.kind })
      .from(decisionReferrals)
      .where(eq(decisionReferrals.id, item.referralId));
    if (referral?.kind === 'appeal') {
      // Issue 32 item 6: a deferred appeal waits on 'Ready for Committee' for another meeting; any other
      // decision on it is final.
      if (body.decision === 'defer') return null;
      const outcome = await recordAppealDecision(tx, { actor, role: 'reviewer' }, application, {
        outcome: approving ? 'approved' : 'upheld',
        decidedBy: actor.userId,
        reason: approving ? undefined : body.text,
        conditions: body.decision === 'approve_with_conditions' ? body.text : undefined,
        effectiveDate: approving ? body.effectiveDate : undefined,
        now,
      });
      await closeReferral(tx, application.id, approving ? 'approved' : 'rejected', now);
      return outcome;
    }
    if (body.decision === 'defer') {
      await closeReferral(tx, application.id, 'deferred', now, body.text);
      return null;
    }
    const outcome = await recordDecision(tx, { actor, role: 'reviewer' }, application, {
      to: approving ? 'approved' : 'rejected',
      by: 'committee',
      decidedBy: actor.userId,
      reason: approving ? undefined : body.text,
      conditions: body.decision === 'approve_with_conditions' ? body.text : undefined,
      effectiveDate: approving ? body.effectiveDate : undefined,
      now,
      maxAgeDays,
    });
    await closeReferral(tx, application.id, approving ? 'approved' : 'rejected', now);
    return outcome;
  });
}

/** 'Close Meeting': refused (409) while a file on the agenda has no decision; then frozen. */
export async function closeMeeting(db: Database, actor: Actor, meetingId: string, now: Date) {
  await db.transaction(async (tx) => {
    await openMeeting(tx, meetingId);
    const [pending] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(committeeAgendaItems)
      .where(and(eq(committeeAgendaItems.meetingId, meetingId), isNull(committeeAgendaItems.decision)));
    if ((pending?.count ?? 0) > 0) {
      throw new AppError(
        'conflict',
        `${pending?.count} file${pending?.count === 1 ? ' has' : 's have'} no decision yet: record a decision for each, or remove it from the agenda, then close the meeting.`,
      );
    }
    await tx
      .update(committeeMeetings)
      .set({ closedAt: now, closedBy: actor.userId })
      .where(eq(committeeMeetings.id, meetingId));
    await recordAudit(tx, {
      action: 'committee.meeting_closed',
      actorUserId: actor.userId,
      resourceType: 'committee_meeting',
      resourceId: meetingId,
      ipAddress: actor.ipAddress,
      details: { meetingId },
    });
  });
}

/**
 * The summary of a file on a meeting's agenda (issue 32 item 5), for those who may read the meeting
 * and are not recused from the file (403).
 */
export async function meetingFileSummary(
  db: Database,
  cipher: FieldCipher,
  meetingId: string,
  applicationId: string,
  viewer: MeetingViewer,
  limits: DecisionClockLimits,
  now: Date,
): Promise<FileSummary> {
  await readableMeeting(db, meetingId, viewer);
  if (!isUuid(applicationId)) throw itemNotFound();
  const [row] = await db
    .select({
      recused: committeeAgendaItems.recusedMemberIds,
      note: decisionReferrals.note,
      kind: decisionReferrals.kind,
      deniedFor: providerApplications.decisionReason,
      cycle: providerApplications.cycle,
      submittedAt: providerApplications.submittedAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(committeeAgendaItems)
    .innerJoin(decisionReferrals, eq(decisionReferrals.id, committeeAgendaItems.referralId))
    .innerJoin(providerApplications, eq(providerApplications.id, committeeAgendaItems.applicationId))
    .leftJoin(profiles, eq(profiles.userId, providerApplications.userId))
    .where(
      and(
        eq(committeeAgendaItems.meetingId, meetingId),
        eq(committeeAgendaItems.applicationId, applicationId),
      ),
    );
  if (!row) throw itemNotFound();
  if (row.recused.includes(viewer.userId)) {
    throw new AppError('forbidden', 'You are recused from this file: its summary is not shown to you.');
  }
  const [facts, [appeal]] = await Promise.all([
    fileSummaryFacts(db, cipher, applicationId, limits, now),
    row.kind === 'appeal'
      ? db
          .select({ statement: committeeAppeals.statement, requestedAt: committeeAppeals.requestedAt })
          .from(committeeAppeals)
          .where(eq(committeeAppeals.applicationId, applicationId))
      : Promise.resolve([]),
  ]);
  return {
    appeal: appeal
      ? {
          statement: appeal.statement,
          requestedAt: appeal.requestedAt.toISOString(),
          deniedFor: row.deniedFor,
        }
      : null,
    applicationId,
    providerName: providerFullName(row),
    cycle: row.cycle as ApplicationCycle,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    note: row.note,
    ...facts,
  };
}

/** The meeting's record for its minutes: only once closed (409 before). */
export async function closedMeeting(
  db: Queryable,
  meetingId: string,
  viewer: MeetingViewer,
  now: Date,
): Promise<Meeting> {
  const meeting = await getMeeting(db, meetingId, viewer, now);
  if (!meeting.closedAt) {
    throw new AppError(
      'conflict',
      "The minutes are ready once the meeting is closed: use 'Close Meeting' first.",
    );
  }
  return meeting;
}
