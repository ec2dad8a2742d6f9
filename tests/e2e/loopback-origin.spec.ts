/**
 * Issue 10 item 8: the server's own log used to print http://127.0.0.1:PORT, and a page opened there
 * failed every sign-up with 403 "Invalid origin" (APP_URL says localhost). Locally both spellings work.
 */
import { expect, test } from '@playwright/test';
import { STRONG_PASSWORD, toast, uniqueEmail } from './helpers.ts';

test('a provider signs up and signs in on http://127.0.0.1 although APP_URL says localhost', async ({
  page,
  baseURL,
}) => {
  const loopback = baseURL!.replace('//localhost:', '//127.0.0.1:');
  expect(loopback).toContain('127.0.0.1');
  const email = uniqueEmail('loopback');
  await page.goto(`${loopback}/auth`);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('First Name').fill('Lou');
  await form.getByLabel('Last Name').fill('Pback');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Please check your email to confirm your account.')).toBeVisible();
  await expect(page.getByText(/Invalid origin/i)).toHaveCount(0);

  // The confirmation link (APP_URL, localhost) confirms the account; sign-in then works on 127.0.0.1.
  const message = page
    .getByRole('listitem')
    .filter({ hasText: email })
    .filter({ hasText: 'Confirm' })
    .first();
  await expect(async () => {
    await page.goto(`${loopback}/dev/mail`);
    await expect(message).toBeVisible({ timeout: 250 });
  }).toPass({ timeout: 10_000 });
  await message.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/auth\?confirmed=1/);

  await page.goto(`${loopback}/auth`);
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(`${loopback}/dashboard`);
  await expect(toast(page, 'Welcome back!')).toBeVisible();
});
