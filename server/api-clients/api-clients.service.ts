/**
 * API clients and their tokens (issue 33 item 4; tables of migration 0025, server/db/schema/exports.ts).
 *
 * - Registration (`createApiClient`): a random `client_id` (128 bits) and a `client_secret` of 256
 *   random bits from node:crypto, both base64url (so RFC 6749 §2.3.1's form-encoding leaves them as
 *   they are). Only the secret's SHA-256 (hex) is stored: with 256 random bits there is nothing to
 *   guess, so a slow password hash would add nothing. The secret is returned once.
 * - `authenticateClient`: the secret's hash compared with `crypto.timingSafeEqual`, also (against a
 *   dummy) when the client_id is unknown, so the answer's timing says nothing of which ids exist.
 * - `issueAccessToken` (RFC 6749 §4.4.3, §5.1): an opaque token of 256 random bits, stored as its
 *   SHA-256, valid ACCESS_TOKEN_LIFETIME_SECONDS (300 s, SMART Backend Services' recommended
 *   maximum). Audited as `api_client.token_issued`.
 * - `verifyAccessToken`: one query by the token's hash (unique index) joined to its client: refused
 *   when unknown, expired, revoked, or the client is revoked.
 * - `revokeApiClient`: the client and its live tokens are revoked in one transaction; every token
 *   is refused from then on (the guard checks the client too).
 * - `authenticateClientAssertion` (`private_key_jwt`; SMART App Launch 2.x Backend Services, RFC 7523
 *   §2.2 and §3): a JWT signed with one of the client's registered public keys (RS384 or ES384, the
 *   `kid` names the key), `iss` = `sub` = client_id, `aud` = the token endpoint URL, `exp` at most 5
 *   minutes ahead, a `jti` never accepted before for the client until the assertion expires. Used
 *   `jti`s live in api_client_assertion_jtis (claimed by one INSERT ... ON CONFLICT, so of two
 *   concurrent requests with one `jti` exactly one wins), as their SHA-256.
 *
 * Time is an input (`now`), never read here, so tests drive expiry without sleeping. Audit rows carry
 * identifiers only (ids, client_id, scopes), never a secret or a token.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  type ApiClientSummary,
  CLIENT_ASSERTION_MAX_LENGTH,
} from '../../domain/api/api-clients.ts';
import {
  API_CLIENT_KEY_ID_MAX_LENGTH,
  assertionSigningAlgorithms,
  canonicalScope,
  checkPublicJwks,
  jwksKeyIds,
  orderScopes,
  type PublicJwks,
} from '../../domain/api-clients.ts';
import { AppError } from '../../domain/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database, Queryable } from '../db/client.ts';
import { apiClientAssertionJtis, apiClients, apiClientTokens } from '../db/schema/exports.ts';

/** Longest `client_id`, `client_secret` or access token read from a request, in characters. */
export const CREDENTIAL_MAX_LENGTH = 200;

/** `last_used_at` is written at most this often per client, in ms. */
const LAST_USED_INTERVAL_MS = 60_000;

/** Expired tokens are deleted this long after they expire (when their client gets a new one), in ms. */
const EXPIRED_TOKEN_RETENTION_MS = 60 * 60 * 1000;

/** Who made a change: an administrator on the admin routes, or the command line. */
export interface ApiClientActor {
  userId: string | null;
  via: 'admin' | 'cli';
  ipAddress?: string | null;
}

/** Hex SHA-256 of a secret or token: what the tables keep. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** `bytes` random bytes as base64url (no padding). */
function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

type ApiClientRow = typeof apiClients.$inferSelect;

function summaryOf(row: ApiClientRow): ApiClientSummary {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    scopes: orderScopes(row.scopes),
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    jwksKeyIds: jwksKeyIds(row.jwks),
  };
}

/**
 * The stored copy of a key set sent at registration: checked by `checkPublicJwks` (public RS384 or
 * ES384 keys only, bounded), then each key imported with jose so that a key that is not a real
 * public key (an EC point off the curve, a malformed modulus) is refused now rather than at the
 * first token request.
 * @throws AppError validation_failed (400) with the reason
 */
