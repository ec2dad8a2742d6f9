/**
 * API contract of decisions (issue 32 items 4, 5 and 7; docs/decisions/029): 'Send for Decision',
 * the 'Clean Files' and 'Ready for Committee' lists, 'Send to Committee', and the credentialing
 * committee's meetings (agenda, recusals, 'Record Decision', 'Close Meeting', the minutes as a PDF).
 * Validated and serialised by server/committee/*.routes.ts; typed on the web by features/committee.
 */
import { z } from 'zod';
import {
  AGENDA_ITEMS_MAX,
  committeeDecisions,
  decisionTracks,
  MEETING_MEMBERS_MAX,
} from '../committee/committee-decisions.ts';
import { REVIEW_TEXT_MAX } from '../review/review-workflow.ts';
import { applicationCycleSchema } from './provider-credential.ts';
import { appealAttachmentSchema, decisionDueSchema } from './review.ts';

const text = (name: string) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(REVIEW_TEXT_MAX, `${name} may be at most ${REVIEW_TEXT_MAX} characters`);

const uuidParam = z.string().max(100);

/** POST /api/admin/applications/:applicationId/send-for-decision: where the file went and why. */
export const sendForDecisionResultSchema = z.object({
  track: z.enum(decisionTracks),
  /** Why the file is not clean (domain/committee/clean-file.ts); empty for a clean file. */
  reasons: z.array(z.string()),
});
export type SendForDecisionResult = z.infer<typeof sendForDecisionResultSchema>;

/** POST /api/admin/applications/:applicationId/send-to-committee: the medical director's note. */
export const sendToCommitteeBodySchema = z.object({
  note: text('Note').min(1, 'Say what the committee should look at'),
});

/** GET /api/admin/decisions?list=clean_files|committee. */
export const decisionListQuerySchema = z.object({
  list: z.enum(decisionTracks, { error: "list is 'clean_files' or 'committee'" }),
});

/** One file on a decision list, oldest sent first. */
/**
 * What a file waits for: its decision, the decision on the appeal of its denial (item 6), or, for an
 * approved file whose credential monitoring suspended, whether the credential continues (issue 49).
 */
export const referralKinds = ['decision', 'appeal', 'monitoring'] as const;

export const decisionFileSchema = z.object({
  applicationId: z.uuid(),
  kind: z.enum(referralKinds),
  providerName: z.string(),
  cycle: applicationCycleSchema,
  sentAt: z.iso.datetime(),
  /** Who sent it (name), or null for a removed account. */
  sentBy: z.string().nullable(),
  /** Why it is not clean (the committee's list), or the medical director's note when sent on. */
  reasons: z.array(z.string()),
  note: z.string().nullable(),
  /** NCQA's clock (issue 32 item 7): days left, overdue when negative. */
  decisionDue: decisionDueSchema,
  /** The open meeting whose agenda holds it, or null. */
  meeting: z.object({ meetingId: z.uuid(), scheduledAt: z.iso.datetime() }).nullable(),
});
export type DecisionFile = z.infer<typeof decisionFileSchema>;

export const decisionListSchema = z.object({ files: z.array(decisionFileSchema) });
export type DecisionList = z.infer<typeof decisionListSchema>;

/** Someone who may sit on a meeting: a Committee Member or a Medical Director. */
export const committeeMemberSchema = z.object({ userId: z.string(), name: z.string(), email: z.string() });
export type CommitteeMember = z.infer<typeof committeeMemberSchema>;
export const committeeMembersSchema = z.object({ members: z.array(committeeMemberSchema) });

/** POST /api/committee/meetings ('New Meeting'). */
export const newMeetingBodySchema = z
  .object({
    scheduledAt: z.iso.datetime({ offset: true, error: 'Enter the date and time of the meeting' }),
    memberIds: z
      .array(z.string().max(100))
      .min(1, 'Choose the members of the meeting')
      .max(MEETING_MEMBERS_MAX, `A meeting has at most ${MEETING_MEMBERS_MAX} members`)
      .transform((ids) => [...new Set(ids)]),
    /** Members needed present; default a majority of the members. */
    quorum: z.number().int('Quorum is a whole number').min(1, 'Quorum is at least 1').optional(),
  })
  .refine((b) => b.quorum === undefined || b.quorum <= b.memberIds.length, {
    message: 'The quorum cannot be more than the meeting has members',
    path: ['quorum'],
  });
export type NewMeetingBody = z.input<typeof newMeetingBodySchema>;
/** The body as the server has it once parsed (members de-duplicated). */
export type NewMeeting = z.output<typeof newMeetingBodySchema>;

export const meetingParamsSchema = z.object({ meetingId: uuidParam });
export const agendaItemParamsSchema = z.object({ meetingId: uuidParam, itemId: uuidParam });
export const meetingFileParamsSchema = z.object({ meetingId: uuidParam, applicationId: uuidParam });

