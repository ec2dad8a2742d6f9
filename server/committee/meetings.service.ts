/**
 * The credentialing committee's meetings (issue 32 item 5, docs/decisions/029; NCQA CR 2: a committee
 * of participating practitioners that meets in real time, reviews the files that are not clean and
 * documents its reasoning). A meeting has members (Committee Members and Medical Directors) and a
 * quorum; its agenda is built from 'Ready for Committee'; each file gets recusals and one recorded
 * decision with its votes (agenda.service.ts); 'Close Meeting' freezes it all. Every change locks the
 * meeting's row (`openMeeting`), so nothing changes a closed meeting and two recorders never both
 * decide one file.
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
  referralKinds,
} from '../../domain/api/committee.ts';
import { AppError } from '../../domain/app-error.ts';
import { type CommitteeDecision, defaultQuorum } from '../../domain/committee/committee-decisions.ts';
import type { DecisionClockLimits } from '../../domain/committee/timeliness.ts';
import {
  type ApplicationCycle,
  credentialState,
  rejectionEndsCredentialText,
} from '../../domain/credentials/provider-credential.ts';
import { hasPermission } from '../../domain/permissions.ts';
import type { AccessRole } from '../../domain/roles.ts';
import { isUuid } from '../../domain/uuid.ts';
import { findProviderCredentials } from '../credential/credential-record.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import {
  committeeAgendaItems,
  committeeAppeals,
  committeeMeetingMembers,
  committeeMeetings,
  decisionReferrals,
} from '../db/schema/committee.ts';
import { profiles, providerApplications, staffRoleGrants } from '../db/schema/core.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { fileSummaryFacts } from './file-facts.ts';

/** Who is looking: their user id and the roles they act with. */
export interface MeetingViewer {
  userId: string;
  roles: readonly AccessRole[];
}

/** 404 for a meeting id that is not one, names no meeting, or one the viewer does not sit on. */
const meetingNotFound = () =>
  new AppError('not_found', 'Meeting not found. Return to the Committee tab and choose a meeting.');

/** 404 for an agenda item or file that is not (any more) on the meeting's agenda. */
export const itemNotFound = () =>
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

/** The meeting's members by name, with their email addresses. */
export async function membersOf(db: Queryable, meetingId: string) {
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
        kind: kind as (typeof referralKinds)[number],
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
export async function openMeeting(tx: Queryable, meetingId: string) {
  const row = await meetingRow(tx, meetingId, true);
  if (row.closedAt) {
    throw new AppError('conflict', 'This meeting is closed: its minutes are final and cannot change.');
  }
  return row;
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
