/**
 * API contract of the credentialing review (issue 13, docs/decisions/018-review-workflow.md):
 * the administrators' transitions, checklist, versions and review queue under /api/admin, and the
 * provider's review state and information-request response under /api/applications. Validated and
 * serialised by server/review/review.routes.ts.
 */
import { z } from 'zod';
import { applicationStatuses } from '../application-status.ts';
import { attestationRecordSchema } from '../attestation.ts';
import { deciders, decisionTracks } from '../committee/committee-decisions.ts';
import { APPEAL_STATEMENT_MAX, letterKinds } from '../committee/decision-letters.ts';
import { cycleActions } from '../credentials/provider-credential.ts';
import { rowChangeKinds } from '../review/application-snapshot.ts';
import { REVIEW_TEXT_MAX, reviewActions } from '../review/review-workflow.ts';

export { REVIEW_TEXT_MAX };

import {
  recordableVerificationStatuses,
  verificationKinds,
  verificationStatuses,
} from '../review/verification-checklist.ts';
import { sections } from '../sections/registry.ts';
import { applicationCycleSchema, providerCredentialSchema } from './provider-credential.ts';

/** Rows per page of the review queue. */
export const REVIEW_QUEUE_PAGE_SIZE = 25;

const sectionKeys = sections.map((s) => s.key) as [string, ...string[]];

const boundedText = (name: string) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(REVIEW_TEXT_MAX, `${name} may be at most ${REVIEW_TEXT_MAX} characters`);

/** Path parameters of /api/admin/applications/:applicationId/... (any text: a non-UUID answers 404). */
export const reviewParamsSchema = z.object({ applicationId: z.string() });
export const verificationItemParamsSchema = z.object({ applicationId: z.string(), itemId: z.string() });
export const versionParamsSchema = z.object({
  applicationId: z.string(),
  version: z.coerce
    .number({ error: 'version must be a whole number' })
    .int('version must be a whole number')
    .min(1, 'version starts at 1')
    .max(1_000_000, 'version is too large'),
});
export const informationRequestParamsSchema = z.object({ applicationId: z.string(), requestId: z.string() });

/** POST .../request-information: the 'Message' and the sections (registry keys) to open again. */
export const requestInformationBodySchema = z.object({
  message: boundedText('Message').min(1, 'Enter a message for the provider'),
  sections: z
    .array(z.enum(sectionKeys, { error: 'Choose sections of the application' }))
    .min(1, 'Choose at least one section')
    .max(sectionKeys.length)
    .transform((keys) => [...new Set(keys)]),
});
export type RequestInformationBody = z.output<typeof requestInformationBodySchema>;

/** POST /api/applications/:applicationId/information-requests/:requestId/response: an optional reply. */
export const informationResponseBodySchema = z.object({ reply: boundedText('Reply').optional() });

/** PATCH .../verification-items/:itemId: the reviewer's outcome of one item. */
export const verificationUpdateSchema = z
  .object({
    status: z.enum(recordableVerificationStatuses, {
      error: 'status must be pending, verified, discrepancy or waived',
    }),
    source: boundedText('Source').optional(),
    /** The date the source was checked, YYYY-MM-DD. */
    verifiedAt: z.iso.date({ error: 'verifiedAt must be a date (YYYY-MM-DD)' }).optional(),
    note: boundedText('Note').optional(),
    waiverReason: boundedText('Waiver reason').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'waived' && !v.waiverReason) {
      ctx.addIssue({ code: 'custom', path: ['waiverReason'], message: 'Enter the reason for the waiver' });
    }
    if (v.status === 'discrepancy' && !v.note) {
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'Describe the discrepancy in the note' });
    }
    if (v.status === 'verified' && !v.source) {
      ctx.addIssue({ code: 'custom', path: ['source'], message: 'Enter the source you verified against' });
    }
    if (v.status === 'verified' && !v.verifiedAt) {
      ctx.addIssue({ code: 'custom', path: ['verifiedAt'], message: 'Enter the date of the verification' });
    }
  });
