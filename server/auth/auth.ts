/**
 * Authentication with better-auth (decision 003): email + password, required email confirmation,
 * password reset, sessions in PostgreSQL behind HttpOnly cookies. Sessions expire after
 * SESSION_IDLE_MINUTES without activity and are renewed while the user is active (HIPAA
 * 164.312(a)(2)(iii) automatic logoff); sign-out and password reset end them on the server.
 */
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins';
import type { Logger } from 'pino';
import { withConfirmationLanding } from '../../domain/email-confirmation.ts';
import { BACKUP_CODE_COUNT, TOTP_DIGITS } from '../../domain/two-factor.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Database } from '../db/client.ts';
import { account, session, twoFactor, user, verification } from '../db/schema/auth.ts';
import { profiles, userRoles } from '../db/schema/core.ts';
import { scrubText } from '../logger.ts';
import type { Mailer } from '../mail/mailer.ts';

/** Header the Fastify glue sets from the socket address; clients cannot spoof it (the glue overwrites it). */
export const CLIENT_IP_HEADER = 'x-credentialing-client-ip';

export interface AuthOptions {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  /** Origins allowed to send state-changing requests (env.trustedOrigins). */
  trustedOrigins: string[];
  secret: string;
  production: boolean;
  sessionIdleMinutes: number;
}

export function createAuth(options: AuthOptions) {
  const { db, mailer, logger, appUrl, trustedOrigins, secret, production, sessionIdleMinutes } = options;
  /**
   * Account mail leaves in the background (issue 10 item 6): the answer to a reset request takes the
   * same time whether or not the email has an account, and a slow mail server never holds a request.
   * A failed send is logged (without address or link); the person can ask again.
   */
  const sendInBackground = (message: Parameters<Mailer['send']>[0], what: string) => {
    void mailer.send(message).catch((error: unknown) => {
      logger.error({ err: error }, `could not send the ${what} email`);
    });
  };
  const idleSeconds = sessionIdleMinutes * 60;
  return betterAuth({
    appName: 'Healthcare Provider Credentialing System',
    baseURL: appUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, twoFactor },
    }),
    telemetry: { enabled: false },
    // better-auth's own messages go to pino (never the console), at debug for expected events.
    logger: {
      level: 'warn',
      // Only the message, scrubbed: better-auth passes the email and other values as extra arguments.
      log: (level, message) =>
        logger[level === 'error' ? 'error' : 'debug']({ source: 'better-auth' }, scrubText(message)),
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
        sendInBackground(
          {
            to: account.email,
            subject: 'Reset your credentialing portal password',
            text: `A password reset was requested for your account.\n\nChoose a new password: ${url}\n\nThe link expires in one hour. If you did not ask for this, ignore this message.`,
          },
          'password reset',
        );
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
      // Issue 17: every link (sign-up, the resend on sign-in, the resend button) lands on the sign-in
      // screen's 'Email confirmed', whatever callbackURL the client sent (better-auth's sendOnSignIn
      // builds it from the sign-in body, '/' by default).
      async sendVerificationEmail({ user: account, url }) {
        const link = withConfirmationLanding(url);
        sendInBackground(
          {
            to: account.email,
            subject: 'Confirm your credentialing portal account',
            text: `Welcome to the Healthcare Provider Credentialing System.\n\nConfirm your email address: ${link}\n\nThe link expires in 24 hours.`,
          },
          'account confirmation',
        );
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
    // Per-address limits are counted in PostgreSQL by auth.routes.ts (security/rate-limits.ts), shared
    // by every instance; better-auth's own would live in one process's memory.
    rateLimit: { enabled: false },
    plugins: [
      // Issue 16: TOTP (RFC 6238) and one-time backup codes; secrets and codes encrypted with the
      // auth secret. Only the TOTP and backup-code endpoints are reachable (auth.routes.ts), and
      // "trust this device" is never passed on, so every sign-in of an enrolled user asks for a code.
      twoFactorPlugin({
        issuer: 'Healthcare Provider Credentialing System',
        skipVerificationOnEnable: false,
        totpOptions: { digits: TOTP_DIGITS, period: 30 },
        backupCodeOptions: { amount: BACKUP_CODE_COUNT, length: 10, storeBackupCodes: 'encrypted' },
        twoFactorCookieMaxAge: 10 * 60,
        // Wrong codes are counted per account by auth.routes.ts with decision 010's growing delay
        // (security/rate-limits.ts SECOND_FACTOR_ATTEMPTS, issue 28): better-auth's own lock would
        // shut the owner out for 15 minutes, renewable by anyone who has the password.
        accountLockout: { enabled: false },
      }),
    ],
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
