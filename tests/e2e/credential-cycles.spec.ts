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
  approveThroughApi,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  e2eSql,
  signInAsNewAdmin,
  signInAsNewStaff,
  toast,
} from './helpers.ts';

completionReceiverForSpec();

test('an early recredentialing opened by an administrator and withdrawn by the provider leaves the credential as it was', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // First, Rosa completes an application; an administrator verifies every item and approves it.
  const provider = await (await browser.newContext()).newPage();
  const { email, applicationId: approvedId } = await completedApplicationInBrowser(provider, {
    firstName: 'Rosa',
    lastName: 'Lindqvist',
    emailPrefix: 'rosa',
  });
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ada', lastName: 'Reviewer', emailPrefix: 'ada-cycles' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Mia', lastName: 'Director', emailPrefix: 'ada-cycles-md' },
    'medical-director',
  );
  await approveThroughApi(admin, approvedId, director);
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
  await expect(toast(provider, 'Application Withdrawn')).toBeVisible();
  await provider.reload();
  await expect(pair).toContainText(credentialed);
  await expect(pair).toContainText('Withdrawn');
  await expect(provider.getByText(/This application was withdrawn on .* without a decision/)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
  // A license of the approved application expiring soon is still renewable from the card: its
  // 'Update Credential' opens the approved application's section, not the withdrawn copy's.
  await e2eSql(
    `update professional_licenses set expiration_date = current_date + 20 where application_id = $1`,
    [approvedId],
  );
  await provider.reload();
  const expiring = provider.getByRole('region', { name: 'Expiring Credentials' });
  await expiring
    .getByRole('link', { name: /^Update Credential/ })
    .first()
    .click();
  await expect(provider).toHaveURL(new RegExp(`/professional-licenses/${approvedId}\\?update=1$`));
  await expect(provider.getByText(/it can no longer be changed/)).toHaveCount(0);

  // The administrator's card of Rosa shows both badges.
  await admin.goto('/admin');
  await admin.getByPlaceholder('Search users by name or email...').fill(email);
  const card = admin.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: email });
  await expect(card.getByText(credentialed)).toBeVisible();
  await expect(card.getByText('Withdrawn', { exact: true })).toBeVisible();
});