export type VerificationUpdate = z.output<typeof verificationUpdateSchema>;

/** An information request as both sides see it. */
export const informationRequestSchema = z.object({
  id: z.uuid(),
  message: z.string(),
  /** Section keys (domain/sections/registry.ts). */
  sections: z.array(z.string()),
  requestedAt: z.iso.datetime(),
  response: z.string().nullable(),
  respondedAt: z.iso.datetime().nullable(),
  versionAfter: z.number().int().nullable(),
});
export type InformationRequestDto = z.infer<typeof informationRequestSchema>;

/** GET /api/applications/:applicationId/review: what the provider sees of the review. */
/** A decision's letter (issue 32 item 6): downloaded as a PDF from .../letters/:letterId. */
export const decisionLetterSchema = z.object({
  letterId: z.uuid(),
  kind: z.enum(letterKinds),
  /** 'Approval Letter', 'Denial Letter', 'Appeal Decision: ...' (domain `letterTitle`). */
  title: z.string(),
  createdAt: z.iso.datetime(),
});
export type DecisionLetterDto = z.infer<typeof decisionLetterSchema>;

/**
 * A PDF attached to an appeal (issue 50 item 8): its name, size (bytes), SHA-256 and where it
 * downloads from (the provider, staff who read files, and members of the meeting that hears it).
 */
export const appealAttachmentSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  fileSize: z.number().int(),
  sha256: z.string(),
  uploadedAt: z.iso.datetime(),
  downloadUrl: z.string(),
});
export type AppealAttachmentDto = z.infer<typeof appealAttachmentSchema>;

/**
 * The appeal of a denial (issue 32 item 6): 'available' until `deadline` (YYYY-MM-DD, APPEAL_WINDOW_DAYS
 * after the denial) while none was requested; 'closed' after it; 'requested' while a later meeting
 * has yet to hear it; then its final outcome. Null for an application that was not denied.
 */
export const appealStateSchema = z
  .object({
    status: z.enum(['available', 'closed', 'requested', 'upheld', 'approved']),
    /** The last day to request it, while none was requested. */
    deadline: z.iso.date().nullable(),
    requestedAt: z.iso.datetime().nullable(),
    statement: z.string().nullable(),
    decidedAt: z.iso.datetime().nullable(),
    /** Its attachments (issue 50 item 8): while 'available', those uploaded so far, which 'Request Appeal' takes. */
    attachments: z.array(appealAttachmentSchema),
  })
  .nullable();
export type AppealState = z.infer<typeof appealStateSchema>;

/** POST /api/applications/:applicationId/appeal ('Request Appeal'): the provider's statement. */
export const appealBodySchema = z.object({
  statement: z
    .string({ error: 'The statement must be text' })
    .trim()
    .min(1, 'Say why the decision should change')
    .max(APPEAL_STATEMENT_MAX, `The statement may be at most ${APPEAL_STATEMENT_MAX} characters`),
});

export const letterParamsSchema = z.object({ applicationId: z.string(), letterId: z.string() });

export const providerReviewSchema = z.object({
  applicationStatus: z.enum(applicationStatuses),
  submittedAt: z.iso.datetime().nullable(),
  decidedAt: z.iso.datetime().nullable(),
  /** Only for a rejected application. */
  decisionReason: z.string().nullable(),
  /**
   * Only for an application the credentialing team closed without a decision (issue 29 'Close
   * Without Decision'): their reason, shown to the provider; null when the provider withdrew it.
   */
  withdrawalReason: z.string().nullable(),
  openRequest: informationRequestSchema.nullable(),
  /**
   * True while the credentialing team holds the application and its latest attestation is older than
   * ATTESTATION_VALID_DAYS (issue 14): the dashboard asks the provider to attest again.
   */
  reattestationRequired: z.boolean(),
  /** The decision's letters, oldest first (issue 32 item 6). */
  letters: z.array(decisionLetterSchema),
  /** The appeal of a denial (issue 32 item 6). */
  appeal: appealStateSchema,
});
export type ProviderReview = z.infer<typeof providerReviewSchema>;

