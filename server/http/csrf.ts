/**
 * Cross-site request protection (issue 7): a state-changing API request that carries a cookie must
 * come from a trusted origin (Origin header, or Referer when a browser omits Origin). SameSite=Lax
 * cookies are the first line; this check is the second. better-auth applies the same rule to
 * /api/auth. The guard decides on the route the router matched (`isApiRequest`), never on the URL
 * text, so no spelling of a path (`/%61pi/...`) skips it (issue 10 item 3).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorResponse } from '../../domain/app-error.ts';
import { isApiRequest } from './request-route.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** @param allowedOrigins origins (scheme://host[:port]) whose pages may send writes with cookies */
export function createCsrfGuard(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins.map((o) => new URL(o).origin));
  return async function csrfGuard(request: FastifyRequest, reply: FastifyReply) {
    if (SAFE_METHODS.has(request.method) || !isApiRequest(request)) return;
    if (!request.headers.cookie) return; // No ambient credentials: nothing to forge.
    const origin =
      request.headers.origin ?? (request.headers.referer ? safeOrigin(request.headers.referer) : undefined);
    if (origin && allowed.has(origin)) return;
    const body: ErrorResponse = {
      code: 'forbidden',
      message: 'This request came from another site and was blocked. Reload the page and try again.',
    };
    return reply.status(403).header('cache-control', 'no-store').send(body);
  };
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
