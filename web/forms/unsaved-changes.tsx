/**
 * The unsaved-edit guard (issue 17): while a form has changes, leaving its screen in the app (Cancel,
 * Back to Dashboard, the browser's Back, any link) asks first in a confirmation dialog, and reloading
 * or closing the tab shows the browser's own prompt (`beforeunload`). A successful save that leaves
 * the screen calls `allowNavigation()` first, so it never asks.
 *
 * Uses react-router 7's `useBlocker` (needs the data router of web/router.tsx). Navigation within the
 * same path (a search or hash change) is not blocked, nor the move to /auth after Sign Out, nor the
 * automatic logoff (`skipUnsavedChangesPrompt`).
 */
import { useCallback, useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';

/** The dialog's texts, defined once. */
export const unsavedChangesTexts = {
  title: 'Discard unsaved changes?',
  body: 'You have changes on this screen that are not saved. If you leave now, they are lost.',
  keep: 'Keep editing',
  discard: 'Discard',
} as const;

/** Set when the app itself leaves the page (automatic logoff): no prompt may stop that. */
let leavingOnPurpose = false;

/**
 * Let the next page unload happen without the browser's prompt, whatever forms are dirty. For the
 * automatic logoff (web/components/idle-session-guard.tsx): a prompt would keep the screen, with
 * its PHI, open after the session ended.
 */
export function skipUnsavedChangesPrompt(): void {
  leavingOnPurpose = true;
}

/**
 * Guard a form screen while `dirty` is true.
 * @returns `dialog` to render once in the screen, and `allowNavigation()` to call just before a
 *   navigation that must not ask (after a successful save)
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const allowed = useRef(false);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current &&
      !allowed.current &&
      !leavingOnPurpose &&
      currentLocation.pathname !== nextLocation.pathname &&
      // Sign Out navigates to /auth after the session ended on the server: nothing is left to keep.
      nextLocation.pathname !== '/auth',
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current || leavingOnPurpose) return;
      event.preventDefault();
      // Older browsers show their prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const allowNavigation = useCallback(() => {
    allowed.current = true;
  }, []);

  const dialog = (
    <ConfirmDialog
      opened={blocker.state === 'blocked'}
      title={unsavedChangesTexts.title}
      confirmLabel={unsavedChangesTexts.discard}
      cancelLabel={unsavedChangesTexts.keep}
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      {unsavedChangesTexts.body}
    </ConfirmDialog>
  );
  return { dialog, allowNavigation };
}
