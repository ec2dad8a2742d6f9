/**
 * Where every email-confirmation link lands (issue 17): the sign-in screen, which reads the query.
 * The server (server/auth/auth.ts) writes this path into every confirmation link it mails, whatever
 * callbackURL a client sent, so no client picks where a link lands. better-auth appends
 * `error=<CODE>` (e.g. TOKEN_EXPIRED, INVALID_TOKEN) to it when a link is expired or invalid.
 */

/** The query parameter the sign-in screen reads to say 'Email confirmed'. */
export const EMAIL_CONFIRMED_PARAM = 'confirmed';

/** The path (with query) a confirmation link redirects to after verifying: `/auth?confirmed=1`. */
export const EMAIL_CONFIRMED_PATH = `/auth?${EMAIL_CONFIRMED_PARAM}=1`;

/**
 * A better-auth confirmation link (`<base>/verify-email?token=...&callbackURL=...`) with its
 * callbackURL set to EMAIL_CONFIRMED_PATH; the token and everything else are kept.
 * @throws TypeError when `url` is not an absolute URL
 */
export function withConfirmationLanding(url: string): string {
  const link = new URL(url);
  link.searchParams.set('callbackURL', EMAIL_CONFIRMED_PATH);
  return link.toString();
}
