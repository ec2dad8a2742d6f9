/**
 * A credentialed provider's legal name change (issue 49 item 1, decision 035). The name is part of the
 * published credential, so it changes only as a credential update: the provider names the new legal
 * name and the document that shows it ('Change Legal Name' on the account page); the change waits in
 * `legal_name_changes`, the snapshot of the update carries it (server/notifications/application-
 * snapshot.ts), the reviewer sees it among the version's changes, and 'Complete Update Review'
 * (`applyAcceptedLegalName`) writes it to the account and the profile. Until then the account, the
 * dashboard and every published record keep the name that was approved; a plain name change through
 * the account API is refused (server/credential/published-credential.ts `holdsCredential`).
 */
import { and, eq, isNull, notInArray, sql } from 'drizzle-orm';
import type { LegalNameChangeBody, LegalNameStatus } from '../../domain/api/credential-updates.ts';
import { AppError } from '../../domain/app-error.ts';
import { credentialUpdateTexts, legalNameChangeTexts } from '../../domain/credentials/credential-updates.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { credentialUpdatesAllowed } from '../applications/review-lock.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { legalNameChanges, providerCredentials } from '../db/schema/credentials.ts';
import { documents } from '../db/schema/documents.ts';
import { applicationVersions } from '../db/schema/review.ts';

/** The document ids of the published credential's snapshot (what the approval rests on). */
async function publishedDocumentIds(db: Queryable, userId: string): Promise<string[]> {
  const [credential] = await db
    .select({ applicationId: providerCredentials.applicationId, facts: providerCredentials.facts })
    .from(providerCredentials)
    .where(eq(providerCredentials.userId, userId));
  if (!credential?.facts) return [];
  const [version] = await db
    .select({ snapshot: applicationVersions.snapshot })
    .from(applicationVersions)
    .where(
      and(
        eq(applicationVersions.applicationId, credential.applicationId),
        eq(applicationVersions.version, credential.facts.version),
      ),
    );
  const snapshot = version?.snapshot as ApplicationSnapshot | undefined;
  return (snapshot?.documents ?? []).flatMap((d) => (typeof d.id === 'string' ? [d.id] : []));
}

/**
 * GET /api/applications/:applicationId/legal-name (the owner): whether a change can be sent, the name
 * on the credential, the change waiting, and the application's documents not yet in the credential.
 * @throws AppError not_found (404: unknown or another provider's application)
 */
