/**
 * The early reads (decision 033, web/early-reads.ts) when the early file arrives after the app's
 * code has run: the app has read the session itself, so the early file must not read it again and
 * leave a signed-out answer for the refetch after signing in (a loaded CI machine did that once:
 * the new session was sent back to /auth). And on a page load of /dashboard, the early file starts
 * every read the first screen makes, the expiring credentials' too, and the app takes each.
 */
import { expect, test } from '@playwright/test';
import {
  holdBack,
  newProviderWithApplication,
  STRONG_PASSWORD,
  signUpAndConfirm,
  uniqueEmail,
} from './helpers.ts';

test('signing in on a page whose early file arrived late lands on the dashboard', async ({ page }) => {
  const email = uniqueEmail('late-early');
  await signUpAndConfirm(page, { firstName: 'Lena', lastName: 'Late', email });

  // First, the early file is held back until the app's own session check has answered.
  const sessionReads: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/session') sessionReads.push(request.url());
  });
  const releaseEarly = await holdBack(page, '**/assets/early-*.js');
  // /auth with a query string is index.html, which loads the early file (the prerendered /auth does not).
  await page.goto('/auth?confirmed=1', { waitUntil: 'domcontentloaded' });
  const form = page.getByRole('form', { name: 'Sign in' });
  await expect(form.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  await expect.poll(() => sessionReads.length).toBe(1);
  const earlyRan = page.waitForResponse((response) => /\/assets\/early-[^/]+\.js$/.test(response.url()));
  releaseEarly();
  await earlyRan;

  // Then the early file has run: it asked for nothing the app had asked for already.
  await page.waitForLoadState('load');
  expect(sessionReads).toHaveLength(1);

  // Last, signing in reads the new session from the server and opens the dashboard.
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'No Applications Yet' })).toBeVisible();
  expect(sessionReads.length).toBeGreaterThanOrEqual(2);
});

test("a page load of /dashboard starts its first screen's reads before the app's code runs, 'Expiring Credentials' included, and makes each once", async ({
  page,
}) => {
  const applicationId = await newProviderWithApplication(page, 'Ezra', 'Early');
  const expiring = `/api/applications/${applicationId}/expiring-credentials`;
  const reads: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) reads.push(pathname);
  });
  // First, the app's entry is held back: only the early file can read anything meanwhile.
  const releaseApp = await holdBack(page, '**/assets/index-*.js');
  await page.reload({ waitUntil: 'commit' });
  await expect.poll(() => reads.includes(expiring)).toBe(true);
  expect(reads.toSorted()).toEqual(
    ['/api/session', '/api/applications', '/api/profile', expiring].toSorted(),
  );

  // Then the app runs and takes those answers: a read it made again itself would be listed twice.
  releaseApp();
  await expect(page.getByText('Complete all sections to submit your application for review.')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(reads.toSorted()).toEqual(
    ['/api/session', '/api/applications', '/api/profile', expiring].toSorted(),
  );
});
