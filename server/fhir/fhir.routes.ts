/**
 * The FHIR R4 directory API at `/fhir` (issue 33 item 3), read-only, outside `/api` (so the app's
 * `config.access` declaration, cookie sessions and CSRF guard do not apply: every route but
 * `metadata` is behind the bearer guard of server/api-clients/bearer.ts, and a session cookie alone
 * gets 401).
 *
 * - `GET /fhir/metadata`: the CapabilityStatement (FHIR R4 §3.1.0.10 capabilities), public.
 * - `GET /fhir/<type>/<id>`: read (FHIR R4 §3.1.0.2); 404 OperationOutcome when not in the directory.
 * - `GET /fhir/<type>?...`: search (FHIR R4 §3.1.1), a `searchset` Bundle with `self` and `next`
 *   links (an opaque keyset `_cursor`), `total` when the whole result fits on the first page.
 * - Bulk Data `$export` routes: fhir-export.routes.ts.
 *
 * `<type>` is one of domain/api-clients.ts `fhirResourceTypes`; reading it needs the scope
 * `system/<type>.read` (or `system/*.read`); an `_include`/`_revinclude` of another type needs that
 * type's scope too (403 otherwise). Each read or search is audited (`fhir.read`: the client id, the
 * interaction, the type and how many resources were sent; no search values).
 */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FhirResourceType, fhirResourceTypes, grantsScope } from '../../domain/api-clients.ts';
import { requireApiClient } from '../api-clients/bearer.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { capabilityStatement } from './fhir-capability.ts';
import { fhirExportRoutes } from './fhir-export.routes.ts';
import { startExportWorker } from './fhir-export.service.ts';
import { FhirError, fhirErrorHandler, operationOutcome, sendFhir } from './fhir-http.ts';
import { searchDirectory } from './fhir-read.service.ts';
import { encodeCursor, FHIR_ID, type ParsedSearch, parseSearch } from './fhir-search.ts';

/** The resource type of a path segment, or a 404 OperationOutcome. */
export function resourceTypeOf(segment: string): FhirResourceType {
  if ((fhirResourceTypes as readonly string[]).includes(segment)) return segment as FhirResourceType;
  throw new FhirError(
    404,
    'not-supported',
    `Resource type '${segment.slice(0, 40)}' is not served here; see /fhir/metadata.`,
  );
}

/** The search link of `q` at `base`, with `cursor` when given. */
function searchLink(base: string, q: ParsedSearch, cursor?: string): string {
  const params = new URLSearchParams(q.canonical);
  if (cursor) params.set('_cursor', cursor);
  const query = params.toString();
  return `${base}/fhir/${q.type}${query ? `?${query}` : ''}`;
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
  const worker: { current?: ReturnType<typeof startExportWorker> } = {};
  app.addHook('onReady', async () => {
    worker.current = startExportWorker({
      db: app.deps.db,
      pool: app.deps.database.pool,
      storage: app.deps.storage,
      logger: app.log,
      health: app.deps.database.health,
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

  app.get<{ Params: { type: string }; Querystring: Record<string, string | string[]> }>(
    '/:type',
    { schema: { hide: true } },
    async (request, reply) => {
      const type = resourceTypeOf(request.params.type);
      const query = parseSearch(type, request.query ?? {});
      const also: FhirResourceType[] = [
        ...(query.include.includes('PractitionerRole:practitioner') ? (['Practitioner'] as const) : []),
        ...(query.include.includes('PractitionerRole:location') ? (['Location'] as const) : []),
        ...(query.revincludeRoles ? (['PractitionerRole'] as const) : []),
      ];
      const caller = await authorize(request, reply, type, also);
      const page = await searchDirectory(app.deps.db, query, new Date());
      const root = base();
      const entry = (resource: Resource, mode: 'match' | 'include') => ({
        fullUrl: `${root}/fhir/${resource.resourceType}/${resource.id}`,
        resource,
        search: { mode },
      });
      const rawCursor = typeof request.query?._cursor === 'string' ? request.query._cursor : undefined;
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'searchset',
        timestamp: new Date().toISOString(),
        ...(!query.cursor && !page.next ? { total: page.matches.length } : {}),
        link: [
          { relation: 'self', url: searchLink(root, query, rawCursor) },
          ...(page.next ? [{ relation: 'next', url: searchLink(root, query, encodeCursor(page.next)) }] : []),
        ],
        entry: [
          ...page.matches.map((r) => entry(r, 'match')),
          ...page.includes.map((r) => entry(r, 'include')),
        ],
      };
      await audit(caller, 'search-type', type, page.matches.length + page.includes.length);
      return sendFhir(reply, 200, bundle);
    },
  );

  await app.register(fhirExportRoutes, { worker: () => worker.current });
}