/** An evidence file of a checklist item (administrators only; issue 13). */
export const evidenceSchema = z.object({
  id: z.uuid(),
  itemId: z.uuid(),
  fileName: z.string(),
  mimeType: z.string(),
  /** Bytes. */
  fileSize: z.number().int(),
  uploadedAt: z.iso.datetime(),
  uploadedBy: z.string().nullable(),
  downloadUrl: z.string(),
});
export type EvidenceDto = z.infer<typeof evidenceSchema>;

/** One checklist item (FHIR R4 VerificationResult: target, status, primary source, validator, date, note). */
export const verificationItemSchema = z.object({
  id: z.uuid(),
  kind: z.enum(verificationKinds),
  target: z.string(),
  primarySource: z.string(),
  status: z.enum(verificationStatuses),
  source: z.string().nullable(),
  /** YYYY-MM-DD. */
  verifiedAt: z.iso.date().nullable(),
  validatorId: z.string().nullable(),
  note: z.string().nullable(),
  waiverReason: z.string().nullable(),
  updatedAt: z.iso.datetime(),
  /** Evidence files, oldest first (in the admin review; [] in the PATCH answer). */
  evidence: z.array(evidenceSchema),
  /**
   * Format warnings of the credential in the newest snapshot (issue 15: NPI and DEA check digits,
   * domain/sections/identifier-checks.ts); [] for other kinds and in the PATCH answer.
   */
  warnings: z.array(z.string()),
  /**
   * Lines the reviewer reads under the item, from the newest snapshot: for the work-history item, one
   * per gap of 6 months or more with its explanation or 'not explained' (issue 29 item 7, NCQA CR 3;
   * domain/sections/work-history-gaps.ts `workHistoryGapLines`); [] for other kinds and in the PATCH answer.
   */
  details: z.array(z.string()),
  /**
   * While `needs_reverification` (issue 29): what changed since the verification, field by field
   * (domain/review/verification-fingerprint.ts `FieldChange`); [] otherwise.
   */
  changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
  /**
   * When this item carries a previous cycle's verification forward (issue 29 item 6: education and
   * training do not change between cycles), that item's id; else null.
   */
  carriedForwardFrom: z.uuid().nullable(),
});
export type VerificationItemDto = z.infer<typeof verificationItemSchema>;

