/**
 * /api/auth/* (better-auth, forwarded). /api/me and /api/session are in session.routes.ts.
 *
 * Before forwarding (issue 10 items 3, 5, 6): the path better-auth receives is the one the router
 * matched (the wildcard, decoded), so what is checked here is what runs there; every body is
 * validated with the domain's account schemas (names <= 100 characters, bounded email and
 * password) and forwarded as parsed; the password policy (spec §5 `weak_password` with reasons);
 * the attempt limits of decision 010 (sign-in per account+address with a growing per-account delay,
 * mail-sending requests per email); a password change always ends the user's other sessions.
 * After: audit events (sign-in, failures, sign-out, reset request, password and name changes), and
 * a name change is copied to the profile (spec §3 profiles).
 */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  emailBodySchema,
  signInBodySchema,
  signUpBodySchema,
  updateUserBodySchema,
} from '../../domain/account.ts';
import { AppError, toFieldIssues } from '../../domain/app-error.ts';
import { legalNameChangeTexts } from '../../domain/credentials/credential-updates.ts';
import type { AppInstance } from '../app-types.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { holdsCredential } from '../credential/published-credential.ts';
import { user } from '../db/schema/auth.ts';
import { profiles } from '../db/schema/core.ts';
import { RateLimitedError, type SecondFactorKind } from '../security/rate-limits.ts';
import { type Actor, findActor } from './actor.ts';
import { sendFetchResponse, toFetchHeaders } from './fetch-glue.ts';
import { weakPasswordReasons } from './password-strength.ts';
import { announceSessionChanges, SESSION_CHANGING_AUTH_PATHS } from './session-revocations.ts';
import {
  auditTwoFactor,
  challengeUserId,
  checkTwoFactorRequest,
  sessionTokenSetBy,
  TWO_FACTOR_BODY_SCHEMAS,
} from './two-factor.ts';

/** Paths (after /api/auth) whose body carries a new password. */
const NEW_PASSWORD_FIELD: Record<string, 'password' | 'newPassword'> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
};

/** Bodies validated before forwarding (the same schemas the web forms use). */
const BODY_SCHEMAS: Record<string, z.core.$ZodType<Record<string, unknown>>> = {
  ...TWO_FACTOR_BODY_SCHEMAS,
  '/sign-up/email': signUpBodySchema,
  '/sign-in/email': signInBodySchema,
  '/update-user': updateUserBodySchema,
  '/request-password-reset': emailBodySchema,
  '/send-verification-email': emailBodySchema,
};

/** Requests that make the server send mail to the email in the body. */
const SENDS_MAIL = new Set(['/sign-up/email', '/request-password-reset', '/send-verification-email']);

