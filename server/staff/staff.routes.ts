/**
 * The 'Staff' tab's routes (issue 32 item 2; contract domain/api/staff.ts): administrators
 * (`manage:staff:any`, second factor done) list people with their staff roles and set a person's
 * roles. Every change is audited and applies from the person's next request; removing the last
 * administrator is refused (409) so the organization never locks itself out.
 */

import {
  staffListSchema,
  staffParamsSchema,
  staffQuerySchema,
  staffRolesBodySchema,
} from '../../domain/api/staff.ts';
import { AppError, errorResponses } from '../../domain/app-error.ts';
import { staffRoles } from '../../domain/roles.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import {
  announceRoleGrants,
  changeStaffRoles,
  findPerson,
  listStaff,
  staffRolesOf,
} from './staff-roles.service.ts';

export async function staffRoutes(app: AppInstance) {
  // Before validation, so an anonymous caller gets 401 and everyone else 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'manage:staff:any');
  });

  app.get(
    '/api/admin/staff',
    {
      config: { access: 'admin' },
      schema: {
        summary: "'Staff': people with their staff roles, or those a search finds (issue 32)",
        description:
          'Without `search`: everyone who holds a staff role, by name. With it: the people whose name or email contains it (at most 50; `more` says there are others).',
        tags: ['staff'],
        querystring: staffQuerySchema,
        response: { 200: staffListSchema, ...errorResponses },
      },
    },
    async (request) => listStaff(app.deps.db, request.query.search),
  );

  app.put(
    '/api/admin/staff/:userId/roles',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Set a person's staff roles (issue 32): the roles they hold after the change",
        description:
          '409 when it would remove the last administrator; 404 for an unknown user. Audited per role granted or revoked.',
        tags: ['staff'],
        params: staffParamsSchema,
        body: staffRolesBodySchema,
        response: { 200: staffListSchema.shape.people.element, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'manage:staff:any');
      const { userId } = request.params;
      const person = await findPerson(app.deps.db, userId);
      if (!person)
        throw new AppError('not_found', 'No such user. Search again: the account may have been deleted.');
      const wanted = new Set(request.body.roles);
      const held = await staffRolesOf(app.deps.db, userId);
      const change = await changeStaffRoles(
        app.deps.db,
        userId,
        {
          grant: staffRoles.filter((role) => wanted.has(role) && !held.includes(role)),
          revoke: held.filter((role) => !wanted.has(role)),
        },
        {
          keepAnAdministrator: true,
          actorUserId: actor.userId,
          via: 'staff_tab',
          ipAddress: actor.ipAddress,
        },
      );
      request.log.info({ subjectUserId: userId }, 'staff roles changed');
      await announceRoleGrants(
        { db: app.deps.db, mailer: app.deps.mailer, logger: request.log, appUrl: app.deps.env.appUrl },
        change,
        { userId, actorUserId: actor.userId, now: new Date() },
      );
      return { ...person, roles: await staffRolesOf(app.deps.db, userId) };
    },
  );
}
