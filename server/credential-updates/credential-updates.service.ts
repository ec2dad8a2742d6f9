/**
 * Credential updates after approval (issue 29 item 4, decision 025 "Credential updates"; rules and
 * texts in domain/credentials/credential-updates.ts). An approved provider whose credential is
 * current saves changes to the dated sections (the lock allows them: applications/review-lock.ts),
 * then sends them with 'Submit Update': one transaction stores the next version of the application
 * (reason 'credential_update'), adds checklist items for new credentials, marks the items whose
 * verified data changed 'Needs re-verification' (review/verification-binding.ts) and opens or extends
 * the application's open update (`credential_updates`, at most one open), which the review queue
 * lists as 'Credential Update' until a reviewer completes it ('Complete Update Review').
 *
 * Builds on `review` (binding, checklist) and `notifications` (snapshots); nothing there imports this
 * folder. "Now" is a parameter everywhere.
 */

import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { CredentialUpdateDto, CredentialUpdateStatus } from '../../domain/api/credential-updates.ts';
import { AppError } from '../../domain/app-error.ts';
import {
  credentialUpdateTexts,
  updateReviewBlockedText,
} from '../../domain/credentials/credential-updates.ts';
import { type ApplicationSnapshot, diffByRow } from '../../domain/review/application-snapshot.ts';
import {
  type VerificationStatus,
  verificationStatusLabel,
} from '../../domain/review/verification-checklist.ts';
import { payloadKeyOfSection } from '../../domain/sections/payload-keys.ts';
import { isUuid } from '../../domain/uuid.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { credentialUpdatesAllowed } from '../applications/review-lock.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import { publishCredentialVersion } from '../credential/published-credential.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { credentialUpdates } from '../db/schema/credentials.ts';
import { applicationVersions, verificationItems } from '../db/schema/review.ts';
import {
  buildApplicationSnapshot,
  snapshotSha256,
  storeNextVersion,
} from '../notifications/application-snapshot.ts';
import { newestVersion, rebindVerifications } from '../review/verification-binding.ts';
import { addChecklistItems } from '../review/verification-checklist.ts';
import { screenApplications } from '../screening/screening.ts';
import { applyAcceptedLegalName } from './legal-name.service.ts';

/** The registry key of each snapshot section (`diffByRow`'s `section`: a payload key, or a head). */
const sectionKeyOfSnapshotSection: Record<string, string> = {
  ...Object.fromEntries(Object.entries(payloadKeyOfSection).map(([key, payload]) => [payload, key])),
  personalInformation: 'personalInformation',
  profile: 'personalInformation',
  documents: 'documents',
};

/** Checklist statuses that keep an update open: not yet (or no longer) verified or waived. */
const openItemStatuses: VerificationStatus[] = ['pending', 'discrepancy', 'needs_reverification'];

