/**
 * Routes (spec §2). Pages are lazy chunks; guards compose here (features never import each other).
 */
import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Outlet } from 'react-router';
import { ACCOUNT_PATH, TWO_FACTOR_SETUP_PATH } from './app/paths.ts';
import { FullPageLoader } from './components/full-page-loader.tsx';
import { RequireRole, RequireSignIn } from './components/require-role.tsx';
// The landing page is part of the app's first chunk: `/` renders without a second round trip.
import LandingPage from './features/landing/landing-page.tsx';
import { sectionRoutes } from './features/sections/section-routes.tsx';

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
const AccountPage = lazy(() => import('./features/account/account-page.tsx'));
const TwoFactorSetupPage = lazy(() => import('./features/account/two-factor-setup-page.tsx'));
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
        path: ACCOUNT_PATH,
        element: <RequireRole allow="any">{(me) => <AccountPage me={me} />}</RequireRole>,
      },
      {
        // Reachable without a second factor: administrators are sent here until they set one up.
        path: TWO_FACTOR_SETUP_PATH,
        element: <RequireSignIn>{(me) => <TwoFactorSetupPage me={me} />}</RequireSignIn>,
      },
      {
        path: '/documents/:applicationId',
        element: <RequireRole allow="user">{() => <DocumentsPage />}</RequireRole>,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