export async function legalNameStatus(
  db: Database,
  actor: Actor,
  applicationId: string,
  now: Date,
): Promise<LegalNameStatus> {
  return db.transaction(async (tx) => {
    const application = await loadApplicationFor(tx, actor, applicationId, 'read');
    const allowed = await credentialUpdatesAllowed(
      tx,
      { id: application.id, userId: application.userId, status: application.applicationStatus },
      now,
    );
    const [credential] = await tx
      .select({ facts: providerCredentials.facts })
      .from(providerCredentials)
      .where(eq(providerCredentials.userId, application.userId));
    const [profile] = await tx
      .select({ firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .where(eq(profiles.userId, application.userId));
    const [waiting] = await tx
      .select()
      .from(legalNameChanges)
      .where(and(eq(legalNameChanges.applicationId, application.id), isNull(legalNameChanges.acceptedAt)));
    const published = await publishedDocumentIds(tx, application.userId);
    const candidates = await tx
      .select({ id: documents.id, documentName: documents.documentName, uploadedAt: documents.uploadedAt })
      .from(documents)
      .where(
        and(
          eq(documents.applicationId, application.id),
          published.length > 0 ? notInArray(documents.id, published) : undefined,
        ),
      )
      .orderBy(sql`${documents.uploadedAt} desc`);
    return {
      allowed,
      current: {
        firstName: credential?.facts?.givenName ?? profile?.firstName ?? '',
        lastName: credential?.facts?.familyName ?? profile?.lastName ?? '',
      },
      waiting: waiting
        ? {
            firstName: waiting.firstName,
            lastName: waiting.lastName,
            requestedAt: waiting.requestedAt.toISOString(),
          }
        : null,
      documents: candidates.map((d) => ({ ...d, uploadedAt: d.uploadedAt.toISOString() })),
    };
  });
}

/**
 * 'Send Name Change' (issue 49 item 1): records the new legal name with its document as waiting on the
 * approved application (replacing one waiting before). The caller then sends the credential update
 * ('Submit Update'), whose snapshot carries the name. Under the application row's lock.
 * @throws AppError not_found (404), forbidden (403: staff), conflict (409: updates not open, the same
 *   name, a document already in the credential), validation_failed (422: a document of another
 *   application)
 */
export async function requestLegalNameChange(
  db: Database,
  actor: Actor,
  applicationId: string,
  body: LegalNameChangeBody,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await loadApplicationFor(tx, actor, applicationId, 'write');
    const [application] = await tx
      .select({
        id: providerApplications.id,
        userId: providerApplications.userId,
        status: providerApplications.applicationStatus,
      })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId))
      .for('update');
    if (!application || !(await credentialUpdatesAllowed(tx, application, now))) {
      throw new AppError('conflict', credentialUpdateTexts.notAllowed);
    }
    const [document] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.id, body.documentId), eq(documents.applicationId, application.id)));
    if (!document) {
      throw new AppError('validation_failed', legalNameChangeTexts.documentUnknown, {
        issues: [{ path: ['documentId'], message: legalNameChangeTexts.documentUnknown }],
      });
    }
    if ((await publishedDocumentIds(tx, application.userId)).includes(document.id)) {
      throw new AppError('conflict', legalNameChangeTexts.documentNotNew);
    }
    const [credential] = await tx
      .select({ facts: providerCredentials.facts })
      .from(providerCredentials)
      .where(eq(providerCredentials.userId, application.userId));
    if (credential?.facts?.givenName === body.firstName && credential.facts.familyName === body.lastName) {
      throw new AppError('conflict', legalNameChangeTexts.sameName);
    }
    await tx
      .delete(legalNameChanges)
      .where(and(eq(legalNameChanges.applicationId, application.id), isNull(legalNameChanges.acceptedAt)));
    await tx.insert(legalNameChanges).values({
      applicationId: application.id,
      userId: application.userId,
      firstName: body.firstName,
      lastName: body.lastName,
      documentId: document.id,
      requestedAt: now,
    });
    await recordAudit(tx, {
      action: 'credential.name_change_requested',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: { documentId: document.id },
    });
  });
}

/**
 * Inside 'Complete Update Review': the waiting legal name change of `applicationId`, if any, becomes
 * the account's and the profile's names (the published record already has it from the version).
 * @returns whether a name change was applied
 */
export async function applyAcceptedLegalName(
  tx: Queryable,
  input: { applicationId: string; reviewerId: string; ipAddress: string | null; now: Date },
): Promise<boolean> {
  const [waiting] = await tx
    .update(legalNameChanges)
    .set({ acceptedAt: input.now, acceptedBy: input.reviewerId })
    .where(and(eq(legalNameChanges.applicationId, input.applicationId), isNull(legalNameChanges.acceptedAt)))
    .returning();
  if (!waiting) return false;
  await tx
    .update(profiles)
    .set({ firstName: waiting.firstName, lastName: waiting.lastName })
    .where(eq(profiles.userId, waiting.userId));
  await tx
    .update(user)
    .set({ name: `${waiting.firstName} ${waiting.lastName}`, updatedAt: input.now })
    .where(eq(user.id, waiting.userId));
  await recordAudit(tx, {
    action: 'credential.name_change_accepted',
    actorUserId: input.reviewerId,
    subjectUserId: waiting.userId,
    resourceType: 'application',
    resourceId: input.applicationId,
    ipAddress: input.ipAddress,
    details: { documentId: waiting.documentId },
  });
  return true;
}
