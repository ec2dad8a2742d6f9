/**
 * Staff roles in the browser (issue 32 items 1 and 2): an administrator finds a person on the 'Staff'
 * tab and makes them an Auditor; the auditor's next sign-in asks for a second factor, then shows the
 * admin dashboard with the tabs an auditor reads (the Audit Log, not Staff) and no button that writes;
 * taking the role away again asks first when it is the person's last. 'Assign' (item 3) hands a
 * submitted file to a Credentialing Specialist, named in the facts and the timeline; the file's
 * decision clock (item 7) shows on the review page and its queue row.
 */
import { type Browser, expect, test } from '@playwright/test';
import { staffRoleLabel } from '../../domain/roles.ts';
import {
  adminCli,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  enrolSecondFactorInBrowser,
  expectNoAxeViolations,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  uniqueEmail,
} from './helpers.ts';

// The completion notification of the assigned file's provider is delivered here.
completionReceiverForSpec();

async function newPerson(browser: Browser, firstName: string, lastName: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail(firstName.toLowerCase());
  await signUpAndConfirm(page, { firstName, lastName, email });
  return { page, email, close: () => context.close() };
}

test("an administrator makes a person an Auditor on 'Staff'; the auditor reads and writes nothing", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const auditor = await newPerson(browser, 'Audra', 'Quill');
  await signInAsNewAdmin(page, { firstName: 'Stella', lastName: 'Staffer', emailPrefix: 'staffer' });

  await page.getByRole('tab', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=staff$/);
  await page.getByRole('searchbox', { name: 'Find a person' }).fill('audra quill');
  const roles = page.getByRole('group', { name: 'Roles of Audra Quill' });
  await expect(roles.getByRole('checkbox')).toHaveCount(5);
  await expect(roles.getByRole('checkbox', { checked: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await roles.getByRole('checkbox', { name: staffRoleLabel.auditor }).click();
  await expect(page.getByText('Audra Quill now has: Auditor.')).toBeVisible();
  await expect(roles.getByRole('checkbox', { name: 'Auditor' })).toBeChecked();

  // The auditor signs in: a second factor first, then the dashboard with the tabs an auditor reads.
  await signIn(auditor.page, auditor.email);
  await enrolSecondFactorInBrowser(auditor.page);
  await expect(auditor.page).toHaveURL(/\/admin$/);
  await expect(auditor.page.getByText('Auditor', { exact: true })).toBeVisible();
  await expect(auditor.page.getByRole('tab')).toHaveText([
    'Users & Applications',
    'Review Queue',
    'Decisions',
    'Committee',
    'All Documents',
    'Audit Log',
    'Notifications',
    'Exclusions',
    'Screening Matches',
    'Expiring',
    'Reports',
  ]);
  // The Staff tab named in the URL opens the first tab instead; Exclusions has no 'Import File'.
  await auditor.page.goto('/admin?tab=staff');
  await expect(auditor.page.getByRole('tab', { name: 'Users & Applications' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await auditor.page.getByRole('tab', { name: 'Exclusions' }).click();
  await expect(auditor.page.getByRole('heading', { name: 'Exclusion Lists' })).toBeVisible();
  await expect(auditor.page.getByRole('button', { name: 'Import File' })).toHaveCount(0);
  await expectNoAxeViolations(auditor.page);

  // Taking away her only role asks first.
  await roles.getByRole('checkbox', { name: 'Auditor' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove the last role?' });
  await expect(confirm).toContainText(
    'Audra Quill will have no staff role and no access to the admin pages.',
  );
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Audra Quill has no staff role now.')).toBeVisible();
  await expect(roles.getByRole('checkbox', { checked: true })).toHaveCount(0);
  // Her next page is a provider's.
  await auditor.page.goto('/admin');
  await expect(auditor.page).toHaveURL(/\/dashboard$/);
  await auditor.close();
});

test("'Assign' hands a submitted file to a Credentialing Specialist, named in its facts and timeline", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const provider = await browser.newContext();
  const { applicationId } = await completedApplicationInBrowser(await provider.newPage(), {
    firstName: 'Ines',
    lastName: 'Ibarra',
    emailPrefix: 'assigned',
  });
  await provider.close();
  const specialist = await newPerson(browser, 'Sergio', 'Vance');
  expect(await adminCli('grant', specialist.email, 'specialist')).toContain(
    'now has the role Credentialing Specialist (specialist)',
  );
  await specialist.close();

  await signInAsNewAdmin(page, { firstName: 'Asha', lastName: 'Assigner', emailPrefix: 'assigner' });
  await page.goto(`/admin/applications/${applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Ines Ibarra' })).toBeVisible();
  // NCQA's clock (issue 32 item 7): attested today, nothing verified yet.
  await expect(page.locator('dl').first()).toContainText(
    'Decision due in 120 days (120 days after the attestation)',
  );
  await page.getByRole('button', { name: 'Assign' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign the file' });
  await dialog.getByRole('combobox', { name: 'Reviewer' }).fill('Sergio');
  await page
    .getByRole('option', {
      name: new RegExp(`^Sergio Vance \\(${specialist.email.replace(/\./g, '\\.')}\\)$`),
    })
    .click();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Assign' }).click();
  await expect(page.getByText('Sergio Vance now reviews this file.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // The facts under the name: 'Reviewer' followed by the new reviewer's name.
  await expect(page.locator('dl').first()).toContainText('ReviewerSergio Vance');
  // The timeline's entry 'File assigned', by you, to him (the toast has the same title).
  await expect(page.getByText('To Sergio Vance', { exact: true })).toBeVisible();
  await expect(page.getByText('File assigned', { exact: true }).last()).toBeVisible();

  // The Review Queue names him on the file's row, and 'Assign' there hands it back.
  await page.goto('/admin?tab=review');
  const row = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Open Review of Ines Ibarra' }) });
  await expect(row).toContainText('Reviewer: Sergio Vance');
  await expect(row).toContainText('Decision due in 120 days');
  await row.getByRole('button', { name: 'Assign the file of Ines Ibarra' }).click();
  const again = page.getByRole('dialog', { name: 'Assign the file' });
  await again.getByRole('combobox', { name: 'Reviewer' }).fill('Asha');
  await page.getByRole('option', { name: /^Asha Assigner \(/ }).click();
  await again.getByRole('button', { name: 'Assign' }).click();
  await expect(page.getByText('Asha Assigner now reviews this file.')).toBeVisible();
  await expect(row).toContainText('Reviewer: Asha Assigner');
});
