/**
 * The credentialing review in Chromium (issue 13 acceptance): a provider completes an application, an
 * administrator reviews it on /admin/applications/:applicationId, and 'Approve' is refused while a
 * checklist item is pending.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  completionReceiverForSpec,
  expectNoAxeViolations,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

// The completion notification is delivered, so the dashboard shows 'Completed ✓' (spec §7).
completionReceiverForSpec();

/** A provider in their own browser context who filled every section and pressed 'Application Completed'. */
async function providerWithCompletedApplication(
  browser: Browser,
  name: { firstName: string; lastName: string },
): Promise<{ page: Page; applicationId: string; email: string }> {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail(name.firstName.toLowerCase());
  await signUpAndConfirm(page, { ...name, email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByText('Submitted', { exact: true })).toBeVisible();
  return { page, applicationId, email };
}

/** The checklist item card whose accessible name starts with `kind`. */
function item(page: Page, kind: string) {
  return page.getByRole('listitem', { name: new RegExp(`^${kind}:`) });
}

/** 'Verify' one checklist item with the form's defaults (its primary source, today). */
async function verify(card: ReturnType<typeof item>) {
  await card.getByRole('button', { name: /^Verify / }).click();
  await card.getByLabel('Note').fill('Checked online');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Verified', { exact: true })).toBeVisible();
}

test('Approve is refused while a checklist item is pending, and the message names the item', async ({
  browser,
  page,
}) => {
  const provider = await providerWithCompletedApplication(browser, {
    firstName: 'Priya',
    lastName: 'Pending',
  });
  await provider.page.context().close();

  await signInAsNewAdmin(page, { firstName: 'Omar', lastName: 'Okafor', emailPrefix: 'okafor' });
  await page.goto(`/admin/applications/${provider.applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Priya Pending' })).toBeVisible();
  await expect(page).toHaveTitle('Application Review - Credentialing');
  await expect(page.getByText('Submitted', { exact: true })).toBeVisible();
  // Outcomes can be recorded only once the review has started.
  await expect(page.getByRole('button', { name: /^Verify / })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Start Review' }).click();
  await expect(page.getByText('Under Review', { exact: true })).toBeVisible();
  await expect(page.getByText('Reviewer').locator('..')).toContainText('you');

  await verify(item(page, 'NPI'));
  await expect(page.getByText(/^1 of \d+ verified or waived$/)).toBeVisible();

  await page.getByRole('button', { name: 'Approve' }).click();
  await page
    .getByRole('dialog', { name: 'Approve the application' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Not done' });
  await expect(refusal).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(
    refusal.getByRole('listitem').filter({ hasText: 'Exclusion screening (pending)' }),
  ).toBeVisible();
  await expect(page.getByText('Under Review', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // An unknown id is a clear dead end, not a crash.
  await page.goto('/admin/applications/00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('alert').filter({ hasText: 'Application not found' })).toBeVisible();
});
