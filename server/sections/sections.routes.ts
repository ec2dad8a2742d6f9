/**
 * The application sections' API (issue 3; spec §2, §3, §6, §7): the explicit personal information
 * route and the generic list-section routes, under /api/applications/:applicationId/sections, and the
 * NUCC taxonomy code set the Specialties screen chooses from (GET /api/taxonomy, issue 31).
 * Every section call needs a session: the hook answers 401 before any input is looked at.
 */

import type { AppInstance } from '../app-types.ts';
import { requireActor } from '../auth/actor.ts';
import { listSectionRoutes } from './list-sections.routes.ts';
import { personalInformationRoutes } from './personal-information.routes.ts';
import { taxonomyRoutes } from './taxonomy.routes.ts';

export async function sectionRoutes(app: AppInstance) {
  app.addHook('onRequest', async (request) => {
    await requireActor(request);
  });
  // The static personal-information path wins over the list routes' `:slug` (router precedence).
  await app.register(personalInformationRoutes);
  await app.register(listSectionRoutes);
  // The code set the Specialties screen chooses from (issue 31), behind the same session check.
  await app.register(taxonomyRoutes);
}
