/**
 * HTTP conventions of the FHIR API (FHIR R4 §3.1.0 RESTful API): every answer is
 * `application/fhir+json` with `Cache-Control: no-store` (directory data is not for shared caches),
 * and every error an `OperationOutcome` (FHIR R4 §3.1.0.4 "an OperationOutcome SHOULD be returned")
 * with the status of the product's AppError codes (domain/app-error.ts); the bearer guard's
 * `WWW-Authenticate` and `Retry-After` headers are kept. Never a value of the request in an
 * outcome beyond the parameter's name and a short excerpt, never a stack trace.
 */
import type { OperationOutcome } from '@medplum/fhirtypes';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, httpStatusOf } from '../../domain/app-error.ts';
import { RateLimitedError } from '../security/rate-limits.ts';
import { SearchParameterError } from './fhir-search.ts';

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

type IssueCode = OperationOutcome['issue'][number]['code'];

/** An OperationOutcome with one issue. */
export function operationOutcome(
  severity: 'error' | 'information' | 'warning' | 'fatal',
  code: IssueCode,
  diagnostics: string,
): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity, code, diagnostics }] };
}

/**
 * Send `body` as JSON with `status`, not stored by any cache; `contentType` is FHIR JSON unless
 * given (the Bulk Data manifest and the SMART configuration are plain `application/json`).
 */
export function sendFhir(
  reply: FastifyReply,
  status: number,
  body: unknown,
  contentType: string = FHIR_JSON,
): FastifyReply {
  return reply
    .status(status)
    .header('content-type', contentType)
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}

/** A 4xx of this API (bad parameter, not found, unsupported) as an AppError-like throwable. */
export class FhirError extends Error {
  readonly status: number;
  readonly issueCode: IssueCode;
  constructor(status: number, issueCode: IssueCode, message: string) {
    super(message);
    this.name = 'FhirError';
    this.status = status;
    this.issueCode = issueCode;
  }
}

const issueCodeOfStatus: Record<number, IssueCode> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'too-costly',
  429: 'throttled',
  503: 'transient',
};

/**
 * The error handler of the /fhir routes: an OperationOutcome for every error. Unknown errors are
 * logged (the logger's safe serializer) and answered 500 without detail.
 */
export function fhirErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof FhirError) {
    return sendFhir(reply, error.status, operationOutcome('error', error.issueCode, error.message));
  }
  if (error instanceof SearchParameterError) {
    return sendFhir(reply, 400, operationOutcome('error', 'invalid', error.message));
  }
  if (error instanceof AppError) {
    if (error instanceof RateLimitedError) {
      reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
    }
    const status = httpStatusOf[error.code];
    return sendFhir(
      reply,
      status,
      operationOutcome('error', issueCodeOfStatus[status] ?? 'processing', error.message),
    );
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendFhir(
      reply,
      status,
      operationOutcome('error', issueCodeOfStatus[status] ?? 'invalid', 'The request is not valid.'),
    );
  }
  const health = request.server.deps?.database?.health;
  if (health?.isUnavailable(error)) {
    health.suspect(error);
    reply.header('retry-after', '30');
    return sendFhir(
      reply,
      503,
      operationOutcome('error', 'transient', 'The database is not reachable right now.'),
    );
  }
  request.log.error({ err: error, route: request.routeOptions?.url }, 'unhandled error');
  return sendFhir(reply, 500, operationOutcome('fatal', 'exception', 'Something went wrong on our side.'));
}
