/**
 * Whether React has hydrated the page (decision 033). A prerendered page (`/`, `/auth`) is HTML
 * before its script runs: it must first render exactly as prerendered, and its controls do nothing
 * until hydrated.
 */
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

/** Whether this page load's HTML is hydrated, or was never to be (rendered in the browser). */
let pageHydrated = false;

/**
 * main.tsx, before rendering a page it does not hydrate: every render of this page load is then
 * a hydrated one.
 */
export function markRenderedInBrowser(): void {
  pageHydrated = true;
}

/**
 * false while React renders the page ahead of time (prerendering) or hydrates it; true in every
 * render after that and in a page rendered in the browser. The change after hydration is a
 * transition, so the re-render it causes is rendered in slices like the hydration itself (a
 * synchronous one, as `useSyncExternalStore`'s server snapshot gives, re-rendered the whole page in
 * one task after hydrating it: decision 033).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(pageHydrated);
  useEffect(() => {
    if (hydrated) return;
    // An effect runs only once React has committed the hydrated page.
    pageHydrated = true;
    startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}

const subscribeToNothing = () => () => {};

/**
 * false while React renders or hydrates this component's prerendered HTML, true in every render
 * after (and from the first one in a page rendered in the browser). Unlike `useHydrated`, exact for a
 * component hydrated after the page's first commit (a later boundary), whose first render would
 * otherwise read the page's mark as true and leave a prerendered attribute such as `disabled` as it
 * was: React does not patch attributes while hydrating. For small parts: the re-render after
 * hydration is synchronous (issue 51 item 6: the /auth forms' submit buttons).
 */
export function useHydratedHere(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
