/**
 * What the browser keeps of a page the server rendered with the caller's data (`/dashboard`,
 * web/render-page.tsx, decision 033): the query cache that render used, sent with the page as JSON,
 * and the time zone the server renders dates in next time.
 */
import type { DehydratedState } from '@tanstack/react-query';
import { RENDERED_QUERY_STATE_ID, TIME_ZONE_COOKIE } from '../domain/rendered-page.ts';

/** Sets the time zone cookie (a year; not sent cross-site; no PHI) when it is missing or stale. */
export function rememberTimeZone(): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const value = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`;
  if (document.cookie.split('; ').includes(value)) return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie, also on origins without the Cookie Store API (plain http)
  document.cookie = `${value}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/**
 * The query cache the server rendered the page with, removed from the document (read once), or
 * undefined on any other page.
 */
export function takeRenderedQueryState(): DehydratedState | undefined {
  const element = document.getElementById(RENDERED_QUERY_STATE_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as DehydratedState;
  } catch {
    return undefined;
  }
}
