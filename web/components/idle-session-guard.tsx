/**
 * Automatic logoff in the browser (HIPAA 164.312(a)(2)(iii); issue 7). The server ends a session
 * after `idleTimeoutSeconds` without requests; this guard mirrors it for the person at the screen:
 * user activity keeps the server session alive (at most one ping a minute), a dialog warns before the
 * timeout, and at the timeout the user is signed out and sent to /auth.
 *
 * Every tab of the browser shares the one cookie session, so activity in any tab counts for all of
 * them: each tab records its last activity in localStorage (a timestamp only: no token, no PHI) and
 * measures idleness from the newest record, so an idle tab neither warns nor signs out while the user
 * works in another. The warning says when a form has unsaved changes (issue 28).
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { signInPathAfter } from '../../domain/session-end.ts';
import { api } from '../api.ts';
import { skipUnsavedChangesPrompt, useHasUnsavedChanges } from '../forms/dirty-forms.ts';

const IdleWarningDialog = lazy(() => import('./idle-warning-dialog.tsx'));

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
const PING_EVERY_MS = 60_000;
const CHECK_EVERY_MS = 1_000;
/** localStorage key of the newest activity in any tab, in milliseconds since the epoch. */
export const LAST_ACTIVITY_STORAGE_KEY = 'idle:lastActivity';

/** Seconds of warning before the timeout: two minutes, or a quarter of a short timeout. */
export function warningLeadSeconds(idleTimeoutSeconds: number): number {
  return Math.min(120, Math.floor(idleTimeoutSeconds / 4));
}

/** Records activity for the other tabs. Storage can be unavailable or refuse writes: then only this tab knows. */
export function shareLastActivity(timestamp: number): void {
  try {
    localStorage.setItem(LAST_ACTIVITY_STORAGE_KEY, String(timestamp));
  } catch {
    // This tab's own record still counts.
  }
}

/** The newest activity: this tab's own (`own`) or the one any tab recorded in localStorage. */
export function lastActivityAcrossTabs(own: number): number {
  try {
    return Math.max(own, Number(localStorage.getItem(LAST_ACTIVITY_STORAGE_KEY)) || 0);
  } catch {
    return own;
  }
}

export function IdleSessionGuard({ idleTimeoutSeconds }: { idleTimeoutSeconds: number }) {
  const lastActivity = useRef(Date.now());
  const lastPing = useRef(Date.now());
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const unsavedChanges = useHasUnsavedChanges();
  const lead = warningLeadSeconds(idleTimeoutSeconds);

  const keepAlive = useCallback(() => {
    lastActivity.current = Date.now();
    shareLastActivity(lastActivity.current);
    setSecondsLeft(null);
    if (Date.now() - lastPing.current >= PING_EVERY_MS) {
      lastPing.current = Date.now();
      // Any authenticated request renews the server session.
      api('GET', '/api/me').catch(() => {});
    }
  }, []);

  useEffect(() => {
    const onActivity = () => {
      // While the warning is open, only the explicit button extends the session.
      if (secondsLeft === null) keepAlive();
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
    };
  }, [keepAlive, secondsLeft]);

  useEffect(() => {
    const timer = window.setInterval(() => {
      const idleSeconds = (Date.now() - lastActivityAcrossTabs(lastActivity.current)) / 1000;
      const left = Math.ceil(idleTimeoutSeconds - idleSeconds);
      if (left <= 0) {
        window.clearInterval(timer);
        api('POST', '/api/auth/sign-out', {})
          .catch(() => {})
          .finally(() => {
            // A full page load: drops every in-memory copy of the provider's data with the session.
            // No unsaved-edit prompt may keep the page open (issue 17).
            skipUnsavedChangesPrompt();
            window.location.replace(signInPathAfter('idle'));
          });
      } else if (left <= lead) {
        setSecondsLeft(left);
      } else {
        // Activity in another tab: the warning, if open, no longer applies.
        setSecondsLeft(null);
      }
    }, CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [idleTimeoutSeconds, lead]);

  // Mounted at the first warning, then kept, so the dialog can close as a dialog does.
  const [warned, setWarned] = useState(false);
  if (secondsLeft !== null && !warned) setWarned(true);
  if (!warned) return null;
  return (
    <Suspense fallback={null}>
      <IdleWarningDialog
        secondsLeft={secondsLeft}
        unsavedChanges={unsavedChanges}
        onStay={() => {
          lastPing.current = 0;
          keepAlive();
        }}
      />
    </Suspense>
  );
}
