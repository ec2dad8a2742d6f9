/**
 * Decisions (issue 32, docs/decisions/029): the files sent for a decision and the credentialing
 * committee's meetings. The decision itself (who, effective date, conditions) is on
 * provider_applications (core.ts).
 *
 * - decision_referrals: each 'Send for Decision' of a file, the list it went to ('clean_files' or
 *   'committee'), why it is not clean, the medical director's note when sent on to the committee, and
 *   when it left the lists (decided, deferred, closed); at most one open per application.
 * - committee_meetings, committee_meeting_members: a meeting, its members and quorum; closed meetings
 *   are frozen (the service refuses every change under the meeting's row lock).
 * - committee_agenda_items: a file on a meeting's agenda, its recusals and, once recorded, the
 *   decision with its votes and discussion (the minutes). A file is on at most one undecided item.
 * - decision_letters: the letter of each decision (item 6), as the facts it states; the PDF and the
 *   email are written from them (domain/committee/decision-letters.ts), so they never disagree.
 * - committee_appeals: a provider's 'Request Appeal' of a denial (one per application) and, once a
 *   later meeting decided it, its outcome.
 * - appeal_attachments: the PDFs a provider attaches to an appeal (issue 50 item 8): uploaded while
 *   the appeal may be requested (`appeal_id` null), taken into the appeal by 'Request Appeal'.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { providerApplications } from './core.ts';

export const decisionReferrals = pgTable(
  'decision_referrals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** 'clean_files' or 'committee' (domain/committee/committee-decisions.ts `decisionTracks`). */
    track: text('track').notNull(),
    /** Why the file is not clean when it was sent (cleanFileReview's reasons); [] for a clean file. */
    reasons: jsonb('reasons').$type<string[]>().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    sentBy: text('sent_by').references(() => user.id, { onDelete: 'set null' }),
    /** The medical director's note of 'Send to Committee'. */
    note: text('note'),
    /** When it left the lists: decided, deferred by the committee, or the cycle closed. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** 'approved', 'rejected', 'deferred' or 'withdrawn'. */
    outcome: text('outcome'),
    /** What the committee said is missing (Defer), shown on the review page. */
    outcomeText: text('outcome_text'),
    /**
     * 'decision'; 'appeal': a denied file's appeal, waiting for a later meeting (item 6); 'monitoring':
     * an approved file whose credential ongoing monitoring suspended (issue 49 item 2), for the
     * committee to continue (with or without conditions) or terminate.
     */
    kind: text('kind').notNull().default('decision'),
  },
  (t) => [
    uniqueIndex('decision_referrals_one_open_idx').on(t.applicationId).where(sql`${t.closedAt} is null`),
    index('decision_referrals_open_track_idx').on(t.track, t.sentAt).where(sql`${t.closedAt} is null`),
    // The Turnaround report (issue 34 item 1): a decided file's referrals, closed ones included.
    index('decision_referrals_application_idx').on(t.applicationId, t.sentAt),
    check('decision_referrals_track_check', sql`${t.track} in ('clean_files', 'committee')`),
    check('decision_referrals_kind_check', sql`${t.kind} in ('decision', 'appeal', 'monitoring')`),
  ],
);

export const committeeMeetings = pgTable('committee_meetings', {
  id: uuid('id').primaryKey().defaultRandom(),
  scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
  /** Members needed present and not recused for a decision. */
  quorum: integer('quorum').notNull(),
  createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** 'Close Meeting': the minutes are frozen from then on. */
  closedAt: timestamp('closed_at', { withTimezone: true }),
  closedBy: text('closed_by').references(() => user.id, { onDelete: 'set null' }),
  /**
   * The members' invitation's iCalendar SEQUENCE (RFC 5545 §3.8.7.4; issue 50 item 9): 0 when the
   * meeting is created, one more with every change of its agenda, so a calendar replaces the event.
   */
  noticeSequence: integer('notice_sequence').notNull().default(0),
});

