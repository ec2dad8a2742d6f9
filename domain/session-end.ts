/**
 * Why the sign-in page opened after a session ended without the person's 'Sign Out' (issue 7:
 * automatic logoff, HIPAA 164.312(a)(2)(iii); issue 51 item 6: "an idle sign-out returns to sign-in
 * with no word of why"). The reason travels in /auth's query (`?timeout=1`, `?ended=1`); no PHI.
 *
 * - idle: the browser's idle guard signed the person out at the idle timeout
 *   (web/components/idle-session-guard.tsx).
 * - ended: the server had already ended the session (its idle timeout while the page slept, its
 *   absolute lifetime, a revocation) when a signed-in page next asked (web/app/session-end.ts).
 */
export const sessionEndReasons = ['idle', 'ended'] as const;
export type SessionEndReason = (typeof sessionEndReasons)[number];

/** The query parameter of /auth naming each reason (its value is `1`). */
export const sessionEndParam: Record<SessionEndReason, string> = { idle: 'timeout', ended: 'ended' };

/** What the sign-in page says for each reason: a title and a sentence. */
export const sessionEndNotice: Record<SessionEndReason, { title: string; message: string }> = {
  idle: {
    title: 'Signed out',
    message: 'You were signed out after a period of inactivity. Sign in again to continue.',
  },
  ended: {
    title: 'Session ended',
    message:
      'Your session ended and you were signed out: sessions end after a period of inactivity, and at the latest some hours after sign-in. Sign in again to continue.',
  },
};

/** `/auth` with the reason's parameter, e.g. `/auth?timeout=1`. */
export function signInPathAfter(reason: SessionEndReason): string {
  return `/auth?${sessionEndParam[reason]}=1`;
}

/** The reason a sign-in page's query names (`?timeout=1`, `?ended=1`), or null. */
export function sessionEndReasonOf(params: URLSearchParams): SessionEndReason | null {
  return sessionEndReasons.find((reason) => params.get(sessionEndParam[reason])) ?? null;
}
