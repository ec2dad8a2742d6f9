/**
 * The administrators' 'Notifications' tab (issue 20) in Chromium against the real server and a real
 * receiver on a free port (playwright.config.ts points NOTIFY_WEBHOOK_URL at it). The receiver refuses the
 * completion notification (400: failed at once; the provider's click succeeds all the same, issue 51
 * item 6); the administrator finds it under 'Failed', reads the
 * error, re-sends it after confirming, and sees it delivered: a new message naming the first (issue 28
 * item 7). Then the receiver refuses the review's status event; the administrator finds it under
 * 'Status changes', re-sends it and sees it delivered (issue 28 item 8). Each card lists its sends
 * (issue 53 item 4) and a delivered card offers 'Re-send' too (issue 53 item 2). axe on the tab;
 * nothing scrolls sideways at 390 px.
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
  test.setTimeout(180_000);
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
  // The product has the completion: the provider is told 'Success' (issue 51 item 6); the refusal is
  // the administrators' to see.
  await expect(page.getByText('Application completion notification sent successfully')).toBeVisible();
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
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Failed' });

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
  await card.getByRole('button', { name: 'Re-send' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Send the completion notification of Zora Mbeki again?')).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Re-send' }).click();
  await expect(page.getByText('Notification sent again')).toBeVisible();
  await expect(card).toHaveCount(0); // no longer failed: the filtered list was refreshed
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Delivered' });
  const delivered = page
    .getByRole('listitem', { name: 'Notification of Zora Mbeki' })
    .filter({ hasText: providerEmail });
  await expect(delivered.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(delivered.getByText('Delivered:')).toHaveCount(2); // the card's, and its re-send's
  expect(receiver.delivered.filter((r) => r.body?.toString().includes(applicationId))).toHaveLength(1);
  // Issue 53 item 4: each send with its webhook-id and result, the refused first one kept.
  const sends = delivered.getByRole('list', { name: 'Sends (2)' });
  await expect(sends.getByRole('listitem')).toHaveCount(2);
  await expect(sends.getByRole('listitem').first()).toContainText('First send');
  await expect(sends.getByRole('listitem').first()).toContainText('Result: Not delivered');
  await expect(sends.getByRole('listitem').last()).toContainText('Re-send 1');
  await expect(sends.getByRole('listitem').last()).toContainText('Result: Delivered');
  await expectNoAxeViolations(page);
  // Issue 53 item 2: a delivered one can be re-sent too, after a confirmation that says it was delivered.
  await delivered.getByRole('button', { name: 'Re-send' }).click();
  await expect(dialog).toContainText('was delivered. Send it again as a new message?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // Issue 28 item 7: the re-send was a new message (a receiver that drops seen ids, like the shipped
  // n8n workflow, would have dropped the old id), and its body names the first message.
  const completions = receiver.requests.filter((r) => r.body?.toString().includes(applicationId));
  expect(completions.map((r) => r.answer)).toEqual([400, 200]);
  const [firstId, resentId] = completions.map((r) => r.headers['webhook-id']);
  expect(resentId).not.toBe(firstId);
  expect(completions.map((r) => JSON.parse(r.body!.toString()).resendOf)).toEqual([null, firstId]);

  // Issue 28 item 8: the review's status event, refused by the receiver, is in the tab too.
  receiver.answers = [400];
  const headers = { origin: new URL(page.url()).origin };
  const started = await page.request.post(`/api/admin/applications/${applicationId}/start-review`, {
    headers,
  });
  expect(started.status()).toBe(200);
  await expect
    .poll(async () => {
      const failed = await page.request.get('/api/admin/status-events?status=failed');
      const { statusEvents } = (await failed.json()) as { statusEvents: { applicationId: string }[] };
      return statusEvents.some((e) => e.applicationId === applicationId);
    })
    .toBe(true);
  const kind = page.getByRole('radiogroup', { name: 'Type' });
  await kind.getByText('Status changes').click();
  await expect(kind.getByRole('radio', { name: 'Status changes' })).toBeChecked();
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Failed' });
  const eventCard = page
    .getByRole('listitem', { name: 'Status change of Zora Mbeki' })
    .filter({ hasText: providerEmail });
  await expect(eventCard).toBeVisible();
  await expect(eventCard.getByText('Failed', { exact: true })).toBeVisible();
  await expect(eventCard).toContainText('Submitted → Under Review');
  await expect(eventCard).toContainText('The receiver answered HTTP 400');
  await expect(eventCard).toContainText('Attempts: 1');
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  receiver.answers = [200];
  await eventCard.getByRole('button', { name: 'Re-send' }).click();
  await expect(
    dialog.getByText('Send the status change of Zora Mbeki (Submitted → Under Review) again?'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Re-send' }).click();
  await expect(page.getByText('Status change sent again')).toBeVisible();
  await expect(eventCard).toHaveCount(0);
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Delivered' });
  const deliveredEvent = page
    .getByRole('listitem', { name: 'Status change of Zora Mbeki' })
    .filter({ hasText: providerEmail });
  await expect(deliveredEvent.getByText('Delivered', { exact: true })).toBeVisible();
  const events = receiver.requests.filter(
    (r) => r.body?.toString().includes(applicationId) && r.body.toString().includes('status_changed'),
  );
  expect(events.map((r) => r.answer)).toEqual([400, 200]);
  expect(events[1]!.headers['webhook-id']).not.toBe(events[0]!.headers['webhook-id']);
  expect(JSON.parse(events[1]!.body!.toString()).resendOf).toBe(events[0]!.headers['webhook-id']);
  await expectNoAxeViolations(page);
});
