/**
 * The one error handler (style.md habit 7): AppError -> its status and body; bad JSON, schema
 * failures and oversize bodies -> 4xx with a message a person can act on; anything else -> 500 with a
 * generic message and no stack trace (issue 7), logged with the request id and matched route. The
 * logged error is the logger's safe summary (server/logger.ts): a database error by its SQLSTATE and
 * constraint only, never the SQL or its parameters (issue 10 item 4). A database that cannot be
 * reached (connection refused or cut, server shutting down, no connection within the pool's timeout)
 * is a 503 the person can wait out, counted by the database's health monitor instead of logged per
 * request (issue 19 items 1 and 2).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorResponse } from '../../domain/app-error.ts';
import { RateLimitedError } from '../security/rate-limits.ts';

function describeIssue(issue: { instancePath?: string; message?: string }): string {
  const field = issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') || 'request';
  return `${field}: ${issue.message ?? 'is invalid'}`;
}

/** What a person reads while the database is down (issue 19). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable right now. Try again in a minute.';

export function errorHandler(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    // An attempt limit says when a retry can succeed (decision 010).
    if (error instanceof RateLimitedError)
      reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
    return reply.status(error.status).send(error.toResponse());
  }
  const health = request.server.deps?.database?.health;
  if (health?.isUnavailable(error)) {
    health.suspect(error);
    health.countRefused();
    const unavailable = new AppError('service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
    return reply.status(unavailable.status).header('retry-after', '30').send(unavailable.toResponse());
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: (v.instancePath ?? '')
        .split('/')
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      message: v.message ?? 'is invalid',
    }));
    const body: ErrorResponse = {
      code: 'validation_failed',
      message: `Please correct the highlighted fields: ${error.validation.map(describeIssue).join('; ')}`,
      issues,
    };
    return reply.status(400).send(body);
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) {
    return reply.status(413).send({
      code: 'payload_too_large',
      message: 'The request is too large. Files may be at most 10 MB.',
    } satisfies ErrorResponse);
  }
  if (status === 415) {
    return reply
      .status(415)
      .send({ code: 'unsupported_media_type', message: 'Send the request as JSON.' } satisfies ErrorResponse);
  }
  if (status >= 400 && status < 500) {
    const message =
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is not valid JSON.'
        : fastifyError.message;
    return reply
      .status(status)
      .send({ code: status === 404 ? 'not_found' : 'bad_request', message } satisfies ErrorResponse);
  }
  request.log.error({ err: error, route: request.routeOptions?.url }, 'unhandled error');
  return reply.status(500).send({
    code: 'internal',
    message: 'Something went wrong on our side. Please try again in a moment.',
  } satisfies ErrorResponse);
}

/**
 * Errors Fastify raises before routing (Fastify's `frameworkErrors`): a URL with invalid
 * percent-encoding or an over-long parameter answers 400 in the product's error shape.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const body: ErrorResponse = {
    code: 'bad_request',
    message:
      error.code === 'FST_ERR_BAD_URL'
        ? 'The address is not valid (it contains a malformed %-escape). Check the link and try again.'
        : 'The address is not valid. Check the link and try again.',
  };
  return reply.status(400).header('cache-control', 'no-store').send(body);
}
