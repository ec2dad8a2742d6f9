/**
 * Bulk Data `$export` (issue 33 item 3; FHIR Bulk Data Access IG v2, system level, the async
 * request pattern), registered inside the FHIR plugin (prefix `/fhir`):
 *
 * - `GET /fhir/$export` or `POST /fhir/$export` (kick-off; POST with an empty body or a FHIR
 *   `Parameters` body, fhir-export-parameters.ts): `Prefer: respond-async` required; `Accept`, when sent,
 *   `application/fhir+json`; `_outputFormat` (optional) `application/fhir+ndjson`,
 *   `application/ndjson` or `ndjson`; `_type` a comma list of served types (default: all five);
 *   `_since` a FHIR instant (only resources changed after it). Every type exported needs its read
 *   scope. Other parameters (`_typeFilter`, `_elements`, `patient`, `includeAssociatedData`) answer
 *   400. Answers 202 with `Content-Location` (the status URL); 429 while the client already has
 *   MAX_OPEN_EXPORTS exports queued or running. Audited `fhir.export_requested`.
 * - `GET /fhir/$export-status/<id>`: 202 with `X-Progress` and `Retry-After` while queued or running;
 *   200 with the manifest (`application/json`, Bulk Data IG 2.0) `{ transactionTime, request, requiresAccessToken: true, output: [{ type,
 *   url, count }], error: [] }` when done; 500 OperationOutcome when it failed; 404 for another
 *   client's export, a cancelled one or an unknown id.
 * - `DELETE /fhir/$export-status/<id>`: cancels (and deletes its files); 202.
 * - `GET /fhir/$export-file/<id>/<Type>-<n>.ndjson`: one NDJSON file (`application/fhir+ndjson`),
 *   to the client that requested the export only, with the file type's read scope. Audited
 *   `fhir.export_downloaded`.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FhirResourceType, fhirResourceTypes, grantsScope } from '../../domain/api-clients.ts';
import { requireApiClient } from '../api-clients/bearer.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { fhirExportFiles, fhirExportJobs } from '../db/schema/exports.ts';
import { type ExportWorker, removeExportFiles } from './fhir-export.service.ts';
import { exportParametersOf } from './fhir-export-parameters.ts';
import { FhirError, operationOutcome, sendFhir } from './fhir-http.ts';
import { dateRange } from './fhir-search.ts';

/** Exports a client may have queued or running at once. */
export const MAX_OPEN_EXPORTS = 3;
/** Seconds a client is asked to wait between status polls. */
export const STATUS_RETRY_AFTER_SECONDS = 2;

const OUTPUT_FORMATS = ['application/fhir+ndjson', 'application/ndjson', 'ndjson'];
const KICK_OFF_PARAMS = ['_outputFormat', '_type', '_since'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_NAME = /^([A-Za-z]{1,40})-(\d{1,6})\.ndjson$/;

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new FhirError(400, 'invalid', `${name}: give it once`);
    return value[0];
  }
  return value;
}

