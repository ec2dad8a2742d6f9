/**
 * Authentication with better-auth (decision 003): email + password, required email confirmation,
 * password reset, sessions in PostgreSQL behind HttpOnly cookies. Sessions expire after
 * SESSION_IDLE_MINUTES without activity and are renewed while the user is active (HIPAA
 * 164.312(a)(2)(iii) automatic logoff); sign-out and password reset end them on the server.
 */
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Logger } from 'pino';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database } from '../db/client.ts';
import { account, session, user, verification } from '../db/schema/auth.ts';
import { profiles, userRoles } from '../db/schema/core.ts';
import type { Mailer } from '../mail/mailer.ts';

/** Header the Fastify glue sets from the socket address; clients cannot spoof it (the glue overwrites it). */
export const CLIENT_IP_HEADER = 'x-credentialing-client-ip';

export interface AuthOptions {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  secret: string;
  production: boolean;
  sessionIdleMinutes: number;
  /** better-auth's per-IP rate limits (on unless turned off for tests). */
  ipRateLimit: boolean;
}

export function createAuth(options: AuthOptions) {
  const { db, mailer, logger, appUrl, secret, production, sessionIdleMinutes, ipRateLimit } = options;
  const idleSeconds = sessionIdleMinutes * 60;
  return betterAuth({
    appName: 'Healthcare Provider Credentialing System',
    baseURL: appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [appUrl],
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification } }),
    telemetry: { enabled: false },
    // better-auth's own messages go to pino (never the console), at debug for expected events.
    logger: {
      level: 'warn',
      log: (level, message) =>
        logger[level === 'error' ? 'error' : 'debug']({ source: 'better-auth' }, message),
    },
    user: {
      additionalFields: {
        firstName: { type: 'string', required: true, input: true },
        lastName: { type: 'string', required: true, input: true },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 12,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      async sendResetPassword({ user: account, url }) {
        await mailer.send({
          to: account.email,
          subject: 'Reset your credentialing portal password',
          text: `A password reset was requested for your account.\n\nChoose a new password: ${url}\n\nThe link expires in one hour. If you did not ask for this, ignore this message.`,
        });
      },
      async onPasswordReset({ user: account }) {
        await recordAudit(db, {
          action: 'auth.password_reset',
          actorUserId: account.id,
          subjectUserId: account.id,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user: account, url }) {
        await mailer.send({
          to: account.email,
          subject: 'Confirm your credentialing portal account',
          text: `Welcome to the Healthcare Provider Credentialing System.\n\nConfirm your email address: ${url}\n\nThe link expires in 24 hours.`,
        });
      },
      async afterEmailVerification(account) {
        await recordAudit(db, {
          action: 'auth.email_verified',
          actorUserId: account.id,
          subjectUserId: account.id,
        });
      },
    },
    session: {
      expiresIn: idleSeconds,
      // Renew at most once a minute while the user is active; an idle session expires.
      updateAge: Math.min(60, Math.floor(idleSeconds / 2)),
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: ipRateLimit,
      window: 60,
      max: 120,
      storage: 'memory',
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/send-verification-email': { window: 60, max: 5 },
      },
    },
    advanced: {
      useSecureCookies: production,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: production },
    },
    databaseHooks: {
      user: {
        create: {
          async after(created) {
            const firstName = String((created as { firstName?: unknown }).firstName ?? '');
            const lastName = String((created as { lastName?: unknown }).lastName ?? '');
            await db.transaction(async (tx) => {
              await tx
                .insert(profiles)
                .values({ userId: created.id, firstName, lastName, email: created.email })
                .onConflictDoNothing();
              await tx.insert(userRoles).values({ userId: created.id, role: 'user' }).onConflictDoNothing();
            });
            await recordAudit(db, {
              action: 'auth.sign_up',
              actorUserId: created.id,
              subjectUserId: created.id,
            });
            logger.info({ userId: created.id }, 'account created');
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
