/**
 * Who is calling: `findActor` / `requireActor` read the better-auth session from the request cookies
 * and the role from user_roles (spec §6: a failed or empty lookup means `user`, the least privilege).
 */
import { isAPIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../domain/app-error.ts';
import { hasPermission, type Permission } from '../../domain/permissions.ts';
import type { Role } from '../../domain/roles.ts';
import type { Database } from '../db/client.ts';
import { userRoles } from '../db/schema/core.ts';
import { toFetchHeaders } from './fetch-glue.ts';

export interface Actor {
  userId: string;
  email: string;
  role: Role;
  sessionId: string;
  /** When the session ends unless renewed by activity. */
  sessionExpiresAt: Date;
  emailVerified: boolean;
  ipAddress: string;
}

/** Role of `userId`; `user` when the row is missing or the lookup fails (spec §6). */
export async function lookupRole(db: Database, userId: string): Promise<Role> {
  try {
    const [row] = await db
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, userId));
    return row?.role ?? 'user';
  } catch {
    return 'user';
  }
}

/**
 * The signed-in actor of this request, cached on the request; null when the request carries no valid
 * session (none, expired, revoked, or ended while it was being renewed).
 * @throws when the session lookup itself fails (e.g. the database is unreachable): a failure is
 *   never read as "signed out"
 */
export async function findActor(request: FastifyRequest): Promise<Actor | null> {
  if (request.actor) return request.actor;
  const { auth, db } = request.server.deps;
  // better-auth answers null for a missing or expired session, and 401 when the session disappears
  // while it renews it (a concurrent sign-out); anything else is a real failure.
  const result = await auth.api.getSession({ headers: toFetchHeaders(request) }).catch((error: unknown) => {
    if (isAPIError(error) && error.statusCode === 401) return null;
    throw error;
  });
  if (!result) return null;
  const role = await lookupRole(db, result.user.id);
  request.actor = {
    userId: result.user.id,
    email: result.user.email,
    role,
    sessionId: result.session.id,
    sessionExpiresAt: result.session.expiresAt,
    emailVerified: result.user.emailVerified,
    ipAddress: request.ip,
  };
  return request.actor;
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
 * The signed-in actor, who must hold `permission`.
 * @throws AppError unauthorized (401) / forbidden (403)
 */
export async function requirePermission(request: FastifyRequest, permission: Permission): Promise<Actor> {
  const actor = await requireActor(request);
  if (!hasPermission(actor.role, permission)) {
    throw new AppError('forbidden', 'You do not have access to this page.');
  }
  return actor;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}
