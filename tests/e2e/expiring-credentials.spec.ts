/**
 * 'Expiring Credentials' on the dashboard (issue 14) in Chromium against the real server: a license
 * that expires in 20 days and a malpractice policy that expired yesterday are listed with their
 * section, name, date and days left ('Expired' past the date), and link to their section screen.
 * With E2E_SCREENSHOTS=<folder>, the card is saved there.
 */
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, signIn, signUpAndConfirm, startApplication, uniqueEmail } from './helpers.ts';

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

test('the dashboard lists a license expiring in 20 days and an expired policy, each linking to its section', async ({
  page,
}) => {
  const email = uniqueEmail('noor');
  await signUpAndConfirm(page, { firstName: 'Noor', lastName: 'Haddad', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const { applicationId, base, headers } = await startApplication(page);
  // Nothing dated yet: no card.
  await expect(page.getByRole('heading', { name: 'Application Status' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Expiring Credentials' })).toHaveCount(0);

  for (const [path, data] of [
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
  ] as const) {
    const saved = await page.request.put(`${base}/sections/${path}`, { headers, data });
    expect(saved.status(), await saved.text()).toBeLessThan(300);
  }
  await page.reload();

  const card = page.getByRole('region', { name: 'Expiring Credentials' });
  await expect(card).toBeVisible();
  const items = card.getByRole('listitem');
  await expect(items).toHaveCount(2);
  // Most urgent first: the lapsed policy, then the license.
  await expect(items.nth(0)).toContainText('Malpractice Insurance');
  await expect(items.nth(0)).toContainText('MedPro P-1: expired');
  await expect(items.nth(0)).toContainText('Expired');
  await expect(items.nth(1)).toContainText('Professional Licenses');
  await expect(items.nth(1)).toContainText('Medical License IL-20 (IL): expires');
  await expect(items.nth(1)).toContainText('20 days left');
  await expectNoAxeViolations(page);
  if (process.env.E2E_SCREENSHOTS) {
    await card.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/expiring-credentials-card.png` });
  }

  await items.nth(1).getByRole('link', { name: 'Professional Licenses' }).click();
  await expect(page).toHaveURL(new RegExp(`/professional-licenses/${applicationId}$`));
});