export const committeeMeetingMembers = pgTable(
  'committee_meeting_members',
  {
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => committeeMeetings.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The member's name when added, so the minutes keep it if the account goes. */
    name: text('name').notNull(),
    /**
     * When the member was marked present (issue 50 items 3, 6): by the recorder, or by the member
     * joining; never before the meeting's start, never pre-ticked. Null: not (yet) present.
     */
    presentAt: timestamp('present_at', { withTimezone: true }),
    /** Who marked them present: themselves, or the recorder. */
    presentMarkedBy: text('present_marked_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.meetingId, t.userId] }), index('committee_members_user_idx').on(t.userId)],
);

export const committeeAgendaItems = pgTable(
  'committee_agenda_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetingId: uuid('meeting_id')
      .notNull()
      .references(() => committeeMeetings.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    referralId: uuid('referral_id')
      .notNull()
      .references(() => decisionReferrals.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    recusedMemberIds: text('recused_member_ids').array().notNull().default(sql`'{}'::text[]`),
    /** domain `committeeDecisions`; null until 'Record Decision'. */
    decision: text('decision'),
    decisionText: text('decision_text'),
    votesFor: integer('votes_for'),
    votesAgainst: integer('votes_against'),
    votesAbstained: integer('votes_abstained'),
    presentMemberIds: text('present_member_ids').array(),
    discussion: text('discussion'),
    effectiveDate: date('effective_date', { mode: 'string' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('committee_agenda_meeting_application_idx').on(t.meetingId, t.applicationId),
    uniqueIndex('committee_agenda_one_undecided_idx').on(t.applicationId).where(sql`${t.decision} is null`),
    index('committee_agenda_meeting_idx').on(t.meetingId, t.position),
    check(
      'committee_agenda_decision_check',
      sql`${t.decision} in ('approve', 'approve_with_conditions', 'deny', 'defer')`,
    ),
  ],
);

export const decisionLetters = pgTable(
  'decision_letters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** domain `letterKinds`. */
    kind: text('kind').notNull(),
    /** domain `LetterFacts`: what the letter states (name, decider, dates, reason or conditions). */
    facts: jsonb('facts').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('decision_letters_application_idx').on(t.applicationId, t.createdAt),
    check(
      'decision_letters_kind_check',
      sql`${t.kind} in ('approval', 'denial', 'appeal_upheld', 'appeal_approved')`,
    ),
  ],
);

export const committeeAppeals = pgTable(
  'committee_appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** The provider's statement of why the decision should change. */
    statement: text('statement').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** 'upheld' or 'approved' once a meeting decided it; null while waiting. */
    outcome: text('outcome'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    // One appeal per denial: the appeal's decision is final.
    uniqueIndex('committee_appeals_application_idx').on(t.applicationId),
    check('committee_appeals_outcome_check', sql`${t.outcome} in ('upheld', 'approved')`),
  ],
);

/**
 * Each member's own vote on a file of a meeting's agenda (issue 50 item 2): cast by the member alone,
 * with "I reviewed this file" confirmed with their second factor (`reviewed_at`, item 7); changeable
 * by its member until the decision is recorded; one per member and file (the key makes two votes of
 * one member at once count once). 'Record Decision' takes the tally of these.
 */
export const committeeVotes = pgTable(
  'committee_votes',
  {
    agendaItemId: uuid('agenda_item_id')
      .notNull()
      .references(() => committeeAgendaItems.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** domain `committeeDecisions`. */
    vote: text('vote').notNull(),
    /** When the member confirmed "I reviewed this file" with their second factor. */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agendaItemId, t.memberId] }),
    index('committee_votes_member_idx').on(t.memberId),
    check(
      'committee_votes_vote_check',
      sql`${t.vote} in ('approve', 'approve_with_conditions', 'deny', 'defer')`,
    ),
  ],
);

/**
 * A PDF the provider attaches to the appeal of a denial (issue 50 item 8), stored like a document (the
 * documents' type detection, 10 MB limit and SHA-256; key `appeals/<applicationId>/<ms>.pdf`). Null
 * `appeal_id` while the appeal is still being written: the provider may remove it then; 'Request Appeal'
 * takes every such file into the appeal, after which it is part of the record and never changes.
 */
export const appealAttachments = pgTable(
  'appeal_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    appealId: uuid('appeal_id').references(() => committeeAppeals.id, { onDelete: 'cascade' }),
    /** The uploaded file's name, sanitised (never used in a path). */
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    sha256: text('sha256').notNull(),
    objectKey: text('object_key').notNull().unique(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('appeal_attachments_application_idx').on(t.applicationId, t.uploadedAt)],
);