function present(row: typeof credentialUpdates.$inferSelect): CredentialUpdateDto {
  return {
    id: row.id,
    sections: row.sections,
    version: row.version,
    openedAt: row.openedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

/**
 * The registry keys of the sections whose rows differ between the newest stored version and the
 * application as saved now (`diffByRow`: rows paired by identity, bookkeeping ignored), in order.
 * Empty when the stored version's SHA-256 is the saved data's.
 */
async function unsentChanges(
  tx: Queryable,
  application: { id: string; userId: string },
): Promise<{ sections: string[]; newestSha: string | null; snapshot: ApplicationSnapshot }> {
  const snapshot = await buildApplicationSnapshot(tx, application);
  const [newest] = await tx
    .select({ snapshot: applicationVersions.snapshot, sha256: applicationVersions.sha256 })
    .from(applicationVersions)
    .where(eq(applicationVersions.applicationId, application.id))
    .orderBy(desc(applicationVersions.version))
    .limit(1);
  if (!newest) return { sections: [], newestSha: null, snapshot };
  if (newest.sha256 === snapshotSha256(snapshot)) return { sections: [], newestSha: newest.sha256, snapshot };
  const sections = [
    ...new Set(
      diffByRow(newest.snapshot as ApplicationSnapshot, snapshot).map(
        (change) => sectionKeyOfSnapshotSection[change.section] ?? change.section,
      ),
    ),
  ];
  return { sections, newestSha: newest.sha256, snapshot };
}

/** The application's latest credential update (the open one, else the last reviewed), or null. */
async function latestUpdate(db: Queryable, applicationId: string) {
  const [row] = await db
    .select()
    .from(credentialUpdates)
    .where(eq(credentialUpdates.applicationId, applicationId))
    .orderBy(desc(credentialUpdates.openedAt), desc(credentialUpdates.id))
    .limit(1);
  return row ?? null;
}

/**
 * GET /api/applications/:applicationId/credential-update (the owner; an administrator reads it too):
 * whether updates are open to the application at `now`, the sections saved but not sent, and the
 * latest update. Read in one transaction so the comparison sees one state of the rows.
 * @throws AppError not_found (404: unknown or another provider's application)
 */
export async function credentialUpdateStatus(
  db: Database,
  actor: Actor,
  applicationId: string,
  now: Date,
): Promise<CredentialUpdateStatus> {
  return db.transaction(async (tx) => {
    const application = await loadApplicationFor(tx, actor, applicationId, 'read');
    const allowed = await credentialUpdatesAllowed(
      tx,
      { id: application.id, userId: application.userId, status: application.applicationStatus },
      now,
    );
    const unsent = allowed ? (await unsentChanges(tx, application)).sections : [];
    const latest = await latestUpdate(tx, application.id);
    return { allowed, unsentSections: unsent, latest: latest ? present(latest) : null };
  });
}

/**
 * 'Submit Update' (issue 29 item 4): the provider sends the saved changes of their approved
 * application. One transaction under the application row's lock (FOR UPDATE: section writes, which
 * take a share lock, and a second submit wait): stores the next version (reason 'credential_update'),
 * adds checklist items for new credentials, marks changed items 'Needs re-verification', opens the
 * application's credential update or extends the open one (sections, version), audited as
 * 'credential.update_submitted'. Two submits at once: the second finds nothing new (409).
 * @returns the update, the version stored and how many items need re-verification / were added
 * @throws AppError not_found (404: unknown or another provider's application), forbidden (403: an
 *   administrator), conflict (409: updates not open to the application, or nothing changed since the
 *   newest version)
 */
export async function submitCredentialUpdate(db: Database, actor: Actor, applicationId: string, now: Date) {
  return db.transaction(async (tx) => {
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
    const unsent = await unsentChanges(tx, application);
    if (unsent.sections.length === 0) throw new AppError('conflict', credentialUpdateTexts.nothingChanged);

    const stored = await storeNextVersion(tx, application, 'credential_update');
    const version = await newestVersion(tx, application.id);
    const snapshot = version?.snapshot ?? unsent.snapshot;
    const added = await addChecklistItems(tx, application.id, snapshot, now);
    // Issue 29 item 3: a verification never outlives the data it verified.
    const flagged = await rebindVerifications(tx, application, stored.version, snapshot, now, actor);
    // Issue 30: screened again on the changed data (the standing flags the provider's card).
    await screenApplications(tx, now, { applicationIds: [application.id] });

    const [open] = await tx
      .select()
      .from(credentialUpdates)
      .where(and(eq(credentialUpdates.applicationId, application.id), isNull(credentialUpdates.reviewedAt)));
    const [update] = open
      ? await tx
          .update(credentialUpdates)
          .set({
            sections: [...new Set([...open.sections, ...unsent.sections])],
            version: stored.version,
            updatedAt: now,
          })
          .where(eq(credentialUpdates.id, open.id))
          .returning()
      : await tx
          .insert(credentialUpdates)
          .values({
            applicationId: application.id,
            sections: unsent.sections,
            version: stored.version,
            openedAt: now,
            updatedAt: now,
          })
          .returning();
    await recordAudit(tx, {
      action: 'credential.update_submitted',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: {
        applicationId: application.id,
        updateId: update!.id,
        version: stored.version,
        sha256: stored.sha256,
        sections: unsent.sections.join(','),
        checklistItemsAdded: added,
        needsReverification: flagged.length,
      },
    });
    return {
      update: present(update!),
      version: stored.version,
      needsReverification: flagged.length,
      checklistItemsAdded: added,
    };
  });
}

/**
 * The open credential update of `applicationId` for the review page (administrators), or null.
 * @throws AppError not_found (404: unknown application)
 */
export async function openCredentialUpdate(
  db: Database,
  applicationId: string,
): Promise<CredentialUpdateDto | null> {
  const notFound = new AppError('not_found', 'Application not found. Reload the review page.');
  if (!isUuid(applicationId)) throw notFound;
  const [application] = await db
    .select({ id: providerApplications.id })
    .from(providerApplications)
    .where(eq(providerApplications.id, applicationId));
  if (!application) throw notFound;
  const [row] = await db
    .select()
    .from(credentialUpdates)
    .where(and(eq(credentialUpdates.applicationId, applicationId), isNull(credentialUpdates.reviewedAt)));
  return row ? present(row) : null;
}

/**
 * 'Complete Update Review' (issue 29 item 4): the reviewer closes the open credential update once no
 * checklist item of the application is pending, in discrepancy or needing re-verification; it leaves
 * the review queue. Under the application row's lock, so a provider's submit cannot slip in between
 * the check and the close; audited as 'credential.update_reviewed'.
 * @throws AppError not_found (404: unknown application), conflict (409: no open update, or items left,
 *   named)
 */
export async function completeUpdateReview(
  db: Database,
  actor: Pick<Actor, 'userId' | 'ipAddress'>,
  applicationId: string,
  now: Date,
): Promise<CredentialUpdateDto> {
  const notFound = new AppError('not_found', 'Application not found. Reload the review page.');
  if (!isUuid(applicationId)) throw notFound;
  return db.transaction(async (tx) => {
    const [application] = await tx
      .select({ id: providerApplications.id, userId: providerApplications.userId })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId))
      .for('update');
    if (!application) throw notFound;
    const [open] = await tx
      .select()
      .from(credentialUpdates)
      .where(and(eq(credentialUpdates.applicationId, applicationId), isNull(credentialUpdates.reviewedAt)));
    if (!open) {
      throw new AppError(
        'conflict',
        'No credential update is open for this application: it was completed already. Reload the review page.',
      );
    }
    const left = await tx
      .select({ target: verificationItems.target, status: verificationItems.status })
      .from(verificationItems)
      .where(
        and(
          eq(verificationItems.applicationId, applicationId),
          inArray(verificationItems.status, openItemStatuses),
        ),
      )
      .orderBy(verificationItems.position);
    if (left.length > 0) {
      throw new AppError(
        'conflict',
        updateReviewBlockedText(
          left.map((item) => ({
            target: item.target,
            statusLabel: verificationStatusLabel[item.status as VerificationStatus] ?? item.status,
          })),
        ),
      );
    }
    const [reviewed] = await tx
      .update(credentialUpdates)
      .set({ reviewedAt: now, reviewedBy: actor.userId, updatedAt: now })
      .where(eq(credentialUpdates.id, open.id))
      .returning();
    // Issue 49 item 1: a legal name change in this update becomes the account's name now.
    await applyAcceptedLegalName(tx, {
      applicationId: application.id,
      reviewerId: actor.userId,
      ipAddress: actor.ipAddress ?? null,
      now,
    });
    // Issue 49 item 1: the accepted version is what the directory publishes from now on.
    await publishCredentialVersion(tx, {
      userId: application.userId,
      applicationId: application.id,
      version: open.version,
      now,
    });
    await recordAudit(tx, {
      action: 'credential.update_reviewed',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: {
        applicationId: application.id,
        updateId: open.id,
        version: open.version,
        sections: open.sections.join(','),
      },
    });
    return present(reviewed!);
  });
}
