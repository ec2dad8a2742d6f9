/**
 * The FHIR R4 directory API at `/fhir` (issue 33 item 3), read-only, outside `/api` (so the app's
 * `config.access` declaration, cookie sessions and CSRF guard do not apply: every route but
 * `metadata` is behind the bearer guard of server/api-clients/bearer.ts, and a session cookie alone
 * gets 401).
 *
 * - `GET /fhir/metadata`: the CapabilityStatement (FHIR R4 §3.1.0.10 capabilities), public.
 * - `GET /fhir/.well-known/smart-configuration`: the SMART configuration (smart-configuration.ts),
 *   public.
 * - Every route: 406 OperationOutcome for a client that accepts only XML (fhir-format.ts).
 * - `GET /fhir/<type>/<id>`: read (FHIR R4 §3.1.0.2); 404 OperationOutcome when not in the directory.
 * - `GET /fhir/<type>?...` and `POST /fhir/<type>/_search` (form-encoded body): search (FHIR R4
 *   §3.1.1), a `searchset` Bundle with `self` and `next` links (an opaque keyset `_cursor`), built by
 *   fhir-search-bundle.ts (`_summary=count`, `_total`, `_sort`, `_elements`).
 * - Bulk Data `$export` routes: fhir-export.routes.ts.
 *
 * `<type>` is one of domain/api-clients.ts `fhirResourceTypes`; reading it needs the scope
 * `system/<type>.read` (or `system/*.read`); an `_include`/`_revinclude` of another type needs that
 * type's scope too (403 otherwise). Each read or search is audited (`fhir.read`: the client id, the
 * interaction, the type and how many resources were sent; no search values).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FhirResourceType, fhirResourceTypes, grantsScope } from '../../domain/api-clients.ts';
import { requireApiClient } from '../api-clients/bearer.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { capabilityStatement } from './fhir-capability.ts';
import { fhirExportRoutes } from './fhir-export.routes.ts';
import { startExportWorker } from './fhir-export.service.ts';
import { notAcceptable, registerFhirBodyParsers } from './fhir-format.ts';
import { FhirError, fhirErrorHandler, operationOutcome, sendFhir } from './fhir-http.ts';
import { searchDirectory } from './fhir-read.service.ts';
import { FHIR_ID, parseSearch } from './fhir-search.ts';
import { searchBundle } from './fhir-search-bundle.ts';
import { smartConfiguration } from './smart-configuration.ts';

/** The resource type of a path segment, or a 404 OperationOutcome. */
export function resourceTypeOf(segment: string): FhirResourceType {
  if ((fhirResourceTypes as readonly string[]).includes(segment)) return segment as FhirResourceType;
  throw new FhirError(
    404,
    'not-supported',
    `Resource type '${segment.slice(0, 40)}' is not served here; see /fhir/metadata.`,
  );
}

/**
 * The FHIR plugin; register with `{ prefix: '/fhir' }`. Starts the `$export` worker when the app is
 * ready and stops it when the app closes.
 */
