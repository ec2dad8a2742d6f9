/**
 * Routes (spec §2). Pages are lazy chunks; guards compose here (features never import each other).
 * Each route names its document title in `handle` (issue 17, web/app/page-titles.ts); the signed-in
 * screens sit in a layout route that renders the app shell (web/components/app-shell.tsx).
 */
import { type ComponentProps, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { createBrowserRouter, type DataRouter, Outlet, type RouteObject } from 'react-router';
import type { SectionKey } from '../domain/sections/registry.ts';
import { sectionSlugs } from '../domain/sections/section-catalog.ts';
import { ADMIN_TAB_PARAM, adminTabs, DEFAULT_ADMIN_TAB } from './app/admin-tabs.ts';
import { type PageName, pageNames, RouteTitle, type TabTitles, type TitleHandle } from './app/page-titles.ts';
import {
  ACCOUNT_PATH,
  APPLICATION_REVIEW_PATH,
  AUTH_TAB_PARAM,
  MEETING_PATH,
  TWO_FACTOR_SETUP_PATH,
} from './app/paths.ts';
import { FullPageLoader } from './components/full-page-loader.tsx';
import { RequireRole, RequireSignIn } from './components/require-role.tsx';
import type { AdminTabPanels } from './features/admin/admin-page.tsx';
// The landing page is part of the app's first chunk: `/` renders without a second round trip.
import LandingPage from './features/landing/landing-page.tsx';
import { sectionRoutes } from './features/sections/section-routes.tsx';

const AuthPage = lazyPage(() => import('./features/auth/auth-page.tsx'));
const ForgotPasswordPage = lazyPage(() =>
  import('./features/auth/password-reset-pages.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazyPage(() =>
  import('./features/auth/password-reset-pages.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);
const DashboardPage = lazyPage(() => import('./features/dashboard/dashboard-page.tsx'));
const DocumentsPage = lazyPage(() => import('./features/documents/documents-page.tsx'));
const AdminPage = lazyPage(() => import('./features/admin/admin-page.tsx'));
// Exclusion screening's admin tabs (issue 30), composed into the admin page here; each its own chunk,
// loaded when its tab opens.
const adminTabPanels: AdminTabPanels = {
  exclusions: lazy(() =>
    import('./features/screening/exclusions-tab.tsx').then((m) => ({ default: m.ExclusionsTab })),
  ),
  screening: lazy(() =>
    import('./features/screening/screening-matches-tab.tsx').then((m) => ({
      default: m.ScreeningMatchesTab,
    })),
  ),
  staff: lazy(() => import('./features/staff/staff-tab.tsx').then((m) => ({ default: m.StaffTab }))),
  // The credentialing committee's tabs (issue 32 items 4 and 5).
  decisions: lazy(() =>
    import('./features/committee/decisions-tab.tsx').then((m) => ({ default: m.DecisionsTab })),
  ),
  committee: lazy(() =>
    import('./features/committee/committee-tab.tsx').then((m) => ({ default: m.CommitteeTab })),
  ),
  // 'API Clients' (issue 33 item 4).
  apiClients: lazy(() =>
    import('./features/api-clients/api-clients-tab.tsx').then((m) => ({ default: m.ApiClientsTab })),
  ),
  // 'Settings' (issue 50 item 7): the organization's name, address and letter signer.
  settings: lazy(() =>
    import('./features/settings/settings-tab.tsx').then((m) => ({ default: m.SettingsTab })),
  ),
  // 'Reports' (issue 34): the managers' reports with their charts (@mantine/charts, its own chunk).
  reports: lazy(() => import('./features/reports/reports-tab.tsx').then((m) => ({ default: m.ReportsTab }))),
  // 'Export Roster' (issue 33 item 2).
  exportRoster: lazy(() =>
    import('./features/exports/export-roster.tsx').then((m) => ({ default: m.ExportRosterButton })),
  ),
};
const ReviewPage = lazyPage(() => import('./features/review/review-page.tsx'));
const MeetingPage = lazyPage(() => import('./features/committee/meeting-page.tsx'));
const AccountPage = lazyPage(() => import('./features/account/account-page.tsx'));
const TwoFactorSetupPage = lazyPage(() => import('./features/account/two-factor-setup-page.tsx'));
const NotFoundPage = lazyPage(() => import('./features/not-found/not-found-page.tsx'));
// The shell of the signed-in screens: a lazy chunk, out of the landing and sign-in pages' first paint.
const AppShellLayout = lazyPage(() => import('./components/app-shell.tsx'));

/**
 * `React.lazy` plus `preload()`, which starts loading the page's chunk before anything renders it
 * (once: the import is shared). See `preloadCurrentPage`. Once the chunk has loaded, the page
 * renders without suspending: a prerendered page whose chunks main.tsx awaited hydrates whole, with
 * no Suspense boundary left to hydrate later (decision 033).
 */
// biome-ignore lint/suspicious/noExplicitAny: the constraint React.lazy itself declares
function lazyPage<Page extends ComponentType<any>>(load: () => Promise<{ default: Page }>) {
  let loading: Promise<{ default: Page }> | undefined;
  let loaded: Page | undefined;
  const preload = () => {
    loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    });
    return loading;
  };
  const LazyPage = lazy(preload);
  // Each mount keeps the component it started with (switching would remount the page).
  function LoadedOrLazyPage(props: ComponentProps<Page>) {
    const [{ Component }] = useState(() => ({
      Component: (loaded ?? LazyPage) as ComponentType<ComponentProps<Page>>,
    }));
    return <Component {...props} />;
  }
  return Object.assign(LoadedOrLazyPage, { preload });
}

/**
 * What a route may carry in `handle` besides its title: the chunks to start loading at startup. (A
 * page's first API reads start earlier still, before the app's code: web/early-reads.ts.)
 */
interface PreloadHandle {
  preload?: readonly (() => Promise<unknown>)[];
}

/** A route's title handle (web/app/page-titles.ts). */
function title(page: PageName, ...preload: (() => Promise<unknown>)[]): TitleHandle & PreloadHandle {
  return { page, preload };
}

/** /auth's 'Sign Up' tab (`?tab=sign-up`) has its own title (issue 28). */
const authTabTitles: TabTitles = { param: AUTH_TAB_PARAM, names: { 'sign-up': pageNames.signUp } };

/** Each /admin tab has its own title (issue 28), e.g. 'Review Queue - Administration - Credentialing'. */
const adminTabTitles: TabTitles = {
  param: ADMIN_TAB_PARAM,
  names: Object.fromEntries(adminTabs.map((tab) => [tab.value, `${tab.label} - ${pageNames.admin}`])),
  defaultTab: DEFAULT_ADMIN_TAB,
};

/** The section key of a section route's path, `/<slug>/:applicationId`, from the slug map. */
function sectionKeyOfPath(path: string): SectionKey {
  const slug = path.split('/')[1];
  const key = (Object.keys(sectionSlugs) as SectionKey[]).find((k) => sectionSlugs[k] === slug);
  if (!key) throw new Error(`No section has the route ${path}`);
  return key;
}

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageLoader />}>{children}</Suspense>;
}

