/**
 * Issue 28, what a new user trips on (items 12, 13, 14, 16), in Chromium:
 * - sign-in toasts replace each other: no stale 'Sign In Failed' beside 'Welcome back!'; on a phone a
 *   toast sits at the top, clear of the button just pressed and of Sign Out;
 * - 'Sign Out' with unsaved changes asks first in the unsaved-edit dialog; the automatic-logoff
 *   warning says the changes would be lost, and 'Stay signed in' keeps the form as it was;
 * - the NPI and DEA warnings show when the field is left and in the save confirmation;
 * - the landing page: 'Get Started' opens the Sign Up tab, the number of sections comes from the
 *   registry, the footer's year from the clock.
 * (The review page's 'Approve' refusal shown once is checked in review-workflow.spec.ts.)
 */
import { expect, type Page, test } from '@playwright/test';
import { DEA_CHECK_DIGIT_WARNING, NPI_FORMAT_WARNING } from '../../domain/sections/identifier-checks.ts';
import { SECTION_COUNT } from '../../domain/sections/registry.ts';
import {
  expectNoAxeViolations,
  newProviderWithApplication,
  STRONG_PASSWORD,
  signUpAndConfirmInBrowser,
  uniqueEmail,
} from './helpers.ts';

/** The unsaved-edit dialog's texts (web/forms/unsaved-changes.tsx), as a person reads them. */
const unsavedChanges = {
  title: 'Discard unsaved changes?',
  body: 'You have changes on this screen that are not saved. If you leave now, they are lost.',
  atLogoff:
    "You have changes on this screen that are not saved. They are lost when you are signed out: choose 'Stay signed in' to keep them.",
};