export async function fhirRoutes(app: AppInstance) {
  app.setErrorHandler(fhirErrorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendFhir(
      reply,
      404,
      operationOutcome('error', 'not-found', `No FHIR interaction at ${request.method} this path.`),
    ),
  );
  // 406 before anything else (authentication included) for a client that reads only XML.
  app.addHook('onRequest', async (request, reply) => {
    const query = request.query as Record<string, string | string[] | undefined> | undefined;
    const refusal = notAcceptable(request.headers.accept, query?._format);
    if (refusal) return sendFhir(reply, 406, operationOutcome('error', 'not-supported', refusal));
  });
  registerFhirBodyParsers(app);
  const worker: { current?: ReturnType<typeof startExportWorker> } = {};
  app.addHook('onReady', async () => {
    worker.current = startExportWorker({
      db: app.deps.db,
      pool: app.deps.database.pool,
      storage: app.deps.storage,
      logger: app.log,
      health: app.deps.database.health,
      retentionHours: app.deps.env.FHIR_EXPORT_RETENTION_HOURS,
    });
  });
  app.addHook('onClose', async () => {
    await worker.current?.stop();
  });

  const base = () => app.deps.env.appUrl.replace(/\/+$/, '');

  /** The caller of a read of `type`, also holding the scopes of the types `also` names. */
  const authorize = async (
    request: FastifyRequest,
    reply: FastifyReply,
    type: FhirResourceType,
    also: FhirResourceType[] = [],
  ) => {
    const caller = await requireApiClient(request, reply, `system/${type}.read`);
    for (const other of also) {
      if (!grantsScope(caller.scopes, `system/${other}.read`)) {
        throw new FhirError(403, 'forbidden', `Including ${other} needs the scope system/${other}.read.`);
      }
    }
    return caller;
  };

  const audit = (
    caller: Awaited<ReturnType<typeof authorize>>,
    interaction: 'read' | 'search-type',
    type: FhirResourceType,
    count: number,
    resourceId?: string,
  ) =>
    recordAudit(app.deps.db, {
      action: 'fhir.read',
      resourceType: type,
      resourceId: resourceId ?? null,
      ipAddress: caller.ipAddress,
      details: { clientId: caller.clientId, interaction, type, count },
    });

  app.get('/metadata', { schema: { hide: true } }, async (_request, reply) =>
    sendFhir(reply, 200, capabilityStatement(base(), new Date().toISOString())),
  );

  // SMART App Launch 2.x: the configuration at the FHIR base, public, plain JSON.
  app.get('/.well-known/smart-configuration', { schema: { hide: true } }, async (_request, reply) =>
    sendFhir(reply, 200, smartConfiguration(base()), 'application/json; charset=utf-8'),
  );

  app.get<{ Params: { type: string; id: string } }>(
    '/:type/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const type = resourceTypeOf(request.params.type);
      const caller = await authorize(request, reply, type);
      const id = request.params.id;
      if (!FHIR_ID.test(id))
        throw new FhirError(404, 'not-found', `${type}/${id.slice(0, 64)} is not known.`);
      const query = parseSearch(type, { _id: id, _count: '1' });
      const page = await searchDirectory(app.deps.db, query, new Date());
      const resource = page.matches[0];
      await audit(caller, 'read', type, resource ? 1 : 0, id);
      if (!resource) throw new FhirError(404, 'not-found', `${type}/${id} is not in the directory.`);
      return sendFhir(reply, 200, resource);
    },
  );

  /** A search of `type` with `params` (the query of GET, or the form body of POST `_search`). */
  const search = async (
    request: FastifyRequest,
    reply: FastifyReply,
    typeSegment: string,
    params: Record<string, string | string[] | undefined>,
  ) => {
    const type = resourceTypeOf(typeSegment);
    const query = parseSearch(type, params);
    const also: FhirResourceType[] = [
      ...(query.include.includes('PractitionerRole:practitioner') ? (['Practitioner'] as const) : []),
      ...(query.include.includes('PractitionerRole:location') ? (['Location'] as const) : []),
      ...(query.revincludeRoles ? (['PractitionerRole'] as const) : []),
    ];
    const caller = await authorize(request, reply, type, also);
    const rawCursor = typeof params._cursor === 'string' ? params._cursor : undefined;
    const { bundle, sent } = await searchBundle(app.deps.db, query, new Date(), base(), rawCursor);
    await audit(caller, 'search-type', type, sent);
    return sendFhir(reply, 200, bundle);
  };

  app.get<{ Params: { type: string }; Querystring: Record<string, string | string[]> }>(
    '/:type',
    { schema: { hide: true } },
    async (request, reply) => search(request, reply, request.params.type, request.query ?? {}),
  );

  // FHIR R4 http.html#search: POST [type]/_search with a form body answers as GET; the URL's own
  // parameters, when any, are read with the body's.
  app.post<{ Params: { type: string }; Querystring: Record<string, string | string[]>; Body: unknown }>(
    '/:type/_search',
    { schema: { hide: true } },
    async (request, reply) => {
      const contentType = String(request.headers['content-type'] ?? '');
      if (request.body !== undefined && !/^application\/x-www-form-urlencoded/i.test(contentType)) {
        throw new FhirError(
          415,
          'not-supported',
          'POST _search takes its parameters as application/x-www-form-urlencoded.',
        );
      }
      const form = (request.body ?? {}) as Record<string, string | string[]>;
      const merged: Record<string, string | string[]> = { ...(request.query ?? {}) };
      for (const [name, value] of Object.entries(form)) {
        const held = merged[name];
        merged[name] = held === undefined ? value : [...[held].flat(), ...[value].flat()];
      }
      return search(request, reply, request.params.type, merged);
    },
  );

  await app.register(fhirExportRoutes, { worker: () => worker.current });
}
