/**
 * Attestations (issue 14, docs/decisions/022-attestation.md; NCQA CR 3): recorded in the transaction
 * that stores the snapshot they sign, read back for administrators and the completion payload.
 * Rows are append-only (a trigger refuses UPDATE and DELETE); the answers are encrypted with the
 * field cipher (decision 005) because a "Yes" may disclose health or conduct.
 */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import {
  ATTESTATION_STATEMENT,
  type AttestationInput,
  type AttestationRecord,
  answersForRecord,
  attestationDueFrom,
  attestationExpired,
  attestationMessages,
  profileFullName,
  signatureMatchesProfile,
} from '../../domain/attestation.ts';
import { reviewStatuses } from '../../domain/review/review-workflow.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { applicationAttestations } from '../db/schema/attestations.ts';
import { profiles } from '../db/schema/core.ts';
import { applicationVersions } from '../db/schema/review.ts';
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
  /** When it was signed (default: the database's clock at insert). */
  signedAt?: Date;
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
    : attestationMessages.noProfileName;
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
      ...(attestation.signedAt ? { signedAt: attestation.signedAt } : {}),
    })
    .returning();
  return presentAttestation(row!, cipher);
}

/**
 * A stored row as the API and the payload show it. The answers are read leniently (issue 31 item
 * 2): whatever question keys the row holds (the four of issue 14 for an attestation signed before
 * the list grew), each with its question's current text (domain `answersForRecord`).
 * @throws Error when the answers cannot be decrypted (a key left FIELD_ENCRYPTION_KEYS): the caller
 *   fails rather than show or send an attestation without its answers; ZodError when they hold a
 *   key no question has (a removed question) or an answer other than yes/no
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

/**
 * Whether an application in `status` whose latest attestation was signed at `latestSignedAt` (none:
 * undefined) needs a fresh one at `now` (issue 14): it is with the credentialing team
 * (`reviewStatuses`) and that attestation is older than `validDays` (ATTESTATION_VALID_DAYS), or
 * there is none.
 */
export function reattestationDueAt(
  status: ApplicationStatus,
  latestSignedAt: Date | undefined,
  validDays: number,
  now: Date,
): boolean {
  if (!reviewStatuses.includes(status)) return false;
  return !latestSignedAt || attestationExpired(latestSignedAt, validDays, now);
}

/** `reattestationDueAt` for a stored application: reads its latest attestation's time. */
export async function reattestationDue(
  db: Queryable,
  application: { id: string; applicationStatus: ApplicationStatus },
  validDays: number,
  now: Date,
): Promise<boolean> {
  const [latest] = await db
    .select({ signedAt: applicationAttestations.signedAt })
    .from(applicationAttestations)
    .where(eq(applicationAttestations.applicationId, application.id))
    .orderBy(desc(applicationAttestations.signedAt))
    .limit(1);
  return reattestationDueAt(application.applicationStatus, latest?.signedAt, validDays, now);
}

/** When a re-attestation is accepted: ATTESTATION_VALID_DAYS and the clock (injected). */
export interface ReattestationPolicy {
  validDays: number;
  now: Date;
}

/** YYYY-MM-DD of `date` in UTC, as the refusal names days. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The provider signs again while the credentialing team holds the application (issue 14), in the
 * same dialog: stored as a `re_attestation` of the newest snapshot (the application is read-only
 * there, so that snapshot is what it holds), signed at `policy.now`, audited as 'review.reattested'.
 * Accepted only when one is due (issue 28 item 4): no attestation yet, or the latest is older than
 * `policy.validDays` (`reattestationDueAt`, what the dashboard's 'Re-attestation required' shows).
 * The application row is locked first, so concurrent requests run one after the other and the
 * second sees the first's attestation: at most one is stored per due date.
 * @throws AppError not_found (404; not the caller's), conflict (409; not with the team, no snapshot
 *   yet, or the attestation is still current: the message names the day it is due),
 *   validation_failed (400; the typed name is not the profile's, checked before whether one is due)
 */
export async function reattest(
  db: Database,
  cipher: FieldCipher,
  actor: Actor,
  applicationId: string,
  input: AttestationInput,
  userAgent: string | null,
  policy: ReattestationPolicy,
): Promise<AttestationRecord> {
  return db.transaction(async (tx) => {
    const application = await loadApplicationFor(tx, actor, applicationId, 'read');
    await tx.execute(sql`select 1 from provider_applications where id = ${application.id} for update`);
    if (!reviewStatuses.includes(application.applicationStatus)) {
      throw new AppError(
        'conflict',
        'Only an application the credentialing team is reviewing can be attested again: a draft is attested when it is completed.',
      );
    }
    const [newest] = await tx
      .select({ version: applicationVersions.version, sha256: applicationVersions.sha256 })
      .from(applicationVersions)
      .where(eq(applicationVersions.applicationId, application.id))
      .orderBy(desc(applicationVersions.version))
      .limit(1);
    if (!newest) {
      throw new AppError(
        'conflict',
        'The credentialing team has not opened this application yet. Try again once its review has started.',
      );
    }
    await checkSignature(tx, application.userId, input.signature);
    // Read after the lock: a concurrent re-attestation that held it has committed its row.
    const [latest] = await tx
      .select({ signedAt: applicationAttestations.signedAt })
      .from(applicationAttestations)
      .where(eq(applicationAttestations.applicationId, application.id))
      .orderBy(desc(applicationAttestations.signedAt))
      .limit(1);
    if (latest && !attestationExpired(latest.signedAt, policy.validDays, policy.now)) {
      throw new AppError(
        'conflict',
        attestationMessages.reattestationNotDue(
          isoDay(latest.signedAt),
          isoDay(attestationDueFrom(latest.signedAt, policy.validDays)),
        ),
      );
    }
    const record = await recordAttestation(tx, cipher, {
      application,
      kind: 're_attestation',
      input,
      ipAddress: actor.ipAddress,
      userAgent,
      snapshot: newest,
      signedAt: policy.now,
    });
    await recordAudit(tx, {
      action: 'review.reattested',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: { applicationId: application.id, attestationId: record.id, version: newest.version },
    });
    return record;
  });
}
