/**
 * Route guards (spec §2, §6): signed out -> /auth; an admin on a provider page -> /admin; a provider
 * on /admin -> /dashboard. The server enforces the same rules on every API call.
 */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { Role } from '../../domain/roles.ts';
import { type Me, useSession } from '../app/session.ts';
import { FullPageLoader } from './full-page-loader.tsx';
import { IdleSessionGuard } from './idle-session-guard.tsx';

export function RequireRole({ allow, children }: { allow: Role; children: (me: Me) => ReactNode }) {
  const { data: me, isPending, isError } = useSession();
  if (isPending) return <FullPageLoader />;
  if (isError || !me) return <Navigate to="/auth" replace />;
  if (me.role !== allow) return <Navigate to={me.role === 'admin' ? '/admin' : '/dashboard'} replace />;
  return (
    <>
      <IdleSessionGuard idleTimeoutSeconds={me.idleTimeoutSeconds} />
      {children(me)}
    </>
  );
}
