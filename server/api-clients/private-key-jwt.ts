/**
 * `private_key_jwt` client authentication at the token endpoint (issue 33 item 4; SMART App Launch
 * 2.x Backend Services, RFC 7523 §2.2 and §3): a JWT signed with one of the client's registered
 * public keys (RS384 or ES384, the `kid` names the key), `iss` = `sub` = client_id, `aud` = the token
 * endpoint URL, `exp` at most 5 minutes ahead, a `jti` never accepted before for the client until the
 * assertion expires. Used `jti`s live in api_client_assertion_jtis (claimed by one INSERT ... ON
 * CONFLICT, so of two concurrent requests with one `jti` exactly one wins), as their SHA-256. The key
 * sets are registered and checked by api-clients.service.ts (`validatedPublicJwks`).
 *
 * Time is an input (`now`), never read here. The assertion itself is never stored or logged.
 */
import { and, eq, lt, lte, sql } from 'drizzle-orm';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import { CLIENT_ASSERTION_MAX_LENGTH } from '../../domain/api/api-clients.ts';
import {
  API_CLIENT_KEY_ID_MAX_LENGTH,
  assertionSigningAlgorithms,
  jwksKeyIds,
  orderScopes,
} from '../../domain/api-clients.ts';
import type { Database } from '../db/client.ts';
import { apiClientAssertionJtis, apiClients } from '../db/schema/exports.ts';
import { type AuthenticatedClient, CREDENTIAL_MAX_LENGTH, sha256Hex } from './api-clients.service.ts';

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
  // Issue 52 item 3: an assertion "issued" in the future comes from a wrong clock or was signed to be
  // replayed later; RFC 7519 §4.1.6 iat, refused beyond the same clock tolerance as exp and nbf.
  if (verified.iat !== undefined && verified.iat > nowSeconds + ASSERTION_CLOCK_TOLERANCE_SECONDS) {
    return refuse(
      `The assertion's iat is ${verified.iat - nowSeconds} s in the future: set iat to the time of signing (at most ${ASSERTION_CLOCK_TOLERANCE_SECONDS} s of clock skew), and check the signing machine's clock.`,
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
