/**
 * The dashboard's profile (spec §8): 'Failed to load profile information' (title 'Error') shows when
 * the profile fails to load, and not when the provider merely has no profile (not-found is
 * tolerated). The server's side of "absent" (200 `{ profile: null }`) is tested in
 * server/auth/session.routes.test.ts; here the browser gets those answers through `page.route`.
 */
import { expect, type Page, test } from '@playwright/test';
import { signIn, signUpAndConfirm, uniqueEmail } from './helpers.ts';

const PROFILE_ERROR = 'Failed to load profile information';

/** The provider has no profile row: the session check and the profile request both say so. */
async function withoutProfile(page: Page) {
  await page.route('**/api/session', async (route) => {
    const response = await route.fetch();
    const me = (await response.json()) as { profile: unknown } | null;
    await route.fulfill({ response, json: me && { ...me, profile: null } });
  });
  await page.route('**/api/profile', (route) => route.fulfill({ json: { profile: null } }));
}

test('the profile error shows on a failed load, not for a missing profile', async ({ page }) => {
  const email = uniqueEmail('priya');
  await signUpAndConfirm(page, { firstName: 'Priya', lastName: 'Raman', email });

  // First, Priya has no profile: the dashboard opens without the error.
  await withoutProfile(page);
  const profileAnswered = page.waitForResponse('**/api/profile');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await profileAnswered;
  await expect(page.getByRole('heading', { name: 'No Applications Yet' })).toBeVisible();
  // A toast raised afterwards: any toast the profile raised would be shown by now. Counted once, not
  // awaited: a retrying assertion would pass as soon as an error toast closed itself.
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('New credentialing application started')).toBeVisible();
  expect(await page.getByText(PROFILE_ERROR).count()).toBe(0);

  // Second, the profile cannot be loaded (the server fails, retries included): the error toast.
  await page.unrouteAll();
  await page.route('**/api/profile', (route) =>
    route.fulfill({
      status: 500,
      json: { code: 'internal', message: 'Something went wrong on our side. Please try again in a moment.' },
    }),
  );
  await page.reload();
  const toast = page.getByRole('alert').filter({ hasText: PROFILE_ERROR });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Error');
  // The welcome line still has the names the session carries.
  await expect(page.getByRole('heading', { name: 'Welcome, Priya Raman' })).toBeVisible();
});
