/**
 * One provider's details for the admin dialog (spec §2 /admin "Details dialog", §7 "per-user
 * detail"): the profile, every application and every section of one application, loaded on demand
 * in one request. The SSN is masked; its ciphertext is never read for an admin. A specialty's linked
 * board certification (issue 31) is also named (`boardCertification`), as the completion payload
 * names it: its row id means nothing to a reader.
 */
import { eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SectionData, SectionRowValues, SectionValue } from '../../domain/api/admin.ts';
import { AppError } from '../../domain/app-error.ts';
import { pickCurrentApplication } from '../../domain/application-status.ts';
import type { Role } from '../../domain/roles.ts';
import { maskSsn } from '../../domain/sections/personal-information.ts';
import { sections } from '../../domain/sections/registry.ts';
import { joinSummary } from '../../domain/sections/section.ts';
import { type ApplicationSummary, listApplicationsOfUser } from '../applications/applications.service.ts';
import type { Queryable } from '../db/client.ts';
import { profiles, userRoles } from '../db/schema/core.ts';
import { sectionTables } from '../db/schema/sections.ts';
import { sectionOrderBy } from '../sections/section-columns.ts';

/** One provider as loaded, dates as Date; the route presents it as `providerDetailsSchema` (domain/api/admin.ts). */
export interface ProviderDetails {
  profile: { userId: string; firstName: string; lastName: string; email: string; role: Role; joinedAt: Date };
  /** All applications, newest first, with progress. */
  applications: ApplicationSummary[];
  /** The application whose sections are shown: the requested one, else the current one; null if none. */
  selectedApplicationId: string | null;
  /** Every section in registry order (empty when the user has no application). */
  sections: SectionData[];
}

/** Serialise a column value for JSON: dates become ISO strings; everything else is kept. */
function toSectionValue(value: unknown): SectionValue {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value as SectionValue;
}

/**
 * Name each specialty's linked certification (issue 31) in `boardCertification`: 'Board Certified,
 * Internal Medicine · ABIM · C-1' (name, certifying body, number, as the certifications rows of the
 * same answer hold them), or null when none is linked. The link is to a row of the same application
 * (server/sections/section-rules.ts), so that row is in `data`.
 */
function nameBoardCertifications(data: SectionData[]): void {
  const certifications = new Map(
    (data.find((s) => s.key === 'certifications')?.rows ?? []).map((row) => [row.id, row]),
  );
  for (const row of data.find((s) => s.key === 'specialties')?.rows ?? []) {
    const linked = row.boardCertificationId
      ? certifications.get(String(row.boardCertificationId))
      : undefined;
    row.boardCertification = linked
      ? joinSummary(
          linked.certificationName as string | null,
          linked.certifyingBody as string | null,
          linked.certificationNumber as string | null,
        )
      : null;
  }
}

/**
 * Every section's rows of one application, in the order each screen shows them, queried concurrently.
 * The SSN ciphertext is never selected: the personal information row carries `ssn` as `***-**-1234`
 * built from `ssn_last4` (spec §6 "SSN is shown masked"; the server never decrypts it for an admin).
 * Specialties also carry `boardCertification`, the linked certification's name (issue 31).
 */
export async function loadSectionData(db: Queryable, applicationId: string): Promise<SectionData[]> {
  const data = await Promise.all(
    sections.map(async (section): Promise<SectionData> => {
      const table = sectionTables[section.key] as PgTable;
      const { ssnEncrypted: _neverSelected, ...columns } = getTableColumns(table) as Record<string, PgColumn>;
      const order = section.kind === 'list' ? sectionOrderBy(table, section.orderBy) : [];
      const rows = (await db
        .select(columns)
        .from(table)
        .where(eq(columns.applicationId!, applicationId))
        .orderBy(...order)) as Record<string, unknown>[];
      return {
        key: section.key,
        title: section.title,
        rows: rows.map((row) => {
          const values: SectionRowValues = { id: row.id as string };
          for (const field of section.fields) {
            values[field.name] =
              field.name === 'ssn'
                ? row.ssnLast4
                  ? maskSsn(row.ssnLast4 as string)
                  : null
                : toSectionValue(row[field.name]);
          }
          if (section.key === 'documents') values.uploadedAt = toSectionValue(row.uploadedAt);
          return values;
        }),
      };
    }),
  );
  nameBoardCertifications(data);
  return data;
}

/**
 * One provider with all applications and every section of one application (spec §7 "per-user detail").
 * @param applicationId an application of this user; undefined = the current one (spec §4)
 * @throws AppError not_found (404) when the user or that application of the user does not exist
 */
export async function getProviderDetails(
  db: Queryable,
  userId: string,
  applicationId: string | undefined,
): Promise<ProviderDetails> {
  const [profileRow] = await db
    .select({
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: profiles.email,
      joinedAt: profiles.createdAt,
      role: userRoles.role,
    })
    .from(profiles)
    .leftJoin(userRoles, eq(userRoles.userId, profiles.userId))
    .where(eq(profiles.userId, userId));
  if (!profileRow) throw new AppError('not_found', 'This user no longer exists. Reload the list.');
  const applications = await listApplicationsOfUser(db, userId);
  const selected = applicationId
    ? applications.find((application) => application.id === applicationId)
    : pickCurrentApplication(applications);
  if (applicationId && !selected) {
    throw new AppError(
      'not_found',
      'This application does not belong to this user. Choose one from the list.',
    );
  }
  return {
    profile: { ...profileRow, role: profileRow.role ?? 'user' },
    applications,
    selectedApplicationId: selected?.id ?? null,
    sections: selected ? await loadSectionData(db, selected.id) : [],
  };
}
