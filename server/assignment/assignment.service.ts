/**
 * Assigning a file to a reviewer (issue 32 item 3). 'Start Review' makes its caller the reviewer
 * (issue 13); 'Assign' hands a submitted or under-review file to another person who reviews
 * (`review:application:any`: Administrators and Credentialing Specialists), audited as
 * 'review.assigned' with who had it and who has it now, in the application's timeline.
 */
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { Assignee } from '../../domain/api/assignment.ts';
import { AppError } from '../../domain/app-error.ts';
import { type ApplicationStatus, applicationStatusLabel } from '../../domain/application-status.ts';
import { hasPermission, permissionsByRole } from '../../domain/permissions.ts';
import { grantedStaffRoles } from '../../domain/roles.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { profiles, providerApplications, staffRoleGrants, userRoles } from '../db/schema/core.ts';
import { staffRolesOf } from '../staff/staff-roles.service.ts';

/** The granted roles (besides admin) that review files, read from the permission table. */
const reviewingGrantedRoles = grantedStaffRoles.filter((role) =>
  (permissionsByRole[role] as readonly string[]).includes('review:application:any'),
);

/** Statuses a file can be assigned in: before a decision. */
const assignable: readonly ApplicationStatus[] = ['submitted', 'under_review'];

/** Everyone who may be assigned a file, by name. */
export async function listAssignees(db: Database): Promise<Assignee[]> {
  const rows = await db
    .selectDistinct({
      userId: user.id,
      first: profiles.firstName,
      last: profiles.lastName,
      accountName: user.name,
      email: user.email,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .leftJoin(userRoles, eq(userRoles.userId, user.id))
    .leftJoin(staffRoleGrants, eq(staffRoleGrants.userId, user.id))
    .where(
      or(
        eq(userRoles.role, 'admin'),
        reviewingGrantedRoles.length > 0 ? inArray(staffRoleGrants.role, reviewingGrantedRoles) : sql`false`,
      ),
    );
  return rows
    .map((r) => ({
      userId: r.userId,
      name: `${r.first ?? ''} ${r.last ?? ''}`.trim() || r.accountName,
      email: r.email,
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}

/**
 * Make `assigneeId` the reviewer of `applicationId`, under the application's row lock.
 * @returns the reviewer and whether it changed (assigning the current reviewer changes and audits nothing)
 * @throws AppError not_found (no such application), bad_request (the person does not review files),
 *   conflict (the file is decided, withdrawn or still a draft)
 */
export async function assignReviewer(
  db: Database,
  applicationId: string,
  assigneeId: string,
  by: { userId: string; ipAddress?: string },
): Promise<{ reviewerId: string; changed: boolean }> {
  const notFound = () =>
    new AppError(
      'not_found',
      'Application not found. Open applications from the Review Queue on the Admin Dashboard.',
    );
  if (!isUuid(applicationId)) throw notFound();
  return db.transaction(async (tx) => {
    const [application] = await tx
      .select({
        userId: providerApplications.userId,
        status: providerApplications.applicationStatus,
        reviewerId: providerApplications.reviewerId,
      })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId))
      .for('update');
    if (!application) throw notFound();
    if (!assignable.includes(application.status)) {
      throw new AppError(
        'conflict',
        `A file is assigned while it is Submitted or Under Review; this one is ${applicationStatusLabel[application.status]}.`,
      );
    }
    if (!hasPermission(await staffRolesOf(tx, assigneeId), 'review:application:any')) {
      throw new AppError(
        'bad_request',
        'This person does not review files. Give them the Credentialing Specialist role on the Staff tab first, or choose someone else.',
      );
    }
    if (application.reviewerId === assigneeId) return { reviewerId: assigneeId, changed: false };
    await tx
      .update(providerApplications)
      .set({ reviewerId: assigneeId })
      .where(eq(providerApplications.id, applicationId));
    await recordAudit(tx, {
      action: 'review.assigned',
      actorUserId: by.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: applicationId,
      ipAddress: by.ipAddress,
      details: { applicationId, from: application.reviewerId, to: assigneeId },
    });
    return { reviewerId: assigneeId, changed: true };
  });
}
