/**
 * /api/auth/* (better-auth, forwarded) and /api/me.
 * Before forwarding: the password policy (spec §5 `weak_password` with reasons) and a per-account
 * rate limit on sign-in, sign-up and password reset; after: audit events for sign-in and sign-out.
 */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, errorResponseSchema } from '../../domain/app-error.ts';
import { roles } from '../../domain/roles.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { profiles } from '../db/schema/core.ts';
import type { AppInstance } from '../http/types.ts';
import { requireActor } from './actor.ts';
import { sendFetchResponse, toFetchHeaders } from './fetch-glue.ts';
import { weakPasswordReasons } from './password-strength.ts';

/** Paths (after /api/auth) whose body carries a new password. */
const NEW_PASSWORD_FIELD: Record<string, 'password' | 'newPassword'> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
};
/** Paths limited per account (the email in the body) on top of better-auth's per-IP limits. */
const PER_ACCOUNT_LIMITED = new Set(['/sign-in/email', '/sign-up/email', '/request-password-reset']);
const PER_ACCOUNT_MAX = 10;

function authPath(request: FastifyRequest): string {
  return request.url.split('?')[0]!.replace(/^\/api\/auth/, '');
}

function bodyField(body: unknown, field: string): string | undefined {
  if (body && typeof body === 'object' && field in body) {
    const value = (body as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

export const meResponseSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean() }),
  profile: z
    .object({ firstName: z.string(), lastName: z.string(), email: z.string(), createdAt: z.iso.datetime() })
    .nullable(),
  role: z.enum(roles),
  sessionExpiresAt: z.iso.datetime(),
  /** Inactivity after which the server ends the session (SESSION_IDLE_MINUTES), for the UI's warning. */
  idleTimeoutSeconds: z.number().int().positive(),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export async function authRoutes(app: AppInstance) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    config: {
      access: 'public',
      rateLimit: {
        hook: 'preHandler',
        max: (_request: FastifyRequest, key: string) =>
          key.startsWith('account:') ? PER_ACCOUNT_MAX : 100_000,
        timeWindow: '15 minutes',
        keyGenerator: (request: FastifyRequest) => {
          const path = authPath(request);
          const email = bodyField(request.body, 'email');
          return PER_ACCOUNT_LIMITED.has(path) && email
            ? `account:${path}:${email.trim().toLowerCase()}`
            : `ip:${request.ip}`;
        },
      },
    },
    handler: async (request, reply) => {
      const { auth, db } = app.deps;
      const path = authPath(request);

      const passwordField = NEW_PASSWORD_FIELD[path];
      if (request.method === 'POST' && passwordField) {
        const password = bodyField(request.body, passwordField) ?? '';
        const reasons = weakPasswordReasons(password, [
          bodyField(request.body, 'email') ?? '',
          bodyField(request.body, 'firstName') ?? '',
          bodyField(request.body, 'lastName') ?? '',
        ]);
        if (reasons.length > 0) {
          throw new AppError('weak_password', 'Choose a stronger password.', { reasons });
        }
      }

      // Who is signing out, for the audit log (read before the session is gone).
      let sessionUserId: string | undefined;
      if (path === '/sign-out' || path === '/change-password') {
        const current = await auth.api.getSession({ headers: toFetchHeaders(request) }).catch(() => null);
        sessionUserId = current?.user.id;
      }

      const url = new URL(request.url, app.deps.env.appUrl);
      const hasBody = request.method === 'POST' && request.body !== undefined;
      const headers = toFetchHeaders(request);
      if (hasBody) headers.set('content-type', 'application/json');
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(request.body) : undefined,
        }),
      );

      if (path === '/sign-in/email') {
        let userId: string | null = null;
        if (response.ok) {
          const body = (await response
            .clone()
            .json()
            .catch(() => null)) as { user?: { id?: string } } | null;
          userId = body?.user?.id ?? null;
        }
        await recordAudit(db, {
          action: response.ok ? 'auth.sign_in' : 'auth.sign_in_failed',
          actorUserId: userId,
          subjectUserId: userId,
          ipAddress: request.ip,
          details: { status: response.status },
        });
      } else if (path === '/sign-out' && response.ok && sessionUserId) {
        await recordAudit(db, { action: 'auth.sign_out', actorUserId: sessionUserId, ipAddress: request.ip });
      } else if (path === '/request-password-reset' && response.ok) {
        await recordAudit(db, { action: 'auth.password_reset_requested', ipAddress: request.ip });
      } else if (path === '/change-password' && response.ok && sessionUserId) {
        await recordAudit(db, {
          action: 'auth.password_changed',
          actorUserId: sessionUserId,
          ipAddress: request.ip,
        });
      }
      return sendFetchResponse(reply, response);
    },
  });

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
    async (request) => {
      const actor = await requireActor(request);
      const [profile] = await app.deps.db.select().from(profiles).where(eq(profiles.userId, actor.userId));
      return {
        user: { id: actor.userId, email: actor.email, emailVerified: actor.emailVerified },
        profile: profile
          ? {
              firstName: profile.firstName,
              lastName: profile.lastName,
              email: profile.email,
              createdAt: profile.createdAt.toISOString(),
            }
          : null,
        role: actor.role,
        sessionExpiresAt: actor.sessionExpiresAt.toISOString(),
        idleTimeoutSeconds: app.deps.env.SESSION_IDLE_MINUTES * 60,
      };
    },
  );
}