export async function validatedPublicJwks(jwks: unknown): Promise<PublicJwks> {
  const checked = checkPublicJwks(jwks);
  if (!checked.ok) throw new AppError('validation_failed', checked.message);
  for (const [index, key] of checked.jwks.keys.entries()) {
    const alg = key.kty === 'RSA' ? 'RS384' : 'ES384';
    try {
      await importJWK({ ...key, alg }, alg);
    } catch {
      throw new AppError(
        'validation_failed',
        `Key ${index + 1} (kid ${key.kid.slice(0, 60)}) is not a valid ${key.kty === 'RSA' ? 'RSA' : 'P-384'} public key.`,
      );
    }
  }
  return checked.jwks;
}

/**
 * Register a client named `name` (trimmed, 1 to 100 characters) with `scopes` (known scopes, either
 * spelling; stored canonical and de-duplicated) and optionally `jwks`, its public JSON Web Key Set
 * for `private_key_jwt` (`validatedPublicJwks`). Every client gets a secret too: it may use either
 * method. Audited as `api_client.created` (with the keys' `kid`s when a key set is registered).
 * @returns the summary and the `client_secret`, which is never available again
 * @throws AppError validation_failed (400) for an empty or long name, no known scope, or a key set
 *   that is not public RS384/ES384 keys
 */
export async function createApiClient(
  db: Database,
  input: { name: string; scopes: readonly string[]; jwks?: unknown },
  actor: ApiClientActor,
  now: Date,
): Promise<{ client: ApiClientSummary; clientSecret: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) {
    throw new AppError('validation_failed', 'Give the API client a name of 1 to 100 characters.');
  }
  const unknown = input.scopes.filter((scope) => orderScopes([canonicalScope(scope)]).length === 0);
  const scopes = orderScopes(input.scopes.map(canonicalScope));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new AppError(
      'validation_failed',
      unknown.length > 0
        ? `Unknown scope: ${unknown.slice(0, 5).join(', ').slice(0, 300)}.`
        : 'Give the API client at least one scope.',
    );
  }
  const jwks = input.jwks === undefined || input.jwks === null ? null : await validatedPublicJwks(input.jwks);
  const clientId = randomToken(16);
  const clientSecret = randomToken(32);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(apiClients)
      .values({
        name,
        clientId,
        secretHash: sha256Hex(clientSecret),
        scopes,
        jwks,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    await recordAudit(tx, {
      action: 'api_client.created',
      actorUserId: actor.userId,
      resourceType: 'api_client',
      resourceId: inserted!.id,
      ipAddress: actor.ipAddress ?? null,
      details: {
        clientId,
        scopes: scopes.join(' '),
        via: actor.via,
        ...(jwks ? { jwksKeyIds: jwksKeyIds(jwks).join(' ') } : {}),
      },
    });
    return inserted!;
  });
  return { client: summaryOf(row), clientSecret };
}

/** Every client, newest first, revoked ones included; never a secret or its hash. */
export async function listApiClients(db: Queryable): Promise<ApiClientSummary[]> {
  const rows = await db.select().from(apiClients).orderBy(desc(apiClients.createdAt), desc(apiClients.id));
  return rows.map(summaryOf);
}

/**
 * Revoke the client named by `ref` (its `id` or its OAuth `clientId`) and its tokens; audited as
 * `api_client.revoked`. Every token of the client is refused from `now` on.
 * @throws AppError not_found (404) for no such client, conflict (409) when it is already revoked
 */