async function openSection(page: Page, title: string) {
  await page.getByRole('link', { name: new RegExp(`^${title}:`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test("a failed sign-in's toast goes when the next attempt succeeds", async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('retry');
  await signUpAndConfirmInBrowser(page, { firstName: 'Rhea', lastName: 'Retry', email });

  // First, Rhea mistypes her password: 'Sign In Failed'.
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(`${STRONG_PASSWORD}x`);
  await form.getByRole('button', { name: 'Sign In' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'Sign In Failed' });
  await expect(failed).toBeVisible();

  // Second, the right password, sent with Enter while the pointer rests on the failure toast (which
  // holds it open, as a reading user does): only 'Welcome back!' is shown then.
  await failed.hover();
  const password = form.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill(STRONG_PASSWORD);
  await password.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Welcome back!' })).toBeVisible();
  await expect(failed).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('on a phone a toast sits at the top, clear of the Add button and of Sign Out', async ({ page }) => {
  test.setTimeout(180_000);
  await newProviderWithApplication(page, 'Pia', 'Phone');
  await page.setViewportSize({ width: 390, height: 844 });
  await openSection(page, 'Payors');
  await page.getByLabel('Payor Name').fill('Aetna');
  const add = page.getByRole('button', { name: 'Add Payor' });
  await add.click();
  const toast = page.getByRole('alert').filter({ hasText: 'Payor information saved successfully.' });
  await expect(toast).toBeVisible();
  // The pointer on the toast holds it open (Mantine pauses its timer) while it is measured.
  await toast.hover();
  const toastBox = (await toast.boundingBox())!;
  // In the upper half of the screen, below the header.
  expect(toastBox.y + toastBox.height).toBeLessThan(844 / 2);
  for (const control of [add, page.getByRole('button', { name: 'Sign Out' })]) {
    const box = (await control.boundingBox())!;
    expect(overlaps(toastBox, box), `toast over ${await control.innerText()}`).toBe(false);
  }
  await expectNoAxeViolations(page);
});

test("'Sign Out' and the logoff warning mind unsaved changes; 'Stay signed in' keeps them", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // The page's clock is ours: the automatic-logoff warning comes when the test says.
  await page.clock.install();
  await newProviderWithApplication(page, 'Una', 'Saved');
  await openSection(page, 'Personal Information');
  const phone = page.getByLabel('Mobile Phone');
  const dialog = page.getByRole('dialog', { name: unsavedChanges.title });
  const idleWarning = page.getByRole('dialog', { name: 'Are you still there?' });

  // With nothing changed, the idle warning says nothing about changes.
  await page.clock.runFor('28:30');
  await page.clock.runFor(1000);
  await expect(idleWarning).toBeVisible();
  await expect(idleWarning.getByText(unsavedChanges.atLogoff)).toHaveCount(0);
  await idleWarning.getByRole('button', { name: 'Stay signed in' }).click();
  await page.clock.runFor(1000);
  await expect(idleWarning).toBeHidden();

  // First, Una types a phone number and presses 'Sign Out': she is asked, with the guard's texts.
  await phone.fill('(555) 010-2000');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(unsavedChanges.body)).toBeVisible();
  await expectNoAxeViolations(page);
  // 'Keep editing': still signed in, on the form, with what she typed.
  await dialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Personal Information' })).toBeVisible();
  await expect(phone).toHaveValue('(555) 010-2000');

  // Second, she stays idle: the warning says the changes would be lost; 'Stay signed in' keeps them.
  await page.clock.runFor('28:30');
  await page.clock.runFor(1000);
  await expect(idleWarning).toBeVisible();
  await expect(idleWarning.getByText(unsavedChanges.atLogoff)).toBeVisible();
  await expectNoAxeViolations(page);
  await idleWarning.getByRole('button', { name: 'Stay signed in' }).click();
  await page.clock.runFor(1000);
  await expect(idleWarning).toBeHidden();
  await expect(phone).toHaveValue('(555) 010-2000');

  // Third, 'Sign Out' again and 'Discard': signed out.
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth/);
});

test('NPI and DEA warnings show when the field is left and in the save confirmation', async ({ page }) => {
  test.setTimeout(180_000);
  await newProviderWithApplication(page, 'Nils', 'Brown');
  await openSection(page, 'Personal Information');
  const npi = page.getByLabel('NPI Number');
  const dea = page.getByLabel('DEA Number');
  // The warning under its field (a status), not the save confirmation that quotes it.
  const fieldWarning = (text: string) => page.getByRole('status').filter({ hasText: text });

  // Nine digits: quiet while typed (a tenth may follow), the format warning once the field is left.
  await npi.pressSequentially('123456789');
  await expect(fieldWarning(NPI_FORMAT_WARNING)).toHaveCount(0);
  await npi.press('Tab');
  await expect(fieldWarning(NPI_FORMAT_WARNING)).toBeVisible();
  // A DEA number (second letter B: Brown) whose check digit is wrong.
  await dea.fill('AB1234564');
  await dea.press('Tab');
  await expect(fieldWarning(DEA_CHECK_DIGIT_WARNING)).toBeVisible();
  await expectNoAxeViolations(page);

  // Saved anyway; the confirmation lists both warnings, past the screen they were on.
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const saved = page.getByRole('alert').filter({ hasText: 'Saved with 2 warnings' });
  await expect(saved).toContainText('Personal information saved successfully');
  await expect(saved).toContainText(
    `Saved with 2 warnings: ${NPI_FORMAT_WARNING} ${DEA_CHECK_DIGIT_WARNING}`,
  );
  await expectNoAxeViolations(page);

  // Reopened, the saved NPI shows its warning at once; with the DEA number corrected, one warning.
  await openSection(page, 'Personal Information');
  await expect(fieldWarning(NPI_FORMAT_WARNING)).toBeVisible();
  await dea.fill('AB1234563');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Saved with 1 warning' })).toContainText(
    `Saved with 1 warning: ${NPI_FORMAT_WARNING}`,
  );
});

test("landing: 'Get Started' opens Sign Up, the sections are counted, the year is today's", async ({
  page,
}) => {
  // A year that is not hard-coded anywhere: the footer must read the clock.
  await page.clock.setFixedTime(new Date('2031-06-15T12:00:00Z'));
  await page.goto('/');
  await expect(page.getByText(/© 2031 Healthcare Provider Credentialing System/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'How it works' })).toContainText(
    `Complete the ${SECTION_COUNT} sections of your application`,
  );
  await expectNoAxeViolations(page);

  await page.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=sign-up$/);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
  await expectNoAxeViolations(page);
  // The tab follows the URL both ways: 'Sign In' drops the parameter.
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
});