/** POST /api/committee/meetings/:meetingId/agenda: a file from 'Ready for Committee'. */
export const addAgendaItemBodySchema = z.object({ applicationId: z.string().max(100) });

/** PUT /api/committee/meetings/:meetingId/agenda: the agenda's items in their new order (all of them). */
export const reorderAgendaBodySchema = z.object({
  itemIds: z.array(z.string().max(100)).max(AGENDA_ITEMS_MAX),
});

/** PUT /api/committee/meetings/:meetingId/agenda/:itemId/recusals: the members recused for the file. */
export const recusalsBodySchema = z.object({
  memberIds: z.array(z.string().max(100)).max(MEETING_MEMBERS_MAX),
});

/**
 * POST /api/committee/meetings/:meetingId/agenda/:itemId/decision ('Record Decision', issue 50 item
 * 2): the recorder writes the minutes' text; the decision is the tally of the members' own votes.
 * `text` is the conditions, the denial's reason or what is missing, as the tallied decision needs it
 * (domain `committeeDecisionTextLabel`, checked by the server once the votes are counted).
 */
export const recordDecisionBodySchema = z.object({
  text: text('The text').default(''),
  discussion: text('The discussion summary').min(1, 'Summarize the discussion for the minutes'),
  /** When the credential takes effect (approvals); YYYY-MM-DD; today when not given. */
  effectiveDate: z.iso.date({ error: 'Enter the effective date' }).optional(),
});
export type RecordDecisionBody = z.input<typeof recordDecisionBodySchema>;
/** The body as the server has it once parsed (`text` defaulted to ''). */
export type RecordDecision = z.output<typeof recordDecisionBodySchema>;

/** What a text-needing decision asks the recorder for, when it is missing. */
export const decisionTextMissing: Record<'approve_with_conditions' | 'deny' | 'defer', string> = {
  approve_with_conditions: 'Enter the conditions',
  deny: 'Enter the reason',
  defer: 'Enter what is missing',
};

/** A decision recorded for a file (and its votes), as the meeting and the minutes show it. */
export const recordedDecisionSchema = z.object({
  decision: z.enum(committeeDecisions),
  text: z.string(),
  votesFor: z.number().int(),
  votesAgainst: z.number().int(),
  votesAbstained: z.number().int(),
  presentMemberIds: z.array(z.string()),
  discussion: z.string(),
  effectiveDate: z.iso.date().nullable(),
  decidedAt: z.iso.datetime(),
  /** Who recorded it (the meeting's secretary), by name; null for a removed account. */
  recordedBy: z.string().nullable(),
});
export type RecordedDecision = z.infer<typeof recordedDecisionSchema>;

/** A member's own vote as the meeting shows it (issue 50 item 2): who, and what. */
export const memberVoteSchema = z.object({
  memberId: z.string(),
  name: z.string(),
  vote: z.enum(committeeDecisions),
  /** When they signed 'I reviewed this file' and voted. */
  votedAt: z.iso.datetime(),
});

/** Why a member does not vote on a file (domain/review/file-duties.ts `recusalOf`). */
export const recusalSchema = z.object({
  memberId: z.string(),
  reason: z.enum(['recused', 'own_file', 'verifier', 'denial_voter']),
});

export const agendaItemSchema = z.object({
  itemId: z.uuid(),
  applicationId: z.uuid(),
  /** 'appeal': the committee hears the appeal of a denial; its decision is final (item 6). */
  kind: z.enum(referralKinds),
  /** Hidden ('') from a recused caller, who sees the row greyed out. */
  providerName: z.string(),
  position: z.number().int(),
  recusedMemberIds: z.array(z.string()),
  /**
   * Whether the caller is recused for this file, here or at any meeting, or it is their own file
   * (issue 50 item 4): they cannot open it, and its name, votes and decision text are not shown.
   */
  callerRecused: z.boolean(),
  /** Why the caller does not vote on it, or null when they may (issue 50 item 2). */
  callerRecusal: z.enum(['recused', 'own_file', 'verifier', 'denial_voter']).nullable(),
  /** The caller's own vote, or null. */
  callerVote: z.enum(committeeDecisions).nullable(),
  /** Every member who does not vote on it, and why ([] for a recused caller). */
  recusals: z.array(recusalSchema),
  /** The members' own votes so far ([] for a recused caller). */
  votes: z.array(memberVoteSchema),
  /**
   * What 'Record Decision' would record now (domain `tallyVotes` over the members present and not
   * recused): the decision carried, or why none is yet; null for a recused caller or once decided.
   */
  tally: z
    .object({
      decision: z.enum(committeeDecisions).nullable(),
      message: z.string().nullable(),
      counts: z.record(z.enum(committeeDecisions), z.number().int()),
    })
    .nullable(),
  /** Why the file is not clean, at the time it was sent. */
  reasons: z.array(z.string()),
  /**
   * While undecided: what a denial would do to the provider's credential (a recredentialing of a held
   * credential ends it on the decision day; issue 29 item 1), said in 'Record Decision'; else null.
   */
  denialEndsCredential: z.string().nullable(),
  decision: recordedDecisionSchema.nullable(),
});
export type AgendaItem = z.infer<typeof agendaItemSchema>;

