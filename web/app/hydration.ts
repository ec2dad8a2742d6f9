/**
 * Whether React has hydrated the page (decision 033). A prerendered page (`/`, `/auth`) is HTML
 * before its script runs: it must first render exactly as prerendered, and its controls do nothing
 * until hydrated.
 */
import { useSyncExternalStore } from 'react';

/** Nothing to subscribe to: the answer changes once, from the server snapshot to the client's. */
const noSubscription = () => () => {};

/**
 * false while React renders the page on the server (prerendering) or hydrates it (the server
 * snapshot), true in every render after that and in a page rendered in the browser from scratch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