/** The export routes; `worker` gives this instance's worker once the app is ready. */
export async function fhirExportRoutes(
  app: AppInstance,
  options: { worker: () => ExportWorker | undefined },
) {
  const base = () => app.deps.env.appUrl.replace(/\/+$/, '');
  const statusUrl = (id: string) => `${base()}/fhir/$export-status/${id}`;

  /** The kick-off of GET and POST, with its parameters from the query or the Parameters body. */
  const kickOff = async (
    request: FastifyRequest,
    reply: FastifyReply,
    query: Record<string, string | string[] | undefined>,
  ) => {
    const prefer = String(request.headers.prefer ?? '');
    if (!/(^|[\s,;])respond-async($|[\s,;])/i.test(prefer)) {
      throw new FhirError(
        400,
        'invalid',
        'Send "Prefer: respond-async": $export runs asynchronously (Bulk Data IG kick-off).',
      );
    }
    const accept = request.headers.accept;
    if (accept && !/application\/fhir\+json|application\/json|\*\/\*/i.test(accept)) {
      throw new FhirError(400, 'invalid', 'Accept must be application/fhir+json.');
    }
    for (const name of Object.keys(query)) {
      if (!KICK_OFF_PARAMS.includes(name)) {
        throw new FhirError(
          400,
          'not-supported',
          `$export parameter '${name.slice(0, 40)}' is not supported; supported: ${KICK_OFF_PARAMS.join(', ')}.`,
        );
      }
    }
    const format = single(query._outputFormat, '_outputFormat');
    if (format !== undefined && !OUTPUT_FORMATS.includes(format)) {
      throw new FhirError(400, 'not-supported', '_outputFormat: only application/fhir+ndjson is written.');
    }
    const typeParam = single(query._type, '_type');
    const types: FhirResourceType[] = [];
    for (const raw of typeParam === undefined ? [...fhirResourceTypes] : typeParam.split(',').slice(0, 20)) {
      const type = raw.trim();
      if (!(fhirResourceTypes as readonly string[]).includes(type)) {
        throw new FhirError(
          400,
          'not-supported',
          `_type: '${type.slice(0, 40)}' is not exported; supported: ${fhirResourceTypes.join(', ')}.`,
        );
      }
      if (!types.includes(type as FhirResourceType)) types.push(type as FhirResourceType);
    }
    const sinceParam = single(query._since, '_since');
    let since: Date | null = null;
    if (sinceParam !== undefined) {
      if (!/T/.test(sinceParam) || sinceParam.length > 40) {
        throw new FhirError(400, 'invalid', '_since: a FHIR instant, e.g. 2027-01-02T00:00:00Z.');
      }
      since = new Date(dateRange(sinceParam, '_since').start);
    }
    const caller = await requireApiClient(request, reply, `system/${types[0]}.read`);
    for (const type of types) {
      if (!grantsScope(caller.scopes, `system/${type}.read`)) {
        throw new FhirError(403, 'forbidden', `Exporting ${type} needs the scope system/${type}.read.`);
      }
    }
    const db = app.deps.db;
    const [open] = await db
      .select({ n: count() })
      .from(fhirExportJobs)
      .where(
        and(
          eq(fhirExportJobs.apiClientId, caller.apiClientId),
          inArray(fhirExportJobs.status, ['queued', 'running']),
        ),
      );
    if ((open?.n ?? 0) >= MAX_OPEN_EXPORTS) {
      reply.header('retry-after', '60');
      throw new FhirError(
        429,
        'throttled',
        `At most ${MAX_OPEN_EXPORTS} exports may run at once; wait for one to finish.`,
      );
    }
    const now = new Date();
    const job = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(fhirExportJobs)
        .values({
          apiClientId: caller.apiClientId,
          requestUrl: `${base()}${request.url}`.slice(0, 2000),
          types,
          since,
          status: 'queued',
          transactionTime: now,
          createdAt: now,
        })
        .returning();
      await recordAudit(tx, {
        action: 'fhir.export_requested',
        resourceType: 'fhir_export_job',
        resourceId: inserted!.id,
        ipAddress: caller.ipAddress,
        details: { clientId: caller.clientId, types: types.join(','), since: since?.toISOString() ?? null },
      });
      return inserted!;
    });
    options.worker()?.wake();
    reply.header('content-location', statusUrl(job.id));
    return sendFhir(
      reply,
      202,
      operationOutcome(
        'information',
        'informational',
        'The export has started. Poll the Content-Location URL.',
      ),
    );
  };

  app.get<{ Querystring: Record<string, string | string[]> }>(
    '/$export',
    { schema: { hide: true } },
    async (request, reply) => kickOff(request, reply, request.query ?? {}),
  );

  // Bulk Data IG 2.0 export.html#request-flow: the kick-off may be a POST with a Parameters body.
  app.post<{ Querystring: Record<string, string | string[]>; Body: unknown }>(
    '/$export',
    { schema: { hide: true } },
    async (request, reply) => {
      if (Object.keys(request.query ?? {}).length > 0) {
        throw new FhirError(
          400,
          'invalid',
          'A POST kick-off takes its parameters in a Parameters body, not in the URL.',
        );
      }
      return kickOff(request, reply, exportParametersOf(request.body));
    },
  );

  /** The caller's own export `id`, or 404. */
  const ownJob = async (
    request: Parameters<typeof requireApiClient>[0],
    reply: Parameters<typeof requireApiClient>[1],
    id: string,
  ) => {
    const job = UUID.test(id)
      ? (await app.deps.db.select().from(fhirExportJobs).where(eq(fhirExportJobs.id, id)))[0]
      : undefined;
    const caller = await requireApiClient(request, reply, `system/${job?.types[0] ?? 'Practitioner'}.read`);
    if (!job || job.apiClientId !== caller.apiClientId || job.status === 'cancelled') {
      throw new FhirError(404, 'not-found', 'No such export of this client.');
    }
    return { job, caller };
  };

  app.get<{ Params: { jobId: string } }>(
    '/$export-status/:jobId',
    { schema: { hide: true } },
    async (request, reply) => {
      const { job } = await ownJob(request, reply, request.params.jobId);
      const files = await app.deps.db
        .select()
        .from(fhirExportFiles)
        .where(eq(fhirExportFiles.jobId, job.id))
        .orderBy(fhirExportFiles.resourceType, fhirExportFiles.seq);
      if (job.status === 'queued' || job.status === 'running') {
        const written = files.reduce((n, f) => n + f.count, 0);
        const doneTypes = new Set(files.map((f) => f.resourceType));
        reply.header(
          'x-progress',
          job.status === 'queued'
            ? 'queued'
            : `running: ${doneTypes.size} of ${job.types.length} types, ${written} resources written`,
        );
        reply.header('retry-after', String(STATUS_RETRY_AFTER_SECONDS));
        return sendFhir(
          reply,
          202,
          operationOutcome('information', 'informational', 'The export is in progress.'),
        );
      }
      if (job.status === 'failed') {
        return sendFhir(
          reply,
          500,
          operationOutcome('error', 'exception', job.error ?? 'The export failed.'),
        );
      }
      const order = new Map(job.types.map((t, i) => [t, i]));
      files.sort(
        (a, b) => (order.get(a.resourceType) ?? 0) - (order.get(b.resourceType) ?? 0) || a.seq - b.seq,
      );
      // Bulk Data IG 2.0 export.html#response---complete-status: the manifest is application/json.
      return sendFhir(
        reply,
        200,
        {
          transactionTime: job.transactionTime.toISOString(),
          request: job.requestUrl,
          requiresAccessToken: true,
          output: files.map((f) => ({
            type: f.resourceType,
            url: `${base()}/fhir/$export-file/${job.id}/${f.resourceType}-${f.seq}.ndjson`,
            count: f.count,
          })),
          error: [],
        },
        'application/json; charset=utf-8',
      );
    },
  );

  app.delete<{ Params: { jobId: string } }>(
    '/$export-status/:jobId',
    { schema: { hide: true } },
    async (request, reply) => {
      const { job } = await ownJob(request, reply, request.params.jobId);
      await app.deps.db
        .update(fhirExportJobs)
        .set({ status: 'cancelled', completedAt: new Date() })
        .where(eq(fhirExportJobs.id, job.id));
      // A running job stops at its next batch and deletes what it wrote; a finished one's files go now.
      if (job.status !== 'running') await removeExportFiles(app.deps.db, app.deps.storage, job.id);
      return sendFhir(
        reply,
        202,
        operationOutcome('information', 'informational', 'The export was cancelled and its files deleted.'),
      );
    },
  );

  app.get<{ Params: { jobId: string; file: string } }>(
    '/$export-file/:jobId/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const match = FILE_NAME.exec(request.params.file);
      const type = match?.[1] ?? '';
      if (
        !match ||
        !UUID.test(request.params.jobId) ||
        !(fhirResourceTypes as readonly string[]).includes(type)
      ) {
        throw new FhirError(404, 'not-found', 'No such export file.');
      }
      const caller = await requireApiClient(request, reply, `system/${type}.read`);
      const db = app.deps.db;
      const [row] = await db
        .select({ file: fhirExportFiles, ownerId: fhirExportJobs.apiClientId, status: fhirExportJobs.status })
        .from(fhirExportFiles)
        .innerJoin(fhirExportJobs, eq(fhirExportJobs.id, fhirExportFiles.jobId))
        .where(
          and(
            eq(fhirExportFiles.jobId, request.params.jobId),
            eq(fhirExportFiles.resourceType, type),
            eq(fhirExportFiles.seq, Number(match[2])),
          ),
        );
      if (!row || row.ownerId !== caller.apiClientId || row.status !== 'completed') {
        throw new FhirError(404, 'not-found', 'No such export file.');
      }
      const body = await app.deps.storage.get(row.file.storageKey);
      await recordAudit(db, {
        action: 'fhir.export_downloaded',
        resourceType: 'fhir_export_job',
        resourceId: request.params.jobId,
        ipAddress: caller.ipAddress,
        details: { clientId: caller.clientId, type, seq: row.file.seq, count: row.file.count },
      });
      return reply
        .status(200)
        .header('content-type', 'application/fhir+ndjson')
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
