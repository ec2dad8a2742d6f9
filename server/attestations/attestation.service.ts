/**
 * Attestations (issue 14, docs/decisions/022-attestation.md; NCQA CR 3): recorded in the transaction
 * that stores the snapshot they sign, read back for administrators and the completion payload.
 * Rows are append-only (a trigger refuses UPDATE and DELETE); the answers are encrypted with the
 * field cipher (decision 005) because a "Yes" may disclose health or conduct.
 */
import { asc, eq } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import {
  ATTESTATION_STATEMENT,
  type AttestationInput,
  type AttestationRecord,
  answersForRecord,
  attestationMessages,
  profileFullName,
  signatureMatchesProfile,
} from '../../domain/attestation.ts';
import type { Queryable } from '../db/client.ts';
import { applicationAttestations } from '../db/schema/attestations.ts';
import { profiles } from '../db/schema/core.ts';
import type { FieldCipher } from '../security/field-cipher.ts';

/** Longest User-Agent stored, in characters. */
export const USER_AGENT_MAX = 512;

export interface NewAttestation {
  application: { id: string; userId: string };
  kind: AttestationRecord['kind'];
  input: AttestationInput;
  /** Where and with what the provider signed (HIPAA 164.312(b) audit controls). */
  ipAddress: string | null;
  userAgent: string | null;
  /** The application_versions row the attestation signs. */
  snapshot: { version: number; sha256: string };
}

/**
 * Refuse a typed name that is not the profile's full name (issue 14). Call before anything is
 * written; the message names the expected name (the provider's own).
 * @throws AppError validation_failed (400) with an issue on `signature`
 */
export async function checkSignature(tx: Queryable, userId: string, signature: string): Promise<void> {
  const [profile] = await tx
    .select({ firstName: profiles.firstName, lastName: profiles.lastName })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  if (profile && signatureMatchesProfile(signature, profile)) return;
  const message = profile
    ? attestationMessages.signatureMismatch(profileFullName(profile))
    : 'Add your first and last name to your profile, then sign with them.';
  throw new AppError('validation_failed', message, { issues: [{ path: ['signature'], message }] });
}

/**
 * Store an attestation. Call inside the transaction that stored `snapshot`, after `checkSignature`.
 * @returns the stored record as administrators see it
 */
export async function recordAttestation(
  tx: Queryable,
  cipher: FieldCipher,
  attestation: NewAttestation,
): Promise<AttestationRecord> {
  const [row] = await tx
    .insert(applicationAttestations)
    .values({
      applicationId: attestation.application.id,
      userId: attestation.application.userId,
      kind: attestation.kind,
      answersEncrypted: cipher.encrypt(JSON.stringify(attestation.input.answers)),
      statement: ATTESTATION_STATEMENT,
      signature: attestation.input.signature,
      ipAddress: attestation.ipAddress,
      userAgent: attestation.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      snapshotVersion: attestation.snapshot.version,
      snapshotSha256: attestation.snapshot.sha256,
    })
    .returning();
  return presentAttestation(row!, cipher);
}

/**
 * A stored row as the API and the payload show it.
 * @throws Error when the answers cannot be decrypted (a key left FIELD_ENCRYPTION_KEYS): the caller
 *   fails rather than show or send an attestation without its answers
 */
export function presentAttestation(
  row: typeof applicationAttestations.$inferSelect,
  cipher: FieldCipher,
): AttestationRecord {
  return {
    id: row.id,
    kind: row.kind as AttestationRecord['kind'],
    answers: answersForRecord(JSON.parse(cipher.decrypt(row.answersEncrypted))),
    statement: row.statement,
    signature: row.signature,
    signedAt: row.signedAt.toISOString(),
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    snapshotVersion: row.snapshotVersion,
    snapshotSha256: row.snapshotSha256,
  };
}

/** Every attestation of `applicationId`, oldest first (the completion's is the first). */
export async function listAttestations(
  db: Queryable,
  cipher: FieldCipher,
  applicationId: string,
): Promise<AttestationRecord[]> {
  const rows = await db
    .select()
    .from(applicationAttestations)
    .where(eq(applicationAttestations.applicationId, applicationId))
    .orderBy(asc(applicationAttestations.signedAt), asc(applicationAttestations.id));
  return rows.map((row) => presentAttestation(row, cipher));
}
