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
 * - `private_key_jwt` (a signed JWT assertion instead of the secret) is private-key-jwt.ts's
 *   `authenticateClientAssertion`; the key set it checks against is registered here
 *   (`validatedPublicJwks`).
 *
 * Time is an input (`now`), never read here, so tests drive expiry without sleeping. Audit rows carry
 * identifiers only (ids, client_id, scopes), never a secret or a token.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import { importJWK } from 'jose';
import { ACCESS_TOKEN_LIFETIME_SECONDS, type ApiClientSummary } from '../../domain/api/api-clients.ts';
import {
  canonicalScope,
  checkPublicJwks,
  jwksKeyIds,
  orderScopes,
  type PublicJwks,
} from '../../domain/api-clients.ts';
import { AppError } from '../../domain/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database, Queryable } from '../db/client.ts';
import { apiClients, apiClientTokens } from '../db/schema/exports.ts';

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

/** Hours the secret before a rotation stays valid, so the client's systems can switch over. */
export const PREVIOUS_SECRET_VALID_HOURS = 24;

/**
 * 'Rotate Secret' (issue 52 item 3): a new `client_secret` for the client (answered this once; only
 * its SHA-256 is kept); the secret before stays valid PREVIOUS_SECRET_VALID_HOURS after `now`, any
 * older one stops at once. Audited `api_client.secret_rotated` (never a secret).
 * @throws AppError not_found for no such client, conflict for a revoked one
 */
export async function rotateApiClientSecret(
  db: Database,
  ref: { id: string },
  actor: ApiClientActor,
  now: Date,
): Promise<{ client: ApiClientSummary; clientSecret: string }> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(apiClients).where(eq(apiClients.id, ref.id)).for('update');
    if (!current) throw new AppError('not_found', 'No such API client.');
    if (current.revokedAt) {
      throw new AppError('conflict', 'This API client is revoked: register a new client instead.');
    }
    const clientSecret = randomToken(32);
    const previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_VALID_HOURS * 3_600_000);
    const [rotated] = await tx
      .update(apiClients)
      .set({
        secretHash: sha256Hex(clientSecret),
        previousSecretHash: current.secretHash,
        previousSecretExpiresAt,
      })
      .where(eq(apiClients.id, current.id))
      .returning();
    await recordAudit(tx, {
      action: 'api_client.secret_rotated',
      actorUserId: actor.userId,
      resourceType: 'api_client',
      resourceId: current.id,
      ipAddress: actor.ipAddress ?? null,
      details: {
        clientId: current.clientId,
        previousValidUntil: previousSecretExpiresAt.toISOString(),
        via: actor.via,
      },
    });
    return { client: summaryOf(rotated!), clientSecret };
  });
}

/**
 * The client whose `client_id` is `clientId` and whose secret is `clientSecret`, or null when the
 * id is unknown, the secret differs (compared by SHA-256 with `timingSafeEqual`) or the client is
 * revoked. The secret before a rotation is accepted until `previousSecretExpiresAt` (at `now`).
 * Over-long input is refused without a query.
 */
export async function authenticateClient(
  db: Queryable,
  clientId: string,
  clientSecret: string,
  now: Date = new Date(),
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
      previousSecretHash: apiClients.previousSecretHash,
      previousSecretExpiresAt: apiClients.previousSecretExpiresAt,
      revokedAt: apiClients.revokedAt,
    })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  const digest = (hash: string | null | undefined) =>
    hash && /^[0-9a-f]{64}$/.test(hash) ? Buffer.from(hash, 'hex') : DUMMY_HASH;
  const previousLive = !!row?.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  // Both comparisons always run, so the time taken does not tell which secret matched.
  const current = timingSafeEqual(presented, digest(row?.secretHash));
  const previous = timingSafeEqual(presented, digest(previousLive ? row?.previousSecretHash : null));
  const matches = (current || previous) && !!row;
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
