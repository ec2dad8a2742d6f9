/**
 * The signed-in first screen rendered on the server (issue 35 goal 3, decision 033 fourth round):
 * `/dashboard` as HTML with the provider's own data, so its first paint needs no script and no API
 * round trip; the browser then hydrates it (main.tsx). Built for Node by the `prerender-public-pages`
 * plugin (scripts/prerender.ts) beside the prerendered pages, and called by the server per page load
 * (server/pages/signed-in-page.ts) with the reads the page's first screen makes, each answered by
 * the server's own API route for the caller's session, so this code never decides who sees what.
 *
 * The render is the browser's first render: the same routes and providers (web/app-root.tsx), the
 * query cache holding exactly the reads given (TanStack Query's `dehydrate`, sent with the page and
 * `hydrate`d by main.tsx before React hydrates), dates in the browser's time zone.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type DehydratedState, dehydrate } from '@tanstack/react-query';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { type TitleHandle, titleOf } from './app/page-titles.ts';
import { sessionQuery } from './app/session.ts';
import { AppRoot, createQueryClient } from './app-root.tsx';
import { APPLICATIONS_READ, PROFILE_READ, SESSION_READ } from './early-reads.ts';
import { applicationListQuery } from './features/dashboard/applications-api.ts';
import { profileQuery } from './features/dashboard/profile-api.ts';
import { setDisplayTimeZoneSource } from './format.ts';
import { routes } from './router.tsx';

/**
 * The pages rendered with the caller's data, and the API reads (GET paths) each one's first screen
 * makes: the server answers each for the caller and passes the bodies to `renderSignedInPage`.
 */
export const SIGNED_IN_PAGE_READS: Record<string, readonly string[]> = {
  '/dashboard': [SESSION_READ, APPLICATIONS_READ, PROFILE_READ],
};

/** The zone of each render under way: requests render concurrently, each in its own. */
const renderZones = new AsyncLocalStorage<string>();
setDisplayTimeZoneSource(() => renderZones.getStore());

/** `timeZone` when the runtime knows it (an IANA name such as 'America/Chicago'), else 'UTC'. */
function knownTimeZone(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** A rendered page: the HTML inside `#root`, the document's title, and the query cache to hydrate. */
export interface SignedInPage {
  html: string;
  title: string;
  state: DehydratedState;
}

/**
 * Renders `path` (a key of SIGNED_IN_PAGE_READS) with `reads` (GET path -> the API's JSON body, each
 * a 200) as the browser's first render would, dates in `timeZone` (an IANA name the browser
 * reported; unknown -> UTC). Resolves null when the page's first screen is not what it renders
 * (a guard redirects, a part would still be loading): the server then sends the plain app.
 */
export async function renderSignedInPage(
  path: string,
  reads: Readonly<Record<string, unknown>>,
  timeZone: string,
): Promise<SignedInPage | null> {
  const queryClient = createQueryClient();
  // The queries' own keys and shapes (profileQuery keeps the body's `profile`), updated "now".
  queryClient.setQueryData(sessionQuery.queryKey, reads[SESSION_READ] as never);
  if (APPLICATIONS_READ in reads)
    queryClient.setQueryData(applicationListQuery.queryKey, reads[APPLICATIONS_READ] as never);
  if (PROFILE_READ in reads)
    queryClient.setQueryData(profileQuery.queryKey, (reads[PROFILE_READ] as { profile: never }).profile);

  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  const handle = context.matches
    .map((match) => match.route.handle as TitleHandle | undefined)
    .filter((h): h is TitleHandle => h !== undefined && 'page' in h)
    .at(-1);
  const title = handle ? titleOf(handle) : undefined;
  if (typeof title !== 'string') return null;
  const zone = knownTimeZone(timeZone);
  const render = () =>
    renderZones.run(zone, async () => {
      const { prelude } = await prerender(
        <AppRoot queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppRoot>,
        { progressiveChunkSize: Number.POSITIVE_INFINITY },
      );
      return new Response(prelude).text();
    });
  // As web/prerender.tsx: a lazy part not loaded yet would be sent with an inline script (refused by
  // the CSP); once loaded (the first render in this process), one render is enough.
  let html = await render();
  if (/<script|<template/i.test(html)) html = await render();
  if (/<script|<template/i.test(html)) return null;
  // A guard that redirected or a page still loading renders no `main` landmark.
  if (!html.includes('<main')) return null;
  return { html, title, state: dehydrate(queryClient) };
}
