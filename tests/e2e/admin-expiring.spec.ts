/**
 * The admin 'Expiring' tab (issue 14) in Chromium against the real server: a provider's expired
 * malpractice policy, a license expiring in 20 days and hospital privileges ending in 45 days (issue
 * 31 item 5) are listed soonest first with the provider,
 * section and a days-left badge; the window and credential-type filters narrow the list; 'Export CSV'
 * downloads the current filter with a header row. With E2E_SCREENSHOTS=<folder>, the tab is saved there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  expectNoAxeViolations,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  startApplication,
  uniqueEmail,
} from './helpers.ts';

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

test('an admin lists expiring credentials, filters them and exports the filter as CSV', async ({ page }) => {
  // First, a provider with a license expiring in 20 days and a policy that expired yesterday.
  const email = uniqueEmail('omar');
  await signUpAndConfirm(page, { firstName: 'Omar', lastName: 'Farouk', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const { applicationId, base, headers } = await startApplication(page);
  for (const [section, data] of [
    [
      'professional-licenses',
      {
        rows: [
          {
            licenseType: 'medical_license',
            licenseNumber: 'IL-20',
            issuingState: 'IL',
            expirationDate: isoDay(20),
          },
        ],
      },
    ],
    [
      'malpractice-insurance',
      { rows: [{ insuranceCompany: 'MedPro', policyNumber: 'P-1', expirationDate: isoDay(-1) }] },
    ],
    // Issue 31 item 5: hospital privileges ending in 45 days.
    [
      'hospital-affiliations',
      {
        rows: [
          {
            privilegeStatus: 'active',
            facilityName: 'Mercy Hospital',
            city: 'Chicago',
            state: 'IL',
            endDate: isoDay(45),
          },
        ],
      },
    ],
  ] as const) {
    const saved = await page.request.put(`${base}/sections/${section}`, { headers, data });
    expect(saved.status(), await saved.text()).toBeLessThan(300);
  }
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // Second, an administrator opens the 'Expiring' tab: the lapsed policy first, then the license.
  await signInAsNewAdmin(page, { firstName: 'Rita', lastName: 'Reviewer', emailPrefix: 'expiring-admin' });
  await page.getByRole('tab', { name: 'Expiring' }).click();
  const table = page.getByRole('table', { name: 'Expiring credentials, soonest first' });
  await expect(table).toBeVisible();
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('Omar Farouk');
  await expect(rows.nth(1)).toContainText(email);
  await expect(rows.nth(1)).toContainText('MedPro P-1');
  await expect(rows.nth(1)).toContainText('Malpractice Insurance');
  await expect(rows.nth(1)).toContainText('Expired');
  await expect(rows.nth(2)).toContainText('Medical License IL-20 (IL)');
  await expect(rows.nth(2)).toContainText('20 days left');
  await expect(rows.nth(3)).toContainText('Mercy Hospital (Chicago, IL)');
  await expect(rows.nth(3)).toContainText('Hospital privileges');
  await expect(rows.nth(3)).toContainText('Hospital Affiliations');
  await expect(rows.nth(3)).toContainText('45 days left');
  await expect(page.getByText('Showing 1–3 of 3 credentials')).toBeVisible();
  await expectNoAxeViolations(page);
  if (process.env.E2E_SCREENSHOTS) {
    fs.mkdirSync(process.env.E2E_SCREENSHOTS, { recursive: true });
    await page.screenshot({
      path: path.join(process.env.E2E_SCREENSHOTS, 'admin-expiring-tab.png'),
      fullPage: true,
    });
  }

  // Third, the filters: what has expired, then licenses only, then a window with nothing in it.
  await page.getByRole('combobox', { name: 'Window' }).click();
  await page.getByRole('option', { name: 'Expired', exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('MedPro P-1');

  // Fourth, 'Export CSV' downloads the current filter (expired) with its header row.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`expiring-credentials-expired-all-${isoDay(0)}.csv`);
  const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'Provider,Email,NPI,Credential type,Credential,State,Number,Section,Expires on,Days left,Status,Link',
  );
  const origin = new URL(page.url()).origin;
  expect(lines.slice(1)).toEqual([
    // No NPI yet (Personal Information not filled); the policy's number; the link to the file.
    `Omar Farouk,${email},,Malpractice insurance,MedPro P-1,,P-1,Malpractice Insurance,${isoDay(-1)},-1,Expired,${origin}/admin/applications/${applicationId}`,
  ]);

  await page.getByRole('combobox', { name: 'Window' }).click();
  await page.getByRole('option', { name: 'Within 30 days', exact: true }).click();
  await page.getByRole('combobox', { name: 'Credential type' }).click();
  await page.getByRole('option', { name: 'Professional license', exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Medical License IL-20 (IL)');
  await page.getByRole('combobox', { name: 'Credential type' }).click();
  await page.getByRole('option', { name: 'Vaccination', exact: true }).click();
  await expect(page.getByText('No credentials have expired or expire in this window.')).toBeVisible();
  // The privileges are a credential type of their own, within 60 days.
  await page.getByRole('combobox', { name: 'Window' }).click();
  await page.getByRole('option', { name: 'Within 60 days', exact: true }).click();
  await page.getByRole('combobox', { name: 'Credential type' }).click();
  await page.getByRole('option', { name: 'Hospital privileges', exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Mercy Hospital (Chicago, IL)');
});