export async function revokeApiClient(
  db: Database,
  ref: { id: string } | { clientId: string },
  actor: ApiClientActor,
  now: Date,
): Promise<ApiClientSummary> {
  return db.transaction(async (tx) => {
    const where = 'id' in ref ? eq(apiClients.id, ref.id) : eq(apiClients.clientId, ref.clientId);
    const [current] = await tx.select().from(apiClients).where(where).for('update');
    if (!current) throw new AppError('not_found', 'No such API client.');
    if (current.revokedAt) throw new AppError('conflict', 'This API client is already revoked.');
    const [revoked] = await tx
      .update(apiClients)
      .set({ revokedAt: now, revokedBy: actor.userId })
      .where(eq(apiClients.id, current.id))
      .returning();
    const tokens = await tx
      .update(apiClientTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(apiClientTokens.apiClientId, current.id),
          isNull(apiClientTokens.revokedAt),
          gt(apiClientTokens.expiresAt, now),
        ),
      )
      .returning({ id: apiClientTokens.id });
    await recordAudit(tx, {
      action: 'api_client.revoked',
      actorUserId: actor.userId,
      resourceType: 'api_client',
      resourceId: current.id,
      ipAddress: actor.ipAddress ?? null,
      details: { clientId: current.clientId, liveTokens: tokens.length, via: actor.via },
    });
    return summaryOf(revoked!);
  });
}

/** The client a request authenticated as (its secret matched and it is not revoked). */
export interface AuthenticatedClient {
  id: string;
  clientId: string;
  name: string;
  scopes: string[];
}

const DUMMY_HASH = Buffer.alloc(32);

/**
 * The client whose `client_id` is `clientId` and whose secret is `clientSecret`, or null when the
 * id is unknown, the secret differs (compared by SHA-256 with `timingSafeEqual`) or the client is
 * revoked. Over-long input is refused without a query.
 */
export async function authenticateClient(
  db: Queryable,
  clientId: string,
  clientSecret: string,
): Promise<AuthenticatedClient | null> {
  if (clientId.length > CREDENTIAL_MAX_LENGTH || clientSecret.length > CREDENTIAL_MAX_LENGTH) return null;
  const presented = createHash('sha256').update(clientSecret, 'utf8').digest();
  const [row] = await db
    .select({
      id: apiClients.id,
      clientId: apiClients.clientId,
      name: apiClients.name,
      scopes: apiClients.scopes,
      secretHash: apiClients.secretHash,
      revokedAt: apiClients.revokedAt,
    })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  const stored =
    row && /^[0-9a-f]{64}$/.test(row.secretHash) ? Buffer.from(row.secretHash, 'hex') : DUMMY_HASH;
  const matches = timingSafeEqual(presented, stored);
  if (!row || !matches || row.revokedAt) return null;
  return { id: row.id, clientId: row.clientId, name: row.name, scopes: orderScopes(row.scopes) };
}

/** How a client authenticated at the token endpoint (RFC 6749 §2.3.1; RFC 7523 §2.2). */
export type ClientAuthenticationMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** A token just issued: the only moment the token itself exists outside the client. */
export interface IssuedToken {
  accessToken: string;
  tokenId: string;
  expiresInSeconds: number;
  scopes: string[];
}

/**
 * Issue a bearer token to `client` for `scopes` (already checked against the client's), valid from
 * `now` for ACCESS_TOKEN_LIFETIME_SECONDS; audited as `api_client.token_issued` with the client, the
 * authentication method (and the assertion key's `kid` for private_key_jwt) and the scopes. The client's tokens expired for over an hour are deleted.
 */
export async function issueAccessToken(
  db: Database,
  client: AuthenticatedClient,
  scopes: readonly string[],
  context: { method: ClientAuthenticationMethod; keyId?: string; ipAddress: string | null },
  now: Date,
): Promise<IssuedToken> {
  const accessToken = randomToken(32);
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
  const tokenId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiClientTokens)
      .values({
        apiClientId: client.id,
        tokenHash: sha256Hex(accessToken),
        scopes: [...scopes],
        issuedAt: now,
        expiresAt,
      })
      .returning({ id: apiClientTokens.id });
    await tx
      .delete(apiClientTokens)
      .where(
        and(
          eq(apiClientTokens.apiClientId, client.id),
          lt(apiClientTokens.expiresAt, new Date(now.getTime() - EXPIRED_TOKEN_RETENTION_MS)),
        ),
      );
    await recordAudit(tx, {
      action: 'api_client.token_issued',
      resourceType: 'api_client',
      resourceId: client.id,
      ipAddress: context.ipAddress,
      details: {
        clientId: client.clientId,
        tokenId: row!.id,
        method: context.method,
        ...(context.keyId !== undefined ? { keyId: context.keyId } : {}),
        scopes: scopes.join(' '),
      },
    });
    return row!.id;
  });
  return { accessToken, tokenId, expiresInSeconds: ACCESS_TOKEN_LIFETIME_SECONDS, scopes: [...scopes] };
}

