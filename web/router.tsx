/**
 * Routes (spec §2). Pages are lazy chunks; guards compose here (features never import each other).
 */
import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { FullPageLoader } from './components/full-page-loader.tsx';
import { RequireRole } from './components/require-role.tsx';
import { sectionRoutes } from './features/sections/section-routes.tsx';

const LandingPage = lazy(() => import('./features/landing/landing-page.tsx'));
const AuthPage = lazy(() => import('./features/auth/auth-page.tsx'));
const ForgotPasswordPage = lazy(() =>
  import('./features/auth/password-reset-pages.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('./features/auth/password-reset-pages.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);
const DashboardPage = lazy(() => import('./features/dashboard/dashboard-page.tsx'));
const DocumentsPage = lazy(() => import('./features/documents/documents-page.tsx'));
const AdminPage = lazy(() => import('./features/admin/admin-page.tsx'));
const NotFoundPage = lazy(() => import('./features/not-found/not-found-page.tsx'));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageLoader />}>{children}</Suspense>;
}

export const router = createBrowserRouter([
  {
    element: (
      <Page>
        <Outlet />
      </Page>
    ),
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/auth', element: <AuthPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      {
        path: '/dashboard',
        element: <RequireRole allow="user">{(me) => <DashboardPage me={me} />}</RequireRole>,
      },
      {
        path: '/admin',
        element: <RequireRole allow="admin">{(me) => <AdminPage me={me} />}</RequireRole>,
      },
      ...sectionRoutes.map((route) => ({
        path: route.path,
        element: <RequireRole allow="user">{() => route.element}</RequireRole>,
      })),
      {
        path: '/documents/:applicationId',
        element: <RequireRole allow="user">{() => <DocumentsPage />}</RequireRole>,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
