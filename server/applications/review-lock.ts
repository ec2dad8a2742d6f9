/**
 * The lock of a completed application (issue 13, decision 018 "Locks"): from `submitted` on, the
 * provider's section writes and document uploads and deletes are refused, except the sections of the
 * open information request (documents: when it includes the Documents section). The one check, called
 * by the sections and documents services inside the transaction of the write: it takes a share lock
 * on the application row, so a completion or a response (which lock it for update) cannot interleave.
 */
import { sql } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { applicationLockMessage } from '../../domain/review/lock-messages.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import type { Queryable } from '../db/client.ts';

/**
 * Refuse a provider's write to `section` of `applicationId` unless the application is a draft or the
 * open information request names the section. Call inside the write's transaction.
 * @throws AppError conflict (409) with a message a person can act on
 */
export async function assertSectionEditable(
  tx: Queryable,
  applicationId: string,
  section: SectionKey,
): Promise<void> {
  const result = await tx.execute<{
    status: string;
    submitted_at: Date | string | null;
    sections: string[] | null;
  }>(sql`
    select a.application_status as status, a.submitted_at,
      (select r.sections from information_requests r
        where r.application_id = a.id and r.responded_at is null) as sections
    from provider_applications a where a.id = ${applicationId} for share of a`);
  const row = result.rows[0];
  if (!row || row.status === 'draft') return;
  if (row.status === 'under_review' && row.sections?.includes(section)) return;
  throw new AppError(
    'conflict',
    applicationLockMessage(
      row.status as ApplicationStatus,
      row.submitted_at ? new Date(row.submitted_at) : null,
    ),
  );
}
