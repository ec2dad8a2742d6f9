/**
 * Issue 17 part C, end to end: sign-up ends on a 'Check your email' panel naming the address, with a
 * resend; an invalid email is a plain message on the field; no stale 'Registration Failed' toast; every
 * confirmation link (sign-up, the resend button, the resend on an early sign-in) lands on the sign-in
 * screen with 'Email confirmed'; a broken link lands there with a plain message.
 */
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, STRONG_PASSWORD, signIn, toast, uniqueEmail } from './helpers.ts';

/** The confirmation links mailed to `email`, newest first, read from the development mailbox. */
async function confirmationLinks(page: Page, email: string, atLeast: number): Promise<string[]> {
  let links: string[] = [];
  await expect(async () => {
    await page.goto('/dev/mail');
    const messages = page.getByRole('listitem').filter({ hasText: email }).filter({ hasText: 'Confirm' });
    links = [];
    for (const message of await messages.all()) {
      const href = await message.getByRole('link').first().getAttribute('href');
      if (href) links.push(href);
    }
    expect(links.length).toBeGreaterThanOrEqual(atLeast);
  }).toPass({ timeout: 10_000 });
  return links;
}

async function fillSignUp(page: Page, email: string, password = STRONG_PASSWORD) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('First Name').fill('Priya');
  await form.getByLabel('Last Name').fill('Natarajan');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  return form;
}

async function expectEmailConfirmedLanding(page: Page, link: string) {
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\?confirmed=1$/);
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Email confirmed')).toBeVisible();
}

test('an invalid email is a plain message on the field, and a stale failure toast goes', async ({ page }) => {
  const form = await fillSignUp(page, 'priya.example.test');
  await form.getByRole('button', { name: 'Create Account' }).click();
  const email = form.getByLabel('Email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Enter a valid email address')).toBeVisible();
  await expect(page.getByText('[body.email]')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // A server-side failure (a weak password) toasts 'Registration Failed'; the next, successful attempt
  // removes that toast, so it never stands beside 'Registration Successful'.
  await email.fill(uniqueEmail('priya'));
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('password');
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Registration Failed')).toBeVisible();
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Registration Successful')).toBeVisible();
  // Counted at once, not retried: the failure toast would close by itself after 8 s anyway.
  expect(await toast(page, 'Registration Failed').count()).toBe(0);
});

test('every confirmation link lands on the sign-in screen with Email confirmed', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('priya');

  // First, Priya signs up: the form gives way to 'Check your email' naming her address.
  const form = await fillSignUp(page, email);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Please check your email to confirm your account.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(`We sent a confirmation link to ${email}.`)).toBeVisible();
  await expect(page.getByRole('form', { name: 'Sign up' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Second, she asks for the link again.
  await page.getByRole('button', { name: 'Resend confirmation email' }).click();
  await expect(page.getByText('A new confirmation email is on its way.')).toBeVisible();
  const [resent, fromSignUp] = await confirmationLinks(page, email, 2);

  // Third, she tries to sign in before confirming: told plainly, and a third link is sent.
  await signIn(page, email);
  const notice = page.getByRole('alert').filter({ hasText: 'Confirm your email address' });
  await expect(notice).toContainText('not confirmed yet');
  await expect(notice).toContainText(email);
  await expect(page.getByText('Email not verified')).toHaveCount(0);
  const links = await confirmationLinks(page, email, 3);
  const fromSignIn = links[0]!;
  expect(new Set([fromSignIn, resent, fromSignUp]).size).toBe(3);

  // Every link lands on the sign-in screen with 'Email confirmed' (the first one confirms; the others
  // are still valid tokens for the same, now confirmed, address).
  await expectEmailConfirmedLanding(page, fromSignIn!);
  await expectNoAxeViolations(page);
  await expectEmailConfirmedLanding(page, resent!);
  await expectEmailConfirmedLanding(page, fromSignUp!);

  // A broken link lands on the sign-in screen with a plain message, not 'Email confirmed'.
  const broken = new URL(fromSignUp!);
  broken.searchParams.set('token', 'not-a-token');
  await page.goto(broken.toString());
  await expect(page).toHaveURL(/\/auth\?/);
  await expect(page.getByText('The confirmation link is invalid or has expired.')).toBeVisible();
  await expect(page.getByText('Email confirmed')).toHaveCount(0);

  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
});
