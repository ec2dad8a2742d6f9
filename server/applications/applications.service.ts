/**
 * Applications and their progress (spec §4). Progress is computed by PostgreSQL in one query: one
 * EXISTS per section table, for every application of the list at once.
 */
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { CompletionState } from '../../domain/api/applications.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { reviewStatuses } from '../../domain/review/review-workflow.ts';
import { computeProgress, type SectionKey, sections } from '../../domain/sections/registry.ts';
import { isUuid } from '../../domain/uuid.ts';
import { type Actor, assertPermission } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-reads.ts';
import { providerApplications } from '../db/schema/core.ts';
import { completionNotifications } from '../db/schema/notifications.ts';
import { sectionTables } from '../db/schema/sections.ts';
import { presentCompletionState } from './completion-state.ts';

export interface ApplicationSummary {
  id: string;
  userId: string;
  applicationStatus: ApplicationStatus;
  createdAt: Date;
  /** Keys of the complete sections, in registry order. */
  completeSections: SectionKey[];
  /** Complete sections / 11 as a rounded percent (spec §4). */
  progress: number;
  /** The completion notification's state (issue 5), or null before the provider completes it. */
  completion: CompletionState | null;
}

function applicationIdColumn(table: PgTable): PgColumn {
  return (getTableColumns(table) as Record<string, PgColumn>).applicationId!;
}

/** `exists(select 1 from <section> where application_id = provider_applications.id)` per section. */
function completenessColumns(): Record<SectionKey, SQL<boolean>> {
  const columns = {} as Record<SectionKey, SQL<boolean>>;
  for (const section of sections) {
    const table = sectionTables[section.key as SectionKey] as PgTable;
    columns[section.key as SectionKey] =
      sql<boolean>`exists (select 1 from ${table} where ${applicationIdColumn(table)} = ${providerApplications.id})`;
  }
  return columns;
}

function summarize(row: Record<string, unknown>): ApplicationSummary {
  const completeSections = sections.map((s) => s.key as SectionKey).filter((key) => row[key] === true);
  return {
    id: row.id as string,
    userId: row.userId as string,
    applicationStatus: row.applicationStatus as ApplicationStatus,
    createdAt: row.createdAt as Date,
    completeSections,
    progress: computeProgress(completeSections.length),
    completion: row.completionStatus
      ? presentCompletionState({
          status: row.completionStatus as CompletionState['status'],
          createdAt: row.completionRequestedAt as Date,
          deliveredAt: row.completionDeliveredAt as Date | null,
          lastError: row.completionLastError as string | null,
        })
      : null,
  };
}

/** The columns of an application summary: the application, one EXISTS per section, its notification. */
function summaryColumns() {
  return {
    id: providerApplications.id,
    userId: providerApplications.userId,
    applicationStatus: providerApplications.applicationStatus,
    createdAt: providerApplications.createdAt,
    ...completenessColumns(),
    completionStatus: completionNotifications.status,
    completionRequestedAt: completionNotifications.createdAt,
    completionDeliveredAt: completionNotifications.deliveredAt,
    completionLastError: completionNotifications.lastError,
  };
}

function selectApplications(
  db: Queryable,
  column: typeof providerApplications.userId | typeof providerApplications.id,
) {
  return db
    .select(summaryColumns())
    .from(providerApplications)
    .leftJoin(completionNotifications, eq(completionNotifications.applicationId, providerApplications.id))
    .where(eq(column, sql.placeholder('key')))
    .orderBy(desc(providerApplications.createdAt), desc(providerApplications.id));
}

const applicationsOfUser = preparedPerHandle((db) =>
  selectApplications(db, providerApplications.userId).prepare('applications_of_user'),
);
const applicationById = preparedPerHandle((db) =>
  selectApplications(db, providerApplications.id).prepare('application_by_id'),
);

/** The user's applications, newest first (spec §4), with progress. */
export async function listApplicationsOfUser(db: Queryable, userId: string): Promise<ApplicationSummary[]> {
  const rows = await applicationsOfUser(db).execute({ key: userId });
  return rows.map((r) => summarize(r as Record<string, unknown>));
}

/** One application with progress, or undefined. */
export async function findApplication(
  db: Queryable,
  applicationId: string,
): Promise<ApplicationSummary | undefined> {
  const [row] = await applicationById(db).execute({ key: applicationId });
  return row ? summarize(row as Record<string, unknown>) : undefined;
}

/**
 * Start a new draft application (spec §4). A provider whose current application is still a draft
 * finishes that one first; one whose application is in review (submitted, under review; issue 13)
 * waits for the decision; after a decision they can start again (recredentialing).
 * @throws AppError conflict (409) when a draft exists
 */
export async function createApplication(db: Database, userId: string): Promise<ApplicationSummary> {
  return db.transaction(async (tx) => {
    // Serialise concurrent "start" clicks of one user so two drafts cannot be created.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`application:${userId}`}))`);
    const [open] = await tx
      .select({ id: providerApplications.id, status: providerApplications.applicationStatus })
      .from(providerApplications)
      .where(
        and(
          eq(providerApplications.userId, userId),
          inArray(providerApplications.applicationStatus, ['draft', ...reviewStatuses]),
        ),
      )
      .limit(1);
    if (open?.status === 'draft') {
      throw new AppError(
        'conflict',
        'You already have a draft application. Complete it before starting a new one.',
      );
    }
    // Issue 13: a completed application stays with the credentialing team until their decision.
    if (open) {
      throw new AppError(
        'conflict',
        'Your application is with the credentialing team. You can start a new one once they have made their decision.',
      );
    }
    const [created] = await tx.insert(providerApplications).values({ userId }).returning();
    return {
      id: created!.id,
      userId: created!.userId,
      applicationStatus: created!.applicationStatus,
      createdAt: created!.createdAt,
      completeSections: [],
      progress: 0,
      completion: null,
    };
  });
}

export type ApplicationAccess = 'read' | 'write';

const applicationOwner = preparedPerHandle((db) =>
  db
    .select({
      id: providerApplications.id,
      userId: providerApplications.userId,
      applicationStatus: providerApplications.applicationStatus,
    })
    .from(providerApplications)
    .where(eq(providerApplications.id, sql.placeholder('applicationId')))
    .prepare('application_owner'),
);

/**
 * Load an application for an actor, enforcing spec §6 on the server: the owner reads and writes;
 * an admin reads any application and writes none; anybody else gets 404 (existence is not revealed).
 * @throws AppError not_found (404) / forbidden (403)
 */
export async function loadApplicationFor(
  db: Queryable,
  actor: Actor,
  applicationId: string,
  access: ApplicationAccess,
): Promise<{ id: string; userId: string; applicationStatus: ApplicationStatus }> {
  // Made only when needed: an error captures a stack trace, which every read would otherwise pay for.
  const notFound = () =>
    new AppError('not_found', 'Application not found. Return to the dashboard and choose an application.');
  if (!isUuid(applicationId)) throw notFound();
  const [application] = await applicationOwner(db).execute({ applicationId });
  if (!application) throw notFound();
  if (application.userId === actor.userId) return application;
  if (actor.role === 'admin') {
    if (access === 'read') {
      assertPermission(actor, 'read:application:any');
      return application;
    }
    throw new AppError('forbidden', 'Administrators can review applications but cannot change them.');
  }
  throw notFound();
}
