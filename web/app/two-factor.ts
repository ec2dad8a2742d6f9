/**
 * What the second factor's screens say about a failed call (issue 16), shared by the sign-in step
 * (features/auth) and the set-up and account pages (features/account). better-auth answers wrong
 * codes and passwords with its own codes (`INVALID_CODE`, ...) and English messages meant for
 * developers; these say what to do.
 */
import { ApiError } from '../api.ts';

/** The 'Authentication code' field's message for a code the server refused. */
export const WRONG_CODE_MESSAGE =
  'That code is not right. Enter the current code from your authenticator app.';

/** The 'Backup code' field's message for a backup code the server refused. */
export const WRONG_BACKUP_CODE_MESSAGE =
  'That backup code is not right or was already used. Each backup code works once.';

/** The 'Password' field's message for a password the server refused. */
export const WRONG_PASSWORD_MESSAGE = 'That password is not right. Enter the password you sign in with.';

/** better-auth's codes for a sign-in challenge that can no longer be answered: start again. */
const CHALLENGE_OVER: Record<string, string> = {
  INVALID_TWO_FACTOR_COOKIE:
    'Your sign-in expired before the code was entered. Sign in with your password again.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE:
    'Too many wrong codes for this sign-in. Sign in with your password again to get new attempts.',
};

/**
 * The message for a failed code (TOTP or backup) or password call, for the field that was sent.
 * @param field which field the call carried
 */
export function twoFactorErrorMessage(error: unknown, field: 'code' | 'backupCode' | 'password'): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Try again.';
  const code = error.code as string;
  if (code === 'INVALID_CODE') return WRONG_CODE_MESSAGE;
  if (code === 'INVALID_BACKUP_CODE') return WRONG_BACKUP_CODE_MESSAGE;
  if (code === 'INVALID_PASSWORD' || (field === 'password' && error.status === 401)) {
    return WRONG_PASSWORD_MESSAGE;
  }
  // The server's own refusals (a code already used, an ended session, the account's wrong-code delay
  // of issue 28) say what to do.
  if (code === 'unauthorized' || code === 'rate_limited') return error.message;
  if (field === 'code' && error.status === 401) return WRONG_CODE_MESSAGE;
  if (field === 'backupCode' && error.status === 401) return WRONG_BACKUP_CODE_MESSAGE;
  return error.message;
}

/**
 * When the sign-in challenge (the `two_factor` cookie of the password step, valid 10 minutes and for
 * 5 wrong codes) is over, what to tell the user who must now sign in with their password again;
 * undefined when the code step can go on.
 */
export function challengeOverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? CHALLENGE_OVER[error.code as string] : undefined;
}
