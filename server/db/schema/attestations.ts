/**
 * Attestations (issue 14, docs/decisions/022-attestation.md; NCQA CR 3): what the provider answered
 * and signed at completion, and again while under review when the first one aged past
 * ATTESTATION_VALID_DAYS. Append-only: a trigger refuses UPDATE and DELETE (the migration); a row
 * goes only with its application (the cascade). The answers, which may disclose health and
 * conduct, are encrypted with the field cipher like the SSN (decision 005).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { providerApplications } from './core.ts';

export const applicationAttestations = pgTable(
  'application_attestations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /** The signer (no foreign key: the row goes with its application, whose own cascade follows the user). */
    userId: text('user_id').notNull(),
    /** 'completion' or 're_attestation'. */
    kind: text('kind').notNull(),
    /** FieldCipher ciphertext of the JSON of domain/attestation.ts `AttestationAnswers`. */
    answersEncrypted: text('answers_encrypted').notNull(),
    /** The statement as the provider saw it when signing. */
    statement: text('statement').notNull(),
    /** The typed full name. */
    signature: text('signature').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    /** The browser's User-Agent, at most 512 characters. */
    userAgent: text('user_agent'),
    /** The application_versions row signed: its version and SHA-256. */
    snapshotVersion: integer('snapshot_version').notNull(),
    snapshotSha256: text('snapshot_sha256').notNull(),
  },
  (t) => [
    index('application_attestations_application_idx').on(t.applicationId, t.signedAt.desc()),
    check('application_attestations_kind_check', sql`${t.kind} in ('completion', 're_attestation')`),
  ],
);
