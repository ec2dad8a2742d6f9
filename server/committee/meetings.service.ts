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
import {
  beforeMeetingStart,
  type CommitteeDecision,
  defaultQuorum,
  tallyVotes,
} from '../../domain/committee/committee-decisions.ts';
import type { DecisionClockLimits } from '../../domain/committee/timeliness.ts';
import {
  type ApplicationCycle,
  credentialState,
  rejectionEndsCredentialText,
} from '../../domain/credentials/provider-credential.ts';
import { hasPermission } from '../../domain/permissions.ts';
import { recusalOf } from '../../domain/review/file-duties.ts';
import type { AccessRole } from '../../domain/roles.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import { findProviderCredentials } from '../credential/credential-record.ts';
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
import { appealAttachmentsOf } from '../review/appeal-attachment-reads.ts';
import type { FieldCipher } from '../security/field-cipher.ts';
import { agendaFacts } from './agenda-facts.ts';
import { fileSummaryFacts } from './file-facts.ts';
import { itemNotFound, meetingNotFound, meetingRow, membersOf, openMeeting } from './meeting-rows.ts';

export { itemNotFound, membersOf, openMeeting };

/** Who is looking: their user id and the roles they act with. */
export interface MeetingViewer {
  userId: string;
  roles: readonly AccessRole[];
}

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
 * do to a credential and whether the meeting has started. Recusal is per person and file everywhere
 * (issue 50 item 4): a caller recused from a file at any meeting, or whose own file it is, sees its
 * row without its name, reasons, votes, decision text or discussion.
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
  const facts = await agendaFacts(
    db,
    items.map(({ item, kind, userId }) => ({ ...item, kind, providerId: userId })),
    viewer.userId,
  );
  const present = members.filter((m) => m.presentAt).map((m) => m.userId);
  const recorderIds = [...new Set(items.flatMap(({ item }) => (item.decidedBy ? [item.decidedBy] : [])))];
  const recorders = new Map(
    recorderIds.length === 0
      ? []
      : (
          await db
            .select({ id: user.id, name: user.name, email: user.email })
            .from(user)
            .where(inArray(user.id, recorderIds))
        ).map((u) => [u.id, u.name || u.email]),
  );
  const nameOf = new Map(members.map((m) => [m.userId, m.name]));
  return {
    meetingId: row.id,
    scheduledAt: row.scheduledAt.toISOString(),
    started: now.getTime() >= row.scheduledAt.getTime(),
    quorum: row.quorum,
    members: members.map((m) => ({
      userId: m.userId,
      name: m.name,
      email: m.email ?? '',
      presentAt: m.presentAt?.toISOString() ?? null,
    })),
    closedAt: row.closedAt?.toISOString() ?? null,
    canManage: hasPermission(viewer.roles, 'manage:meeting:any'),
    callerIsMember: members.some((m) => m.userId === viewer.userId),
    callerId: viewer.userId,
    agenda: items.map(({ item, reasons, kind, userId, cycle, firstName, lastName }) => {
      const file = facts.get(item.id)!;
      const callerRecusal = recusalOf(viewer.userId, file);
      const callerRecused =
        callerRecusal === 'recused' || callerRecusal === 'own_file' || file.recusedElsewhere;
      const providerName = providerFullName({ firstName, lastName });
      const credential = credentials.get(userId) ?? null;
      const recusals = members.flatMap((m) => {
        const reason = recusalOf(m.userId, file);
        return reason ? [{ memberId: m.userId, reason }] : [];
      });
      const voters = present.filter((id) => recusalOf(id, file) === null);
      const tally = tallyVotes({ voters, quorum: row.quorum, votes: file.votes });
      return {
        itemId: item.id,
        applicationId: item.applicationId,
        kind: kind as (typeof referralKinds)[number],
        providerName: callerRecused ? '' : providerName,
        position: item.position,
        recusedMemberIds: item.recusedMemberIds,
        callerRecused,
        callerRecusal,
        callerVote: file.votes.find((v) => v.memberId === viewer.userId)?.vote ?? null,
        recusals: callerRecused ? [] : recusals,
        votes: callerRecused
          ? []
          : file.votes.map((v) => ({
              memberId: v.memberId,
              name: nameOf.get(v.memberId) ?? '',
              vote: v.vote,
              votedAt: v.reviewedAt.toISOString(),
            })),
        tally:
          callerRecused || item.decision !== null
            ? null
            : {
                decision: tally.ok ? tally.decision : null,
                message: tally.ok ? null : tally.message,
                counts: tally.counts,
              },
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
                text: callerRecused ? '' : (item.decisionText ?? ''),
                votesFor: item.votesFor ?? 0,
                votesAgainst: item.votesAgainst ?? 0,
                votesAbstained: item.votesAbstained ?? 0,
                presentMemberIds: item.presentMemberIds ?? [],
                discussion: callerRecused ? '' : (item.discussion ?? ''),
                effectiveDate: item.effectiveDate,
                decidedAt: item.decidedAt.toISOString(),
                recordedBy: item.decidedBy ? (recorders.get(item.decidedBy) ?? null) : null,
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
      // The outer meeting is named with its table: drizzle writes a selected column unqualified
      // ("id"), which inside the agenda's subquery meant the agenda item's own id, so every
      // meeting listed 'Files 0' (issue 50 item 9).
      memberCount: sql<number>`(select count(*)::int from ${committeeMeetingMembers} m where m.meeting_id = committee_meetings.id)`,
      files: sql<number>`(select count(*)::int from ${committeeAgendaItems} a where a.meeting_id = committee_meetings.id)`,
      decided: sql<number>`(select count(*)::int from ${committeeAgendaItems} a where a.meeting_id = committee_meetings.id and a.decision is not null)`,
    })
    .from(committeeMeetings)
    .where(
      all
        ? undefined
        : sql`exists (select 1 from ${committeeMeetingMembers} m where m.meeting_id = committee_meetings.id and m.user_id = ${viewer.userId})`,
    )
    .orderBy(desc(committeeMeetings.scheduledAt), desc(committeeMeetings.id))
    .limit(200);
  return rows.map((r) => ({
    ...r,
    scheduledAt: r.scheduledAt.toISOString(),
    closedAt: r.closedAt?.toISOString() ?? null,
  }));
}

/** 'Close Meeting': refused (409) while a file on the agenda has no decision; then frozen. */
export async function closeMeeting(db: Database, actor: Actor, meetingId: string, now: Date) {
  await db.transaction(async (tx) => {
    const meeting = await openMeeting(tx, meetingId);
    // Issue 50 item 3: a meeting is closed once it has been held, never before it starts.
    const early = beforeMeetingStart(meeting.scheduledAt, now, 'it can be closed');
    if (early) throw new AppError('conflict', early);
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
      providerId: providerApplications.userId,
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
  // Issue 50 item 4: recusal is per person and file, at every meeting; and nobody reads their own file here.
  const [elsewhere] = await db
    .select({ id: committeeAgendaItems.id })
    .from(committeeAgendaItems)
    .where(
      and(
        eq(committeeAgendaItems.applicationId, applicationId),
        sql`${viewer.userId} = any(${committeeAgendaItems.recusedMemberIds})`,
      ),
    )
    .limit(1);
  if (elsewhere || row.providerId === viewer.userId) {
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
          attachments: await appealAttachmentsOf(db, applicationId),
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
