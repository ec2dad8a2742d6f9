/**
 * A copy must be confirmed, not resubmitted (issue 29 item 6, decision 025): in an application
 * pre-filled from an earlier one (`provider_applications.copied_from_id`; every recredentialing cycle
 * is one), a copied section counts towards progress only once the provider confirmed it in this
 * cycle. Two ways, both writing `section_confirmations(application_id, section_key)`:
 *
 * - 'Review and Confirm' on the section's screen: `confirmSection` (POST
 *   /api/applications/:applicationId/sections/:slug/confirm), audited 'application.section_confirmed';
 * - a save of the section (a row added, saved or deleted, personal information saved, a document
 *   uploaded or deleted): `confirmOnSave`, called by the sections and documents services inside the
 *   save's transaction.
 *
 * Progress reads the confirmations (applications.service.ts `completenessColumns`); the completion
 * refuses while any copied section is unconfirmed (notifications/completion.service.ts).
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { AppError } from '../../domain/app-error.ts';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { catalogSections } from '../../domain/sections/section-catalog.ts';
import { confirmRefusals } from '../../domain/sections/section-confirmation.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type Actor, assertPermission } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';
import { sectionConfirmations } from '../db/schema/credentials.ts';
import { sectionTables } from '../db/schema/sections.ts';
import { loadApplicationFor } from './applications.service.ts';

/** A section's confirmation in one application. */
export interface SectionConfirmationRow {
  sectionKey: SectionKey;
  confirmedAt: Date;
}

/**
 * The section key of route slug `slug` (domain/sections/section-catalog.ts).
 * @throws AppError not_found (404) for an unknown slug
 */
export function sectionKeyOfSlug(slug: string): SectionKey {
  const section = catalogSections.find((s) => s.slug === slug);
  if (!section) throw new AppError('not_found', confirmRefusals.unknownSection);
  return section.key as SectionKey;
}

/**
 * A save of `section` confirms it when `applicationId` is a copy (issue 29 item 6): inserts the
 * confirmation unless there is one. One statement; call inside the save's transaction, so a save
 * that fails confirms nothing.
 */
export async function confirmOnSave(
  tx: Queryable,
  applicationId: string,
  section: SectionKey,
): Promise<void> {
  await tx.execute(sql`insert into ${sectionConfirmations} (application_id, section_key)
    select ${providerApplications.id}, ${section} from ${providerApplications}
    where ${providerApplications.id} = ${applicationId} and ${providerApplications.copiedFromId} is not null
    on conflict do nothing`);
}

/** `exists (select 1 from <section table> where application_id = <applicationId>)`. */
function sectionHasRows(section: SectionKey, applicationId: string): SQL<boolean> {
  const table = sectionTables[section] as PgTable;
  const column = (table as unknown as Record<string, PgColumn>).applicationId!;
  return sql<boolean>`exists (select 1 from ${table} where ${column} = ${applicationId})`;
}

/**
 * 'Review and Confirm' (issue 29 item 6): the owner confirms a copied section of their draft, so it
 * counts towards progress. Idempotent: a second call (or a concurrent one) returns the first
 * confirmation and is not audited again; the first is audited 'application.section_confirmed'
 * (details: the section key). Serialised with the completion by a share lock on the application row.
 * @returns the confirmation (its first time)
 * @throws AppError not_found (404: unknown or another provider's application), forbidden (403: an
 *   administrator), conflict (409: not a draft, not a copy, or the section has no rows to confirm)
 */
export async function confirmSection(
  db: Database,
  actor: Actor,
  applicationId: string,
  section: SectionKey,
  now: Date,
): Promise<SectionConfirmationRow> {
  return db.transaction(async (tx) => {
    const application = await loadApplicationFor(tx, actor, applicationId, 'write');
    assertPermission(actor, 'write:section:own');
    const [state] = await tx
      .select({
        status: providerApplications.applicationStatus,
        copiedFromId: providerApplications.copiedFromId,
        hasRows: sectionHasRows(section, application.id),
      })
      .from(providerApplications)
      .where(eq(providerApplications.id, application.id))
      .for('share');
    if (state?.status !== 'draft') throw new AppError('conflict', confirmRefusals.notDraft);
    if (!state.copiedFromId) throw new AppError('conflict', confirmRefusals.notCopied);
    if (!state.hasRows) throw new AppError('conflict', confirmRefusals.empty);
    const [inserted] = await tx
      .insert(sectionConfirmations)
      .values({ applicationId: application.id, sectionKey: section, confirmedAt: now })
      .onConflictDoNothing()
      .returning({ confirmedAt: sectionConfirmations.confirmedAt });
    if (inserted) {
      await recordAudit(tx, {
        action: 'application.section_confirmed',
        actorUserId: actor.userId,
        subjectUserId: application.userId,
        resourceType: 'application',
        resourceId: application.id,
        ipAddress: actor.ipAddress,
        details: { section },
      });
      return { sectionKey: section, confirmedAt: inserted.confirmedAt };
    }
    const [existing] = await tx
      .select({ confirmedAt: sectionConfirmations.confirmedAt })
      .from(sectionConfirmations)
      .where(
        sql`${sectionConfirmations.applicationId} = ${application.id} and ${sectionConfirmations.sectionKey} = ${section}`,
      );
    return { sectionKey: section, confirmedAt: existing!.confirmedAt };
  });
}
