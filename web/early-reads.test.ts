/**
 * The early reads (decision 033): which reads start for whom, that each is taken once through the
 * app's own response handling, and that nothing is left as an unhandled rejection.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import {
  APPLICATIONS_READ,
  credentialUpdateRead,
  dropEarlyReads,
  expiringCredentialsRead,
  PROFILE_READ,
  providerReviewRead,
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

/**
 * fetch answering `session` for /api/session, `bodies[path]` where given and `{ path }` for anything
 * else, all 200; records the paths asked.
 */
function stubFetch(session: unknown, bodies: Record<string, unknown> = {}) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      asked.push(path);
      const body = path === SESSION_READ ? session : path in bodies ? bodies[path] : { path };
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return asked;
}

/** GET /api/applications' body (domain/api/applications.ts), with only what the early reads look at. */
const applicationList = (
  applications: { id: string; applicationStatus: string }[],
  credential: { state: string; applicationId: string | null } = { state: 'none', applicationId: null },
) => ({ applications, credential });

/** A new page load: the state the two builds share on globalThis starts empty. */
function newPage() {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('credentialing.earlyReads')];
}

/** Lets the session's answer start what follows it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A provider's new page load of /dashboard whose applications answer `list`: checks that the
 * session, applications and profile reads started, and returns the paths asked after them.
 */
async function readsAfterApplications(list: ReturnType<typeof applicationList>): Promise<string[]> {
  newPage();
  const asked = stubFetch(caller(['user']), { [APPLICATIONS_READ]: list });
  startEarlyReads('/dashboard');
  await settle();
  await settle();
  expect(asked.slice(0, 3)).toEqual([SESSION_READ, APPLICATIONS_READ, PROFILE_READ]);
  return asked.slice(3);
}

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
  it("start the reads the dashboard makes once the applications answer: a draft's expiring credentials only", async () => {
    const list = applicationList([
      { id: 'a2', applicationStatus: 'draft' },
      { id: 'a1', applicationStatus: 'approved' },
    ]);
    expect(await readsAfterApplications(list)).toEqual([expiringCredentialsRead('a2')]);
    // The card's query takes it once; its next fetch asks the server.
    await expect(takeEarlyRead(expiringCredentialsRead('a2'))).resolves.toEqual({
      path: expiringCredentialsRead('a2'),
    });
    expect(takeEarlyRead(expiringCredentialsRead('a2'))).toBeUndefined();
  });

  it('start the credential update and the review of an approved application, and of the approved one behind a withdrawn cycle', async () => {
    const approved = applicationList([{ id: 'a1', applicationStatus: 'approved' }]);
    expect(await readsAfterApplications(approved)).toEqual([
      expiringCredentialsRead('a1'),
      credentialUpdateRead('a1'),
      providerReviewRead('a1'),
    ]);
    const withdrawn = applicationList(
      [
        { id: 'a2', applicationStatus: 'withdrawn' },
        { id: 'a1', applicationStatus: 'approved' },
      ],
      { state: 'credentialed', applicationId: 'a1' },
    );
    expect(await readsAfterApplications(withdrawn)).toEqual([
      expiringCredentialsRead('a1'),
      credentialUpdateRead('a1'),
      providerReviewRead('a2'),
    ]);
  });

  it('start no follow-up read for a provider without applications, for a failed read, or one the app asked for first', async () => {
    expect(await readsAfterApplications(applicationList([]))).toEqual([]);

    newPage();
    const failed: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => {
        failed.push(path);
        if (path === SESSION_READ) return new Response(JSON.stringify(caller(['user'])), { status: 200 });
        return new Response('{"code":"internal","message":"down"}', { status: 500 });
      }),
    );
    startEarlyReads('/dashboard');
    await settle();
    await settle();
    expect(failed).toEqual([SESSION_READ, APPLICATIONS_READ, PROFILE_READ]);
    await expect(takeEarlyRead(APPLICATIONS_READ)).rejects.toMatchObject({ status: 500 });

    newPage();
    const first = stubFetch(caller(['user']), {
      [APPLICATIONS_READ]: applicationList([{ id: 'a1', applicationStatus: 'draft' }]),
    });
    expect(takeEarlyRead(expiringCredentialsRead('a1'))).toBeUndefined();
    startEarlyReads('/dashboard');
    await settle();
    await settle();
    expect(first).toEqual([SESSION_READ, APPLICATIONS_READ, PROFILE_READ]);
  });
});
