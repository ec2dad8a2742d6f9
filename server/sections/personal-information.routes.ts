/**
 * /api/applications/:applicationId/sections/personal-information (spec §2 "Personal information
 * screen", §6, §7): the explicit route of the single-record section.
 *
 * - GET  owner or admin -> 200 `{ personalInformation: PersonalInformationDto | null }`
 *        (owner: SSN in plain text; admin: `***-**-1234`, audited)
 * - PUT  owner -> 200 PersonalInformationDto; body: the personal information schema
 *        (domain/sections/personal-information.ts), every field optional, empty means null
 *
 * Request and response schemas: domain/api/sections.ts.
 * Handlers: authenticate (plugin hook) -> validate -> load -> authorize -> service -> present.
 * Answers carry PHI: `cache-control: no-store` (set for every /api answer in app.ts).
 */
import {
  personalInformationDtoSchema,
  personalInformationParamsSchema,
  personalInformationResponseSchema,
} from '../../domain/api/sections.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { findPersonalInformation, upsertPersonalInformation } from './personal-information.service.ts';
import { authorizeSectionAccess, sectionSaveAudit } from './section-access.ts';

const PATH = '/api/applications/:applicationId/sections/personal-information';

const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
} as const;

export async function personalInformationRoutes(app: AppInstance) {
  app.get(
    PATH,
    {
      config: { access: 'signed-in' },
      schema: {
        summary: "The application's personal information, or null before the first save (owner or admin)",
        description:
          'The owner gets the SSN in plain text (the form shows it); an admin gets it masked as ***-**-1234.',
        tags: ['sections'],
        params: personalInformationParamsSchema,
        response: { 200: personalInformationResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { application, isOwner } = await authorizeSectionAccess(
        request,
        request.params.applicationId,
        'read',
        'personalInformation',
      );
      const personalInformation = await findPersonalInformation(
        app.deps.db,
        app.deps.cipher,
        application.id,
        isOwner ? 'owner' : 'masked',
      );
      return { personalInformation };
    },
  );

  app.put(
    PATH,
    {
      config: { access: 'provider' },
      schema: {
        summary: "Save the application's personal information (owner; one record per application)",
        description:
          'Body: the personal information schema (domain/sections/personal-information.ts). No field is ' +
          'required; empty fields are stored as null; an empty SSN clears the stored one. The SSN is stored encrypted.',
        tags: ['sections'],
        params: personalInformationParamsSchema,
        response: { 200: personalInformationDtoSchema, ...errorResponses },
      },
    },
    async (request) => {
      const access = await authorizeSectionAccess(
        request,
        request.params.applicationId,
        'write',
        'personalInformation',
      );
      const { application } = access;
      const saved = await upsertPersonalInformation(
        app.deps.db,
        app.deps.cipher,
        application.id,
        request.body,
        sectionSaveAudit(access, 'personalInformation', 'saved'),
      );
      request.log.info({ applicationId: application.id, section: 'personalInformation' }, 'section saved');
      return saved;
    },
  );
}
