/** 'Sign Out' (spec §2 /dashboard, /admin): ends the session on the server, then goes to /auth. */
import { Button } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useSignOut } from '../app/session.ts';
import { notifyError } from '../notify.ts';

export function SignOutButton() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  return (
    <Button
      variant="default"
      disabled={signOut.isPending}
      onClick={() =>
        signOut.mutate(undefined, {
          onSuccess: () => navigate('/auth'),
          onError: () => notifyError('Error', 'Failed to sign out'),
        })
      }
    >
      Sign Out
    </Button>
  );
}
