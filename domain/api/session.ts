/**
 * API contract of who is calling (spec §6 sign-in, §7 profiles): the bodies of GET /api/me,
 * GET /api/session and GET /api/profile. Validated and serialised by the server
 * (server/auth/session.routes.ts, auth.routes.ts) and typed by the web (web/app/session.ts,
 * web/features/dashboard/profile-api.ts) from these schemas alone.
 */
import { z } from 'zod';
import { roles, staffRoles } from '../roles.ts';

/** The provider's profile (spec §3 profiles, one row per user). `createdAt` is ISO 8601 (UTC). */
export const profileSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  createdAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * The signed-in caller: GET /api/me (401 when signed out) and, when signed in, GET /api/session.
 * `profile` is null when the user has none (spec §8: a missing profile is tolerated).
 */
export const meResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    /** A verified second factor is set up (issue 16). */
    twoFactorEnabled: z.boolean(),
  }),
  profile: profileSchema.nullable(),
  /** user_roles' role (spec §6): `admin` for an administrator, else `user`. */
  role: z.enum(roles),
  /**
   * The roles the caller acts with (issue 32, domain/roles.ts `accessRoles`): their staff roles, or
   * `['user']` for a provider. The web shows tabs and buttons by these (domain/permissions.ts).
   */
  roles: z.array(z.enum(['user', ...staffRoles])).min(1),
  /**
   * The caller must set up a second factor before anything else (administrators, issue 16): every
   * administrator route answers 403 `two_factor_required` until then.
   */
  twoFactorRequired: z.boolean(),
  /** When the session ends at the latest (ISO 8601, UTC). */
  sessionExpiresAt: z.iso.datetime(),
  /** Inactivity after which the server ends the session (SESSION_IDLE_MINUTES × 60), in seconds, for the UI's warning. */
  idleTimeoutSeconds: z.number().int().positive(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** GET /api/session: the /api/me body, or JSON `null` when signed out (a 200, never a 401). */
export const sessionResponseSchema = meResponseSchema.nullable();
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** GET /api/profile: `{ profile }`, null when the caller has none (spec §8). */
export const profileResponseSchema = z.object({ profile: profileSchema.nullable() });
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
