/**
 * Issue 17 part C, end to end: the unsaved-edit guard (Cancel, Back to Dashboard, the browser's Back and
 * reload ask before changes are lost; a successful save does not), and the 'Application not found'
 * screen for an unknown or another provider's application id, with its way out; and typed numbers
 * (CME credit hours, years known) kept as typed until the validation message speaks.
 */
import { expect, type Page, test } from '@playwright/test';
import { sectionSlugs } from '../../domain/sections/section-catalog.ts';
import { expectNoAxeViolations, newProviderWithApplication } from './helpers.ts';

async function openSection(page: Page, title: string) {
  await page.getByRole('link', { name: new RegExp(`^${title}:`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** The texts of web/forms/unsaved-changes.tsx, as a person reads them. */
const unsavedChangesTexts = {
  title: 'Discard unsaved changes?',
  body: 'You have changes on this screen that are not saved. If you leave now, they are lost.',
};
const discardDialog = (page: Page) => page.getByRole('dialog', { name: unsavedChangesTexts.title });

test('changed forms ask before their edits are discarded; a save does not ask', async ({ page }) => {
  test.setTimeout(120_000);
  const applicationId = await newProviderWithApplication(page, 'Ines', 'Tester');

  // First, Ines types a payor name and presses 'Back to Dashboard': she is asked.
  await openSection(page, 'Payors');
  await page.getByLabel('Payor Name').fill('Aetna');
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(discardDialog(page)).toBeVisible();
  await expect(discardDialog(page).getByText(unsavedChangesTexts.body)).toBeVisible();
  // 'Keep editing' stays, with what she typed.
  await discardDialog(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(discardDialog(page)).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/payors/${applicationId}$`));
  await expect(page.getByLabel('Payor Name')).toHaveValue('Aetna');

  // The browser's Back asks too.
  await page.goBack();
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(new RegExp(`/payors/${applicationId}$`));

  // Reloading shows the browser's own prompt; dismissing it keeps the page and the value.
  const prompt = new Promise<string>((resolve) =>
    page.once('dialog', async (dialog) => {
      resolve(dialog.type());
      await dialog.dismiss();
    }),
  );
  await page.reload({ timeout: 3_000 }).catch(() => {});
  expect(await prompt).toBe('beforeunload');
  await expect(page.getByLabel('Payor Name')).toHaveValue('Aetna');

  // 'Discard' leaves for the dashboard.
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await discardDialog(page).getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // An untouched form leaves without asking.
  await openSection(page, 'Payors');
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(discardDialog(page)).toHaveCount(0);

  // The single form: Cancel after an edit asks.
  await openSection(page, 'Personal Information');
  await page.getByLabel('City').fill('Tampa');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A repeatable-card screen: Cancel asks; Save & Continue returns to the dashboard without asking.
  await openSection(page, 'Education');
  const school = page.getByRole('region', { name: 'Education 1', exact: true });
  await school.getByLabel('Institution Name').fill('Emory University');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(discardDialog(page)).toBeVisible();
  await discardDialog(page).getByRole('button', { name: 'Keep editing' }).click();
  await school.getByLabel('Degree Type').selectOption('doctorate');
  await school.getByLabel('Field of Study').fill('Nurse Anesthesia Practice');
  await school.getByLabel('Graduation Date').fill('2012-05-12');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Education records saved successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(discardDialog(page)).toHaveCount(0);

  // Last, the dialog itself passes axe (checked last: the page around it is other screens' work).
  await openSection(page, 'Payors');
  await page.getByLabel('Payor Name').fill('Cigna');
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(discardDialog(page)).toBeVisible();
  await expectNoAxeViolations(page);
});

test("an unknown or another provider's application id shows 'Application not found'", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // First, Omar starts an application in his own browser.
  const omar = await browser.newContext();
  const omarsApplication = await newProviderWithApplication(await omar.newPage(), 'Omar', 'Tester');
  await omar.close();

  // Second, Lena (another provider) opens URLs with Omar's id and with ids that do not exist.
  await newProviderWithApplication(page, 'Lena', 'Tester');
  const ids = [omarsApplication, '00000000-0000-4000-8000-000000000000', 'not-an-id'];
  const slugs = [sectionSlugs.payors, sectionSlugs.personalInformation, sectionSlugs.education, 'documents'];
  for (const id of ids) {
    for (const slug of slugs) {
      await page.goto(`/${slug}/${id}`);
      await expect(page.getByRole('alert').filter({ hasText: 'Application not found' })).toBeVisible();
      await expect(page.getByText('This section could not be loaded')).toHaveCount(0);
      // No form to fill: no inputs, no add or save button.
      await expect(page.getByRole('textbox')).toHaveCount(0);
      await expect(
        page.getByRole('button', { name: /^(Add Payor|Save & Continue|Choose File)/ }),
      ).toHaveCount(0);
    }
  }
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('typed numbers stay as typed and the validation message says what is allowed', async ({ page }) => {
  await newProviderWithApplication(page, 'Tomas', 'Tester');

  // CME: 1.25 credit hours stays 1.25 (no silent rounding to 1.2) and is refused with the rule.
  await openSection(page, 'CME Credits');
  await page.getByLabel('Activity Title').fill('Airway Workshop');
  await page.getByLabel('Provider Name').fill('AANA');
  await page.getByLabel('Credit Hours').fill('1.25');
  await page.getByRole('button', { name: 'Add CME Record' }).click();
  await expect(page.getByLabel('Credit Hours')).toHaveValue('1.25');
  await expect(page.getByText('Enter credit hours in steps of 0.5').first()).toBeVisible();
  await page.getByLabel('Credit Hours').fill('1.5');
  await page.getByRole('button', { name: 'Add CME Record' }).click();
  await expect(page.getByText('CME record saved successfully.')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Peer references: -3 years known stays -3 (not silently 3) and is refused.
  await openSection(page, 'Peer References');
  await page.getByLabel('Reference Name').fill('Dr. Alan Reyes');
  await page.getByLabel('Years Known').fill('-3');
  await page.getByRole('button', { name: 'Add Reference' }).click();
  await expect(page.getByLabel('Years Known')).toHaveValue('-3');
  await expect(page.getByText('Years known cannot be negative').first()).toBeVisible();
});
