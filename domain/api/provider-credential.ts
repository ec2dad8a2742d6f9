/**
 * The provider's credential as the API shows it (issue 29 item 1): the provider's dashboard
 * (GET /api/applications), the admin card and details (domain/api/admin.ts) and the admin review
 * (domain/api/review.ts) carry this one shape. `state` is computed by the server at the request's
 * time (domain/credentials/provider-credential.ts `credentialState`); the screens label it with the
 * same module's `credentialLabel`.
 */
import { z } from 'zod';
import { monitoringFindingKinds } from '../credentials/credential-standing.ts';
import { applicationCycles } from '../credentials/provider-credential.ts';
import { REVIEW_TEXT_MAX } from '../review/review-workflow.ts';

/** An open monitoring finding (issue 49 item 2), as the dashboard and the review page show it. */
export const monitoringFindingSchema = z.object({
  kind: z.enum(monitoringFindingKinds),
  /** The list, the NPI or the license ('OIG LEIE', '1234567893', 'IL medical license 12345'). */
  detail: z.string(),
  /** `YYYY-MM-DD` (UTC). */
  foundOn: z.iso.date(),
});

export const providerCredentialSchema = z.object({
  /** 'pending': approved, effective on `effectiveOn`, which is still ahead (issue 49 item 5). */
  state: z.enum(['none', 'pending', 'credentialed', 'ended', 'expired']),
  /** The decided application that last set it, null when there is none. */
  applicationId: z.uuid().nullable(),
  /** The first approval (ISO 8601, UTC), else null. */
  credentialedAt: z.iso.datetime().nullable(),
  /** 36 months after the latest approval (`YYYY-MM-DD`), else null. */
  endsOn: z.iso.date().nullable(),
  /** The day a denied recredentialing ended it (`YYYY-MM-DD`), else null. */
  endedOn: z.iso.date().nullable(),
  /** The first approval's effective day (`YYYY-MM-DD`), else null. */
  effectiveOn: z.iso.date().nullable(),
  /** Ongoing monitoring (issue 49 item 2): 'suspended' while a finding is open. */
  standing: z.enum(['active', 'suspended']),
  /** The open monitoring findings, oldest first; [] when active. */
  findings: z.array(monitoringFindingSchema),
});
export type ProviderCredentialDto = z.infer<typeof providerCredentialSchema>;

/** Which cycle an application is (issue 29): 'initial' or 'recredentialing'. */
export const applicationCycleSchema = z.enum(applicationCycles);

/** The answer of the cycle actions (withdraw, close without decision): the application's new status. */
export const cycleTransitionSchema = z.object({
  applicationId: z.uuid(),
  applicationStatus: z.literal('withdrawn'),
});
export type CycleTransition = z.infer<typeof cycleTransitionSchema>;

/** POST /api/admin/applications/:applicationId/close: the reason, required (issue 29 item 2). */
export const closeWithoutDecisionBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Enter the reason for closing without a decision')
    .max(REVIEW_TEXT_MAX, `Reason may be at most ${REVIEW_TEXT_MAX} characters`),
});
export type CloseWithoutDecisionBody = z.infer<typeof closeWithoutDecisionBodySchema>;
