/**
 * Telling a session that ended on its own from a 'Sign Out' (issue 51 item 6;
 * domain/session-end.ts). A signed-in page records in localStorage that a session is open in this
 * browser (a flag only: no token, no PHI); 'Sign Out' and the sign-in page clear it. A signed-in page
 * that finds no session while the flag is still set knows the session ended without a sign-out
 * (the server's idle timeout while the page slept, its lifetime, a revocation) and sends the person
 * to /auth with the reason, which the sign-in page then states.
 */

/** localStorage key of the flag. */
export const SESSION_OPEN_STORAGE_KEY = 'session:open';

/** A signed-in page is open: a later loss of the session, without 'Sign Out', ended it. */
export function rememberOpenSession(): void {
  try {
    localStorage.setItem(SESSION_OPEN_STORAGE_KEY, '1');
  } catch {
    // Storage unavailable: an ended session then opens the sign-in page without a reason.
  }
}

/** 'Sign Out', or the sign-in page: no session is open any more. */
export function forgetOpenSession(): void {
  try {
    localStorage.removeItem(SESSION_OPEN_STORAGE_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** Whether a session was open in this browser and neither 'Sign Out' nor the sign-in page followed. */
export function sessionWasOpen(): boolean {
  try {
    return localStorage.getItem(SESSION_OPEN_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}
