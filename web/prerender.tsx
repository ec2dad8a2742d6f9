/**
 * The build's prerendering of the public pages (decision 033): `/` and `/auth` rendered to HTML at
 * build time, so a visitor's first paint needs no JavaScript; the browser then hydrates that HTML
 * (main.tsx). Built for Node by the `prerender-public-pages` plugin in vite.config.ts, which writes
 * each page into the web build for the server to send (server/app.ts `prerenderedPages`).
 *
 * The pages render as a signed-out visitor's first render sees them: the session check still under
 * way (it starts in the browser), the app's own routes and providers (web/app-root.tsx), every lazy
 * part resolved (`prerender` waits for each Suspense boundary).
 */
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { type TitleHandle, titleOf } from './app/page-titles.ts';
import { AppRoot, createQueryClient } from './app-root.tsx';
import { routes } from './router.tsx';

/** The paths prerendered: the public pages a visitor opens first (spec §2 `/`, `/auth`). */
export const PRERENDERED_PATHS = ['/', '/auth'] as const;

/** A prerendered page: the HTML inside `#root` and the document's title. */
export interface PrerenderedPage {
  html: string;
  title: string;
}

/** Renders the app at `path` (no query string) as the browser's first render would. */
export async function prerenderPage(path: string): Promise<PrerenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`prerendering ${path} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const handle = context.matches
    .map((match) => match.route.handle as TitleHandle | undefined)
    .filter((h): h is TitleHandle => h !== undefined && ('landing' in h || 'page' in h))
    .at(-1);
  const title = handle ? titleOf(handle) : undefined;
  if (typeof title !== 'string') throw new Error(`prerendering ${path}: the route names no title`);
  const render = async () => {
    const { prelude } = await prerender(
      <AppRoot queryClient={createQueryClient()}>
        {/* No inline hydration script: the CSP allows none, and these routes load no data. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppRoot>,
      // Every boundary in place, however large: never moved in later by an inline script.
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    return new Response(prelude).text();
  };
  // The first pass loads the page's lazy parts; the second renders them in place. A part still
  // loading when the shell is written would be sent later with an inline script that moves it in,
  // which the CSP refuses (and React would then render that part again in the browser).
  await render();
  const html = await render();
  if (/<script|<template/i.test(html)) throw new Error(`prerendering ${path} left a part unrendered`);
  return { html, title };
}
