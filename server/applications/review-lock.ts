/**
 * The lock of a completed application (issue 13, decision 018 "Locks"): from `submitted` on, the
 * provider's section writes and document uploads and deletes are refused, except the sections of the
 * open information request (documents: when it includes the Documents section), and, for the approved
 * application whose credential is current, the dated sections a credential update may change (issue 29
 * item 4, domain/credentials/credential-updates.ts: licenses, certifications, malpractice insurance,
 * vaccinations, and document uploads, never deletes). The one check, called by the sections and
 * documents services inside the transaction of the write: it takes a share lock on the application
 * row, so a completion, a response or a 'Submit Update' (which lock it for update) cannot interleave.
 */
import { sql } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import {
  credentialUpdateAllowed,
  isCredentialUpdateSection,
} from '../../domain/credentials/credential-updates.ts';
import { credentialState } from '../../domain/credentials/provider-credential.ts';
import { applicationLockMessage } from '../../domain/review/lock-messages.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { findProviderCredential } from '../credential/credential-record.ts';
import type { Queryable } from '../db/client.ts';

/**
 * Whether `application` (approved or not) takes credential updates at `now` (issue 29 item 4): it
 * is approved, it is the application that set its provider's credential, and that credential is
 * current (domain `credentialUpdateAllowed`, over H2's `credentialState`).
 */
export async function credentialUpdatesAllowed(
  tx: Queryable,
  application: { id: string; userId: string; status: string },
  now: Date,
): Promise<boolean> {
  if (application.status !== 'approved') return false;
  const record = await findProviderCredential(tx, application.userId);
  return credentialUpdateAllowed(application.status, application.id, {
    applicationId: record?.applicationId ?? null,
    state: credentialState(record, now),
  });
}

/** What a write does: a change (save, add, upload) or a removal (a row or a document deleted). */
export interface EditIntent {
  /** Removing a document is refused in a credential update: an approval rests on it. */
  removal?: boolean;
  /** The clock (the credential's currency is judged at it); the request's time by default. */
  now?: Date;
}

/**
 * Refuse a provider's write to `section` of `applicationId` unless the application is a draft, the
 * open information request names the section, or it is a credential update's section of the approved
 * application whose credential is current (document removals excepted). Call inside the write's
 * transaction.
 * @throws AppError conflict (409) with a message a person can act on
 */
export async function assertSectionEditable(
  tx: Queryable,
  applicationId: string,
  section: SectionKey,
  intent: EditIntent = {},
): Promise<void> {
  const result = await tx.execute<{
    status: string;
    user_id: string;
    submitted_at: Date | string | null;
    sections: string[] | null;
  }>(sql`
    select a.application_status as status, a.user_id, a.submitted_at,
      (select r.sections from information_requests r
        where r.application_id = a.id and r.responded_at is null) as sections
    from provider_applications a where a.id = ${applicationId} for share of a`);
  const row = result.rows[0];
  if (!row || row.status === 'draft') return;
  if (row.status === 'under_review' && row.sections?.includes(section)) return;
  if (
    isCredentialUpdateSection(section) &&
    !(section === 'documents' && intent.removal) &&
    (await credentialUpdatesAllowed(
      tx,
      { id: applicationId, userId: row.user_id, status: row.status },
      intent.now ?? new Date(),
    ))
  ) {
    return;
  }
  throw new AppError(
    'conflict',
    applicationLockMessage(
      row.status as ApplicationStatus,
      row.submitted_at ? new Date(row.submitted_at) : null,
    ),
  );
}
