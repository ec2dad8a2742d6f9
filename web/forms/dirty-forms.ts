/**
 * Which guarded forms have unsaved changes now (issue 28), apart from the guard's dialog
 * (web/forms/unsaved-changes.tsx) so that the app shell's 'Sign Out' can read it without loading
 * Mantine's Modal with every signed-in page (decision 016).
 */
import { useSyncExternalStore } from 'react';

/** One token per mounted guard whose form has changes. */
const dirtyForms = new Set<symbol>();
const listeners = new Set<() => void>();

function announce() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Count a form as changed until the returned function is called (it is then unchanged or gone). */
export function markFormDirty(): () => void {
  const token = Symbol('dirty form');
  dirtyForms.add(token);
  announce();
  return () => {
    dirtyForms.delete(token);
    announce();
  };
}

/** Whether any form on the screen has unsaved changes (a guarded form: useUnsavedChangesGuard). */
export function useHasUnsavedChanges(): boolean {
  return useSyncExternalStore(subscribe, () => dirtyForms.size > 0);
}

/** Set when the app itself leaves the page (automatic logoff): no prompt may stop that. */
let leavingOnPurpose = false;

/**
 * Let the next page unload happen without the browser's prompt, whatever forms are dirty. For the
 * automatic logoff (web/components/idle-session-guard.tsx): a prompt would keep the screen, with
 * its PHI, open after the session ended. Read by the unsaved-edit guard (unsaved-changes.tsx).
 */
export function skipUnsavedChangesPrompt(): void {
  leavingOnPurpose = true;
}

/** Whether `skipUnsavedChangesPrompt` was called: the app is leaving the page on purpose. */
export function isLeavingOnPurpose(): boolean {
  return leavingOnPurpose;
}
