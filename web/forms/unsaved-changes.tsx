/**
 * The unsaved-edit guard (issue 17): while a form has changes, leaving its screen in the app (Cancel,
 * Back to Dashboard, the browser's Back, any link) asks first in a confirmation dialog, and reloading
 * or closing the tab shows the browser's own prompt (`beforeunload`). A successful save that leaves
 * the screen calls `allowNavigation()` first, so it never asks.
 *
 * Uses react-router 7's `useBlocker` (needs the data router of web/router.tsx). Navigation within the
 * same path (a search or hash change) is not blocked, nor the move to /auth after Sign Out, nor the
 * automatic logoff (`skipUnsavedChangesPrompt`).
 *
 * Issue 28: every guarded form reports whether it has changes to one store (`dirty-forms.ts`, read
 * with `useHasUnsavedChanges()`): 'Sign Out' asks first with the same dialog (web/components/
 * sign-out-button.tsx), and the automatic-logoff warning says the changes are lost at the sign-out.
 */
import { useCallback, useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { isLeavingOnPurpose, markFormDirty, skipUnsavedChangesPrompt } from './dirty-forms.ts';

/** The dialog's texts, defined once. */
export const unsavedChangesTexts = {
  title: 'Discard unsaved changes?',
  body: 'You have changes on this screen that are not saved. If you leave now, they are lost.',
  keep: 'Keep editing',
  discard: 'Discard',
  /** Added to the automatic-logoff warning while a form has changes (issue 28). */
  atLogoff:
    "You have changes on this screen that are not saved. They are lost when you are signed out: choose 'Stay signed in' to keep them.",
} as const;

/**
 * The confirmation before unsaved changes are lost, by leaving the screen or by 'Sign Out'
 * (issue 28): the same texts either way.
 */
export function UnsavedChangesDialog({
  opened,
  onDiscard,
  onKeep,
}: {
  opened: boolean;
  onDiscard: () => void;
  onKeep: () => void;
}) {
  return (
    <ConfirmDialog
      opened={opened}
      title={unsavedChangesTexts.title}
      confirmLabel={unsavedChangesTexts.discard}
      cancelLabel={unsavedChangesTexts.keep}
      onConfirm={onDiscard}
      onCancel={onKeep}
    >
      {unsavedChangesTexts.body}
    </ConfirmDialog>
  );
}

// The automatic logoff's way out of the prompt lives with the dirty-form registry (a small module),
// so the idle-session guard does not load this dialog's code (decision 033).
export { skipUnsavedChangesPrompt };

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
      !isLeavingOnPurpose() &&
      currentLocation.pathname !== nextLocation.pathname &&
      // Sign Out navigates to /auth after the session ended on the server: nothing is left to keep.
      nextLocation.pathname !== '/auth',
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => (dirty ? markFormDirty() : undefined), [dirty]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current || isLeavingOnPurpose()) return;
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
    <UnsavedChangesDialog
      opened={blocker.state === 'blocked'}
      onDiscard={() => blocker.proceed?.()}
      onKeep={() => blocker.reset?.()}
    />
  );
  return { dialog, allowNavigation };
}
