/**
 * Who reads a credentialing file (issue 50 item 6): staff who read files (`read:application:any`),
 * and a committee member (`read:meeting:member`) while the file is on the agenda of an open meeting
 * they sit on, unless they are recused from it at any meeting or it is their own. The committee then
 * reads what the reviewer read: the review page (snapshot, checklist with sources, evidence files,
 * timeline), the versions, the provider's documents and the File Summary, read-only (no review
 * permission comes with it), each read audited as 'committee.file_viewed' (HIPAA 164.312(b)).
 */
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../domain/app-error.ts';
import { hasPermission } from '../../domain/permissions.ts';
import { isUuid } from '../../domain/uuid.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Queryable } from '../db/client.ts';
import { auditLog } from '../db/schema/audit.ts';
import { providerApplications } from '../db/schema/core.ts';
import { type Actor, assertPermission, requireActor } from './actor.ts';

/** The 403 of a member who may not read the file now. */
export const COMMITTEE_FILE_REFUSAL =
  'You can read a file while it is on the agenda of an open meeting you sit on, unless you are recused from it.';

/**
 * Whether `userId` sits on an open meeting whose agenda holds `applicationId`, is recused from it at
 * no meeting, and is not its provider.
 */
export async function committeeMayRead(
  db: Queryable,
  userId: string,
  applicationId: string,
): Promise<boolean> {
  if (!isUuid(applicationId)) return false;
  const { rows } = await db.execute<{ may: boolean }>(sql`
    select exists (
      select 1 from committee_agenda_items i
      join committee_meetings m on m.id = i.meeting_id and m.closed_at is null
      join committee_meeting_members mm on mm.meeting_id = m.id and mm.user_id = ${userId}
      where i.application_id = ${applicationId}::uuid
    ) and not exists (
      select 1 from committee_agenda_items i
      where i.application_id = ${applicationId}::uuid and ${userId} = any(i.recused_member_ids)
    ) and not exists (
      select 1 from provider_applications a where a.id = ${applicationId}::uuid and a.user_id = ${userId}
    ) as may`);
  return rows[0]?.may === true;
}

/**
 * Whether `request`'s caller may pass a GET route's first check as a reader of files: staff who read
 * files, or a committee member (whose file is checked by `requireFileReader` in the handler).
 * @throws AppError unauthorized (401), forbidden (403), two_factor_required
 */
export async function requireFileReaderRole(request: FastifyRequest): Promise<Actor> {
  const actor = await requireActor(request);
  assertPermission(
    actor,
    hasPermission(actor.roles, 'read:application:any') ? 'read:application:any' : 'read:meeting:member',
  );
  return actor;
}

/**
 * The caller, who reads `applicationId`: staff who read files, else a committee member of an open
 * meeting holding it (audited as 'committee.file_viewed' with `what` they read).
 * @throws AppError unauthorized (401), forbidden (403, COMMITTEE_FILE_REFUSAL), two_factor_required
 */
export async function requireFileReader(
  request: FastifyRequest,
  applicationId: string,
  what: string,
): Promise<Actor> {
  const actor = await requireFileReaderRole(request);
  if (hasPermission(actor.roles, 'read:application:any')) return actor;
  const { db } = request.server.deps;
  if (!(await committeeMayRead(db, actor.userId, applicationId))) {
    throw new AppError('forbidden', COMMITTEE_FILE_REFUSAL);
  }
  await recordAudit(db, {
    action: 'committee.file_viewed',
    actorUserId: actor.userId,
    resourceType: 'application',
    resourceId: applicationId,
    ipAddress: actor.ipAddress,
    details: { what },
  });
  return actor;
}

/**
 * Records a staff member's read of a file (issue 51 item 5; HIPAA 164.312(b)): 'review.file_viewed'
 * with who, the file and its provider, from where, and `details` saying what was read (the review
 * page, a version); never what it holds. A committee member's read is recorded by `requireFileReader`
 * instead ('committee.file_viewed'), so it is not written twice. Written by one statement that reads
 * the file's provider itself, so the route runs it alongside the read (issue 51 item 5's bench): the
 * page is answered only once both succeeded; an unknown file records nothing.
 */
export async function recordFileView(
  db: Queryable,
  actor: Actor,
  applicationId: string,
  details: { what: 'review' | 'version'; version?: number },
): Promise<void> {
  if (!hasPermission(actor.roles, 'read:application:any') || !isUuid(applicationId)) return;
  // One statement, its provider read in it: the read it records need not wait for a lookup first.
  await db.execute(sql`
    insert into ${auditLog} (action, actor_user_id, subject_user_id, resource_type, resource_id, ip_address, details)
    select 'review.file_viewed', ${actor.userId}, a.user_id, 'application', ${applicationId}, ${actor.ipAddress ?? null},
      ${JSON.stringify(details)}::jsonb
    from ${providerApplications} a where a.id = ${applicationId}::uuid`);
}
