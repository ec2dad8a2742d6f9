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
