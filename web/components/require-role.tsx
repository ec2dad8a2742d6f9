/**
 * Route guards (spec §2, §6; issue 16): signed out -> /auth; a caller who must set up a second factor
 * (staff before enrolment) -> the set-up page; staff on a provider page -> /admin; a provider on
 * /admin -> /dashboard. The server enforces the same rules on every API call.
 */
import { type ReactNode, useDeferredValue, useEffect } from 'react';
import { Navigate } from 'react-router';
import { signInPathAfter } from '../../domain/session-end.ts';
import { homePathOf, roleHomePath } from '../app/paths.ts';
import { type PageAudience, roleAllows } from '../app/role-access.ts';
import { type Me, useSession } from '../app/session.ts';
import { rememberOpenSession, sessionWasOpen } from '../app/session-end.ts';
import { FullPageLoader } from './full-page-loader.tsx';
// Its warning dialog, which brings Mantine's Modal, is a chunk of its own (idle-warning-dialog.tsx).
import { IdleSessionGuard } from './idle-session-guard.tsx';

/**
 * Render `children(me)` for a signed-in caller who is `allow` ('provider', 'staff': any staff role of
 * issue 32, 'any': everyone) and has the second factor their roles need; send everyone else where
 * they belong.
 */
export function RequireRole({ allow, children }: { allow: PageAudience; children: (me: Me) => ReactNode }) {
  return (
    <RequireSignIn>
      {(me) => {
        if (me.twoFactorRequired) return <Navigate to={homePathOf(me)} replace />;
        if (!roleAllows(me, allow)) return <Navigate to={roleHomePath(me.roles)} replace />;
        return children(me);
      }}
    </RequireSignIn>
  );
}

/**
 * Render `children(me)` for any signed-in caller, second factor or not: the second factor's set-up
 * page itself. Signed out -> /auth; when a session was open in this browser and ended without
 * 'Sign Out' (the server ended it), /auth says so (`?ended=1`, issue 51 item 6, web/app/session-end.ts).
 */
export function RequireSignIn({ children }: { children: (me: Me) => ReactNode }) {
  // The session check's answer renders the page as a transition (in slices), not as one long task
  // (decision 033): `useDeferredValue` of the query's state, which arrives as an urgent update.
  const session = useSession();
  const me = useDeferredValue(session.data);
  const isPending = useDeferredValue(session.isPending);
  const isError = useDeferredValue(session.isError);
  useEffect(() => {
    if (me) rememberOpenSession();
  }, [me]);
  if (isPending) return <FullPageLoader />;
  // A failed check says nothing about the session: only a signed-out answer (null) ended it.
  if (isError) return <Navigate to="/auth" replace />;
  if (!me) return <Navigate to={sessionWasOpen() ? signInPathAfter('ended') : '/auth'} replace />;
  return (
    <>
      <IdleSessionGuard idleTimeoutSeconds={me.idleTimeoutSeconds} />
      {children(me)}
    </>
  );
}
