/**
 * Exclusion screening in Chromium (issue 30 items 1, 2, 4, 5): an administrator imports an OIG LEIE
 * full file on the 'Exclusions' tab, reads its summary (rows, the skipped line, a sample) and applies
 * it; a full file shrinking the list needs a reason; a provider under review who shares a first and
 * last name with a list row (another birth date) is a possible match in 'Screening Matches', the
 * birth date marked "Differs", and 'Not the Same Person' with a reason takes it off the queue.
 *
 * The files are invented rows in the LEIE's 18-column format (tests/fixtures/exclusions/e2e/):
 * leie-full-40.csv has 40 rows plus one with an impossible birth date (19870231, skipped) and lists
 * QUILLFEATHER, PERPETUA born 1970-01-01; leie-full-30.csv is its first 30 good rows (a 25 % shrink).
 * The three tests run in order on one administrator's page and one provider.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
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

const FIXTURES = path.resolve('tests/fixtures/exclusions/e2e');
/** Where to save screenshots of the screens (E2E_SCREENSHOTS, as in responsive.spec.ts), if anywhere. */
const SHOTS = process.env.E2E_SCREENSHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
const PROVIDER = { firstName: 'Perpetua', lastName: 'Quillfeather' };
const PROVIDER_NAME = `${PROVIDER.firstName} ${PROVIDER.lastName}`;

// The completion notification is delivered, so the dashboard shows 'Completed ✓' (spec §7).
completionReceiverForSpec();

test.describe.configure({ mode: 'serial' });

let admin: Page;
let applicationId: string;

/**
 * A provider named like the list row, born 1985-03-03 (the row says 1970-01-01), whose completed
 * application is under review: screening after an apply covers applications under review.
 */
