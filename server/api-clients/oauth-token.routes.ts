/**
 * `POST /oauth/token`: the token endpoint of API clients (issue 33 item 4), OAuth 2.0 client
 * credentials (RFC 6749 §4.4). Outside /api: it is for machines, and no browser session is a
 * credential here.
 *
 * - Body `application/x-www-form-urlencoded` (RFC 6749 §4.4.2), parsed in this plugin only with
 *   WHATWG URLSearchParams (Node's, no dependency); a repeated parameter is refused (§3.2: "MUST NOT
 *   be included more than once"); at most TOKEN_BODY_MAX_BYTES.
 * - `grant_type=client_credentials`; optional `scope`, a space-separated subset of the client's
 *   scopes (§3.3), default all of them.
 * - Client authentication (§2.3.1), exactly one method: `client_secret_basic` (`Authorization:
 *   Basic base64(urlencode(client_id) ":" urlencode(client_secret))`), `client_secret_post`
 *   (`client_id` and `client_secret` in the body), or `private_key_jwt` (SMART Backend Services;
 *   RFC 7523 §2.2: `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`
 *   and `client_assertion`, a JWT signed with a key the client registered; `client_id` optional,
 *   verified by private-key-jwt.ts's `authenticateClientAssertion`, `aud` =
 *   `tokenEndpointUrl(APP_URL)`). Two methods at once are `invalid_request`. A session cookie is
 *   ignored: alone it is no client authentication (401 `invalid_client`).
 * - Answers (§5.1, §5.2): 200 `{access_token, token_type: "bearer", expires_in: 300, scope}`; 400
 *   `invalid_request`, `unsupported_grant_type`, `invalid_scope`; 401 `invalid_client` (with
 *   `WWW-Authenticate: Basic` when the client tried Basic); 429 `temporarily_unavailable` with
 *   `Retry-After` past TOKEN_REQUESTS (server/security/rate-limits.ts: 120 requests a minute per
 *   address, 30 tokens a minute per client). Every answer is `Cache-Control: no-store`, `Pragma: no-cache`.
 *
 * CSRF: the app's guard (server/http/csrf.ts) covers /api only; this endpoint needs none, because
 * nothing ambient authenticates here (a cookie is ignored) and a browser cannot read the answer
 * across origins (no CORS).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  JWT_BEARER_ASSERTION_TYPE,
  type OAuthErrorCode,
  oauthErrorSchema,
  tokenRequestBodySchema,
  tokenResponseSchema,
} from '../../domain/api/api-clients.ts';
import { requestedScopes } from '../../domain/api-clients.ts';
import { AppError } from '../../domain/app-error.ts';
import type { AppInstance } from '../app-types.ts';
import { errorHandler } from '../http/error-handler.ts';
import { RateLimitedError } from '../security/rate-limits.ts';
import {
  type AuthenticatedClient,
  authenticateClient,
  CREDENTIAL_MAX_LENGTH,
  issueAccessToken,
} from './api-clients.service.ts';
import { authenticateClientAssertion } from './private-key-jwt.ts';

/** Largest token request body read, in bytes. */
export const TOKEN_BODY_MAX_BYTES = 8 * 1024;

/** An RFC 6749 §5.2 error answer: its HTTP status, code and description. */
export class OAuthError extends Error {
  readonly status: 400 | 401;
  readonly error: OAuthErrorCode;
  readonly basicChallenge: boolean;
  constructor(status: 400 | 401, error: OAuthErrorCode, description: string, basicChallenge = false) {
    super(description);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.basicChallenge = basicChallenge;
  }
}

type ClientAuthentication =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; clientSecret: string }
  | { method: 'private_key_jwt'; clientId: string | undefined; assertion: string };

/**
 * The token endpoint's URL under `appUrl` (server/env.ts `appUrl`, from APP_URL; a trailing slash
 * dropped): the `aud` a client assertion must carry (RFC 7523 §3 item 3), e.g.
 * `https://credentialing.example.org/oauth/token`.
 */
export function tokenEndpointUrl(appUrl: string): string {
  return `${appUrl.replace(/\/+$/, '')}/oauth/token`;
}

