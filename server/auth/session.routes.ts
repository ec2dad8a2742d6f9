/**
 * Who is calling: GET /api/me (signed in, else 401), GET /api/session (public: the same body, or
 * `null`, so a signed-out visitor's check is a plain 200, never a failed request in the browser
 * console) and GET /api/profile (the caller's profile alone, spec §7 "profiles ... single row", read
 * by the dashboard). Both session bodies are built by `buildMeBody`. The bodies' schemas are the API contract in domain/api/session.ts.
 */
import { eq, sql } from 'drizzle-orm';
import {
  type MeResponse,
  meResponseSchema,
  type Profile,
  profileResponseSchema,
  sessionResponseSchema,
} from '../../domain/api/session.ts';
import { errorResponseSchema } from '../../domain/app-error.ts';
import { rolesNeedSecondFactor } from '../../domain/permissions.ts';
import type { AppInstance } from '../app-types.ts';
import type { Database } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-reads.ts';
import { profiles } from '../db/schema/core.ts';
import { type Actor, findActor, requireActor } from './actor.ts';

const profileOf = preparedPerHandle((db) =>
  db
    .select()
    .from(profiles)
    .where(eq(profiles.userId, sql.placeholder('userId')))
    .prepare('profile_of'),
);

/**
 * The profile row of `userId` (spec §3 profiles), or null when there is none (spec §8: a missing
 * profile is tolerated).
 * @throws the database error when the lookup fails (never read as "no profile")
 */
export async function findProfile(db: Database, userId: string): Promise<Profile | null> {
  const [profile] = await profileOf(db).execute({ userId });
  return profile
    ? {
        firstName: profile.firstName,
        lastName: profile.lastName,
        email: profile.email,
        createdAt: profile.createdAt.toISOString(),
      }
    : null;
}

/**
 * The body of GET /api/me and of GET /api/session for a signed-in `actor`: user, profile (null when
 * absent), role, whether a second factor must be set up first, session expiry (ISO 8601) and the
 * idle timeout in seconds.
 * @throws the database error when the profile lookup fails
 */
export async function buildMeBody(app: AppInstance, actor: Actor): Promise<MeResponse> {
  return {
    user: {
      id: actor.userId,
      email: actor.email,
      emailVerified: actor.emailVerified,
      twoFactorEnabled: actor.twoFactorEnabled,
    },
    profile: await findProfile(app.deps.db, actor.userId),
    role: actor.role,
    roles: actor.roles,
    twoFactorRequired: rolesNeedSecondFactor(actor.roles) && !actor.twoFactorEnabled,
    sessionExpiresAt: actor.sessionExpiresAt.toISOString(),
    idleTimeoutSeconds: app.deps.env.SESSION_IDLE_MINUTES * 60,
  };
}

export async function sessionRoutes(app: AppInstance) {
  app.get(
    '/api/me',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'The signed-in user, their profile and role (spec §6)',
        tags: ['auth'],
        response: { 200: meResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => buildMeBody(app, await requireActor(request)),
  );

  /**
   * GET /api/session, public. 200 with the /api/me body when the request carries a valid session;
   * 200 with JSON `null` when it carries none, or an expired or revoked one.
   * Errors: 500 when the session or profile lookup fails (e.g. the database is unreachable): a
   * failure is never answered as "signed out".
   */
  app.get(
    '/api/session',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The signed-in user, their profile and role, or null when signed out (spec §6)',
        tags: ['auth'],
        response: { 200: sessionResponseSchema, 500: errorResponseSchema },
      },
    },
    async (request) => {
      const actor = await findActor(request);
      return actor ? buildMeBody(app, actor) : null;
    },
  );

  /**
   * GET /api/profile, signed in. 200 `{ profile }`: the caller's profile, or `{ profile: null }` when
   * the caller has none (spec §8: a missing profile is tolerated, not an error).
   * Errors: 401 without a valid session; 500 when the lookup fails (the dashboard then shows
   * 'Failed to load profile information').
   */
  app.get(
    '/api/profile',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: "The caller's profile, or null when there is none (spec §3 profiles, §8)",
        tags: ['auth'],
        response: {
          200: profileResponseSchema,
          401: errorResponseSchema,
          500: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      return { profile: await findProfile(app.deps.db, actor.userId) };
    },
  );
}
