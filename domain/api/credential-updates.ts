/**
 * The API contract of credential updates after approval (issue 29 item 4; routes in
 * server/credential-updates/credential-updates.routes.ts, rules in
 * domain/credentials/credential-updates.ts).
 */
import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../account.ts';
import { controlCharacterMessage, hasControlCharacter } from '../person-name.ts';

const nameTooLong = (label: string) => `${label} may be at most ${NAME_MAX_LENGTH} characters`;

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

/** POST /api/applications/:applicationId/legal-name: the new legal name and its document (issue 49). */
export const legalNameChangeBodySchema = z.object({
  firstName: z
    .string({ error: 'First name is required' })
    .refine((v) => !hasControlCharacter(v), controlCharacterMessage('First name'))
    .pipe(z.string().trim().min(1, 'First name is required').max(NAME_MAX_LENGTH, nameTooLong('First name'))),
  lastName: z
    .string({ error: 'Last name is required' })
    .refine((v) => !hasControlCharacter(v), controlCharacterMessage('Last name'))
    .pipe(z.string().trim().min(1, 'Last name is required').max(NAME_MAX_LENGTH, nameTooLong('Last name'))),
  documentId: z.uuid({ error: 'Choose the document that shows the change' }),
});
export type LegalNameChangeBody = z.infer<typeof legalNameChangeBodySchema>;

/** GET /api/applications/:applicationId/legal-name: what the account page's card shows. */
export const legalNameStatusSchema = z.object({
  /** A name change can be sent now (the credential is current; as for credential updates). */
  allowed: z.boolean(),
  /** The name on the credential (the published record), else the account's. */
  current: z.object({ firstName: z.string(), lastName: z.string() }),
  /** The change waiting for the credentialing team, or null. */
  waiting: z
    .object({ firstName: z.string(), lastName: z.string(), requestedAt: z.iso.datetime() })
    .nullable(),
  /** Documents of the application not yet part of the published credential: the ones a change can cite. */
  documents: z.array(z.object({ id: z.uuid(), documentName: z.string(), uploadedAt: z.iso.datetime() })),
});
export type LegalNameStatus = z.infer<typeof legalNameStatusSchema>;
