/**
 * Who is calling: `findActor` / `requireActor` read the better-auth session from the request cookies
 * (or this instance's few seconds' memory of it, decision 015) and the role from user_roles (spec §6:
 * a failed or empty lookup means `user`, the least privilege).
 */
import { isAPIError } from 'better-auth/api';
import { parseCookies } from 'better-auth/cookies';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../domain/app-error.ts';
import { hasPermission, needsSecondFactor, type Permission } from '../../domain/permissions.ts';
import { type AccessRole, accessRoles, type Role } from '../../domain/roles.ts';
import type { Database } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-reads.ts';
import { session } from '../db/schema/auth.ts';
import { staffRoleGrants, userRoles } from '../db/schema/core.ts';
import { toFetchHeaders } from './fetch-glue.ts';
import type { SessionFacts } from './session-cache.ts';

/** The caller: what their session says (session-cache.ts `SessionFacts`) and this request's address. */
export interface Actor extends SessionFacts {
  ipAddress: string;
}

/** The message of the 403 an administrator gets before setting up a second factor (issue 16). */
export const TWO_FACTOR_REQUIRED_MESSAGE =
  'Set up two-factor authentication before using the administrator pages: open the two-factor set-up page and scan the QR code with an authenticator app.';

/**
 * Whether a session created at `createdAt` has outlived the absolute lifetime of `maxHours`
 * (SESSION_MAX_HOURS, issue 16), whatever its activity: at `now` it must end.
 */
export function sessionOutlivedMaximum(createdAt: Date, now: Date, maxHours: number): boolean {
  return now.getTime() - createdAt.getTime() >= maxHours * 60 * 60 * 1000;
}

const roleOf = preparedPerHandle((db) =>
  db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(eq(userRoles.userId, sql.placeholder('userId')))
    .prepare('role_of'),
);

const grantedRolesOf = preparedPerHandle((db) =>
  db
    .select({ role: staffRoleGrants.role })
    .from(staffRoleGrants)
    .where(eq(staffRoleGrants.userId, sql.placeholder('userId')))
    .prepare('granted_roles_of'),
);

/** Role of `userId`; `user` when the row is missing or the lookup fails (spec §6). */
export async function lookupRole(db: Database, userId: string): Promise<Role> {
  try {
    const [row] = await roleOf(db).execute({ userId });
    return row?.role ?? 'user';
  } catch {
    return 'user';
  }
}

/**
 * The roles `userId` acts with (domain/roles.ts `accessRoles`): `admin` from user_roles and the staff
 * roles granted (issue 32), read at once. A failed lookup gives no more than it read: `['user']` when
 * the role fails (spec §6), the role's own when the granted roles fail (least privilege).
 */
export async function lookupAccessRoles(
  db: Database,
  userId: string,
): Promise<{ role: Role; roles: AccessRole[] }> {
  const [role, granted] = await Promise.all([
    lookupRole(db, userId),
    grantedRolesOf(db)
      .execute({ userId })
      .then((rows) => rows.map((g) => g.role))
      .catch(() => []),
  ]);
  return { role, roles: accessRoles(role, granted) };
}

/**
 * The signed-in actor of this request, cached on the request; null when the request carries no valid
 * session (none, expired, revoked, or ended while it was being renewed). A session this instance
 * verified in the last SESSION_CACHE_SECONDS is served from memory (session-cache.ts, decision 015)
 * until its own end; otherwise better-auth reads it (renewing it while active) and the role is read.
 * @throws when the session lookup itself fails (e.g. the database is unreachable): a failure is
 *   never read as "signed out"
 */
export async function findActor(request: FastifyRequest, now = new Date()): Promise<Actor | null> {
  if (request.actor) return request.actor;
  const { auth, sessionCache } = request.server.deps;
  const cookieName = (await auth.$context).authCookies.sessionToken.name;
  const cookieValue = request.headers.cookie
    ? parseCookies(request.headers.cookie).get(cookieName)
    : undefined;
  if (!cookieValue) return null;
  const facts = await sessionCache.lookup(cookieValue, () => readSession(request, now));
  if (!facts) return null;
  request.actor = { ...facts, ipAddress: request.ip };
  return request.actor;
}

/** The session of `request` read through better-auth, plus the role: what the session cache keeps. */
async function readSession(request: FastifyRequest, now: Date): Promise<SessionFacts | null> {
  const { auth, db, env } = request.server.deps;
  // better-auth answers null for a missing or expired session, and 401 when the session disappears
  // while it renews it (a concurrent sign-out); anything else is a real failure.
  const result = await auth.api.getSession({ headers: toFetchHeaders(request) }).catch((error: unknown) => {
    if (isAPIError(error) && error.statusCode === 401) return null;
    throw error;
  });
  if (!result) return null;
  // Idle renewal cannot keep a session past SESSION_MAX_HOURS: it ends here, for every route.
  if (sessionOutlivedMaximum(result.session.createdAt, now, env.SESSION_MAX_HOURS)) {
    await db.delete(session).where(eq(session.id, result.session.id));
    return null;
  }
  const { role, roles } = await lookupAccessRoles(db, result.user.id);
  return {
    userId: result.user.id,
    email: result.user.email,
    role,
    roles,
    sessionId: result.session.id,
    sessionExpiresAt: new Date(
      Math.min(
        result.session.expiresAt.getTime(),
        result.session.createdAt.getTime() + env.SESSION_MAX_HOURS * 60 * 60 * 1000,
      ),
    ),
    emailVerified: result.user.emailVerified,
    twoFactorEnabled: result.user.twoFactorEnabled === true,
  };
}

/**
 * The signed-in actor of this request, cached on the request.
 * @throws AppError unauthorized (401) without a valid session
 */
export async function requireActor(request: FastifyRequest): Promise<Actor> {
  const actor = await findActor(request);
  if (!actor) throw new AppError('unauthorized', 'Your session has ended. Please sign in again.');
  return actor;
}

/**
 * The signed-in actor, who must hold `permission`. Permissions over any provider's data (`:any`,
 * the administrators') also need a second factor (issue 16; OWASP ASVS 5.0 level 2).
 * @throws AppError unauthorized (401) / forbidden (403) / two_factor_required (403)
 */
export async function requirePermission(request: FastifyRequest, permission: Permission): Promise<Actor> {
  const actor = await requireActor(request);
  assertPermission(actor, permission);
  return actor;
}

/**
 * The permission a staff route of a feature needs (issue 32): reading (GET, HEAD) needs
 * `read:application:any`, which every staff role that reads files holds (the auditor too); a write
 * needs `write`.
 */
export function staffRoutePermission(request: FastifyRequest, write: Permission): Permission {
  return request.method === 'GET' || request.method === 'HEAD' ? 'read:application:any' : write;
}

/**
 * `actor` holds `permission`, with a second factor when the permission needs one (`:any`).
 * @throws AppError forbidden (403) / two_factor_required (403)
 */
export function assertPermission(actor: Actor, permission: Permission): void {
  if (!hasPermission(actor.roles, permission)) {
    throw new AppError('forbidden', 'You do not have access to this page.');
  }
  if (needsSecondFactor(permission) && !actor.twoFactorEnabled) {
    throw new AppError('two_factor_required', TWO_FACTOR_REQUIRED_MESSAGE);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}
