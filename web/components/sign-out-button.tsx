/**
 * 'Sign Out' (spec §2 /dashboard, /admin): ends the session on the server, then goes to /auth. With
 * unsaved changes in a form on the screen it asks first, in the unsaved-edit guard's dialog (issue
 * 28; web/forms/unsaved-changes.tsx): 'Keep editing' keeps the form and the session.
 */
import { Button } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSignOut } from '../app/session.ts';
import { useHasUnsavedChanges } from '../forms/dirty-forms.ts';
import { notifyError } from '../notify.ts';

// The dialog (Mantine's Modal) loads when it is first needed, not with every signed-in page (decision 016).
const UnsavedChangesDialog = lazy(() =>
  import('../forms/unsaved-changes.tsx').then((m) => ({ default: m.UnsavedChangesDialog })),
);

export function SignOutButton() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const unsavedChanges = useHasUnsavedChanges();
  const [confirming, setConfirming] = useState(false);
  // Mounted at the first question, then kept, so the dialog closes as a dialog does (focus returns).
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const signOutNow = () =>
    signOut.mutate(undefined, {
      onSuccess: () => navigate('/auth'),
      onError: () => notifyError('Error', 'Failed to sign out'),
    });
  return (
    <>
      <Button
        variant="default"
        disabled={signOut.isPending}
        onClick={() => {
          if (!unsavedChanges) return signOutNow();
          setDialogLoaded(true);
          setConfirming(true);
        }}
      >
        Sign Out
      </Button>
      {dialogLoaded && (
        <Suspense fallback={null}>
          <UnsavedChangesDialog
            opened={confirming && unsavedChanges}
            onDiscard={() => {
              setConfirming(false);
              signOutNow();
            }}
            onKeep={() => setConfirming(false)}
          />
        </Suspense>
      )}
    </>
  );
}