/**
 * The app's routes, shared by the browser's router (`createAppRouter`) and the build's prerendering
 * of the public pages (web/prerender.tsx, decision 033), so both render the same tree.
 */
export const routes: RouteObject[] = [
  {
    element: (
      <Page>
        <RouteTitle />
        <Outlet />
      </Page>
    ),
    children: [
      { path: '/', element: <LandingPage />, handle: { landing: true } satisfies TitleHandle },
      {
        path: '/auth',
        element: <AuthPage />,
        handle: { ...title(pageNames.signIn, AuthPage.preload), tabs: authTabTitles },
      },
      { path: '/forgot-password', element: <ForgotPasswordPage />, handle: title(pageNames.forgotPassword) },
      { path: '/reset-password', element: <ResetPasswordPage />, handle: title(pageNames.resetPassword) },
      {
        // The signed-in screens, inside the app shell (issue 17); each keeps its own guard.
        element: <AppShellLayout />,
        handle: { preload: [AppShellLayout.preload] } satisfies PreloadHandle,
        children: [
          {
            path: '/dashboard',
            element: <RequireRole allow="provider">{(me) => <DashboardPage me={me} />}</RequireRole>,
            handle: title(pageNames.dashboard, DashboardPage.preload),
          },
          {
            path: '/admin',
            element: (
              <RequireRole allow="staff">{(me) => <AdminPage panels={adminTabPanels} me={me} />}</RequireRole>
            ),
            handle: { ...title(pageNames.admin, AdminPage.preload), tabs: adminTabTitles },
          },
          {
            path: APPLICATION_REVIEW_PATH,
            element: <RequireRole allow="staff">{(me) => <ReviewPage me={me} />}</RequireRole>,
            handle: title(pageNames.applicationReview, ReviewPage.preload),
          },
          {
            // A credentialing committee meeting (issue 32 item 5).
            path: MEETING_PATH,
            element: <RequireRole allow="staff">{() => <MeetingPage />}</RequireRole>,
            handle: title(pageNames.committeeMeeting, MeetingPage.preload),
          },
          ...sectionRoutes.map((route) => ({
            path: route.path,
            element: <RequireRole allow="provider">{() => route.element}</RequireRole>,
            handle: { sectionKey: sectionKeyOfPath(route.path) } satisfies TitleHandle,
          })),
          {
            path: ACCOUNT_PATH,
            element: <RequireRole allow="any">{(me) => <AccountPage me={me} />}</RequireRole>,
            handle: title(pageNames.account, AccountPage.preload),
          },
          {
            // Reachable without a second factor: administrators are sent here until they set one up.
            path: TWO_FACTOR_SETUP_PATH,
            element: <RequireSignIn>{(me) => <TwoFactorSetupPage me={me} />}</RequireSignIn>,
            handle: title(pageNames.twoFactorSetup, TwoFactorSetupPage.preload),
          },
          {
            path: '/documents/:applicationId',
            element: <RequireRole allow="provider">{() => <DocumentsPage />}</RequireRole>,
            handle: { sectionKey: 'documents' } satisfies TitleHandle,
          },
        ],
      },
      { path: '*', element: <NotFoundPage />, handle: title(pageNames.notFound) },
    ],
  },
];

/** The browser's router over `routes` (main.tsx creates it once). */
export function createAppRouter(): DataRouter {
  return createBrowserRouter(routes);
}

/**
 * Starts loading the code of the page the app opened on (its chunk and the app shell's), in
 * parallel with the session check, instead of after it: the guards wait for the session, and a
 * lazy page's chunk would otherwise only be requested once they render it (decision 021).
 */
export function preloadCurrentPage(router: DataRouter): Promise<unknown> {
  const loads: Promise<unknown>[] = [];
  for (const match of router.state.matches) {
    for (const preload of (match.route.handle as PreloadHandle | undefined)?.preload ?? []) {
      loads.push(preload());
    }
  }
  return Promise.all(loads);
}