/** RFC 6749 Appendix B: `+` is a space, then percent-decoding. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/** How the client authenticates (RFC 6749 §2.3): exactly one method, or an OAuthError. */
function clientAuthenticationOf(
  request: FastifyRequest,
  params: {
    client_id?: string;
    client_secret?: string;
    client_assertion_type?: string;
    client_assertion?: string;
  },
): ClientAuthentication {
  const header = request.headers.authorization;
  if (params.client_assertion !== undefined || params.client_assertion_type !== undefined) {
    if ((typeof header === 'string' && header !== '') || params.client_secret !== undefined) {
      throw new OAuthError(
        400,
        'invalid_request',
        'Use one client authentication method: a client_assertion, HTTP Basic or client_secret, not several.',
      );
    }
    if (params.client_assertion_type !== JWT_BEARER_ASSERTION_TYPE) {
      throw new OAuthError(
        401,
        'invalid_client',
        `Unsupported client_assertion_type: send ${JWT_BEARER_ASSERTION_TYPE} with a signed JWT (RFC 7523 §2.2).`,
      );
    }
    if (!params.client_assertion) {
      throw new OAuthError(400, 'invalid_request', 'client_assertion is missing: send the signed JWT.');
    }
    return { method: 'private_key_jwt', clientId: params.client_id, assertion: params.client_assertion };
  }
  if (typeof header === 'string' && header !== '') {
    const basic = /^Basic +([A-Za-z0-9+/]{1,800}={0,2}) *$/i.exec(header);
    if (!/^Basic(\s|$)/i.test(header)) {
      throw new OAuthError(
        401,
        'invalid_client',
        'Authenticate the client with HTTP Basic (client_secret_basic) or with client_id and client_secret in the body (client_secret_post).',
      );
    }
    const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const clientId = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
    const clientSecret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
    if (!clientId || clientSecret === undefined) {
      throw new OAuthError(401, 'invalid_client', 'The Basic credentials are malformed.', true);
    }
    if (params.client_secret !== undefined) {
      throw new OAuthError(
        400,
        'invalid_request',
        'Use one client authentication method: HTTP Basic or client_secret in the body, not both.',
      );
    }
    if (params.client_id !== undefined && params.client_id !== clientId) {
      throw new OAuthError(
        400,
        'invalid_request',
        'client_id in the body differs from the Basic credentials.',
      );
    }
    return { method: 'client_secret_basic', clientId, clientSecret };
  }
  if (params.client_id && params.client_secret) {
    return { method: 'client_secret_post', clientId: params.client_id, clientSecret: params.client_secret };
  }
  throw new OAuthError(
    401,
    'invalid_client',
    'Client authentication is missing: send HTTP Basic credentials, or client_id and client_secret in the body.',
  );
}

function sendOAuthError(
  reply: FastifyReply,
  status: number,
  error: OAuthErrorCode,
  description: string,
): FastifyReply {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error, error_description: description });
}

