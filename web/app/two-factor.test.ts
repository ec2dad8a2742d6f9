import { describe, expect, it } from 'vitest';
import { ApiError } from '../api.ts';
import {
  challengeOverMessage,
  twoFactorErrorMessage,
  WRONG_BACKUP_CODE_MESSAGE,
  WRONG_CODE_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
} from './two-factor.ts';

/** An error as api() builds it from better-auth's `{ code, message }` body. */
const betterAuthError = (status: number, code: string, message = 'x') =>
  new ApiError(status, code as ApiError['code'], message);

describe('the second factor screens', () => {
  it('say what to do about a refused code or password, whatever better-auth calls it', () => {
    expect(twoFactorErrorMessage(betterAuthError(401, 'INVALID_CODE'), 'code')).toBe(WRONG_CODE_MESSAGE);
    expect(twoFactorErrorMessage(betterAuthError(401, 'INVALID_BACKUP_CODE'), 'backupCode')).toBe(
      WRONG_BACKUP_CODE_MESSAGE,
    );
    expect(twoFactorErrorMessage(betterAuthError(400, 'INVALID_PASSWORD'), 'password')).toBe(
      WRONG_PASSWORD_MESSAGE,
    );
    // The server's own messages (a malformed code, a rate limit) are already meant for people.
    const malformed = new ApiError(
      400,
      'validation_failed',
      'Enter the 6-digit code from your authenticator app.',
    );
    expect(twoFactorErrorMessage(malformed, 'code')).toBe(malformed.message);
    // The account's wrong-code delay (issue 28 item 2) says how long to wait: not 'That code is not right'.
    const delayed = new ApiError(
      429,
      'rate_limited',
      'Too many wrong codes were entered for this account. Wait 8 seconds, then enter the current code from your authenticator app.',
    );
    expect(twoFactorErrorMessage(delayed, 'code')).toBe(delayed.message);
    expect(twoFactorErrorMessage(delayed, 'backupCode')).toBe(delayed.message);
    expect(twoFactorErrorMessage(new Error('boom'), 'code')).toBe('Something went wrong. Try again.');
  });

  it('send the sign-in back to the password when its challenge is over, and only then', () => {
    expect(challengeOverMessage(betterAuthError(401, 'INVALID_TWO_FACTOR_COOKIE'))).toMatch(/expired/);
    expect(challengeOverMessage(betterAuthError(400, 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'))).toMatch(
      /Too many wrong codes/,
    );
    expect(challengeOverMessage(betterAuthError(401, 'INVALID_CODE'))).toBeUndefined();
    expect(challengeOverMessage(new Error('boom'))).toBeUndefined();
  });
});
