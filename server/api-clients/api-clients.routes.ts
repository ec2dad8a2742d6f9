/**
 * Administrators' routes of API clients (issue 33 item 4; contract domain/api/api-clients.ts):
 * list, register (the `client_secret` is answered once; optionally a public JSON Web Key Set for
 * `private_key_jwt`) and revoke. `manage:api_client:any`, held by
 * the Administrator role only, with a second factor (domain/permissions.ts). Audited by the service.
 */
import {
  apiClientCreateBodySchema,
  apiClientCreatedSchema,
  apiClientListSchema,
  apiClientParamsSchema,
  apiClientSummarySchema,
} from '../../domain/api/api-clients.ts';
import { errorResponses } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { requirePermission } from '../auth/actor.ts';
import {
  createApiClient,
  listApiClients,
  revokeApiClient,
  rotateApiClientSecret,
} from './api-clients.service.ts';

/** The admin routes plugin; register once (server/routes.ts). */
export async function apiClientRoutes(app: AppInstance) {
  // Before validation, so an anonymous caller gets 401 and everyone else 403 whatever they send.
  app.addHook('onRequest', async (request) => {
    await requirePermission(request, 'manage:api_client:any');
  });

  app.get(
    '/api/admin/api-clients',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'API clients (issue 33): every registered client, newest first, revoked ones included',
        description: 'Never a secret or its hash. `lastUsedAt` is updated at most once a minute.',
        tags: ['api-clients'],
        response: { 200: apiClientListSchema, ...errorResponses },
      },
    },
    async () => ({ clients: await listApiClients(app.deps.db) }),
  );

  app.post(
    '/api/admin/api-clients',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Register an API client (issue 33): answers its client_secret, this once only',
        description:
          "Body `{name, scopes, jwks?}`: a name of 1 to 100 characters and at least one of system/Practitioner.read, system/PractitionerRole.read, system/Location.read, system/Organization.read, system/VerificationResult.read, system/*.read, roster.read (SMART v2 `.rs` accepted for `.read`); optionally `jwks`, the client's public JSON Web Key Set (`{keys: [...]}`, 1 to 10 RS384 or ES384 public keys with a `kid` each; a key with private parts is refused) for signed JWT assertions (private_key_jwt). Only the SHA-256 of the secret is kept. Audited.",
        tags: ['api-clients'],
        body: apiClientCreateBodySchema,
        response: { 201: apiClientCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = await requirePermission(request, 'manage:api_client:any');
      const created = await createApiClient(
        app.deps.db,
        request.body,
        { userId: actor.userId, via: 'admin', ipAddress: actor.ipAddress },
        new Date(),
      );
      request.log.info({ apiClientId: created.client.id }, 'api client registered');
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/admin/api-clients/:id/revoke',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Revoke an API client (issue 33): every token it holds is refused from now on',
        description: '404 for no such client, 409 when it is already revoked. Audited.',
        tags: ['api-clients'],
        params: apiClientParamsSchema,
        response: { 200: apiClientSummarySchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'manage:api_client:any');
      const revoked = await revokeApiClient(
        app.deps.db,
        { id: request.params.id },
        { userId: actor.userId, via: 'admin', ipAddress: actor.ipAddress },
        new Date(),
      );
      request.log.info({ apiClientId: revoked.id }, 'api client revoked');
      return revoked;
    },
  );

  app.post(
    '/api/admin/api-clients/:id/rotate-secret',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Rotate an API client's secret (issue 52): answers the new client_secret, this once only",
        description:
          'The secret before stays valid for 24 hours, so the client can switch over; an older one stops now. 404 for no such client, 409 for a revoked one. Audited.',
        tags: ['api-clients'],
        params: apiClientParamsSchema,
        response: { 200: apiClientCreatedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await requirePermission(request, 'manage:api_client:any');
      const rotated = await rotateApiClientSecret(
        app.deps.db,
        { id: request.params.id },
        { userId: actor.userId, via: 'admin', ipAddress: actor.ipAddress },
        new Date(),
      );
      request.log.info({ apiClientId: rotated.client.id }, 'api client secret rotated');
      return rotated;
    },
  );
}
