/**
 * A signed-out visitor leaves a clean browser console (issue 10 item 11): no error or warning, no
 * uncaught exception on the landing page, on both tabs of /auth and on /robots.txt. A failed request
 * counts too: Chromium logs it as a console error (the session check once answered 401 here).
 * And /robots.txt is the shipped robots file (web/public/robots.txt), not the web app's page.
 */
import { expect, type Page, test } from '@playwright/test';
import { newProviderWithApplication, toast } from './helpers.ts';

/** Every console error and warning and every uncaught page error, as readable lines. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

test('signed out, /, both /auth tabs and /robots.txt log no error or warning', async ({ page }) => {
  const problems = consoleProblems(page);

  // First, the landing page, after its session check has answered.
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Healthcare Provider Credentialing System' }),
  ).toBeVisible();
  await expect(page.getByText('Secure healthcare onboarding platform')).toBeVisible();
  await page.waitForLoadState('networkidle');

  // Second, /auth: the Sign In tab, then the Sign Up tab.
  await page.goto('/auth');
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();

  // Third, /robots.txt: plain text that keeps crawlers out of the API.
  const robots = await page.goto('/robots.txt');
  expect(robots?.status()).toBe(200);
  expect(robots?.headers()['content-type']).toMatch(/^text\/plain/);
  const text = (await robots?.text()) ?? '';
  expect(text).toContain('User-agent: *');
  expect(text.split('\n')).toContain('Disallow: /api/');
  expect(text).not.toContain('<html');
  await page.waitForLoadState('networkidle');

  expect(problems).toEqual([]);
});

/**
 * Signing out from the dashboard leaves the console clean too: the dashboard's reads are not made
 * again, signed out, while it is still on screen (they once were, answering 401 twice). Nor does a
 * toast of the signed-out provider's stay on the sign-in screen until it closes by itself.
 */
test('a provider who signs out from the dashboard logs no error or warning and leaves no toast', async ({
  page,
}) => {
  await newProviderWithApplication(page, 'Sol', 'Marquez');
  // Shown for 4 s from here, unless signing out removes it.
  await expect(toast(page, 'Application Created')).toBeVisible();
  const problems = consoleProblems(page);
  const readsAfterSignOut: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/') && pathname !== '/api/session') readsAfterSignOut.push(pathname);
  });
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await expect(toast(page, 'Application Created')).toHaveCount(0, { timeout: 1_500 });
  await page.waitForLoadState('networkidle');
  expect(readsAfterSignOut.filter((path) => path !== '/api/auth/sign-out')).toEqual([]);
  expect(problems).toEqual([]);
});
