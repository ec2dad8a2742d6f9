/**
 * A decider's signature (issue 50 item 7): "I reviewed this file", confirmed with the current code of
 * the decider's own authenticator app, for every decision a person makes on a file (the medical
 * director's clean-file 'Approve', each committee member's vote). The code is checked against the
 * TOTP secret better-auth's two-factor plugin keeps (decrypted with the server's auth secret, RFC
 * 6238 at 30 s and 6 digits, as the plugin checks it at sign-in); wrong codes count toward the
 * account's delay like wrong codes at sign-in (`beforeSecondFactorCode` / `afterSecondFactorCode`).
 * A code is not spent by a signature: a member who votes on five files in a minute signs each with
 * the code their app shows (the session itself was opened with a spent code, and each signature is
 * recorded with its decision and audited).
 */
import { createOTP } from '@better-auth/utils/otp';
import { symmetricDecrypt } from 'better-auth/crypto';
import { and, eq } from 'drizzle-orm';
import type { ReviewSignature } from '../../domain/api/committee.ts';
import { AppError } from '../../domain/app-error.ts';
import type { Database } from '../db/client.ts';
import { twoFactor } from '../db/schema/auth.ts';
import type { RateLimits } from '../security/rate-limits.ts';
import type { Auth } from './auth.ts';

/** Secrets imported from another provider are stored as `base32:<secret>` (as the plugin reads them). */
const BASE32_PREFIX = 'base32:';

/** The sentence of a code that is not the current one. */
export const WRONG_SIGNATURE_CODE_MESSAGE =
  'That code is not the current one from your authenticator app. Enter the code it shows now.';

/**
 * Check `signature` for `userId` before the decision it signs is recorded.
 * @throws AppError validation_failed (no second factor set up, or a wrong code: 422 with the field),
 *   RateLimitedError (429) after too many wrong codes
 */
export async function confirmReviewSignature(
  deps: { auth: Auth; db: Database; rateLimits: RateLimits },
  userId: string,
  signature: ReviewSignature,
): Promise<void> {
  const [factor] = await deps.db
    .select({ secret: twoFactor.secret })
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, userId), eq(twoFactor.verified, true)));
  if (!factor) {
    throw new AppError('validation_failed', 'Set up two-factor authentication on your account page first.', {
      issues: [{ path: ['code'], message: 'Two-factor authentication is not set up' }],
    });
  }
  await deps.rateLimits.beforeSecondFactorCode(userId);
  const { base32 } = await import('@better-auth/utils/base32');
  const decrypted = await symmetricDecrypt({
    key: (await deps.auth.$context).secretConfig,
    data: factor.secret,
  });
  const secret = decrypted.startsWith(BASE32_PREFIX)
    ? new TextDecoder().decode(base32.decode(decrypted.slice(BASE32_PREFIX.length).toUpperCase()))
    : decrypted;
  const valid = await createOTP(secret, { period: 30, digits: 6 }).verify(signature.code);
  if (!valid) {
    await deps.rateLimits.afterSecondFactorCode(userId, 'failure');
    throw new AppError('validation_failed', WRONG_SIGNATURE_CODE_MESSAGE, {
      issues: [{ path: ['code'], message: WRONG_SIGNATURE_CODE_MESSAGE }],
    });
  }
  await deps.rateLimits.afterSecondFactorCode(userId, 'success');
}
