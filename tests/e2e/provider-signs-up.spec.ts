import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, signIn, signUpAndConfirmInBrowser, toast, uniqueEmail } from './helpers.ts';

test('a provider signs up, confirms by mail, starts an application and signs out', async ({ page }) => {
  // The landing page, with its four ways in.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Healthcare Provider Credentialing System' })).toBeVisible();
  await expect(page.getByText('Secure healthcare onboarding platform')).toBeVisible();
  // Issue 28: the ways in for a new provider open the Sign Up tab; the footer's year is this year's.
  for (const name of ['Sign In', 'Provider Login']) {
    await expect(page.getByRole('link', { name, exact: true }).first()).toHaveAttribute('href', '/auth');
  }
  for (const name of ['Get Started', 'Start Application']) {
    await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', '/auth?tab=sign-up');
  }
  await expect(page.getByText(`© ${new Date().getFullYear()} Healthcare`)).toBeVisible();
  await expectNoAxeViolations(page);

  // A weak password is refused with its reasons shown in the form.
  await page.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=sign-up$/);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expectNoAxeViolations(page);
  const signUp = page.getByRole('form', { name: 'Sign up' });
  await signUp.getByLabel('First Name').fill('Maya');
  await signUp.getByLabel('Last Name').fill('Okafor');
  await signUp.getByLabel('Email').fill(uniqueEmail('weak'));
  await signUp.getByRole('textbox', { name: 'Password', exact: true }).fill('password');
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Use at least 12 characters.' })).toBeVisible();
  await expect(toast(page, 'Registration Failed')).toBeVisible();

  // Sign up for real and confirm through the saved mail.
  const email = uniqueEmail('maya');
  await signUpAndConfirmInBrowser(page, { firstName: 'Maya', lastName: 'Okafor', email });
  await expect(page.getByText('Your email address is confirmed.')).toBeVisible();

  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('You have been signed in successfully.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome, Maya Okafor' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No Applications Yet' })).toBeVisible();
  await expect(
    page.getByText('Start your provider credentialing application to begin the process.'),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('New credentialing application started')).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByText('0%')).toBeVisible();
  await expect(page.getByText('Complete all sections to submit your application for review.')).toBeVisible();
  const sectionLinks = page.getByRole('region', { name: 'Application Sections' }).getByRole('link');
  await expect(sectionLinks).toHaveCount(11);
  await expect(sectionLinks.first()).toHaveAttribute('href', /^\/personal-information\/[0-9a-f-]{36}$/);
  await expectNoAxeViolations(page);

  // Reloading keeps the session (cookie) and the application.
  await page.reload();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
});

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});
