/**
 * The pages the server renders with the caller's data (`/dashboard`; issue 35, decision 033): the
 * names the web build, the browser and the server share. The build writes the renderer and one
 * template per page into `server-render/` of the web build (scripts/prerender.ts); the server fills
 * a template per page load (server/pages/signed-in-page.ts); the browser reads the query cache the
 * page was rendered with and reports its time zone (web/rendered-page.ts).
 */

/** The folder of the web build holding the renderer and the templates (never served as files). */
export const SERVER_RENDER_DIR = 'server-render';

/** The renderer's module in that folder (web/render-page.tsx built for Node). */
export const SERVER_RENDERER_FILE = 'render-page.mjs';

/** The template of the page at `pagePath` ('/dashboard' -> 'server-render/dashboard.html'). */
export function renderedPageTemplateFile(pagePath: string): string {
  return `${SERVER_RENDER_DIR}/${pagePath.slice(1).replaceAll('/', '-')}.html`;
}

/** The template's slots: the title's text, the inside of `#root`, and the place of the query cache. */
export const RENDERED_PAGE_SLOTS = {
  title: '<!--rendered-page-title-->',
  html: '<!--rendered-page-html-->',
  state: '<!--rendered-page-state-->',
} as const;

/** The id of the `<script type="application/json">` holding the rendered query cache. */
export const RENDERED_QUERY_STATE_ID = 'rendered-query-state';

/**
 * The cookie telling the server the browser's time zone (an IANA name such as 'America/Chicago'),
 * so the dates it renders are the ones the browser shows when it hydrates them.
 */
export const TIME_ZONE_COOKIE = 'tz';
