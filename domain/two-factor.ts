/**
 * Second factor (issue 16; OWASP ASVS 5.0 V6.3 multi-factor authentication): TOTP per RFC 6238
 * (6 digits, 30-second steps, via better-auth's two-factor plugin) and one-time backup codes. The
 * same zod schemas bound the web forms and the server, which validates every /api/auth/two-factor/*
 * body with them before better-auth sees it. Written with `zod/mini`, as domain/account.ts: the
 * sign-in page loads them (issue 18, decision 021).
 */
import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from './password-policy.ts';

/** Digits of a TOTP code (RFC 6238 default, what authenticator apps show). */
export const TOTP_DIGITS = 6;
/** How many backup codes an enrolment gives (shown once). */
export const BACKUP_CODE_COUNT = 10;

/** The 'Authentication code' field: 6 digits; spaces (as apps group them, "123 456") are ignored. */
export const authenticationCodeSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Enter the 6-digit code from your authenticator app.' }),
    z.transform((code: string) => code.replace(/\s+/g, '')),
  ),
  z.string().check(z.regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.')),
);

/** A backup code as shown at enrolment (letters, digits and a dash; at most 32 characters). */
export const backupCodeSchema = z
  .string({ error: 'Enter one of your backup codes.' })
  .check(
    z.trim(),
    z.minLength(1, 'Enter one of your backup codes.'),
    z.maxLength(32, 'Enter one of your backup codes.'),
    z.regex(/^[A-Za-z0-9-]+$/, 'Enter one of your backup codes.'),
  );

const password = z
  .string({ error: 'Password is required' })
  .check(
    z.minLength(1, 'Password is required'),
    z.maxLength(PASSWORD_MAX_LENGTH, `Password may be at most ${PASSWORD_MAX_LENGTH} characters`),
  );

/**
 * Body of POST /api/auth/two-factor/enable, /disable, /get-totp-uri and /generate-backup-codes: the
 * account password, asked again before a change to the second factor.
 */
export const twoFactorPasswordBodySchema = z.object({ password });

/**
 * Body of POST /api/auth/two-factor/verify-totp. Unknown keys are dropped: `trustDevice` ("trust this
 * device for 30 days") is not offered (issue 16), so every sign-in asks for the second factor.
 */
export const verifyTotpBodySchema = z.object({ code: authenticationCodeSchema });

/** Body of POST /api/auth/two-factor/verify-backup-code (`trustDevice` dropped as above). */
export const verifyBackupCodeBodySchema = z.object({ code: backupCodeSchema });
