/**
 * Document titles (issue 17: every route had the same title): `'<page> - Credentialing'`, one per
 * route, defined here only. Routes name their page in `handle` (web/router.tsx); `RouteTitle` sets
 * `document.title` from the deepest match. Section screens carry their section key instead, and their
 * title is the section's title from the domain registry (never retyped); the registry is imported
 * lazily, because it brings zod and every section's schema, which the first page must not load
 * (decision 016).
 */
import { useEffect } from 'react';
import { useMatches } from 'react-router';
import type { SectionKey } from '../../domain/sections/registry.ts';

/** The product's name: the landing page's title (spec §1) and the whole title of `/`. */
export const PRODUCT_NAME = 'Healthcare Provider Credentialing System';

/** What follows every page's name in its title. */
export const TITLE_SUFFIX = 'Credentialing';

/** The page names of the routes that are not section screens (issue 17). */
export const pageNames = {
  signIn: 'Sign In',
  forgotPassword: 'Forgot Password',
  resetPassword: 'Reset Password',
  dashboard: 'Dashboard',
  admin: 'Administration',
  applicationReview: 'Application Review',
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
 * What a route puts in its `handle`: the landing page (`{ landing: true }`, titled with the product's
 * name), a page name, or a section screen's section key.
 */
export type TitleHandle = { landing: true } | { page: PageName } | { sectionKey: SectionKey };

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

/** The title for a handle (a promise only for section screens). */
export function titleOf(handle: TitleHandle): string | Promise<string> {
  if ('landing' in handle) return PRODUCT_NAME;
  if ('page' in handle) return pageTitle(handle.page);
  return sectionPageTitle(handle.sectionKey);
}

/** Sets `document.title` from the deepest matched route that names its page. Renders nothing. */
export function RouteTitle() {
  const matches = useMatches();
  const handle = matches
    .map((match) => match.handle)
    .filter(isTitleHandle)
    .at(-1);
  // The handle's content, not its identity: the effect runs again only when the route changes.
  const key = handle ? JSON.stringify(handle) : '';
  useEffect(() => {
    if (!key) return;
    let current = true;
    const title = titleOf(JSON.parse(key) as TitleHandle);
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