/** A token that verified, with its client. */
export interface VerifiedToken {
  tokenId: string;
  apiClientId: string;
  clientId: string;
  name: string;
  scopes: string[];
}

/**
 * The token `accessToken` at `now`: one query by its hash (unique index) joined to its client.
 * @returns the token and client, or a reason for the refusal (`unknown`, `expired`, `revoked`: the
 *   token or its client)
 */
export async function verifyAccessToken(
  db: Queryable,
  accessToken: string,
  now: Date,
): Promise<{ ok: true; token: VerifiedToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' }> {
  if (accessToken.length === 0 || accessToken.length > CREDENTIAL_MAX_LENGTH)
    return { ok: false, reason: 'unknown' };
  const [row] = await db
    .select({
      tokenId: apiClientTokens.id,
      scopes: apiClientTokens.scopes,
      expiresAt: apiClientTokens.expiresAt,
      tokenRevokedAt: apiClientTokens.revokedAt,
      apiClientId: apiClients.id,
      clientId: apiClients.clientId,
      name: apiClients.name,
      clientRevokedAt: apiClients.revokedAt,
      lastUsedAt: apiClients.lastUsedAt,
    })
    .from(apiClientTokens)
    .innerJoin(apiClients, eq(apiClients.id, apiClientTokens.apiClientId))
    .where(eq(apiClientTokens.tokenHash, sha256Hex(accessToken)));
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.tokenRevokedAt || row.clientRevokedAt) return { ok: false, reason: 'revoked' };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_INTERVAL_MS) {
    // At most once a minute per client, and only one of several concurrent requests writes.
    await db
      .update(apiClients)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiClients.id, row.apiClientId),
          or(
            isNull(apiClients.lastUsedAt),
            lte(apiClients.lastUsedAt, new Date(now.getTime() - LAST_USED_INTERVAL_MS)),
          ),
        ),
      );
  }
  return {
    ok: true,
    token: {
      tokenId: row.tokenId,
      apiClientId: row.apiClientId,
      clientId: row.clientId,
      name: row.name,
      scopes: row.scopes,
    },
  };
}

/** Clock tolerance for an assertion's `exp` and `nbf`, in seconds: clients' clocks drift a little. */
export const ASSERTION_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Latest `exp` accepted, in seconds after now (plus the tolerance): SMART Backend Services' "no
 * more than five minutes in the future".
 */
export const ASSERTION_MAX_LIFETIME_SECONDS = 300;

/** Longest `jti` accepted, in characters. */
export const ASSERTION_JTI_MAX_LENGTH = 255;

/** The outcome of `authenticateClientAssertion`: the client, or an RFC 6749 §5.2 error to answer. */
export type AssertionAuthentication =
  | { ok: true; client: AuthenticatedClient; keyId: string }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string };

/** `typ` values of a client assertion's header accepted (SMART: "JWT"; RFC 7523bis' explicit type). */
const ASSERTION_TYPES = new Set([
  'jwt',
  'client-authentication+jwt',
  'application/client-authentication+jwt',
]);

