/**
 * The one error handler (style.md habit 7): AppError -> its status and body; bad JSON, schema
 * failures and oversize bodies -> 4xx with a message a person can act on; anything else -> 500 with a
 * generic message and no stack trace (issue 7), logged with the request id.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorResponse } from '../../domain/app-error.ts';

function describeIssue(issue: { instancePath?: string; message?: string }): string {
  const field = issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') || 'request';
  return `${field}: ${issue.message ?? 'is invalid'}`;
}

export function errorHandler(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    return reply.status(error.status).send(error.toResponse());
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
  if (status === 429) {
    return reply.status(429).send({
      code: 'rate_limited',
      message: 'Too many attempts. Wait a minute, then try again.',
    } satisfies ErrorResponse);
  }
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
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({
    code: 'internal',
    message: 'Something went wrong on our side. Please try again in a moment.',
  } satisfies ErrorResponse);
}
