/**
 * The early reads (decision 033): which reads start for whom, that each is taken once through the
 * app's own response handling, and that nothing is left as an unhandled rejection.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import {
  APPLICATIONS_READ,
  dropEarlyReads,
  PROFILE_READ,
  SESSION_READ,
  startEarlyReads,
  takeEarlyRead,
} from './early-reads.ts';

/** A signed-in caller as GET /api/session answers (domain/api/session.ts). */
const caller = (roles: string[], twoFactorRequired = false) => ({
  userId: 'u1',
  email: 'p@example.com',
  roles,
  twoFactorRequired,
});

/** fetch answering `session` for /api/session and `{}` for anything else; records the paths asked. */
function stubFetch(session: unknown) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      asked.push(path);
      const body = path === SESSION_READ ? session : { path };
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return asked;
}

/** A new page load: the state the two builds share on globalThis starts empty. */
function newPage() {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('credentialing.earlyReads')];
}

/** Lets the session's answer start what follows it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the early reads (decision 033)', () => {
  beforeEach(() => newPage());
  afterEach(() => vi.unstubAllGlobals());

  it("start a provider's dashboard reads once the session answers, and each is taken once", async () => {
    // First, a provider opens /dashboard: the session check starts at once.
    const asked = stubFetch(caller(['user']));
    startEarlyReads('/dashboard');
    expect(asked).toEqual([SESSION_READ]);
    // Second, the session answers and the dashboard's reads start.
    await expect(takeEarlyRead(SESSION_READ)).resolves.toMatchObject({ roles: ['user'] });
    await settle();
    expect(asked).toEqual([SESSION_READ, APPLICATIONS_READ, PROFILE_READ]);
    // Last, the app's queries take the answers, once: a later fetch asks the server again.
    await expect(takeEarlyRead(APPLICATIONS_READ)).resolves.toEqual({ path: APPLICATIONS_READ });
    expect(takeEarlyRead(APPLICATIONS_READ)).toBeUndefined();
    expect(takeEarlyRead(SESSION_READ)).toBeUndefined();
  });

  it("never start the dashboard's reads for staff, a caller without their second factor, or a visitor", async () => {
    for (const session of [caller(['admin']), caller(['user'], true), null]) {
      newPage();
      const asked = stubFetch(session);
      startEarlyReads('/dashboard');
      await settle();
      await settle();
      expect(asked).toEqual([SESSION_READ]);
    }
  });

  it('read only the session on any other page, and drop what the first page did not take', async () => {
    const asked = stubFetch(caller(['user']));
    startEarlyReads('/auth');
    await settle();
    expect(asked).toEqual([SESSION_READ]);
    dropEarlyReads();
    expect(takeEarlyRead(SESSION_READ)).toBeUndefined();
  });

  it('hand a failed read to the query that takes it, and leave no unhandled rejection when none does', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"code":"internal","message":"down"}', { status: 500 })),
    );
    startEarlyReads('/dashboard');
    // The app's own ApiError, read from the response by the app's build (web/api.ts).
    await expect(takeEarlyRead(SESSION_READ)).rejects.toBeInstanceOf(ApiError);
    newPage();
    startEarlyReads('/dashboard');
    await expect(takeEarlyRead(SESSION_READ)).rejects.toMatchObject({ status: 500, message: 'down' });
    // A server that cannot be reached: the network error api() gives.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    newPage();
    startEarlyReads('/dashboard');
    await expect(takeEarlyRead(SESSION_READ)).rejects.toMatchObject({ status: 0, code: 'network' });
    newPage();
    startEarlyReads('/');
    dropEarlyReads();
    await settle();
  });

  it('never hand the app a read started after it asked for that path itself (the early file arrived late)', async () => {
    // First, the app's code ran before the early file: its session query found nothing to take and
    // asked the server itself.
    const asked = stubFetch(null);
    expect(takeEarlyRead(SESSION_READ)).toBeUndefined();
    // Second, the early file runs: the session check is not started again, nor anything after it.
    startEarlyReads('/auth');
    await settle();
    expect(asked).toEqual([]);
    // Last, the refetch after signing in finds nothing either, so it asks the server (a read from
    // before the sign-in would say signed out and send the new session back to /auth).
    expect(takeEarlyRead(SESSION_READ)).toBeUndefined();
  });

  it('leave out a dashboard read the app asked for while the session was still on its way', async () => {
    const asked = stubFetch(caller(['user']));
    startEarlyReads('/dashboard');
    expect(takeEarlyRead(APPLICATIONS_READ)).toBeUndefined();
    await expect(takeEarlyRead(SESSION_READ)).resolves.toMatchObject({ roles: ['user'] });
    await settle();
    expect(asked).toEqual([SESSION_READ, PROFILE_READ]);
    expect(takeEarlyRead(APPLICATIONS_READ)).toBeUndefined();
    await expect(takeEarlyRead(PROFILE_READ)).resolves.toEqual({ path: PROFILE_READ });
  });

  it('start and hand over nothing once the app has left the first page', async () => {
    const asked = stubFetch(caller(['user']));
    startEarlyReads('/dashboard');
    // The app navigates before the session has answered: its dashboard reads never start.
    dropEarlyReads();
    await settle();
    await settle();
    expect(asked).toEqual([SESSION_READ]);
    expect(takeEarlyRead(SESSION_READ)).toBeUndefined();
    startEarlyReads('/dashboard');
    expect(asked).toEqual([SESSION_READ]);
  });
});