/** What a developer reads when the verification of the signed assertion fails (jose's error). */
function describeVerificationError(
  error: unknown,
  context: { keyId: string; alg: string; keyIds: string[]; tokenEndpointUrl: string },
): string {
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    return `No registered key of this client has kid "${context.keyId.slice(0, 60)}" for ${context.alg}; its keys: ${context.keyIds.join(', ').slice(0, 300)}.`;
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return `The assertion's signature does not verify with the registered key "${context.keyId.slice(0, 60)}": sign with that key's private key.`;
  }
  if (error instanceof joseErrors.JWTExpired) {
    return 'The assertion has expired: sign a new one for each token request, with exp at most 5 minutes ahead.';
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'aud':
        return `The assertion's aud must be ${context.tokenEndpointUrl}.`;
      case 'exp':
        return 'The assertion must carry exp, a NumericDate at most 5 minutes ahead (RFC 7523 §3).';
      case 'jti':
        return 'The assertion must carry a jti, unique for each assertion (RFC 7523 §3).';
      case 'nbf':
        return 'The assertion is not valid yet (nbf is in the future).';
      default:
        return `The assertion's ${error.claim.slice(0, 20)} is not valid: ${error.reason.slice(0, 100)}.`;
    }
  }
  const message = error instanceof Error ? error.message.slice(0, 200) : 'unreadable';
  return `The client_assertion is not a valid signed JWT: ${message}`;
}

/**
 * Authenticate a client by a signed JWT assertion (`private_key_jwt`; SMART App Launch 2.x Backend
 * Services; RFC 7523 §2.2, §3; RFC 7521 §4.2) at `now`:
 * - header: `alg` RS384 or ES384 (anything else, HS* and `none` included, is refused before any key
 *   is used), a `kid` naming one of the client's registered keys, no `jku` (no key set URL is
 *   registered, so none can match), `typ` absent or `JWT`;
 * - claims: `iss` = `sub` = the client's client_id (and = `expected.clientId` when the request sent
 *   one), `aud` = `expected.tokenEndpointUrl`, `exp` present, not past and at most
 *   ASSERTION_MAX_LIFETIME_SECONDS ahead (each with ASSERTION_CLOCK_TOLERANCE_SECONDS), `jti` of 1 to
 *   ASSERTION_JTI_MAX_LENGTH characters;
 * - the signature, by jose against the client's stored key set;
 * - last, the `jti` is claimed for the client until `exp` (+ tolerance): one INSERT ... ON CONFLICT
 *   on api_client_assertion_jtis, so a replay, even concurrent, is refused. The client's expired
 *   entries are deleted then.
 * The assertion itself is never stored or logged; only the SHA-256 of its `jti` is kept.
 * @returns the client and the key's `kid`, or `{ ok: false, error, description }`:
 *   `invalid_request` when `expected.clientId` differs from `sub`, else `invalid_client` (401) with
 *   a description naming what to fix
 */