/** This plugin's errors as RFC 6749 §5.2 answers; server failures go to the app's handler (503/500). */
function oauthErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof OAuthError) {
    if (error.basicChallenge) reply.header('www-authenticate', 'Basic realm="oauth", charset="UTF-8"');
    return sendOAuthError(reply, error.status, error.error, error.message);
  }
  if (error instanceof RateLimitedError) {
    reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
    return sendOAuthError(reply, 429, 'temporarily_unavailable', error.message);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((v) => v.instancePath?.replace(/^\//, '') || 'body').join(', ');
    return sendOAuthError(reply, 400, 'invalid_request', `Missing or invalid parameter: ${fields}.`);
  }
  const status = error instanceof AppError ? error.status : ((error as FastifyError).statusCode ?? 500);
  if (status === 415) {
    return sendOAuthError(
      reply,
      400,
      'invalid_request',
      'Send the parameters as application/x-www-form-urlencoded (RFC 6749 §4.4.2).',
    );
  }
  if (status >= 400 && status < 500) {
    return sendOAuthError(
      reply,
      400,
      'invalid_request',
      status === 413 ? `The request body is larger than ${TOKEN_BODY_MAX_BYTES} bytes.` : error.message,
    );
  }
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return errorHandler(error, request, reply);
}

/** The token endpoint plugin; register once (server/routes.ts). */
export async function oauthTokenRoutes(app: AppInstance) {
  // Form bodies only (RFC 6749 §4.4.2): JSON and text answer 415, mapped to invalid_request below.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: TOKEN_BODY_MAX_BYTES },
    (_request, body, done) => {
      const params = new URLSearchParams(body as string);
      const result: Record<string, string> = {};
      for (const [name, value] of params) {
        if (Object.hasOwn(result, name)) {
          done(new OAuthError(400, 'invalid_request', `The parameter ${name.slice(0, 40)} is repeated.`));
          return;
        }
        result[name] = value;
      }
      done(null, result);
    },
  );
  app.setErrorHandler(oauthErrorHandler);
  // Counted before the body is read or the client authenticated: every attempt from an address.
  app.addHook('onRequest', async (request) => {
    await app.deps.rateLimits.beforeTokenRequest(request.ip);
  });

  /** The client `credentials` authenticate, or an OAuthError (401 invalid_client, 400 invalid_request). */
  async function authenticatedClientOf(
    credentials: ClientAuthentication,
  ): Promise<AuthenticatedClient & { keyId?: string }> {
    if (credentials.method === 'private_key_jwt') {
      const outcome = await authenticateClientAssertion(
        app.deps.db,
        credentials.assertion,
        { tokenEndpointUrl: tokenEndpointUrl(app.deps.env.appUrl), clientId: credentials.clientId },
        new Date(),
      );
      if (!outcome.ok) {
        throw new OAuthError(
          outcome.error === 'invalid_client' ? 401 : 400,
          outcome.error,
          outcome.description,
        );
      }
      return { ...outcome.client, keyId: outcome.keyId };
    }
    const basic = credentials.method === 'client_secret_basic';
    if (
      credentials.clientId.length > CREDENTIAL_MAX_LENGTH ||
      credentials.clientSecret.length > CREDENTIAL_MAX_LENGTH
    ) {
      throw new OAuthError(401, 'invalid_client', 'Client authentication failed.', basic);
    }
    const client = await authenticateClient(app.deps.db, credentials.clientId, credentials.clientSecret);
    if (!client) {
      throw new OAuthError(
        401,
        'invalid_client',
        'Client authentication failed: unknown client, wrong secret, or the client was revoked.',
        basic,
      );
    }
    return client;
  }

  app.post(
    '/oauth/token',
    {
      bodyLimit: TOKEN_BODY_MAX_BYTES,
      schema: {
        summary: 'OAuth 2.0 token endpoint for API clients (client credentials, RFC 6749 §4.4)',
        description: [
          'Form-encoded body: `grant_type=client_credentials`, optional `scope` (space-separated subset of the',
          "client's scopes; default all). Client authentication: HTTP Basic (client_secret_basic) or `client_id`",
          'and `client_secret` in the body (client_secret_post), or a signed JWT (private_key_jwt, SMART Backend',
          'Services, RFC 7523): `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and',
          '`client_assertion`, RS384 or ES384 with a key registered with the client, `iss` = `sub` = client_id, `aud` =',
          'this URL, `exp` at most 5 minutes ahead, a `jti` used once. Answers a bearer token valid 300 seconds for',
          '`Authorization: Bearer` on /fhir and the roster downloads. Errors follow RFC 6749 §5.2. Rate limits:',
          '120 requests a minute per address, 30 tokens a minute per client (429 with Retry-After).',
        ].join(' '),
        tags: ['oauth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: tokenRequestBodySchema,
        response: {
          200: tokenResponseSchema,
          400: oauthErrorSchema,
          401: oauthErrorSchema,
          429: oauthErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const params = request.body;
      const credentials = clientAuthenticationOf(request, params);
      const client = await authenticatedClientOf(credentials);
      if (params.grant_type !== 'client_credentials') {
        throw new OAuthError(
          400,
          'unsupported_grant_type',
          'This server issues tokens for grant_type=client_credentials only.',
        );
      }
      const scopes = requestedScopes(client.scopes, params.scope);
      if (!scopes.ok) {
        throw new OAuthError(
          400,
          'invalid_scope',
          `Scope not granted to this client: ${scopes.refused.slice(0, 5).join(' ').slice(0, 300)}.`,
        );
      }
      await app.deps.rateLimits.beforeTokenIssue(client.id);
      const issued = await issueAccessToken(
        app.deps.db,
        client,
        scopes.scopes,
        { method: credentials.method, keyId: client.keyId, ipAddress: request.ip },
        new Date(),
      );
      request.log.info({ apiClientId: client.id, tokenId: issued.tokenId }, 'api client token issued');
      return reply
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send({
          access_token: issued.accessToken,
          token_type: 'bearer' as const,
          expires_in: issued.expiresInSeconds,
          scope: issued.scopes.join(' '),
        });
    },
  );
}
