/**
 * The file-duty guard (issue 50 item 1): before validation and the handler of a route that declares
 * `config.fileDuty`, the signed-in caller who is the file's provider is refused (403) with the
 * domain's sentence ('This is your own file: someone else must approve it.'), whatever staff roles
 * they hold. The file is found from the route's params as the router parsed them (never the URL
 * text): the application, a screening finding's, an agenda item's, or the body's application. A
 * caller without a session, or a file that does not exist, passes on to the handler, which answers
 * 401 or 404 as it always did.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/app-error.ts';
import { fileDutyRefusal } from '../../domain/review/file-duties.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { RouteFileDuty } from '../app-types.ts';
import { findActor } from '../auth/actor.ts';
import type { Queryable } from '../db/client.ts';
import { providerApplications } from '../db/schema/core.ts';

/** The provider of the file `locator` names in `request`, or undefined when there is none. */
export async function providerOfFile(
  db: Queryable,
  locator: RouteFileDuty['file'],
  request: Pick<FastifyRequest, 'params' | 'body'>,
): Promise<string | undefined> {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const applicationId =
    locator === 'application'
      ? params.applicationId
      : locator === 'body_application'
        ? body.applicationId
        : undefined;
  if (typeof applicationId === 'string') {
    if (!isUuid(applicationId)) return undefined;
    const [row] = await db
      .select({ userId: providerApplications.userId })
      .from(providerApplications)
      .where(eq(providerApplications.id, applicationId));
    return row?.userId;
  }
  if (locator === 'screening_finding' && params.id && isUuid(params.id)) {
    const { rows } = await db.execute<{ user_id: string }>(
      sql`select user_id from screening_findings where id = ${params.id}::uuid`,
    );
    return rows[0]?.user_id;
  }
  if (locator === 'agenda_item' && params.itemId && isUuid(params.itemId)) {
    const { rows } = await db.execute<{ user_id: string }>(
      sql`select a.user_id from committee_agenda_items i join provider_applications a on a.id = i.application_id
        where i.id = ${params.itemId}::uuid`,
    );
    return rows[0]?.user_id;
  }
  return undefined;
}

/** Fastify preValidation hook: refuses the provider of the file a route's declared duty acts on, before any other check of the request. */
export async function fileDutyGuard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const declared = request.routeOptions.config?.fileDuty;
  if (!declared) return;
  const actor = await findActor(request);
  if (!actor) return;
  const providerId = await providerOfFile(request.server.deps.db, declared.file, request);
  if (!providerId) return;
  const refusal = fileDutyRefusal(actor, { providerId }, declared.duty);
  if (refusal) throw new AppError('forbidden', refusal);
}