/** One entry of the application's timeline (from the audit log). */
export const timelineEntrySchema = z.object({
  action: z.string(),
  actorUserId: z.string().nullable(),
  occurredAt: z.iso.datetime(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
});

/** GET /api/admin/applications/:applicationId/review: the reviewer's view. */
/**
 * NCQA's clock of the decision (issue 32 item 7, domain/committee/timeliness.ts `decisionDue`): the
 * earlier of attestation + ATTESTATION_VALID_DAYS and oldest verification + VERIFICATION_MAX_AGE_DAYS;
 * `daysLeft` negative when overdue. Null for a decided file or one no clock has started for.
 */
export const decisionDueSchema = z
  .object({
    dueOn: z.iso.date(),
    daysLeft: z.number().int(),
    basis: z.enum(['attestation', 'verification']),
    limitDays: z.number().int(),
  })
  .nullable();

export const adminReviewSchema = z.object({
  applicationId: z.uuid(),
  userId: z.string(),
  /** The provider's name from the profile ('' when the profile has none). */
  providerName: z.string(),
  /**
   * Display names of the people the review mentions (reviewer, validators, timeline actors), by user
   * id; an id missing here is shown as a removed account.
   */
  people: z.record(z.string(), z.string()),
  applicationStatus: z.enum(applicationStatuses),
  submittedAt: z.iso.datetime().nullable(),
  reviewStartedAt: z.iso.datetime().nullable(),
  reviewerId: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
  decisionReason: z.string().nullable(),
  /** What the caller can do now (domain/review/review-workflow.ts `availableActions`). */
  availableActions: z.array(z.enum(reviewActions)),
  versions: z.array(
    z.object({
      version: z.number().int(),
      sha256: z.string(),
      reason: z.string(),
      createdAt: z.iso.datetime(),
    }),
  ),
  checklist: z.array(verificationItemSchema),
  requests: z.array(informationRequestSchema),
  timeline: z.array(timelineEntrySchema),
  /** Every attestation the provider signed, oldest first: the completion's, then re-attestations (issue 14). */
  attestations: z.array(attestationRecordSchema),
  /**
   * True while the application is submitted or under review and its latest attestation is older
   * than ATTESTATION_VALID_DAYS (or it has none): the reviewer sees 'Re-attestation required'.
   */
  reattestationRequired: z.boolean(),
  /**
   * Whether the file needs the credentialing committee's review, i.e. is not a clean file (issue 31
   * item 4, issue 32 item 4; domain/committee/clean-file.ts `cleanFileReview`), and why: a Yes to any
   * disclosure question of the latest attestation, one reason each ('Yes to: <question text>'); 'A
   * malpractice claim was paid in the last 5 years' when a claim of the newest snapshot was paid
   * (amount above 0) with a claim date, else incident date, within five years of today; 'Exclusion
   * screening: Match' (or 'Possible match') while the provider stands on an exclusion list; then
   * 'Discrepancy: <item>' for each checklist item in discrepancy.
   */
  committeeReview: z.object({ needed: z.boolean(), reasons: z.array(z.string()) }),
  /** When the decision is due (issue 32 item 7), while the file is Submitted or Under Review. */
  decisionDue: decisionDueSchema,
  /**
   * Where the file is on its way to a decision (issue 32 item 4): the list it was sent to ('Clean
   * Files' or 'Ready for Committee') with the reasons and the medical director's note, or null; and
   * the committee's latest deferral of this cycle (what is missing), which sent it back.
   */
  decisionRouting: z.object({
    track: z.enum(decisionTracks).nullable(),
    sentAt: z.iso.datetime().nullable(),
    reasons: z.array(z.string()),
    note: z.string().nullable(),
    deferral: z.object({ text: z.string(), at: z.iso.datetime() }).nullable(),
  }),
  /** The decision's letters (issue 32 item 6), and the appeal of a denial. */
  letters: z.array(decisionLetterSchema),
  appeal: appealStateSchema,
  /** Who decided, with the effective date and conditions (issue 32); null until decided. */
  decision: z
    .object({
      by: z.enum(deciders),
      effectiveDate: z.iso.date().nullable(),
      conditions: z.string().nullable(),
      /**
       * Who decided, named (issue 50 item 7): the medical director's name, or the committee's vote
       * ('by a vote of 2 to 0: Mae Director, Cal Member'); null when not known (older decisions).
       */
      signedBy: z.string().nullable(),
      /** When it was decided (ISO 8601). */
      decidedAt: z.iso.datetime().nullable(),
    })
    .nullable(),
  /** Which credentialing cycle this application is (issue 29). */
  cycle: applicationCycleSchema,
  /** When it was withdrawn or closed without a decision (ISO 8601, UTC; issue 29 item 2), else null. */
  withdrawnAt: z.iso.datetime().nullable(),
  /** The administrator's reason for 'Close Without Decision'; null when the provider withdrew a draft. */
  withdrawalReason: z.string().nullable(),
  /** The provider's credential, apart from this cycle (issue 29 item 1). */
  credential: providerCredentialSchema,
  /** 'Start Recredentialing Now' / 'Close Without Decision' when available (domain `availableCycleActions`). */
  cycleActions: z.array(z.enum(cycleActions)),
});
export type AdminReview = z.infer<typeof adminReviewSchema>;

/** A value of a snapshot row (domain/review/application-snapshot.ts `SnapshotValue`). */
const snapshotValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** GET /api/admin/applications/:applicationId/versions/:version: one snapshot and its changes. */
export const applicationVersionSchema = z.object({
  version: z.number().int(),
  sha256: z.string(),
  reason: z.string(),
  createdAt: z.iso.datetime(),
  /** domain/review/application-snapshot.ts `ApplicationSnapshot`. */
  snapshot: z.record(z.string(), z.unknown()),
  /**
   * What this version is compared with (issue 29 item 5): the previous version of the application;
   * for version 1 of a copied application ('Start Recredentialing', 'Start New Application'), the
   * newest version of the application it was copied from ('Changes since the previous cycle'); null
   * when there is nothing to compare with (version 1 of a first application).
   */
  comparedWith: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('previous_version'), version: z.number().int() }),
      z.object({ kind: z.literal('previous_cycle'), applicationId: z.uuid(), version: z.number().int() }),
    ])
    .nullable(),
  /**
   * The rows that differ from `comparedWith`, paired by row identity (domain/review/application-snapshot.ts
   * `diffByRow`, issue 29 item 5); [] when `comparedWith` is null.
   */
  changes: z.array(
    z.object({
      section: z.string(),
      sectionLabel: z.string(),
      rowKey: z.string(),
      rowLabel: z.string().nullable(),
      change: z.enum(rowChangeKinds),
      fields: z.array(
        z.object({
          field: z.string(),
          label: z.string(),
          before: snapshotValueSchema,
          after: snapshotValueSchema,
        }),
      ),
    }),
  ),
});