export const meetingSchema = z.object({
  meetingId: z.uuid(),
  scheduledAt: z.iso.datetime(),
  /** Whether the meeting has started (attendance, votes and decisions from then on; issue 50 item 3). */
  started: z.boolean(),
  quorum: z.number().int(),
  members: z.array(
    committeeMemberSchema.extend({
      /** When they were marked present (by the recorder or by joining), or null. */
      presentAt: z.iso.datetime().nullable(),
    }),
  ),
  agenda: z.array(agendaItemSchema),
  closedAt: z.iso.datetime().nullable(),
  /** Whether the caller prepares the meeting and records its decisions (not only reads it). */
  canManage: z.boolean(),
  /** Whether the caller sits on it: they join it and vote on its files (issue 50 item 2). */
  callerIsMember: z.boolean(),
  /** The caller's user id (their row among the members). */
  callerId: z.string(),
});
export type Meeting = z.infer<typeof meetingSchema>;

export const meetingSummarySchema = z.object({
  meetingId: z.uuid(),
  scheduledAt: z.iso.datetime(),
  memberCount: z.number().int(),
  files: z.number().int(),
  decided: z.number().int(),
  closedAt: z.iso.datetime().nullable(),
});
export type MeetingSummary = z.infer<typeof meetingSummarySchema>;

/** GET /api/committee/meetings: newest first; a Committee Member sees only their meetings. */
export const meetingListSchema = z.object({
  meetings: z.array(meetingSummarySchema),
  canManage: z.boolean(),
});
export type MeetingList = z.infer<typeof meetingListSchema>;

/**
 * GET /api/committee/meetings/:meetingId/files/:applicationId: the file's summary a member reads
 * before voting (issue 32 item 5: "each file's summary one click away").
 */
export const fileSummarySchema = z.object({
  applicationId: z.uuid(),
  providerName: z.string(),
  cycle: applicationCycleSchema,
  submittedAt: z.iso.datetime().nullable(),
  /** The clean-file verdict's reasons (empty: clean). */
  reasons: z.array(z.string()),
  note: z.string().nullable(),
  decisionDue: decisionDueSchema,
  /** Each checklist item as the committee reads it: what, outcome, source, date, note. */
  checklist: z.array(
    z.object({
      target: z.string(),
      status: z.string(),
      source: z.string().nullable(),
      verifiedAt: z.iso.date().nullable(),
      note: z.string().nullable(),
    }),
  ),
  /** Disclosure questions answered Yes, with the provider's explanation. */
  disclosures: z.array(z.object({ question: z.string(), explanation: z.string() })),
  /**
   * An appeal (item 6): the provider's statement, when it was requested, the denial's reason and the
   * provider's attachments (issue 50 item 8).
   */
  appeal: z
    .object({
      statement: z.string(),
      requestedAt: z.iso.datetime(),
      deniedFor: z.string().nullable(),
      attachments: z.array(appealAttachmentSchema),
    })
    .nullable(),
});
export type FileSummary = z.infer<typeof fileSummarySchema>;

/**
 * A decider's signature (issue 50 item 7): "I reviewed this file", confirmed with the current code of
 * their authenticator app. Part of the medical director's 'Approve' and of each member's vote.
 */
export const reviewSignatureSchema = z.object({
  reviewed: z.literal(true, { error: 'Confirm that you reviewed this file' }),
  code: z
    .string({ error: 'Enter the 6-digit code from your authenticator app' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});
export type ReviewSignature = z.infer<typeof reviewSignatureSchema>;

/** The words of the signature's box (issue 50 item 7). */
export const REVIEW_SIGNATURE_LABEL = 'I reviewed this file';

/** POST /api/committee/meetings/:meetingId/agenda/:itemId/vote: a member's own vote, signed. */
export const memberVoteBodySchema = reviewSignatureSchema.extend({
  vote: z.enum(committeeDecisions, { error: 'Choose your vote' }),
});
export type MemberVoteBody = z.infer<typeof memberVoteBodySchema>;

/** POST /api/committee/meetings/:meetingId/attendance: the members present (the recorder ticks them). */
export const attendanceBodySchema = z.object({
  memberIds: z.array(z.string().max(100)).max(MEETING_MEMBERS_MAX),
});
