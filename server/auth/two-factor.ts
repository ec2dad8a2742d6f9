/**
 * Second factor through /api/auth/two-factor/* (issue 16): which of better-auth's two-factor
 * endpoints are reachable, their bodies, the rules better-auth does not know, and the audit events.
 *
 * - Reachable: enable (password -> TOTP URI and ten backup codes, not yet active), verify-totp (a
 *   first code activates the factor; later, the second step of a sign-in), verify-backup-code,
 *   get-totp-uri, generate-backup-codes, disable. The email/SMS one-time-code endpoints are not (no
 *   second factor by mail: a mailbox is not a second factor for an account whose reset goes there).
 * - "Trust this device" is never passed on (the body schemas drop it): no one is offered it.
 * - An administrator cannot turn the factor off (only `npm run admin -- reset-2fa`, audited).
 * - Enrolment ends the user's other sessions: they were opened with the password alone.
 * - Audit (HIPAA 164.312(b)): enrolment, sign-in with a second factor, a failed code, a backup-code
 *   use, turning it off; the reset is audited by the CLI.
 */
import { and, eq, gt, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../domain/app-error.ts';
import { rolesNeedSecondFactor } from '../../domain/permissions.ts';
import {
  twoFactorPasswordBodySchema,
  verifyBackupCodeBodySchema,
  verifyTotpBodySchema,
} from '../../domain/two-factor.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database } from '../db/client.ts';
import { session, verification } from '../db/schema/auth.ts';
import type { Actor } from './actor.ts';

/** The two-factor paths (after /api/auth) that are forwarded, with their body schemas. */
export const TWO_FACTOR_BODY_SCHEMAS: Record<string, z.core.$ZodType<Record<string, unknown>>> = {
  '/two-factor/enable': twoFactorPasswordBodySchema,
  '/two-factor/disable': twoFactorPasswordBodySchema,
  '/two-factor/get-totp-uri': twoFactorPasswordBodySchema,
  '/two-factor/generate-backup-codes': twoFactorPasswordBodySchema,
  '/two-factor/verify-totp': verifyTotpBodySchema,
  '/two-factor/verify-backup-code': verifyBackupCodeBodySchema,
};

const VERIFY_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/**
 * Refuse what better-auth would allow but we do not.
 * @throws AppError not_found for a two-factor path that is not forwarded; forbidden when an
 *   administrator tries to turn the second factor off
 */
export function checkTwoFactorRequest(path: string, actor: Actor | null): void {
  if (!path.startsWith('/two-factor/')) return;
  if (!(path in TWO_FACTOR_BODY_SCHEMAS)) throw new AppError('not_found', 'Not found');
  if (path === '/two-factor/disable' && actor && rolesNeedSecondFactor(actor.roles)) {
    throw new AppError(
      'forbidden',
      'Staff must keep two-factor authentication. If you lost your authenticator, ask an administrator to reset it.',
    );
  }
}

/**
 * The user a pending sign-in challenge belongs to: better-auth's `two_factor` cookie (set after the
 * password step) names a verification row whose value is the user id. Read before the code is
 * checked (a success consumes the row), for the audit log only; undefined when there is none.
 */
export async function challengeUserId(db: Database, request: FastifyRequest): Promise<string | undefined> {
  const cookie = request.headers.cookie;
  if (!cookie) return undefined;
  const pair = cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => /^(__Secure-)?better-auth\.two_factor=/.test(part));
  if (!pair) return undefined;
  let signed: string;
  try {
    signed = decodeURIComponent(pair.slice(pair.indexOf('=') + 1));
  } catch {
    return undefined;
  }
  const identifier = signed.slice(0, Math.max(0, signed.lastIndexOf('.')));
  if (!identifier || identifier.length > 200) return undefined;
  const [row] = await db
    .select({ userId: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, new Date())));
  return row?.userId;
}

/**
 * The session token a response sets (better-auth's signed `session_token` cookie: `token.signature`),
 * or undefined. An enrolment replaces the caller's session with a new one this way.
 */
export function sessionTokenSetBy(response: Response): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    const match = /^(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(cookie);
    if (!match) continue;
    try {
      const signed = decodeURIComponent(match[1]!);
      const token = signed.slice(0, Math.max(0, signed.lastIndexOf('.')));
      if (token) return token;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Audit a forwarded two-factor request from its outcome.
 * @param actor the session's user (enrolment, disable), or null during a sign-in challenge
 * @param challengeUser the user of the sign-in challenge (`challengeUserId`), when there is one
 */
export async function auditTwoFactor(
  db: Database,
  event: {
    path: string;
    ok: boolean;
    status: number;
    actor: Actor | null;
    challengeUser: string | undefined;
    /** The user id in a successful verify's body (a sign-in's new session). */
    signedInUser: string | undefined;
    /** The session token the response set (`sessionTokenSetBy`): the session the caller now holds. */
    sessionToken: string | undefined;
    ipAddress: string;
  },
): Promise<void> {
  const { path, ok, actor, challengeUser, signedInUser, ipAddress } = event;
  const factor = path === '/two-factor/verify-backup-code' ? 'backup_code' : 'totp';
  if (VERIFY_PATHS.has(path)) {
    const userId = actor?.userId ?? signedInUser ?? challengeUser ?? null;
    const stage = actor ? 'enrolment' : 'sign_in';
    if (!ok) {
      await recordAudit(db, {
        action: 'auth.two_factor_failed',
        actorUserId: userId,
        subjectUserId: userId,
        ipAddress,
        details: { factor, stage, status: event.status },
      });
      return;
    }
    if (actor && !actor.twoFactorEnabled && factor === 'totp') {
      // Sessions opened with the password alone before enrolment must not inherit the new factor's
      // standing (an administrator's other devices, or someone who had the password): they end.
      await db.transaction(async (tx) => {
        // better-auth answers a confirmed enrolment with a new session (in its cookie): keep that one.
        const keep = event.sessionToken
          ? ne(session.token, event.sessionToken)
          : ne(session.id, actor.sessionId);
        await tx.delete(session).where(and(eq(session.userId, actor.userId), keep));
        await recordAudit(tx, {
          action: 'auth.two_factor_enabled',
          actorUserId: actor.userId,
          subjectUserId: actor.userId,
          ipAddress,
        });
      });
      return;
    }
    if (factor === 'backup_code') {
      await recordAudit(db, {
        action: 'auth.backup_code_used',
        actorUserId: userId,
        subjectUserId: userId,
        ipAddress,
        details: { stage },
      });
    }
    if (!actor) {
      await recordAudit(db, {
        action: 'auth.sign_in_two_factor',
        actorUserId: userId,
        subjectUserId: userId,
        ipAddress,
        details: { factor },
      });
    }
    return;
  }
  if (path === '/two-factor/disable' && ok && actor) {
    await recordAudit(db, {
      action: 'auth.two_factor_disabled',
      actorUserId: actor.userId,
      subjectUserId: actor.userId,
      ipAddress,
    });
  } else if (path === '/two-factor/generate-backup-codes' && ok && actor) {
    await recordAudit(db, {
      action: 'auth.backup_codes_regenerated',
      actorUserId: actor.userId,
      subjectUserId: actor.userId,
      ipAddress,
    });
  }
}
