/**
 * Credential updates after approval, in Chromium (issue 29 item 4, acceptance (c)): an approved
 * provider whose medical license expires in 20 days (the date follows the real clock the server runs
 * on) sees it on the 'Expiring Credentials' card with 'Update Credential', which opens Professional
 * Licenses in update mode (no read-only dead end); she renews it and presses 'Submit Update'. The
 * dashboard says the update was sent; the administrator's Review Queue lists a 'Credential Update'
 * for her; on the review page only the license needs re-verification; once it is verified, 'Complete
 * Update Review' closes the update and it leaves the queue. The Documents screen takes an update too:
 * opened with `?update=1` it uploads (never deletes) the renewed license file, and 'Submit Update'
 * sends it as a credential update whose changed section is Documents.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect as baseExpect, type Locator, type Page, test } from '@playwright/test';
import {
  approveThroughApi,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  expectNoAxeViolations,
  PDF_BYTES,
  signAttestation,
  signIn,
  signInAsNewAdmin,
  signInAsNewStaff,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

/** The review page and the queue load several queries: on a shared 2-core machine that can pass 10 s. */
const expect = baseExpect.configure({ timeout: 30_000 });

completionReceiverForSpec();

const day = 24 * 60 * 60 * 1000;
/** YYYY-MM-DD `offset` days from today (UTC). */
const isoDay = (offset: number) => new Date(Date.now() + offset * day).toISOString().slice(0, 10);

const LICENSE = 'Professional license: medical license IL L-1';

