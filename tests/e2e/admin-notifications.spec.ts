/**
 * The administrators' 'Notifications' tab (issue 20) in Chromium against the real server and a real
 * receiver on a free port (playwright.config.ts points NOTIFY_WEBHOOK_URL at it). The receiver refuses the
 * completion notification (400: failed at once); the administrator finds it under 'Failed', reads the
 * error, re-sends it after confirming, and sees it delivered. axe on the tab; nothing scrolls sideways
 * at 390 px.
 *
 * The sections and the document are filled through the API (the point here is the admin tab).
 */
import { expect, test } from '@playwright/test';
import {
  completionReceiverForSpec,
  expectNoAxeViolations,
  signAttestation,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

const receiver = completionReceiverForSpec();

test('an administrator sees a refused notification under Failed, re-sends it and sees it delivered', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A provider completes the application while the receiver refuses the notification.
  const providerEmail = uniqueEmail('zora');
  await signUpAndConfirm(page, { firstName: 'Zora', lastName: 'Mbeki', email: providerEmail });
  await signIn(page, providerEmail);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  await page.reload();
  receiver.answers = [400];
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, 'Zora Mbeki');
  await expect(page.getByText('Failed to send application completion notification')).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // An administrator (CLI grant, second factor) opens 'Notifications' at phone width.
  await signInAsNewAdmin(page, {
    firstName: 'Nia',
    lastName: 'Admin',
    emailPrefix: 'notifadmin',
  });
  await page.setViewportSize({ width: 390, height: 844 });
  const tab = page.getByRole('tab', { name: 'Notifications' });
  await tab.focus();
  await page.keyboard.press('Enter');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Status').selectOption({ label: 'Failed' });

  const card = page
    .getByRole('listitem', { name: 'Notification of Zora Mbeki' })
    .filter({ hasText: providerEmail });
  await expect(card).toBeVisible();
  await expect(card.getByText('Failed', { exact: true })).toBeVisible();
  await expect(card.getByText('Last error:')).toBeVisible();
  await expect(card).toContainText('400');
  await card.getByRole('button', { name: /Show attempt log/ }).click();
  await expect(card.getByText('HTTP status:')).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Re-send after confirming; the receiver now accepts it.
  receiver.answers = [200];
  await card.getByRole('button', { name: 'Resend' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Send the completion notification of Zora Mbeki again?')).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText('Notification sent again')).toBeVisible();
  await expect(card).toHaveCount(0); // no longer failed: the filtered list was refreshed
  await page.getByLabel('Status').selectOption({ label: 'Delivered' });
  const delivered = page
    .getByRole('listitem', { name: 'Notification of Zora Mbeki' })
    .filter({ hasText: providerEmail });
  await expect(delivered.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(delivered.getByText('Delivered:')).toBeVisible();
  expect(receiver.delivered.filter((r) => r.body?.toString().includes(applicationId))).toHaveLength(1);
  await expectNoAxeViolations(page);
});
