/**
 * The provider's credential apart from the cycle (issue 29 acceptance (b)), in Chromium: an approved
 * provider; an administrator opens a recredentialing cycle early ('Start Recredentialing Now' on the
 * review page, confirmed); the provider withdraws it ('Withdraw', confirmed); the dashboard still
 * says 'Credentialed until <date>' beside the 'Withdrawn' cycle, and the admin card shows both badges.
 * The approval goes through the API the review page uses (every item verified), as in
 * recredentialing.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { addMonths, formatIsoDay, isoDay } from '../../domain/calendar.ts';
import {
  completionReceiverForSpec,
  signAttestation,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

completionReceiverForSpec();

test('an early recredentialing opened by an administrator and withdrawn by the provider leaves the credential as it was', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // First, Rosa completes an application.
  const provider = await (await browser.newContext()).newPage();
  const email = uniqueEmail('rosa');
  await signUpAndConfirm(provider, { firstName: 'Rosa', lastName: 'Lindqvist', email });
  await signIn(provider, email);
  await expect(provider).toHaveURL(/\/dashboard$/);
  const approvedId = await startAndFillApplication(provider);
  await provider.reload();
  await provider.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(provider, 'Rosa Lindqvist');
  await expect(provider.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();

  // Second, an administrator verifies every item and approves, through the review page's API.
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ada', lastName: 'Reviewer', emailPrefix: 'ada-cycles' });
  const headers = { origin: new URL(admin.url()).origin };
  const reviewBase = `/api/admin/applications/${approvedId}`;
  expect((await admin.request.post(`${reviewBase}/start-review`, { headers, data: {} })).status()).toBe(200);
  const review = (await (await admin.request.get(`${reviewBase}/review`)).json()) as {
    checklist: { id: string }[];
  };
  for (const item of review.checklist) {
    const saved = await admin.request.patch(`${reviewBase}/verification-items/${item.id}`, {
      headers,
      data: { status: 'verified', source: 'State board', verifiedAt: isoDay(new Date()) },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  const approved = await admin.request.post(`${reviewBase}/approve`, { headers, data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  const credentialed = `Credentialed until ${formatIsoDay(addMonths(isoDay(new Date()), 36))}`;

  // The provider's dashboard: the credential, and no 'Start Recredentialing' 36 months ahead.
  await provider.reload();
  await expect(provider.getByText(credentialed)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Start Recredentialing' })).toHaveCount(0);

  // Third, the administrator opens a recredentialing now, from the review page, after confirming.
  await admin.goto(`/admin/applications/${approvedId}`);
  await expect(admin.getByText(credentialed)).toBeVisible();
  await admin.getByRole('button', { name: 'Start Recredentialing Now' }).click();
  const confirm = admin.getByRole('dialog', { name: 'Start Recredentialing Now?' });
  await expect(confirm).toContainText('their current credential stays as it is until a decision');
  await confirm.getByRole('button', { name: 'Start Recredentialing Now' }).click();
  await expect(admin.getByText('A recredentialing draft is open for the provider.')).toBeVisible();

  // The provider sees the credential and the new cycle side by side.
  await provider.reload();
  const pair = provider.getByTestId('credential-and-cycle');
  await expect(pair).toContainText(credentialed);
  await expect(pair).toContainText('Recredentialing');
  await expect(pair).toContainText('Draft');
  // The status card (badges, 'Withdraw') passes axe; the section cards are item 6's (checked there).
  const axe = await new AxeBuilder({ page: provider })
    .include('section[aria-labelledby="status-title"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Fourth, Rosa withdraws the draft after confirming; her credential is untouched.
  await provider.getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = provider.getByRole('dialog', { name: 'Withdraw this application?' });
  await expect(withdraw).toContainText('Your credential is not affected.');
  await withdraw.getByRole('button', { name: 'Withdraw' }).click();
  await expect(provider.getByText('Application Withdrawn')).toBeVisible();
  await provider.reload();
  await expect(pair).toContainText(credentialed);
  await expect(pair).toContainText('Withdrawn');
  await expect(provider.getByText(/This application was withdrawn on .* without a decision/)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);

  // The administrator's card of Rosa shows both badges.
  await admin.goto('/admin');
  await admin.getByPlaceholder('Search users by name or email...').fill(email);
  const card = admin.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: email });
  await expect(card.getByText(credentialed)).toBeVisible();
  await expect(card.getByText('Withdrawn', { exact: true })).toBeVisible();
});
