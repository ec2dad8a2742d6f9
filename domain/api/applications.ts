/**
 * API contract of the provider's applications (spec §4 dashboard, §7 provider_applications):
 * GET/POST /api/applications and GET /api/applications/:applicationId. Validated and serialised by
 * server/applications/applications.routes.ts; typed on the web by web/features/dashboard/applications-api.ts.
 */
import { z } from 'zod';
import { applicationStatuses } from '../application-status.ts';
import { completionStatuses } from '../completion-status.ts';
import { applicationCycleSchema, providerCredentialSchema } from './provider-credential.ts';

/**
 * The completion state a provider sees (spec §4 completion button; issue 5 "the dashboard says so"):
 * part of the application and the answer of POST /api/applications/:applicationId/completion
 * (domain/api/notifications.ts). `lastError` is a short technical reason without PHI
 * (e.g. 'The receiver answered HTTP 503').
 */
export const completionStateSchema = z.object({
  status: z.enum(completionStatuses),
  /** When the provider completed the application (ISO 8601, UTC). */
  requestedAt: z.iso.datetime(),
  /** When the receiver accepted it (ISO 8601, UTC); null until delivered. */
  deliveredAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
});
export type CompletionState = z.infer<typeof completionStateSchema>;

/** Path parameters of /api/applications/:applicationId (any text: a non-UUID answers 404). */
export const applicationParamsSchema = z.object({ applicationId: z.string() });

/** One application as the API shows it. */
export const applicationSchema = z.object({
  id: z.uuid(),
  applicationStatus: z.enum(applicationStatuses),
  /** ISO 8601, UTC. */
  createdAt: z.iso.datetime(),
  /** Keys of the complete sections (domain/sections/registry.ts), in registry order. */
  completeSections: z.array(z.string()),
  /**
   * Sections copied from the previous application that have content but are not confirmed yet
   * (issue 29 item 6: they count towards progress once the provider confirms or saves them), in
   * registry order; [] for an application that is not a copy.
   */
  unconfirmedSections: z.array(z.string()),
  /** Complete sections / 11 as a rounded percent, 0-100 (spec §4). */
  progress: z.number().int().min(0).max(100),
  /** The completion notification (issue 5; spec §4 button), null until the provider completes. */
  completion: completionStateSchema.nullable(),
  /** When the credentialing team approved or rejected it (ISO 8601, UTC; issue 13), else null. */
  decidedAt: z.iso.datetime().nullable(),
  /**
   * An approved application's recredentialing due date (`YYYY-MM-DD`, 36 months after approval;
   * issue 14, NCQA CR 4, domain/credentials/recredentialing.ts), else null.
   */
  recredentialingDueOn: z.iso.date().nullable(),
  /** The earlier application this one was pre-filled from (issue 14 copy-forward), else null. */
  copiedFromId: z.uuid().nullable(),
  /** Which credentialing cycle it is (issue 29): 'initial' or 'recredentialing'. */
  cycle: applicationCycleSchema,
  /** When it was withdrawn (status 'withdrawn', issue 29 item 2; ISO 8601, UTC), else null. */
  withdrawnAt: z.iso.datetime().nullable(),
});
export type ApplicationDto = z.infer<typeof applicationSchema>;

/**
 * GET /api/applications: the caller's applications, newest first (spec §4), and their credential
 * apart from the cycle in progress (issue 29 item 1).
 */
export const applicationListSchema = z.object({
  applications: z.array(applicationSchema),
  credential: providerCredentialSchema,
  /**
   * Each draft whose work history has gaps needing an explanation as of the server's today (issue 51
   * item 6; issue 29 item 7, domain/sections/work-history-gaps.ts), with how many: its Work History
   * card shows no green check. A draft not listed has none.
   */
  workHistoryGaps: z.array(z.object({ applicationId: z.uuid(), unexplained: z.number().int().positive() })),
});
export type ApplicationList = z.infer<typeof applicationListSchema>;

/**
 * What 'Start New Application' / 'Start Recredentialing' copied from the provider's most recent
 * application (issue 14 copy-forward): its id and creation time, the sections that had content (to
 * confirm in the new draft, issue 29 item 6), how many documents were copied, and the names of those
 * whose file could not be (missing from storage): the provider uploads them again.
 */
export const copiedFromSchema = z.object({
  applicationId: z.uuid(),
  /** ISO 8601, UTC. */
  createdAt: z.iso.datetime(),
  sections: z.array(z.string()),
  documents: z.number().int().min(0),
  documentsNotCopied: z.array(z.string()),
});
export type CopiedFrom = z.infer<typeof copiedFromSchema>;

/** POST /api/applications (201): the new draft, and what was copied into it (null when it starts empty). */
export const createdApplicationSchema = applicationSchema.extend({ copied: copiedFromSchema.nullable() });
export type CreatedApplication = z.infer<typeof createdApplicationSchema>;
