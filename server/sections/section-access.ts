/**
 * Who may read and write an application's sections (spec §6, enforced on the server): the owner
 * reads and writes; an admin reads (audited) and gets 403 on writes; anybody else gets 404.
 */
import type { FastifyRequest } from 'fastify';
import type { SectionKey } from '../../domain/sections/registry.ts';
import { loadApplicationFor } from '../applications/applications.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type Actor, requireActor, requirePermission } from '../auth/actor.ts';
import type { Queryable } from '../db/client.ts';

export interface SectionAccess {
  actor: Actor;
  application: { id: string; userId: string };
  /** The actor owns the application (false: an admin reading it). */
  isOwner: boolean;
}

/**
 * Load the application for a section call and check the section permission:
 * `read:section:own` / `read:section:any` to read, `write:section:own` to write. An admin's read is
 * recorded in the audit log as `admin.view_provider` (resource: the application; details: the section).
 * @throws AppError unauthorized (401), not_found (404: unknown application or another provider's),
 *   forbidden (403: an admin writing)
 */
export async function authorizeSectionAccess(
  request: FastifyRequest,
  applicationId: string,
  access: 'read' | 'write',
  section: SectionKey,
): Promise<SectionAccess> {
  const { db } = request.server.deps;
  const actor = await requireActor(request);
  const application = await loadApplicationFor(db, actor, applicationId, access);
  const isOwner = application.userId === actor.userId;
  if (access === 'write') await requirePermission(request, 'write:section:own');
  else await requirePermission(request, isOwner ? 'read:section:own' : 'read:section:any');
  if (!isOwner) {
    await recordAudit(db, {
      action: 'admin.view_provider',
      actorUserId: actor.userId,
      subjectUserId: application.userId,
      resourceType: 'application',
      resourceId: application.id,
      ipAddress: actor.ipAddress,
      details: { section },
    });
  }
  return { actor, application, isOwner };
}

/** What a provider's save did to a section, as the audit log names it (issue 51 item 5). */
export type SectionChange = 'saved' | 'row_added' | 'rows_saved' | 'row_deleted';

/** Writes the audit row of a save in the save's own transaction: `rows` is how many rows it wrote. */
export type SectionSaveAudit = (tx: Queryable, rows: number) => Promise<void>;

/**
 * The audit of the owner's save of `section` (issue 51 item 5; HIPAA 164.312(b) asks for activity on
 * PHI to be recorded): 'application.section_saved' with who, the application, the section, the
 * change and the number of rows, from where (the caller's address); never a value. The services call
 * it inside the save's transaction, so the log holds a save exactly when the save happened.
 */
export function sectionSaveAudit(
  access: Pick<SectionAccess, 'actor' | 'application'>,
  section: SectionKey,
  change: SectionChange,
): SectionSaveAudit {
  return async (tx, rows) => {
    await recordAudit(tx, {
      action: 'application.section_saved',
      actorUserId: access.actor.userId,
      subjectUserId: access.application.userId,
      resourceType: 'application',
      resourceId: access.application.id,
      ipAddress: access.actor.ipAddress,
      details: { section, change, rows },
    });
  };
}
