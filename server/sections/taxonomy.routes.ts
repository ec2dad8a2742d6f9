/**
 * GET /api/taxonomy (issue 31 item 1): the NUCC Health Care Provider Taxonomy code set the server
 * validates specialties with (server/sections/taxonomy.ts), served whole so the Specialties screen
 * searches it in the browser. Any signed-in caller (a provider choosing a specialty, an administrator);
 * 401 otherwise (the plugin's hook in sections.routes.ts). Public reference data, no PHI.
 * Contract: domain/api/taxonomy.ts.
 */
import { taxonomyResponseSchema } from '../../domain/api/taxonomy.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { NUCC_TAXONOMY_VERSION } from '../../domain/sections/taxonomy/nucc-taxonomy.ts';
import type { AppInstance } from '../app-types.ts';
import { taxonomyCodeSet } from './taxonomy.ts';

export async function taxonomyRoutes(app: AppInstance) {
  app.get(
    '/api/taxonomy',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'The NUCC Health Care Provider Taxonomy code set, in file order (issue 31)',
        description: `Version ${NUCC_TAXONOMY_VERSION}: every code with its grouping, classification, specialization, display name and section.`,
        tags: ['sections'],
        response: { 200: taxonomyResponseSchema, 401: errorResponseSchema },
      },
    },
    async () => ({ version: NUCC_TAXONOMY_VERSION, entries: [...taxonomyCodeSet().entries] }),
  );
}