export type ApplicationVersion = z.infer<typeof applicationVersionSchema>;

/** GET /api/admin/review-queue query: status filter, 'assigned to me', page. */
export const reviewQueueQuerySchema = z.object({
  status: z
    .enum(['submitted', 'under_review'], { error: 'status must be submitted or under_review' })
    .optional(),
  assigned: z.enum(['me'], { error: "assigned must be 'me'" }).optional(),
  page: z.coerce
    .number({ error: 'page must be a whole number' })
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(100_000, 'page is too large')
    .default(1),
});
export type ReviewQueueQuery = z.output<typeof reviewQueueQuerySchema>;

export const reviewQueueSchema = z.object({
  items: z.array(
    z.object({
      applicationId: z.uuid(),
      /**
       * 'application' (submitted or under review) or 'credential_update': an approved application's
       * open credential update (issue 29 item 4), listed as 'Credential Update'.
       */
      kind: z.enum(['application', 'credential_update']),
      /** The open update of a 'credential_update' row: when it was sent and the sections changed. */
      credentialUpdate: z.object({ openedAt: z.iso.datetime(), sections: z.array(z.string()) }).nullable(),
      userId: z.string(),
      providerName: z.string(),
      applicationStatus: z.enum(applicationStatuses),
      submittedAt: z.iso.datetime(),
      /** Whole days since submission (a credential update: since it was sent) as of the server's now. */
      daysSinceSubmission: z.number().int(),
      reviewerId: z.string().nullable(),
      reviewerName: z.string().nullable(),
      openRequest: z.boolean(),
      /** Verified + waived items. */
      checklistDone: z.number().int(),
      /**
       * Items whose verified data changed since (status `needs_reverification`, issue 29 item 3),
       * shown on the row as '2 need re-verification'; not part of `checklistDone`.
       */
      checklistNeedsReverification: z.number().int(),
      checklistTotal: z.number().int(),
      /** When the decision is due (issue 32 item 7); null for a credential update's row. */
      decisionDue: decisionDueSchema,
    }),
  ),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Counted up to 10,000 (server/admin/admin-list-query.ts LIST_COUNT_CAP); `totalCapped` when more. */
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

/** The answer of a transition: the application's status afterwards. */
export const transitionResultSchema = z.object({
  applicationStatus: z.enum(applicationStatuses),
});