export async function authenticateClientAssertion(
  db: Database,
  assertion: string,
  expected: { tokenEndpointUrl: string; clientId?: string },
  now: Date,
): Promise<AssertionAuthentication> {
  const refuse = (description: string): AssertionAuthentication => ({
    ok: false,
    error: 'invalid_client',
    description,
  });
  if (assertion.length === 0 || assertion.length > CLIENT_ASSERTION_MAX_LENGTH) {
    return refuse(
      `The client_assertion must be a signed JWT of at most ${CLIENT_ASSERTION_MAX_LENGTH} characters.`,
    );
  }
  let header: ReturnType<typeof decodeProtectedHeader>;
  let claims: JWTPayload;
  try {
    header = decodeProtectedHeader(assertion);
    claims = decodeJwt(assertion);
  } catch {
    return refuse('The client_assertion is not a signed JWT (JWS compact serialization, RFC 7515 §7.1).');
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || !(assertionSigningAlgorithms as readonly string[]).includes(alg)) {
    return refuse(
      `The assertion's alg must be RS384 or ES384 (SMART Backend Services), not ${String(alg).slice(0, 20)}.`,
    );
  }
  const keyId = header.kid;
  if (typeof keyId !== 'string' || keyId.length === 0 || keyId.length > API_CLIENT_KEY_ID_MAX_LENGTH) {
    return refuse("The assertion's header must name the signing key in kid, as registered with the client.");
  }
  if (header.jku !== undefined || header.jwk !== undefined || header.x5u !== undefined) {
    return refuse(
      'This server verifies assertions with the key set registered with the client only: leave jku, jwk and x5u out of the header.',
    );
  }
  if (header.typ !== undefined && !ASSERTION_TYPES.has(String(header.typ).toLowerCase())) {
    return refuse(`The assertion's typ must be JWT, not ${String(header.typ).slice(0, 40)}.`);
  }
  const { iss, sub } = claims;
  if (typeof iss !== 'string' || typeof sub !== 'string' || iss !== sub || sub.length === 0) {
    return refuse("The assertion's iss and sub must both be your client_id.");
  }
  if (expected.clientId !== undefined && expected.clientId !== sub) {
    return {
      ok: false,
      error: 'invalid_request',
      description: "client_id differs from the assertion's sub: send the same client_id, or leave it out.",
    };
  }
  if (sub.length > CREDENTIAL_MAX_LENGTH) return refuse('Client authentication failed: unknown client.');
  const [row] = await db
    .select({
      id: apiClients.id,
      clientId: apiClients.clientId,
      name: apiClients.name,
      scopes: apiClients.scopes,
      revokedAt: apiClients.revokedAt,
      jwks: apiClients.jwks,
    })
    .from(apiClients)
    .where(eq(apiClients.clientId, sub));
  if (!row || row.revokedAt) {
    return refuse(
      "Client authentication failed: the assertion's sub names no client, or the client was revoked.",
    );
  }
  if (!row.jwks || row.jwks.keys.length === 0) {
    return refuse(
      'This client has no registered public key set: register its JWKS with the client, or authenticate with its client_secret.',
    );
  }
  let verified: JWTPayload;
  try {
    ({ payload: verified } = await jwtVerify(assertion, createLocalJWKSet(row.jwks), {
      algorithms: [...assertionSigningAlgorithms],
      issuer: row.clientId,
      subject: row.clientId,
      audience: expected.tokenEndpointUrl,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: ASSERTION_CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    }));
  } catch (error) {
    if (!(error instanceof joseErrors.JOSEError)) throw error;
    return refuse(
      describeVerificationError(error, {
        keyId,
        alg,
        keyIds: jwksKeyIds(row.jwks),
        tokenEndpointUrl: expected.tokenEndpointUrl,
      }),
    );
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const exp = verified.exp!;
  if (exp > nowSeconds + ASSERTION_MAX_LIFETIME_SECONDS + ASSERTION_CLOCK_TOLERANCE_SECONDS) {
    return refuse(
      `The assertion's exp may be at most 5 minutes (${ASSERTION_MAX_LIFETIME_SECONDS} s) after now; it is ${exp - nowSeconds} s ahead.`,
    );
  }
  const jti = verified.jti;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > ASSERTION_JTI_MAX_LENGTH) {
    return refuse(`The assertion's jti must be a string of 1 to ${ASSERTION_JTI_MAX_LENGTH} characters.`);
  }
  const spentUntil = new Date((exp + ASSERTION_CLOCK_TOLERANCE_SECONDS) * 1000);
  const claimed = await db
    .insert(apiClientAssertionJtis)
    .values({ apiClientId: row.id, jtiHash: sha256Hex(jti), expiresAt: spentUntil })
    .onConflictDoUpdate({
      target: [apiClientAssertionJtis.apiClientId, apiClientAssertionJtis.jtiHash],
      set: { expiresAt: sql`excluded.expires_at` },
      // A jti whose earlier assertion has expired may be used again (RFC 7523 §3 item 7).
      setWhere: lte(apiClientAssertionJtis.expiresAt, now),
    })
    .returning({ apiClientId: apiClientAssertionJtis.apiClientId });
  if (claimed.length === 0) {
    return refuse(
      "The assertion's jti was already used: sign a new assertion with a fresh jti for each token request.",
    );
  }
  await db
    .delete(apiClientAssertionJtis)
    .where(and(eq(apiClientAssertionJtis.apiClientId, row.id), lt(apiClientAssertionJtis.expiresAt, now)));
  return {
    ok: true,
    keyId,
    client: { id: row.id, clientId: row.clientId, name: row.name, scopes: orderScopes(row.scopes) },
  };
}
