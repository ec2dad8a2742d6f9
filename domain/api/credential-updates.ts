/**
 * The API contract of credential updates after approval (issue 29 item 4; routes in
 * server/credential-updates/credential-updates.routes.ts, rules in
 * domain/credentials/credential-updates.ts).
 */
import { z } from 'zod';

/** One credential update as stored (server table `credential_updates`). */
export const credentialUpdateSchema = z.object({
  id: z.uuid(),
  /** Section keys (domain/sections/registry.ts) the update changed so far. */
  sections: z.array(z.string()),
  /** The newest version the update stored. */
  version: z.number().int(),
  /** When it was first sent (ISO 8601). */
  openedAt: z.iso.datetime(),
  /** When the latest change was sent. */
  updatedAt: z.iso.datetime(),
  /** When a reviewer completed it; null while it is in the review queue. */
  reviewedAt: z.iso.datetime().nullable(),
});
export type CredentialUpdateDto = z.infer<typeof credentialUpdateSchema>;

/**
 * GET /api/applications/:applicationId/credential-update: whether the application takes updates
 * now, the sections saved but not sent yet (rows that differ from the newest version), and the
 * latest update (open, or the last one reviewed).
 */
export const credentialUpdateStatusSchema = z.object({
  /** Approved, the application that set the credential, and the credential is current. */
  allowed: z.boolean(),
  /** Section keys whose saved rows differ from the newest version (empty when nothing is unsent). */
  unsentSections: z.array(z.string()),
  latest: credentialUpdateSchema.nullable(),
});
export type CredentialUpdateStatus = z.infer<typeof credentialUpdateStatusSchema>;

/** POST .../credential-update: the update after the submit and the version stored. */
export const submitUpdateResultSchema = z.object({
  update: credentialUpdateSchema,
  version: z.number().int(),
  /** Checklist items that now need re-verification. */
  needsReverification: z.number().int(),
  /** Checklist items added for new credentials. */
  checklistItemsAdded: z.number().int(),
});
export type SubmitUpdateResult = z.infer<typeof submitUpdateResultSchema>;

/** GET /api/admin/applications/:applicationId/credential-update: the open update, or null. */
export const adminCredentialUpdateSchema = z.object({
  open: credentialUpdateSchema.nullable(),
});
export type AdminCredentialUpdate = z.infer<typeof adminCredentialUpdateSchema>;
