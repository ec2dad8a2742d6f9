/**
 * 'Sign Out' (spec §2 /dashboard, /admin): ends the session on the server, then goes to /auth. With
 * unsaved changes in a form on the screen it asks first, in the unsaved-edit guard's dialog (issue
 * 28; web/forms/unsaved-changes.tsx): 'Keep editing' keeps the form and the session.
 */
import { Button } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSignOut } from '../app/session.ts';
import { UnsavedChangesDialog, useHasUnsavedChanges } from '../forms/unsaved-changes.tsx';
import { notifyError } from '../notify.ts';

export function SignOutButton() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const unsavedChanges = useHasUnsavedChanges();
  const [confirming, setConfirming] = useState(false);
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
        onClick={() => (unsavedChanges ? setConfirming(true) : signOutNow())}
      >
        Sign Out
      </Button>
      <UnsavedChangesDialog
        opened={confirming && unsavedChanges}
        onDiscard={() => {
          setConfirming(false);
          signOutNow();
        }}
        onKeep={() => setConfirming(false)}
      />
    </>
  );
}
