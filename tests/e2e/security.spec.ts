import { expect, test } from '@playwright/test';
import { sessionEndNotice } from '../../domain/session-end.ts';
import { signIn, signUpAndConfirm, uniqueEmail } from './helpers.ts';

test('no session token or PHI in browser storage or in any response body; the session cookie is HttpOnly', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('storage');
  await signUpAndConfirm(page, { firstName: 'Sam', lastName: 'Storage', email });
  // Every API answer the page gets from here on, sign-in included (issue 28 item 5).
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) bodies.push(response.text().catch(() => ''));
  });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  const applicationId = (await page.getByRole('link', { name: /Personal Information/ }).getAttribute('href'))!
    .split('/')
    .pop()!;
  // Saved through the page's own fetch (same origin, the HttpOnly cookie sent by the browser).
  const status = await page.evaluate(async (id) => {
    const response = await fetch(`/api/applications/${id}/sections/personal-information`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ssn: '987-65-4329', providerType: 'RN' }),
    });
    return response.status;
  }, applicationId);
  expect(status).toBe(200);
  await page.reload();

  const storage = await page.evaluate(() => ({
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    cookie: document.cookie,
  }));
  for (const value of Object.values(storage)) {
    expect(value).not.toContain('987-65-4329');
    expect(value).not.toContain('session_token');
  }
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name.includes('session_token'));
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');

  // What a script could read of the session: the signed cookie's token appears in no answer.
  const answers = await page.evaluate(async () =>
    Promise.all(
      ['/api/auth/get-session', '/api/auth/list-sessions'].map(async (url) => {
        const response = await fetch(url);
        return { url, status: response.status, body: await response.text() };
      }),
    ),
  );
  for (const answer of answers) expect(answer.status, answer.url).toBe(200);
  const signed = decodeURIComponent(session!.value);
  const token = signed.slice(0, signed.lastIndexOf('.'));
  expect(token.length).toBeGreaterThan(16);
  const seen = [...(await Promise.all(bodies)), ...answers.map((a) => a.body)];
  expect(seen.some((body) => body.includes('"user"'))).toBe(true);
  for (const body of seen) {
    expect(body).not.toContain(token);
    expect(body).not.toContain('"token"');
  }
});

test('warns before the automatic logoff and signs out an idle user', async ({ page }) => {
  await page.clock.install();
  const email = uniqueEmail('idle');
  await signUpAndConfirm(page, { firstName: 'Ida', lastName: 'Idle', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The guard is mounted with the signed-in page.
  await expect(page.getByRole('heading', { name: 'Welcome, Ida Idle' })).toBeVisible();

  // 28.5 minutes without activity: the warning appears (two minutes before the 30-minute timeout).
  // runFor fires every due timer (the guard's checks and the dialog's transitions) on the way.
  await page.clock.runFor('28:30');
  const dialog = page.getByRole('dialog', { name: 'Are you still there?' });
  await page.clock.runFor(1000);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('you will be signed out in 1 min');
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await page.clock.runFor(1000);
  await expect(dialog).toBeHidden();

  // Idle again past the timeout: signed out and told why.
  await page.clock.runFor('30:05');
  await expect(page).toHaveURL(/\/auth\?timeout=1$/);
  await expect(page.getByText(sessionEndNotice.idle.message)).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth/);
});

test('a session the server ended sends the person to sign-in with the reason; their own Sign Out does not (issue 51 item 6)', async ({
  page,
}) => {
  const email = uniqueEmail('ended');
  await signUpAndConfirm(page, { firstName: 'Eda', lastName: 'Ended', email });
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Welcome, Eda Ended' })).toBeVisible();
  const ended = page.getByText(sessionEndNotice.ended.message);

  // The server ends the session behind the page's back (as its idle timeout does while a phone
  // sleeps, or a revocation): the page's next look finds no session.
  const signedOut = await page.request.post('/api/auth/sign-out', {
    headers: { origin: new URL(page.url()).origin },
    data: {},
  });
  expect(signedOut.status(), await signedOut.text()).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/auth\?ended=1$/);
  await expect(page.getByRole('alert').filter({ hasText: sessionEndNotice.ended.title })).toBeVisible();
  await expect(ended).toBeVisible();

  // Signed in again, then signed out on purpose: the sign-in page gives no reason.
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Welcome, Eda Ended' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(ended).toHaveCount(0);
  await expect(page.getByText(sessionEndNotice.idle.message)).toHaveCount(0);
});
