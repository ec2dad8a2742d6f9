/**
 * The app's first API reads, started before the app's code has loaded (decision 033).
 *
 * web/early.ts is built on its own (vite-plugins.ts `earlyEntry`: one file of a few kB sharing no
 * module with the app, so the app's entry does not wait on it) and the HTML loads it before the
 * app's entry. It runs as soon as it has arrived, while the app's ~140 kB of imports are still
 * downloading, and calls `startEarlyReads`: the session check at once and, on a page listed in
 * `firstPageReads`, that page's reads as soon as the session shows a caller its guard lets in, and
 * the reads one of their answers leads to (the dashboard's, once the applications answer). The
 * fetches' responses are left on `globalThis` (the two builds share no module state); the app's
 * queries take them with `takeEarlyRead`, which reads each with the app's own `readApiResponse`
 * (so errors are the app's ApiErrors), once; what the first page did not take is dropped when the
 * app navigates (web/main.tsx). A page prerendered without the early entry (`/`, `/auth`) has
 * nothing to take: its queries fetch as before.
 */
import type { ApplicationList } from '../domain/api/applications.ts';
import type { SessionResponse } from '../domain/api/session.ts';
import { pickCurrentApplication, renewableApplication } from '../domain/application-status.ts';
import { apiRequestInit, networkError, readApiResponse } from './api.ts';
import { type PageAudience, roleAllows } from './app/role-access.ts';

/** GET /api/session: the signed-in caller, or null (web/app/session.ts `sessionQuery`). */
export const SESSION_READ = '/api/session';
/** GET /api/applications: the provider's applications and credential (features/dashboard). */
export const APPLICATIONS_READ = '/api/applications';
/** GET /api/profile: the provider's profile (features/dashboard). */
export const PROFILE_READ = '/api/profile';

/** GET /api/applications/:applicationId/expiring-credentials ('Expiring Credentials', features/dashboard). */
export function expiringCredentialsRead(applicationId: string): string {
  return `/api/applications/${encodeURIComponent(applicationId)}/expiring-credentials`;
}
/** GET /api/applications/:applicationId/credential-update (web/app/credential-update.ts). */
export function credentialUpdateRead(applicationId: string): string {
  return `/api/applications/${encodeURIComponent(applicationId)}/credential-update`;
}
/** GET /api/applications/:applicationId/review: the provider's view of the review (web/app/provider-review.ts). */
export function providerReviewRead(applicationId: string): string {
  return `/api/applications/${encodeURIComponent(applicationId)}/review`;
}

/**
 * The reads the dashboard makes once it has the applications (features/dashboard/dashboard-page.tsx):
 * 'Expiring Credentials' of the application renewed, its credential update when approved, and the
 * review of a current application past its draft. Started early, they are not a round trip after
 * the app's first render; one the dashboard does not make is never taken and is dropped when the
 * app navigates.
 */
function dashboardReadsAfter(body: unknown): string[] {
  const list = body as Partial<ApplicationList> | null;
  if (!Array.isArray(list?.applications)) return [];
  const current = pickCurrentApplication(list.applications);
  if (!current) return [];
  const renewable = renewableApplication(current, list.credential);
  const reads = [expiringCredentialsRead(renewable.applicationId)];
  if (renewable.approved) reads.push(credentialUpdateRead(renewable.applicationId));
  if (current.applicationStatus !== 'draft') reads.push(providerReviewRead(current.id));
  return reads;
}

/** What a page reads for its first screen (see firstPageReads). */
interface PageReads {
  /** Whom the page's guard lets in (the route's RequireRole in web/router.tsx). */
  allow: PageAudience;
  /** Started once the session shows such a caller. */
  reads: readonly string[];
  /** Started once the read `after` (one of `reads`) answers 200: the paths its parsed body leads to. */
  followUp?: { after: string; reads: (body: unknown) => readonly string[] };
}

/**
 * The reads a page needs for its first screen, by path, and whom its guard lets in: nobody else's
 * reads start, so nothing answers 403.
 */
const firstPageReads: Record<string, PageReads> = {
  '/dashboard': {
    allow: 'provider',
    reads: [APPLICATIONS_READ, PROFILE_READ],
    followUp: { after: APPLICATIONS_READ, reads: dashboardReadsAfter },
  },
};

/** Where the early build leaves its responses for the app's build. */
const EARLY_READS = Symbol.for('credentialing.earlyReads');

/**
 * What the two builds share, on `globalThis`: per path, the response started early, or null once
 * the app has asked for that path (taken, or asked before any was started); `closed` once the app
 * has left the first page. Either way a read started later is never used: it would be older than
 * what the app holds by then (e.g. the signed-out session the page began with, taken by the
 * refetch after signing in).
 */
interface EarlyReads {
  reads: Map<string, Promise<Response> | null>;
  closed: boolean;
}

function earlyReads(): EarlyReads {
  const global = globalThis as { [EARLY_READS]?: EarlyReads };
  global[EARLY_READS] ??= { reads: new Map(), closed: false };
  return global[EARLY_READS];
}

/**
 * Starts the session check and, once it answers, the first reads of the page at `pagePath` (a
 * `location.pathname`) when its guard will let the caller in. Called once, by web/early.ts. A read
 * the app has already asked for itself (the early file arrived after the app's code had run) is
 * not started, nor is any once the app has left the first page.
 */
export function startEarlyReads(pagePath: string): void {
  const state = earlyReads();
  const start = (path: string) => {
    if (state.closed || state.reads.has(path)) return undefined;
    const read = fetch(path, apiRequestInit('GET'));
    // A read nobody takes (the app navigated first) must not end as an unhandled rejection; the
    // query that takes it still sees the failure.
    read.catch(() => {});
    state.reads.set(path, read);
    return read;
  };
  const session = start(SESSION_READ);
  const page = firstPageReads[pagePath];
  if (!session || !page) return;
  // Each handler is registered before the app can take the response, so it reads a copy first.
  const afterAnswer = (read: Promise<Response> | undefined, next: (body: unknown) => void) =>
    read
      ?.then(async (response) => {
        if (response.ok) next(await response.clone().json());
      })
      .catch(() => {});
  afterAnswer(session, (body) => {
    const me = body as SessionResponse;
    if (!me || !roleAllows(me, page.allow)) return;
    const started = new Map(page.reads.map((path) => [path, start(path)]));
    const { followUp } = page;
    if (followUp) afterAnswer(started.get(followUp.after), (answer) => followUp.reads(answer).forEach(start));
  });
}

/**
 * The early read of `path` as `api('GET', path)` would answer it (the parsed body; an ApiError when
 * it failed), or undefined when none was started or it was taken already. A query's `queryFn` uses
 * it as `takeEarlyRead(path) ?? api('GET', path)`, so its first fetch reuses the early answer and
 * every later one asks the server.
 */
export function takeEarlyRead<T>(path: string): Promise<T> | undefined {
  const state = earlyReads();
  if (state.closed) return undefined;
  const read = state.reads.get(path);
  // Asked for now: a read of this path started from here on would be older than the app's.
  state.reads.set(path, null);
  if (!read) return undefined;
  return read.then(readApiResponse<T>, () => {
    throw networkError();
  });
}

/** Drops the early reads not taken, and starts none from now on (the app left the page they were for). */
export function dropEarlyReads(): void {
  const state = earlyReads();
  state.closed = true;
  state.reads.clear();
}
