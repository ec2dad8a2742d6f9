/**
 * What a request is, as the router sees it (issue 10 item 3). Guards and headers decide on the route
 * the router matched, never on the raw URL text: `/%61pi/applications` and `/api//applications` are
 * routed like `/api/applications`, so they must be guarded like it.
 */
import type { FastifyRequest } from 'fastify';

/**
 * The request's path as the router reads it: the matched route's pattern when one matched
 * (`/api/applications/:applicationId`), otherwise the percent-decoded path without the query.
 */
export function requestPath(request: FastifyRequest): string {
  const pattern = request.routeOptions?.url;
  if (pattern) return pattern;
  const raw = request.url.split('?', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The request is for the JSON API (a matched /api route, or an unmatched path under /api/). */
export function isApiRequest(request: FastifyRequest): boolean {
  return requestPath(request).startsWith('/api/');
}
