/**
 * Password rules (issue 2, spec §5 `weak_password`). The length rule is shared with the web form;
 * the strength estimate (zxcvbn-ts) runs on the server only, to keep its dictionaries out of the bundle.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** Length reasons only; the server adds strength reasons. */
export function passwordLengthReasons(password: string): string[] {
  if (password.length < PASSWORD_MIN_LENGTH) return [`Use at least ${PASSWORD_MIN_LENGTH} characters.`];
  if (password.length > PASSWORD_MAX_LENGTH) return [`Use at most ${PASSWORD_MAX_LENGTH} characters.`];
  return [];
}
