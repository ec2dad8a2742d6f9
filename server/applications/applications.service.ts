/**
 * Applications and their progress (spec §4). Progress is computed by PostgreSQL in one query: one
 * EXISTS per section table, for every application of the list at once; in a copy (issue 29 item 6)
 * one more EXISTS per section on `section_confirmations`, as a copied section counts once confirmed.
 */
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { CompletionState } from '../../domain/api/applications.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import {
  type ApplicationCycle,
  credentialState,
  cycleForNewApplication,
  providerMayStartCycle,
  recredentialingNotYetMessage,
} from '../../domain/credentials/provider-credential.ts';
import { reviewStatuses } from '../../domain/review/review-workflow.ts';
import { isStaff } from '../../domain/roles.ts';
import { computeProgress, type SectionKey, sections } from '../../domain/sections/registry.ts';
import { isUuid } from '../../domain/uuid.ts';
import { type Actor, assertPermission } from '../auth/actor.ts';
import { findProviderCredential } from '../credential/credential-record.ts';
import type { Queryable } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-reads.ts';
import { providerApplications } from '../db/schema/core.ts';
import { sectionConfirmations } from '../db/schema/credentials.ts';
import { completionNotifications } from '../db/schema/notifications.ts';
import { sectionTables } from '../db/schema/sections.ts';
import { presentCompletionState } from './completion-state.ts';

export interface ApplicationSummary {
  id: string;
  userId: string;
  applicationStatus: ApplicationStatus;
  createdAt: Date;
  /** Keys of the complete sections, in registry order (in a copy: with rows and confirmed). */
  completeSections: SectionKey[];
  /** In a copy (issue 29 item 6): the sections with rows not confirmed yet, in registry order; else []. */
  unconfirmedSections: SectionKey[];
  /** Complete sections / 11 as a rounded percent (spec §4). */
  progress: number;
  /** The completion notification's state (issue 5), or null before the provider completes it. */
  completion: CompletionState | null;
  /** When it was approved or rejected (issue 13), else null. */
  decidedAt: Date | null;
  /** The application it was pre-filled from (issue 14 copy-forward), else null. */
  copiedFromId: string | null;
  /** Which credentialing cycle it is (issue 29): 'initial' or 'recredentialing'. */
  cycle: ApplicationCycle;
  /** When it was withdrawn (status `withdrawn`, issue 29), else null. */
  withdrawnAt: Date | null;
}

function applicationIdColumn(table: PgTable): PgColumn {
  return (getTableColumns(table) as Record<string, PgColumn>).applicationId!;
}

/** The summary column telling whether section `key` counts as confirmed (issue 29 item 6). */
const confirmedColumn = (key: SectionKey) => `${key}Confirmed`;

/**
 * Per section, `exists(select 1 from <section> where application_id = provider_applications.id)`
 * as `<key>`, and as `<key>Confirmed` whether it counts as confirmed: always for an application that
 * is not a copy, else when `section_confirmations` has its row (issue 29 item 6; primary key lookup).
 */
function completenessColumns(): Record<string, SQL<boolean>> {
  const columns: Record<string, SQL<boolean>> = {};
  for (const section of sections) {
    const key = section.key as SectionKey;
    const table = sectionTables[key] as PgTable;
    columns[key] =
      sql<boolean>`exists (select 1 from ${table} where ${applicationIdColumn(table)} = ${providerApplications.id})`;
    columns[confirmedColumn(key)] = sql<boolean>`(${providerApplications.copiedFromId} is null or exists (
      select 1 from ${sectionConfirmations}
      where ${sectionConfirmations.applicationId} = ${providerApplications.id} and ${sectionConfirmations.sectionKey} = ${key}))`;
  }
  return columns;
}

function summarize(row: Record<string, unknown>): ApplicationSummary {
  const filled = sections.map((s) => s.key as SectionKey).filter((key) => row[key] === true);
  const completeSections = filled.filter((key) => row[confirmedColumn(key)] === true);
  const unconfirmedSections = filled.filter((key) => row[confirmedColumn(key)] !== true);
  return {
    id: row.id as string,
    userId: row.userId as string,
    applicationStatus: row.applicationStatus as ApplicationStatus,
    createdAt: row.createdAt as Date,
    decidedAt: (row.decidedAt as Date | null) ?? null,
    copiedFromId: (row.copiedFromId as string | null) ?? null,
    cycle: row.cycle as ApplicationCycle,
    withdrawnAt: (row.withdrawnAt as Date | null) ?? null,
    completeSections,
    unconfirmedSections,
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
    decidedAt: providerApplications.decidedAt,
    copiedFromId: providerApplications.copiedFromId,
    cycle: providerApplications.cycle,
    withdrawnAt: providerApplications.withdrawnAt,
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
 * Refuse a new application while the provider has one open (spec §4, issue 13): a draft is finished
 * first; one in review (submitted, under review) waits for the decision. After a decision they can
 * start again (recredentialing, issue 14).
 * @throws AppError conflict (409) with what to do
 */
export async function assertNoOpenApplication(db: Queryable, userId: string): Promise<void> {
  const [open] = await db
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
}

/**
 * Who opens a new cycle and when (issue 29 item 2): the provider themselves ('Start Recredentialing',
 * only from 180 days before their credential ends), or an administrator ('Start Recredentialing Now',
 * at any date).
 */
export interface CycleOpener {
  by: 'provider' | 'admin';
  now: Date;
}

/**
 * Insert a new draft for `userId` inside `tx`, serialised per user (two concurrent "start" clicks
 * cannot both create one) and refused while one is open (assertNoOpenApplication). Its cycle is
 * 'recredentialing' while the provider holds a credential that has not ended, else 'initial'
 * (domain/credentials/provider-credential.ts `cycleForNewApplication`, issue 29).
 * @throws AppError conflict (409), also when the provider starts one before the recredentialing window
 */
export async function insertDraftApplication(
  tx: Queryable,
  userId: string,
  copiedFromId: string | null,
  opener: CycleOpener,
): Promise<ApplicationSummary> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`application:${userId}`}))`);
  await assertNoOpenApplication(tx, userId);
  const credential = credentialState(await findProviderCredential(tx, userId), opener.now);
  if (opener.by === 'provider' && !providerMayStartCycle(credential, opener.now) && 'endsOn' in credential) {
    throw new AppError('conflict', recredentialingNotYetMessage(credential.endsOn));
  }
  const cycle = cycleForNewApplication(credential);
  const [created] = await tx.insert(providerApplications).values({ userId, copiedFromId, cycle }).returning();
  return {
    id: created!.id,
    userId: created!.userId,
    applicationStatus: created!.applicationStatus,
    createdAt: created!.createdAt,
    decidedAt: null,
    copiedFromId: created!.copiedFromId,
    cycle,
    withdrawnAt: null,
    completeSections: [],
    unconfirmedSections: [],
    progress: 0,
    completion: null,
  };
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
  if (isStaff(actor.roles)) {
    if (access === 'read') {
      assertPermission(actor, 'read:application:any');
      return application;
    }
    throw new AppError('forbidden', 'Administrators can review applications but cannot change them.');
  }
  throw notFound();
}
