import './styles/first-paint.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import type { SessionResponse } from '../domain/api/session.ts';
import { onTwoFactorRequired } from './api.ts';
import { markRenderedInBrowser } from './app/hydration.ts';
import { TWO_FACTOR_SETUP_PATH } from './app/paths.ts';
import { meQueryKey, sessionQuery } from './app/session.ts';
import { AppRoot, createQueryClient } from './app-root.tsx';
import { dropEarlyReads } from './early-reads.ts';
import { createAppRouter, preloadCurrentPage } from './router.tsx';

const queryClient = createQueryClient();
const router = createAppRouter();

// An administrator without a second factor (issue 16): any API call answering two_factor_required
// marks the session so and opens the set-up page, where the guards would send them anyway.
onTwoFactorRequired(() => {
  queryClient.setQueryData<SessionResponse>(meQueryKey, (me) =>
    me ? { ...me, twoFactorRequired: true } : me,
  );
  if (window.location.pathname !== TWO_FACTOR_SETUP_PATH) void router.navigate(TWO_FACTOR_SETUP_PATH);
});

// The session check (and the opened page's first reads) started before this code had loaded
// (web/early.ts, decision 033); the query takes that answer now, while the first page's code loads.
queryClient.fetchQuery(sessionQuery).catch(() => {});
const pageLoaded = preloadCurrentPage(router);
// Early reads the first page did not take are for a page no longer shown.
const stopDropping = router.subscribe(() => {
  dropEarlyReads();
  stopDropping();
});

const container = document.getElementById('root')!;
const app = (
  <AppRoot queryClient={queryClient}>
    <RouterProvider router={router} />
  </AppRoot>
);
// The first render is a transition, so React renders (or hydrates) in slices and yields to the
// browser between them instead of one long task (decision 016). A page the build prerendered
// (decision 033) is hydrated: its HTML stays and becomes interactive. It is hydrated once its
// chunks have loaded, so no part of it waits in a Suspense boundary: an update reaching such a part
// makes React hydrate it in one synchronous task, the long task this avoids (the session's answer
// does not reach it either: usePrerenderedPageSession). Any other URL, or the same path with a
// query the prerendered HTML did not render (`/auth?tab=sign-up`), is rendered afresh.
if (container.dataset.prerendered === `${window.location.pathname}${window.location.search}`) {
  const hydrate = () =>
    startTransition(() => {
      hydrateRoot(container, app);
    });
  void pageLoaded.then(hydrate, hydrate);
} else {
  markRenderedInBrowser();
  const root = createRoot(container);
  startTransition(() => root.render(app));
}
