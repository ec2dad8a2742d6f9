/**
 * A malpractice policy saved before it starts (issue 51 item 3): a provider who replaces the policy in
 * force with its renewal is told, when the cards are saved, that the renewal starts later and to keep
 * the current policy until then; a policy in force gets no such notice.
 */
import { expect, test } from '@playwright/test';
import { addDays, isoDay } from '../../domain/calendar.ts';
import { policyStartsLaterNotice } from '../../domain/sections/malpractice-insurance.ts';
import { expectNoAxeViolations, newProviderWithApplication, toast } from './helpers.ts';

test('saving a renewal not yet in force tells the provider when it starts', async ({ page }) => {
  const applicationId = await newProviderWithApplication(page, 'Noor', 'Haddad');
  const starts = addDays(isoDay(new Date()), 34);
  const notice = `This policy starts ${starts}; keep your current policy until then`;
  expect(policyStartsLaterNotice({ effectiveDate: starts }, isoDay(new Date()))).toBe(notice);

  // First, the provider saves the renewal in place of the policy in force.
  await page.goto(`/malpractice-insurance/${applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Malpractice Insurance' })).toBeVisible();
  const policy = page.getByRole('region', { name: 'Policy 1', exact: true });
  await policy.getByLabel('Insurance Company').fill('MedPro');
  await policy.getByLabel('Policy Number').fill('P-11');
  await policy.getByLabel('Effective Date').fill(starts);
  await policy.getByLabel('Expiration Date').fill(addDays(starts, 365));
  await page.getByRole('button', { name: 'Save & Continue' }).click();

  // The save succeeds, and the notice says when the renewal starts; it stays until closed.
  await expect(page.getByText('Malpractice insurance saved successfully')).toBeVisible();
  const shown = toast(page, 'Policy not yet in force');
  await expect(shown).toContainText(notice);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectNoAxeViolations(page);

  // Second, the current policy added back (in force today): no notice for it.
  await shown.getByRole('button').click();
  await expect(shown).toHaveCount(0);
  await page.goto(`/malpractice-insurance/${applicationId}`);
  await page.getByRole('button', { name: 'Add Policy' }).click();
  const current = page.getByRole('region', { name: 'Policy 2', exact: true });
  await current.getByLabel('Insurance Company').fill('MedPro');
  await current.getByLabel('Policy Number').fill('P-10');
  await current.getByLabel('Effective Date').fill(addDays(starts, -365));
  await current.getByLabel('Expiration Date').fill(addDays(starts, -1));
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Only the renewal is named, once.
  await expect(toast(page, 'Policy not yet in force')).toHaveCount(1);
  await expect(toast(page, 'Policy not yet in force')).toContainText(notice);
});
