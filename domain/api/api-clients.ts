/**
 * API contract of machine clients (issue 33 item 4):
 * - Administrators (`manage:api_client:any`, second factor done) list, register and revoke 'API
 *   Clients': GET /api/admin/api-clients, POST /api/admin/api-clients (answers the `client_secret`
 *   once), POST /api/admin/api-clients/:id/revoke, POST /api/admin/api-clients/:id/rotate-secret
 *   (answers `apiClientCreatedSchema` with the new secret, once; the old one stays valid 24 h). Served by server/api-clients/api-clients.routes.ts.
 * - A client gets a bearer token at `POST /oauth/token` (OAuth 2.0 client credentials, RFC 6749
 *   §4.4; form-encoded body, answers of §5.1 and §5.2), authenticated by its secret or, when it
 *   registered a public JSON Web Key Set, by a signed JWT assertion (SMART Backend Services,
 *   RFC 7523 §2.2). Served by server/api-clients/oauth-token.routes.ts.
 */
import { z } from 'zod';
import {
  API_CLIENT_JWKS_MAX_KEYS,
  API_CLIENT_NAME_MAX_LENGTH,
  API_CLIENT_SCOPE_MAX_LENGTH,
  API_CLIENT_SCOPES_MAX,
  apiClientScopes,
  checkPublicJwks,
  isApiClientScope,
} from '../api-clients.ts';

/** One registered client as lists show it: never its secret nor the secret's hash. */
export const apiClientSummarySchema = z.object({
  /** api_clients.id (a UUID): what the admin routes name. */
  id: z.string(),
  /** The OAuth `client_id` the client sends. */
  clientId: z.string(),
  name: z.string(),
  /** Canonical (`.read`) scopes, in `apiClientScopes` order. */
  scopes: z.array(z.string()),
  /** ISO 8601 instants. */
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  /** When a token of the client was last accepted (updated at most once a minute). */
  lastUsedAt: z.string().nullable(),
  /** The `kid`s of its registered public keys (`private_key_jwt`); empty when it has none. */
  jwksKeyIds: z.array(z.string()),
});
export type ApiClientSummary = z.infer<typeof apiClientSummarySchema>;

export const apiClientListSchema = z.object({
  /** Every client, newest first, revoked ones included. */
  clients: z.array(apiClientSummarySchema),
});
export type ApiClientList = z.infer<typeof apiClientListSchema>;

/**
 * A public JSON Web Key Set sent at registration (RFC 7517 §5): `{ keys: [...] }` of 1 to 10 RS384
 * or ES384 public keys, each with its `kid`; refused with a message when a key holds private
 * material or is of another kind (domain/api-clients.ts `checkPublicJwks`).
 */
export const publicJwksSchema = z
  .object({
    keys: z
      .array(z.record(z.string(), z.unknown()), {
        error: 'Send the JSON Web Key Set as { "keys": [ ... ] } (RFC 7517 §5)',
      })
      .max(
        API_CLIENT_JWKS_MAX_KEYS,
        `The JSON Web Key Set may hold at most ${API_CLIENT_JWKS_MAX_KEYS} keys`,
      ),
  })
  .superRefine((value, ctx) => {
    const checked = checkPublicJwks(value);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
  });

/**
 * POST /api/admin/api-clients body: a name, at least one known scope (either spelling), and
 * optionally the client's public JSON Web Key Set (for `private_key_jwt`).
 */
export const apiClientCreateBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Enter a name')
    .max(API_CLIENT_NAME_MAX_LENGTH, `Use at most ${API_CLIENT_NAME_MAX_LENGTH} characters`),
  scopes: z
    .array(
      z
        .string()
        .max(API_CLIENT_SCOPE_MAX_LENGTH)
        .refine(isApiClientScope, `Choose scopes among: ${apiClientScopes.join(', ')}`),
    )
    .min(1, 'Choose at least one scope')
    .max(API_CLIENT_SCOPES_MAX),
  jwks: publicJwksSchema.optional(),
});
export type ApiClientCreateBody = z.infer<typeof apiClientCreateBodySchema>;

/** The answer to a registration: the summary and, this once only, the `client_secret`. */
export const apiClientCreatedSchema = z.object({
  client: apiClientSummarySchema,
  /** 256 random bits, base64url; only its SHA-256 is kept, so it can never be shown again. */
  clientSecret: z.string(),
});
export type ApiClientCreated = z.infer<typeof apiClientCreatedSchema>;

export const apiClientParamsSchema = z.object({ id: z.uuid('Not an API client id') });

/** Lifetime of an access token, in seconds: SMART Backend Services recommends at most five minutes. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 300;

/** `client_assertion_type` of a signed JWT assertion (RFC 7523 §2.2). */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Longest `client_assertion` read, in characters (an RS384 assertion of an 8192-bit key is ~1.7k). */
export const CLIENT_ASSERTION_MAX_LENGTH = 4096;

/**
 * `POST /oauth/token` form parameters (RFC 6749 §4.4.2, §2.3.1; RFC 7523 §2.2 for the assertion):
 * documented for OpenAPI; the route reads them itself so that it answers RFC 6749 §5.2 errors.
 */
export const tokenRequestBodySchema = z.object({
  grant_type: z.string().max(200).describe('`client_credentials`'),
  scope: z.string().max(2000).optional().describe('Space-separated subset of the client’s scopes'),
  client_id: z.string().max(200).optional().describe('client_secret_post'),
  client_secret: z.string().max(200).optional().describe('client_secret_post'),
  client_assertion_type: z
    .string()
    .max(200)
    .optional()
    .describe(`private_key_jwt: \`${JWT_BEARER_ASSERTION_TYPE}\``),
  client_assertion: z
    .string()
    .max(CLIENT_ASSERTION_MAX_LENGTH)
    .optional()
    .describe('private_key_jwt: a JWT signed with a registered key (RS384 or ES384)'),
});

/** A token (RFC 6749 §5.1). */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds (ACCESS_TOKEN_LIFETIME_SECONDS). */
  expires_in: z.number().int(),
  /** The granted scopes, space-separated, canonical. */
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** OAuth error codes answered by the token endpoint (RFC 6749 §5.2; 429 uses `temporarily_unavailable`). */
export const oauthErrorCodes = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'temporarily_unavailable',
  'server_error',
] as const;
export type OAuthErrorCode = (typeof oauthErrorCodes)[number];

/** An error answer (RFC 6749 §5.2). */
export const oauthErrorSchema = z.object({
  error: z.enum(oauthErrorCodes),
  error_description: z.string(),
});
export type OAuthErrorBody = z.infer<typeof oauthErrorSchema>;
