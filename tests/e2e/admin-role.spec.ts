import { expect, test } from '@playwright/test';
import { adminCli, expectNoAxeViolations, signIn, signUpAndConfirm, uniqueEmail } from './helpers.ts';

test('npm run admin -- grant makes the user land on /admin at the next sign-in', async ({ page }) => {
  const email = uniqueEmail('admin');
  await signUpAndConfirm(page, { firstName: 'Ada', lastName: 'Admin', email });
  expect(await adminCli('grant', email)).toContain('now has the role admin');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText('Admin', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  // An admin sent to the provider dashboard goes back to /admin.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/admin$/);
});

test('a provider reaching /admin is sent to /dashboard', async ({ page }) => {
  const email = uniqueEmail('provider');
  await signUpAndConfirm(page, { firstName: 'Pat', lastName: 'Provider', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/dashboard$/);
});