/** A provider who filled every section, with a medical license expiring in 20 days, and completed. */
async function providerWithExpiringLicense(browser: Browser): Promise<{ page: Page; applicationId: string }> {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail('carla');
  await signUpAndConfirm(page, { firstName: 'Carla', lastName: 'Update', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  const base = `/api/applications/${applicationId}/sections/professional-licenses`;
  const { rows } = (await (await page.request.get(base)).json()) as { rows: Record<string, unknown>[] };
  const saved = await page.request.put(base, {
    headers: { origin: new URL(page.url()).origin },
    data: {
      rows: [
        {
          ...rows[0],
          licenseType: 'medical_license',
          licenseNumber: 'L-1',
          issuingState: 'IL',
          issueDate: '2016-12-15',
          expirationDate: isoDay(20),
        },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBeLessThan(300);
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, 'Carla Update');
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  return { page, applicationId };
}

function item(page: Page, target: string): Locator {
  return page.getByRole('listitem', { name: target, exact: true });
}

test('an approved provider updates an expiring license from the card; the reviewer verifies only that item', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // First, Carla completes her application; Ulla approves it with every item verified.
  const { page: provider, applicationId } = await providerWithExpiringLicense(browser);
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ulla', lastName: 'Reviewer', emailPrefix: 'ulla-update' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Mia', lastName: 'Director', emailPrefix: 'ulla-update-md' },
    'medical-director',
  );
  await approveThroughApi(admin, applicationId, director);

  // Second, Carla's dashboard lists the license with 'Update Credential'.
  await provider.reload();
  const card = provider.getByRole('region', { name: 'Expiring Credentials' });
  const listed = card.getByRole('listitem').filter({ hasText: 'Medical License L-1 (IL)' });
  await expect(listed).toContainText('20 days left');
  await expectNoAxeViolations(provider);
  await listed.getByRole('link', { name: /^Update Credential/ }).click();

  // Third, the section opens in update mode: editable, explained, no read-only dead end.
  await expect(provider).toHaveURL(new RegExp(`/professional-licenses/${applicationId}\\?update=1$`));
  const notice = provider.getByRole('region', { name: 'Update Credential' });
  await expect(notice).toContainText("press 'Submit Update'");
  // The renewed license's file goes to Documents, opened in update mode too.
  await expect(
    notice.getByRole('link', { name: 'Upload the renewed document in Documents' }),
  ).toHaveAttribute('href', `/documents/${applicationId}?update=1`);
  await expect(provider.getByText('Read-only', { exact: true })).toHaveCount(0);
  await expect(provider.getByText(/it can no longer be changed/)).toHaveCount(0);
  const renewed = isoDay(20 + 3 * 365);
  const license = provider.getByRole('region', { name: 'License 1', exact: true });
  await license.getByLabel('Expiration Date').fill(renewed);
  await provider.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(provider.getByText('Professional licenses saved successfully')).toBeVisible();

  // Fourth, the dashboard keeps what is not sent yet; 'Submit Update' asks first, then sends it.
  await provider.goto('/dashboard');
  const updateCard = provider.getByRole('region', { name: 'Credential Update' });
  await expect(updateCard).toContainText('Changed: Professional Licenses');
  await updateCard.getByRole('button', { name: 'Submit Update' }).click();
  const confirm = provider.getByRole('dialog', { name: 'Submit Update' });
  await expect(confirm).toContainText('sent to the credentialing team as a credential update');
  await confirm.getByRole('button', { name: 'Submit Update' }).click();
  await expect(updateCard.getByRole('status')).toHaveText(
    /^Credential update sent [A-Z][a-z]{2} \d{1,2}, \d{4}: the credentialing team verifies the change$/,
  );
  await expect(updateCard).not.toContainText('Changed: Professional Licenses');
  // The renewed license no longer expires soon.
  await expect(provider.getByRole('region', { name: 'Expiring Credentials' })).toHaveCount(0);
  await expectNoAxeViolations(provider);

  // Fifth, Ulla's Review Queue lists a 'Credential Update' for Carla.
  await admin.goto('/admin?tab=review');
  const queued = admin.getByRole('listitem', { name: 'Carla Update' });
  await expect(queued.getByText('Credential Update', { exact: true })).toBeVisible();
  await expect(queued).toContainText('Changed: Professional Licenses');
  await expectNoAxeViolations(admin);
  await queued.getByRole('link', { name: 'Open Review of Carla Update' }).click();

  // Sixth, the review page: the banner, and only the license needs re-verification.
  const banner = admin.getByRole('region', { name: 'Credential Update' });
  await expect(banner).toContainText('Sections changed: Professional Licenses');
  const licenseItem = item(admin, LICENSE);
  await expect(licenseItem.getByText('Needs re-verification', { exact: true })).toBeVisible();
  await expect(admin.getByText('Needs re-verification', { exact: true })).toHaveCount(1);

  // Seventh, Ulla verifies the license in the page and completes the update review.
  await licenseItem.getByRole('button', { name: /^Verify / }).click();
  await licenseItem.getByLabel('Note').fill('Renewal checked on the state board website');
  await licenseItem.getByRole('button', { name: 'Save' }).click();
  await expect(licenseItem.getByText('Verified', { exact: true })).toBeVisible();
  await banner.getByRole('button', { name: 'Complete Update Review' }).click();
  const completeDialog = admin.getByRole('dialog', { name: 'Complete Update Review' });
  await completeDialog.getByRole('button', { name: 'Complete Update Review' }).click();
  await expect(admin.getByRole('region', { name: 'Credential Update' })).toHaveCount(0);

  // The update left the queue; Carla's dashboard says it was reviewed.
  await admin.goto('/admin?tab=review');
  await expect(admin.getByRole('listitem', { name: 'Carla Update' })).toHaveCount(0);
  await provider.reload();
  await expect(provider.getByRole('region', { name: 'Credential Update' })).toContainText(
    /^Credential Update\s*Credential update reviewed /,
  );
});

test('an approved provider uploads a renewed license file on Documents in update mode and sends it', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const renewedFile = testInfo.outputPath('renewed-license.pdf');
  fs.mkdirSync(path.dirname(renewedFile), { recursive: true });
  fs.writeFileSync(renewedFile, PDF_BYTES);

  // First, Dora completes her application (with cv.pdf); Uri approves it with every item verified.
  const provider = await (await browser.newContext()).newPage();
  const { applicationId } = await completedApplicationInBrowser(provider, {
    firstName: 'Dora',
    lastName: 'Upload',
    emailPrefix: 'dora-docs',
  });
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Uri', lastName: 'Reviewer', emailPrefix: 'uri-docs' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Mia', lastName: 'Director', emailPrefix: 'uri-docs-md' },
    'medical-director',
  );
  await approveThroughApi(admin, applicationId, director);

  // Second, Documents without ?update=1 offers 'Update Credential' instead of a read-only dead end,
  // and no upload yet.
  await provider.goto(`/documents/${applicationId}`);
  const notice = provider.getByRole('region', { name: 'Update Credential' });
  await expect(notice).toContainText("Press 'Update Credential' to upload it here.");
  await expect(provider.getByText('Read-only', { exact: true })).toHaveCount(0);
  await expect(provider.getByRole('button', { name: 'Choose File' })).toHaveCount(0);

  // Third, in update mode (`?update=1`) she may upload, never delete what the approval rests on.
  await provider.goto(`/documents/${applicationId}?update=1`);
  await expect(notice).toContainText("Upload the renewed document here, then press 'Submit Update'");
  await expect(provider.getByRole('link', { name: 'Download cv.pdf' })).toBeVisible();
  await expect(provider.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await expectNoAxeViolations(provider);
  await provider.getByRole('combobox', { name: 'Document Type' }).click();
  await provider.getByRole('option', { name: 'Medical License', exact: true }).click();
  const [chooser] = await Promise.all([
    provider.waitForEvent('filechooser'),
    provider.getByRole('button', { name: 'Choose File' }).click(),
  ]);
  await chooser.setFiles(renewedFile);
  await expect(provider.getByText('Uploaded renewed-license.pdf')).toBeVisible();
  await expect(provider.getByRole('link', { name: 'Download renewed-license.pdf' })).toBeVisible();
  await expect(provider.getByRole('button', { name: /^Delete / })).toHaveCount(0);

  // The upload is saved but not sent: the update's unsent sections name Documents alone.
  const unsent = (await (
    await provider.request.get(`/api/applications/${applicationId}/credential-update`)
  ).json()) as { unsentSections: string[] };
  expect(unsent.unsentSections).toEqual(['documents']);

  // Fourth, 'Submit Update' on the Documents screen asks first, sends, and returns to the dashboard.
  await notice.getByRole('button', { name: 'Submit Update' }).click();
  const confirm = provider.getByRole('dialog', { name: 'Submit Update' });
  await confirm.getByRole('button', { name: 'Submit Update' }).click();
  await expect(provider).toHaveURL(/\/dashboard$/);
  await expect(provider.getByRole('region', { name: 'Credential Update' }).getByRole('status')).toHaveText(
    /^Credential update sent [A-Z][a-z]{2} \d{1,2}, \d{4}: the credentialing team verifies the change$/,
  );

  // Fifth, Uri's queue lists the update with Documents changed; on the review page the banner names
  // Documents, and the license, which a 'Medical License' file evidences, alone needs re-verification.
  await admin.goto('/admin?tab=review');
  const queued = admin.getByRole('listitem', { name: 'Dora Upload' });
  await expect(queued.getByText('Credential Update', { exact: true })).toBeVisible();
  await expect(queued).toContainText('Changed: Documents');
  await queued.getByRole('link', { name: 'Open Review of Dora Upload' }).click();
  await expect(admin.getByRole('region', { name: 'Credential Update' })).toContainText(
    'Sections changed: Documents',
  );
  const needs = admin.getByText('Needs re-verification', { exact: true });
  await expect(needs).toHaveCount(1);
  await expect(admin.getByRole('listitem', { name: /^Professional license/ })).toContainText(
    'Needs re-verification',
  );
});
