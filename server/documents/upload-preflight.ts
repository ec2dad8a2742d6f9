/**
 * The checks a multipart upload passes before a byte of its body is read, shared by the provider's
 * documents and the reviewers' evidence files (issue 4, issue 10 item 5, issue 13, issue 19 item 4):
 * the declared size, the per-user upload rate, the caller's own checks and the free storage. A refusal
 * here closes the connection, so a client is not made to send 10 MB nobody reads.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/app-error.ts';
import { MAX_DOCUMENT_BYTES } from '../../domain/sections/documents.ts';
import type { AppDeps } from '../app-types.ts';
import { assertFreeSpace } from '../storage/disk-space.ts';
import { fileTooLargeError } from './document-intake.ts';

/**
 * Room for multipart boundaries and headers around a 10 MB file. A declared body larger than the
 * limit plus this is refused before reading; the streaming check stays the rule for everything else.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Refuse a body whose Content-Length is past 10 MB plus the multipart overhead.
 * @throws AppError payload_too_large (413), with `connection: close`
 */
export function assertDeclaredUploadSize(request: FastifyRequest, reply: FastifyReply): void {
  const declaredBytes = Number(request.headers['content-length'] ?? 0);
  if (declaredBytes > MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD_BYTES) {
    reply.header('connection', 'close');
    throw fileTooLargeError();
  }
}

/**
 * The limits of an upload by `userId`, in this order: at most UPLOADS.perUser a minute (429,
 * security/rate-limits.ts), `callerChecks` (the documents' per-application room, the evidence's
 * item and status: their own 404/409/413), then with local storage STORAGE_MIN_FREE_MB left after a
 * 10 MB file (507). Then a client gone meanwhile is 400 (the multipart parser would wait forever).
 * @throws AppError / RateLimitedError, with `connection: close` (the body is never read)
 */
export async function assertUploadAllowed(
  deps: Pick<AppDeps, 'rateLimits' | 'env'>,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  callerChecks?: () => Promise<void>,
): Promise<void> {
  try {
    await deps.rateLimits.beforeUpload(userId);
    await callerChecks?.();
    if (deps.env.STORAGE_DRIVER === 'local') {
      await assertFreeSpace(deps.env.dataDir, deps.env.STORAGE_MIN_FREE_MB, MAX_DOCUMENT_BYTES);
    }
  } catch (error) {
    reply.header('connection', 'close');
    throw error;
  }
  if (request.raw.destroyed)
    throw new AppError('bad_request', 'The upload was interrupted. Please try again.');
}
