/**
 * The organization's settings (issue 50 item 7): GET and PUT /api/admin/settings, administrators
 * (`manage:staff:any`, who keep the organization's people and roles too). PUT answers the settings
 * saved; 400 names the field at fault.
 */
import { organizationSettingsSchema } from '../../domain/api/settings.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import { readOrganizationSettings, saveOrganizationSettings } from './settings.service.ts';

export async function settingsRoutes(app: AppInstance) {
  // Before validation: 401 without a session, 403 without the permission, whatever is sent.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'manage:staff:any');
  });

  app.get(
    '/api/admin/settings',
    {
      config: { access: 'admin' },
      schema: {
        summary: "The organization's name, address and letter signer (issue 50 item 7)",
        tags: ['settings'],
        response: { 200: organizationSettingsSchema, ...errorResponses },
      },
    },
    async () => readOrganizationSettings(app.deps.db),
  );

  app.put(
    '/api/admin/settings',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Save the organization's name, address and letter signer (issue 50 item 7)",
        tags: ['settings'],
        body: organizationSettingsSchema,
        response: { 200: organizationSettingsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'manage:staff:any');
      return saveOrganizationSettings(app.deps.db, actor, request.body, new Date());
    },
  );
}