/** The better-auth path the router matched: `/sign-in/email` (decoded, no trailing slash). */
function authPath(request: FastifyRequest): string {
  const wildcard = (request.params as { '*'?: string })['*'] ?? '';
  return `/${wildcard}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
}

function bodyField(body: Record<string, unknown> | undefined, field: string): string | undefined {
  const value = body?.[field];
  return typeof value === 'string' ? value : undefined;
}

function parseBody(path: string, body: unknown): Record<string, unknown> | undefined {
  const schema = BODY_SCHEMAS[path];
  if (!schema) return body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  const parsed = z.safeParse(schema, body ?? {});
  if (!parsed.success) {
    const issues = toFieldIssues(parsed.error);
    throw new AppError('validation_failed', issues[0]?.message ?? 'Check the form and try again.', {
      issues,
    });
  }
  return parsed.data;
}

export async function authRoutes(app: AppInstance) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    config: { access: 'public' },
    handler: async (request, reply) => {
      const { auth, db, rateLimits } = app.deps;
      const path = authPath(request);
      // Counted before anything else, so malformed requests count too.
      await rateLimits.beforeAuthRequest(path, request.ip);
      const body = request.method === 'POST' ? parseBody(path, request.body) : undefined;
      const email = bodyField(body, 'email');

      const passwordField = NEW_PASSWORD_FIELD[path];
      if (body && passwordField) {
        const password = bodyField(body, passwordField) ?? '';
        const reasons = weakPasswordReasons(password, [
          email ?? '',
          bodyField(body, 'firstName') ?? '',
          bodyField(body, 'lastName') ?? '',
        ]);
        if (reasons.length > 0) {
          throw new AppError('weak_password', 'Choose a stronger password.', { reasons });
        }
      }
      if (body && path === '/change-password') body.revokeOtherSessions = true;

      if (email && path === '/sign-in/email') await rateLimits.beforeSignIn(email, request.ip);
      if (email && SENDS_MAIL.has(path)) await rateLimits.beforeMailRequest(email, request.ip);

      // Who is acting (read before sign-out ends the session). Reading it also ends a session past
      // SESSION_MAX_HOURS (actor.ts), so better-auth never serves one.
      const actor = /(^|;\s*)(__Secure-)?better-auth\.session_token=/.test(request.headers.cookie ?? '')
        ? await findActor(request)
        : null;
      const sessionUserId = actor?.userId;
      checkTwoFactorRequest(path, actor);
      // Issue 49 item 1: a credentialed provider's name is part of the published credential; it
      // changes only through 'Change Legal Name' (a credential update with a document).
      if (
        path === '/update-user' &&
        sessionUserId &&
        ['firstName', 'lastName', 'name'].some((field) => bodyField(body, field) !== undefined) &&
        (await holdsCredential(db, sessionUserId, new Date()))
      ) {
        throw new AppError('conflict', legalNameChangeTexts.accountRefusal);
      }
      const challengeUser =
        path.startsWith('/two-factor/verify') && !actor ? await challengeUserId(db, request) : undefined;
      const secondFactor = secondFactorAttempt(path, actor, challengeUser, body);
      if (secondFactor) await claimSecondFactor(app, secondFactor, request.ip);

      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const url = new URL(`/api/auth${path}${query}`, app.deps.env.appUrl);
      const headers = toFetchHeaders(request);
      if (body) headers.set('content-type', 'application/json');
      let response: Response | undefined;
      try {
        response = await auth.handler(
          new Request(url, {
            method: request.method,
            headers,
            body: body ? JSON.stringify(body) : undefined,
          }),
        );
      } finally {
        if (secondFactor) await settleSecondFactor(app, secondFactor, response);
      }
      const answer = response.ok
        ? ((await response
            .clone()
            .json()
            .catch(() => null)) as {
            user?: { id?: string };
            token?: string;
            twoFactorRedirect?: boolean;
          } | null)
        : null;
      if (path.startsWith('/two-factor/')) {
        await auditTwoFactor(db, {
          path,
          ok: response.ok,
          status: response.status,
          actor,
          challengeUser,
          signedInUser: answer?.user?.id,
          sessionToken: sessionTokenSetBy(response),
          ipAddress: request.ip,
        });
      } else if (path === '/sign-in/email') {
        let userId: string | null = answer?.user?.id ?? null;
        // Password right, second factor to come: the session starts at the code (auth.sign_in_two_factor).
        const secondFactorPending = answer?.twoFactorRedirect === true;
        if (secondFactorPending && email) {
          const [row] = await db
            .select({ id: user.id })
            .from(user)
            .where(eq(user.email, email.trim().toLowerCase()));
          userId = row?.id ?? null;
        }
        if (email) {
          const outcome = response.ok ? 'success' : response.status === 401 ? 'failure' : 'other';
          await rateLimits.afterSignIn(email, request.ip, outcome);
        }
        await recordAudit(db, {
          action: response.ok ? 'auth.sign_in' : 'auth.sign_in_failed',
          actorUserId: userId,
          subjectUserId: userId,
          ipAddress: request.ip,
          details: secondFactorPending
            ? { status: response.status, secondFactor: 'pending' }
            : { status: response.status },
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
      } else if (path === '/update-user' && response.ok && sessionUserId && body) {
        await recordNameChange(app, sessionUserId, body, request.ip);
      }
      // What better-auth (or a confirmed enrolment, above) just did may have ended or changed sessions:
      // every instance forgets the sessions it verified (decision 015). A refusal (4xx) changed
      // nothing, so a flood of wrong passwords or codes cannot keep emptying the memories.
      const refused = response.status >= 400 && response.status < 500;
      if (SESSION_CHANGING_AUTH_PATHS.has(path) && !refused)
        await announceSessionChanges({ ...app.deps, logger: request.log });
      return sendFetchResponse(reply, response);
    },
  });
}

/** A code sent to the second step (`/two-factor/verify-*`) by a known user. */
interface SecondFactorAttempt {
  userId: string;
  factor: SecondFactorKind;
  code: string;
  /** `sign_in` during a sign-in challenge (counted per account), `enrolment` when signed in. */
  stage: 'sign_in' | 'enrolment';
}

function secondFactorAttempt(
  path: string,
  actor: Actor | null,
  challengeUser: string | undefined,
  body: Record<string, unknown> | undefined,
): SecondFactorAttempt | undefined {
  const factor: SecondFactorKind | undefined =
    path === '/two-factor/verify-totp'
      ? 'totp'
      : path === '/two-factor/verify-backup-code'
        ? 'backup_code'
        : undefined;
  const userId = actor?.userId ?? challengeUser;
  const code = bodyField(body, 'code');
  if (!factor || !userId || !code) return undefined;
  return { userId, factor, code, stage: actor ? 'enrolment' : 'sign_in' };
}

/**
 * Before better-auth checks a second-factor code (issue 28 items 1 and 2): a sign-in in the account's
 * wrong-code delay waits, and the code is claimed atomically, so it works once however many
 * challenges send it at the same moment. A refusal is audited as a failed code.
 * @throws RateLimitedError (429) in the delay; AppError unauthorized (401) for a code already claimed
 */
async function claimSecondFactor(app: AppInstance, attempt: SecondFactorAttempt, ipAddress: string) {
  const { db, rateLimits } = app.deps;
  try {
    if (attempt.stage === 'sign_in') await rateLimits.beforeSecondFactorCode(attempt.userId);
    await rateLimits.claimSecondFactorCode(attempt.userId, attempt.factor, attempt.code);
  } catch (error) {
    await recordAudit(db, {
      action: 'auth.two_factor_failed',
      actorUserId: attempt.userId,
      subjectUserId: attempt.userId,
      ipAddress,
      details: {
        factor: attempt.factor,
        stage: attempt.stage,
        reason: error instanceof RateLimitedError ? 'delayed' : 'reused',
      },
    });
    throw error;
  }
}

/** better-auth's error codes for a wrong code (its other refusals, e.g. an expired challenge, are not guesses). */
const WRONG_CODE_ERRORS = new Set(['INVALID_CODE', 'INVALID_BACKUP_CODE']);

/**
 * After better-auth answered (or failed to): a code it did not accept is released, so a typo or an
 * expired challenge does not spend the right code; at sign-in a wrong code counts toward the
 * account's delay and an accepted one clears it.
 */
async function settleSecondFactor(
  app: AppInstance,
  attempt: SecondFactorAttempt,
  response: Response | undefined,
) {
  const { rateLimits } = app.deps;
  if (!response?.ok) await rateLimits.releaseSecondFactorCode(attempt.userId, attempt.factor, attempt.code);
  if (attempt.stage !== 'sign_in' || !response) return;
  if (response.ok) {
    await rateLimits.afterSecondFactorCode(attempt.userId, 'success');
    return;
  }
  const error = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  if (typeof error?.code === 'string' && WRONG_CODE_ERRORS.has(error.code)) {
    await rateLimits.afterSecondFactorCode(attempt.userId, 'failure');
  }
}

/**
 * A name change through the auth API (issue 10 item 7): the profile gets the same names (spec §3
 * profiles is what the dashboard and admins show), and the audit log records which fields changed
 * (never the names themselves).
 */
async function recordNameChange(
  app: AppInstance,
  userId: string,
  body: Record<string, unknown>,
  ipAddress: string,
): Promise<void> {
  const firstName = bodyField(body, 'firstName');
  const lastName = bodyField(body, 'lastName');
  const changed = ['firstName', 'lastName', 'name'].filter((field) => bodyField(body, field) !== undefined);
  if (changed.length === 0) return;
  await app.deps.db.transaction(async (tx) => {
    if (firstName !== undefined || lastName !== undefined) {
      await tx
        .update(profiles)
        .set({
          ...(firstName !== undefined ? { firstName } : {}),
          ...(lastName !== undefined ? { lastName } : {}),
        })
        .where(eq(profiles.userId, userId));
    }
    await recordAudit(tx, {
      action: 'auth.name_changed',
      actorUserId: userId,
      subjectUserId: userId,
      ipAddress,
      details: { fields: changed.join(',') },
    });
  });
}