async function providerUnderReview(browser: Browser): Promise<string> {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail('quillfeather');
  await signUpAndConfirm(page, { ...PROVIDER, email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const id = await startAndFillApplication(page);
  const saved = await page.request.put(`/api/applications/${id}/sections/personal-information`, {
    headers: { origin: new URL(page.url()).origin },
    data: {
      providerType: 'MD',
      ssn: '123-45-6789',
      npiNumber: '1234567893',
      dateOfBirth: '1985-03-03',
      city: 'Boston',
      state: 'MA',
    },
  });
  expect(saved.status(), await saved.text()).toBeLessThan(300);
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, PROVIDER_NAME);
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await page.context().close();
  return id;
}

/** 'Import File' with a fixture, uploaded under the name OIG gives its full file. */
async function importFile(page: Page, fixture: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import File' }).click();
  await (await chooser).setFiles({
    name: 'UPDATED.csv',
    mimeType: 'text/csv',
    buffer: fs.readFileSync(path.join(FIXTURES, fixture)),
  });
}

/** The OIG LEIE row of the sources table. */
const leieSource = (page: Page) =>
  page
    .getByRole('table', { name: 'Exclusion list sources' })
    .getByRole('row')
    .filter({ hasText: 'OIG LEIE' });

test.beforeAll(async ({ browser }) => {
  // First, a provider completes an application; then an administrator starts its review.
  applicationId = await providerUnderReview(browser);
  admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ines', lastName: 'Irving', emailPrefix: 'irving' });
  const started = await admin.request.post(`/api/admin/applications/${applicationId}/start-review`, {
    headers: { origin: new URL(admin.url()).origin },
    data: {},
  });
  expect(started.status(), await started.text()).toBe(200);
});

test.afterAll(async () => {
  await admin?.context().close();
});

test('an OIG LEIE full file is read, summed up and applied; the source then shows its rows', async () => {
  await admin.getByRole('tab', { name: 'Exclusions' }).click();
  await expect(admin.getByRole('heading', { level: 2, name: 'Exclusion Lists' })).toBeVisible();
  await expect(leieSource(admin)).toBeVisible();

  await importFile(admin, 'leie-full-40.csv');
  // The summary: what the file is, its rows, the skipped line and why, a sample. Nothing applied yet.
  const summary = admin.getByRole('listitem').filter({
    has: admin.getByRole('heading', { name: 'OIG LEIE full list (UPDATED.csv): UPDATED.csv' }),
  });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('Rows read40 rows');
  await expect(summary).toContainText('Rows skipped1 line');
  await expect(summary).toContainText('UTF-8');
  await expect(summary.getByRole('list', { name: 'Skipped lines of UPDATED.csv' })).toContainText(
    /^Line 3\b.*DOB/,
  );
  const sample = summary.getByRole('table', { name: /^First \d+ rows of UPDATED\.csv$/ });
  await expect(sample.getByRole('row').filter({ hasText: 'QUILLFEATHER, PERPETUA' })).toContainText(
    'Jan 1, 1970',
  );
  await expect(summary).not.toContainText('A reason is needed');
  await expectNoAxeViolations(admin);
  await shot(admin, 'exclusions-summary');

  await summary.getByRole('button', { name: 'Apply UPDATED.csv' }).click();
  await expect(admin.getByText(/^OIG LEIE: list replaced, \d+ rows? before, 40 after\. /)).toBeVisible();
  await expect(summary).toHaveCount(0);
  await expect(leieSource(admin)).toContainText('40 rows');
  await expect(leieSource(admin)).toContainText('UPDATED.csv (full list, 40 rows)');
  await expect(leieSource(admin)).toContainText('Current');
  await shot(admin, 'exclusions-applied');
});

test('a full file shrinking the list by more than 10 % is applied only with a reason', async () => {
  await importFile(admin, 'leie-full-30.csv');
  const summary = admin.getByRole('listitem').filter({
    has: admin.getByRole('heading', { name: 'OIG LEIE full list (UPDATED.csv): UPDATED.csv' }),
  });
  await expect(summary).toContainText('Rows read30 rows');
  await expect(summary).toContainText('On the list now40 rows');
  await expect(summary).toContainText('A reason is needed to apply this file');

  await summary.getByRole('button', { name: 'Apply UPDATED.csv' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Apply with a reason' });
  // The server's words: why this file needs a reason.
  await expect(dialog).toContainText('30 rows');
  // No reason: refused in the dialog, nothing sent.
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog.getByText('Give the reason for applying this file.')).toBeVisible();
  await expectNoAxeViolations(admin);
  await shot(admin, 'exclusions-reason');
  await dialog
    .getByRole('textbox', { name: 'Reason' })
    .fill('OIG republished the full list after removing duplicate rows.');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByText('OIG LEIE: list replaced, 40 rows before, 30 after. ')).toBeVisible();
  await expect(leieSource(admin)).toContainText('30 rows');
  await expect(summary).toHaveCount(0);
});

test("a possible match shows the birth date marked 'Differs'; 'Not the Same Person' with a reason clears it", async () => {
  await admin.getByRole('tab', { name: 'Screening Matches' }).click();
  const finding = admin
    .getByRole('list', { name: 'Screening matches to review' })
    .getByRole('listitem', { name: PROVIDER_NAME });
  await expect(finding).toBeVisible();
  await expect(finding).toContainText('Possible match');
  await expect(finding).toContainText('OIG LEIE · Matched on: Name only');
  await expect(finding.getByRole('link', { name: PROVIDER_NAME })).toHaveAttribute(
    'href',
    `/admin/applications/${applicationId}`,
  );
  const comparison = finding.getByRole('table', {
    name: `${PROVIDER_NAME} and the OIG LEIE row, side by side`,
  });
  const birthDate = comparison.getByRole('row').filter({ hasText: 'Date of birth' });
  await expect(birthDate).toContainText('1985-03-03');
  await expect(birthDate).toContainText('1970-01-01');
  await expect(birthDate).toContainText('Differs');
  await expect(birthDate.locator('mark')).toHaveCount(2);
  await expect(comparison.getByRole('row').filter({ hasText: 'Last name' })).toContainText('Same');
  await expect(comparison.getByRole('row').filter({ hasText: 'NPI' })).toContainText('Not on one side');
  await expectNoAxeViolations(admin);
  await shot(admin, 'screening-matches');

  await finding.getByRole('button', { name: `Not the Same Person: ${PROVIDER_NAME}, OIG LEIE` }).click();
  const dialog = admin.getByRole('dialog', { name: `Not the Same Person: ${PROVIDER_NAME}` });
  await dialog.getByRole('button', { name: 'Not the Same Person' }).click();
  await expect(dialog.getByText('Give the reason for this decision.')).toBeVisible();
  await dialog
    .getByRole('textbox', { name: 'Reason' })
    .fill('Different birth date and state; the license on file is hers.');
  await dialog.getByRole('button', { name: 'Not the Same Person' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByText(`${PROVIDER_NAME} is not the person on the OIG LEIE row`)).toBeVisible();
  await expect(finding).toHaveCount(0);

  // Read again from the server: the cleared row stays off the queue (other specs on the same server may
  // leave findings of their own there, so the queue itself need not be empty).
  await admin.reload();
  await expect(
    admin.getByText(/^(No screening matches to review\.|[\d,]+ findings? to review)$/),
  ).toBeVisible();
  await expect(finding).toHaveCount(0);
});
