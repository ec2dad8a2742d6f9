/**
 * Document titles (issue 17: every route had the same title): `'<page> - Credentialing'`, one per
 * route, defined here only. Routes name their page in `handle` (web/router.tsx); `RouteTitle` sets
 * `document.title` from the deepest match. Section screens carry their section key instead, and their
 * title is the section's title from the domain registry (never retyped); the registry is imported
 * lazily, because it brings zod and every section's schema, which the first page must not load
 * (decision 016). A page whose tabs are in its URL (`/auth?tab=sign-up`, `/admin?tab=review`; issue
 * 28) names each tab's title in its handle's `tabs`, so every tab has its own title.
 */
import { useEffect } from 'react';
import { useMatches, useSearchParams } from 'react-router';
import type { SectionKey } from '../../domain/sections/registry.ts';

/** The product's name: the landing page's title (spec §1) and the whole title of `/`. */
export const PRODUCT_NAME = 'Healthcare Provider Credentialing System';

/** What follows every page's name in its title. */
export const TITLE_SUFFIX = 'Credentialing';

/** The page names of the routes that are not section screens (issue 17). */
export const pageNames = {
  signIn: 'Sign In',
  signUp: 'Sign Up',
  forgotPassword: 'Forgot Password',
  resetPassword: 'Reset Password',
  dashboard: 'Dashboard',
  admin: 'Administration',
  applicationReview: 'Application Review',
  /** A credentialing committee meeting (issue 32 item 5). */
  committeeMeeting: 'Committee Meeting',
  account: 'Account',
  twoFactorSetup: 'Two-factor authentication',
  notFound: 'Page not found',
} as const;

/** One of the page names above. */
export type PageName = (typeof pageNames)[keyof typeof pageNames];

/** A route's title: `'Payors'` -> `'Payors - Credentialing'`. */
export function pageTitle(pageName: string): string {
  return `${pageName} - ${TITLE_SUFFIX}`;
}

/**
 * The titles of a page's tabs kept in its URL (issue 28): `?<param>=<tab>` is titled `names[tab]`
 * (e.g. 'Review Queue - Administration'); without the parameter the tab is `defaultTab`; a tab not in
 * `names` keeps the page's own name.
 */
export interface TabTitles {
  param: string;
  names: Readonly<Record<string, string>>;
  defaultTab?: string;
}

/**
 * What a route puts in its `handle`: the landing page (`{ landing: true }`, titled with the product's
 * name), a page name (with its tabs' titles, if its tabs are in the URL), or a section screen's
 * section key.
 */
export type TitleHandle =
  | { landing: true }
  | { page: PageName; tabs?: TabTitles }
  | { sectionKey: SectionKey };

function isTitleHandle(handle: unknown): handle is TitleHandle {
  return (
    typeof handle === 'object' &&
    handle !== null &&
    ('landing' in handle || 'page' in handle || 'sectionKey' in handle)
  );
}

/** The title of a section screen: its registry title, e.g. 'CME Credits - Credentialing'. */
export async function sectionPageTitle(sectionKey: SectionKey): Promise<string> {
  const { sectionByKey } = await import('../../domain/sections/registry.ts');
  return pageTitle(sectionByKey[sectionKey].title);
}

/** The name of a page's tab `tab` (null: the parameter is absent), or the page's own name. */
function tabPageName(page: PageName, tabs: TabTitles | undefined, tab: string | null): string {
  const open = tab ?? tabs?.defaultTab;
  return (open !== undefined && tabs && Object.hasOwn(tabs.names, open) && tabs.names[open]) || page;
}

/**
 * The title for a handle (a promise only for section screens).
 * @param tab the value of the handle's `tabs.param` in the URL (null: absent)
 */
export function titleOf(handle: TitleHandle, tab: string | null = null): string | Promise<string> {
  if ('landing' in handle) return PRODUCT_NAME;
  if ('page' in handle) return pageTitle(tabPageName(handle.page, handle.tabs, tab));
  return sectionPageTitle(handle.sectionKey);
}

/** Sets `document.title` from the deepest matched route that names its page. Renders nothing. */
export function RouteTitle() {
  const matches = useMatches();
  const [params] = useSearchParams();
  const handle = matches
    .map((match) => match.handle)
    .filter(isTitleHandle)
    .at(-1);
  // The handle's content and the open tab, not their identity: the effect runs again only when the
  // route or the tab changes (not on every filter in the query string).
  const tab = handle && 'tabs' in handle && handle.tabs ? params.get(handle.tabs.param) : null;
  const key = handle ? JSON.stringify([handle, tab]) : '';
  useEffect(() => {
    if (!key) return;
    let current = true;
    const [named, open] = JSON.parse(key) as [TitleHandle, string | null];
    const title = titleOf(named, open);
    if (typeof title === 'string') document.title = title;
    else
      title.then(
        (resolved) => {
          if (current) document.title = resolved;
        },
        () => {},
      );
    return () => {
      current = false;
    };
  }, [key]);
  return null;
}
