/**
 * The bearer guard of machine endpoints (issue 33 item 4): FHIR (`/fhir`) and the roster downloads
 * read `Authorization: Bearer <token>` (RFC 6750 §2.1; never a query parameter or form field, so a
 * token never appears in a URL or a log) with a token of `POST /oauth/token`. Web sessions never
 * reach these endpoints: a request with only a session cookie has no bearer token and gets 401.
 *
 * Refusals are AppErrors (server/http/error-handler.ts maps them) with the RFC 6750 §3 challenge set
 * on the reply: 401 `WWW-Authenticate: Bearer realm="credentialing"` (plus `error="invalid_token"`
 * when a token was sent), 403 `error="insufficient_scope"` naming the scope needed, and 429 with
 * `Retry-After` past API_CLIENT_READS (600 requests a minute per client, server/security/rate-limits.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { grantsScope } from '../../domain/api-clients.ts';
import { AppError } from '../../domain/app-error.ts';
import { verifyAccessToken } from './api-clients.service.ts';

/** The API client a bearer request acts as. */
export interface ApiClientCaller {
  /** api_clients.id */ apiClientId: string;
  /** the OAuth client_id */ clientId: string;
  name: string;
  /** the token's granted scopes */ scopes: readonly string[];
  tokenId: string;
  ipAddress: string;
}

const REALM = 'credentialing';

/** `Bearer <b64token>` (RFC 6750 §2.1), the scheme case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function authorizationOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? header : undefined;
}

/**
 * Whether the request carries a bearer token at all (an `Authorization` header of the Bearer
 * scheme, well-formed or not), so a route that also accepts admin sessions can choose the path: a
 * malformed bearer header still takes the bearer path and is refused there.
 */
export function hasBearerToken(request: FastifyRequest): boolean {
  return /^Bearer(\s|$)/i.test(authorizationOf(request) ?? '');
}

/** A quoted-string value of a challenge (RFC 9110 §11.2): no quotes or backslashes to escape. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`;
}

function refuse(reply: FastifyReply, error: 'invalid_token' | undefined, message: string): never {
  reply.header(
    'www-authenticate',
    error
      ? `Bearer realm="${REALM}", error="${error}", error_description=${quoted(message)}`
      : `Bearer realm="${REALM}"`,
  );
  throw new AppError('unauthorized', message);
}

/**
 * The API client calling with `Authorization: Bearer <token>`, which must grant `scope`
 * (domain/api-clients.ts `grantsScope`, e.g. `system/Practitioner.read` or `roster.read`).
 * Verification is one indexed query by the token's SHA-256 joined to its client; `last_used_at` of
 * the client is updated at most once a minute.
 * @throws AppError unauthorized (401, `WWW-Authenticate: Bearer` set on `reply`) when the token is
 *   missing, malformed, unknown, expired or revoked, or its client is revoked
 * @throws AppError forbidden (403, `WWW-Authenticate: Bearer error="insufficient_scope"`) when the
 *   token lacks `scope`
 * @throws RateLimitedError (429, `Retry-After`) past API_CLIENT_READS for the client
 */
export async function requireApiClient(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
): Promise<ApiClientCaller> {
  const header = authorizationOf(request);
  if (!header || !hasBearerToken(request)) {
    refuse(
      reply,
      undefined,
      'Send an access token from POST /oauth/token as "Authorization: Bearer <token>".',
    );
  }
  const token = BEARER.exec(header)?.[1];
  if (!token) refuse(reply, 'invalid_token', 'The access token is malformed.');
  const { db, rateLimits } = request.server.deps;
  const verified = await verifyAccessToken(db, token, new Date());
  if (!verified.ok) {
    refuse(
      reply,
      'invalid_token',
      verified.reason === 'expired'
        ? 'The access token has expired (tokens last 5 minutes). Get a new one from POST /oauth/token.'
        : verified.reason === 'revoked'
          ? 'The access token was revoked.'
          : 'The access token is not valid. Get a new one from POST /oauth/token.',
    );
  }
  const { token: granted } = verified;
  await rateLimits.beforeApiClientRead(granted.apiClientId);
  if (!grantsScope(granted.scopes, scope)) {
    reply.header(
      'www-authenticate',
      `Bearer realm="${REALM}", error="insufficient_scope", scope=${quoted(scope)}`,
    );
    throw new AppError('forbidden', `This access token does not grant the scope ${scope}.`);
  }
  return {
    apiClientId: granted.apiClientId,
    clientId: granted.clientId,
    name: granted.name,
    scopes: granted.scopes,
    tokenId: granted.tokenId,
    ipAddress: request.ip,
  };
}
