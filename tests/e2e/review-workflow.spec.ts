/**
 * The credentialing review in Chromium (issue 13 acceptance): a provider completes an application, an
 * administrator reviews it on /admin/applications/:applicationId, and 'Send for Decision' is refused
 * while a checklist item is pending. The claims history item (issue 31 item 4) is verified only with
 * the NPDB query result attached. Issue 32 item 4: the administrator sends the clean file for
 * decision, and the medical director approves it from the 'Decisions' tab's 'Clean Files'. A denial
 * (its reason, the provider's view of it) is the committee's: committee.spec.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { disclosureQuestions } from '../../domain/attestation.ts';
import { CLEAN_FILE_CRITERIA } from '../../domain/committee/clean-file.ts';
import { UNSUPPORTED_EXTENSION_MESSAGE } from '../../server/documents/document-intake.ts';
import {
  completionReceiverForSpec,
  currentExclusionLists,
  expectNoAxeViolations,
  PDF_BYTES,
  signAttestation,
  signIn,
  signInAsNewAdmin,
  signInAsNewStaff,
  signUpAndConfirm,
  staffSecretOf,
  staleExclusionLists,
  startAndFillApplication,
  toast,
  totpCode,
  uniqueEmail,
} from './helpers.ts';
import { e2ePorts } from './ports.ts';

/** Where to save screenshots of the screens (E2E_SCREENSHOTS, as in responsive.spec.ts), if anywhere. */
const SHOTS = process.env.E2E_SCREENSHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

// The completion notification is delivered, so the dashboard shows 'Completed ✓' (spec §7).
completionReceiverForSpec();

/**
 * A fake NPPES registry where playwright.config.ts points the server (NPPES_API_URL, a free port
 * picked for the run): every NPI is a Dr. Jane Registry (a name no test provider has: a mismatch to
 * highlight) licensed in Illinois, practising in Chicago and Evanston.
 */
let nppes: http.Server | undefined;
test.beforeAll(async () => {
  nppes = http.createServer((request, response) => {
    const npi = new URL(request.url ?? '/', 'http://x').searchParams.get('number') ?? '';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        result_count: 1,
        results: [
          {
            number: npi,
            enumeration_type: 'NPI-1',
            basic: {
              first_name: 'JANE',
              last_name: 'REGISTRY',
              credential: 'M.D.',
              status: 'A',
              enumeration_date: '2010-05-04',
            },
            taxonomies: [
              { code: '207R00000X', desc: 'Internal Medicine', primary: true, state: 'IL', license: 'L-1' },
            ],
            addresses: [
              {
                address_purpose: 'LOCATION',
                address_1: '1 MAIN ST',
                city: 'CHICAGO',
                state: 'IL',
                postal_code: '60601',
              },
            ],
            practiceLocations: [
              {
                address_purpose: 'LOCATION',
                address_1: '500 LAKE SHORE DR',
                city: 'EVANSTON',
                state: 'IL',
                postal_code: '602011234',
              },
            ],
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    nppes!.once('error', reject);
    nppes!.listen(e2ePorts().nppes, '127.0.0.1', resolve);
  });
});
test.afterAll(async () => {
  nppes?.closeAllConnections();
  await new Promise<void>((resolve) => (nppes ? nppes.close(() => resolve()) : resolve()));
});

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
  await signAttestation(page, `${name.firstName} ${name.lastName}`);
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByText('Submitted', { exact: true })).toBeVisible();
  return { page, applicationId, email };
}

/** The checklist item card whose target (its accessible name) starts with `target`. */
function item(page: Page, target: string) {
  return page.getByRole('listitem', { name: new RegExp(`^${target}`) });
}

/** Attach 'npdb-query-result.pdf' to the claims history item (issue 31 item 4: needed before 'Verify'). */
async function attachNpdbResult(page: Page) {
  const claims = item(page, 'Claims history');
  const chooser = page.waitForEvent('filechooser');
  await claims.getByRole('button', { name: /^Attach Evidence/ }).click();
  await (await chooser).setFiles({
    name: 'npdb-query-result.pdf',
    mimeType: 'application/pdf',
    buffer: PDF_BYTES,
  });
  await expect(claims.getByRole('link', { name: 'Download npdb-query-result.pdf' })).toBeVisible();
}

/** 'Verify' one checklist item with the form's defaults (its primary source, today). */
async function verify(card: ReturnType<typeof item>) {
  await card.getByRole('button', { name: /^Verify / }).click();
  await card.getByLabel('Note').fill('Checked online');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Verified', { exact: true })).toBeVisible();
}

test("'Send for Decision' is refused while a checklist item is pending, and the message names the item", async ({
  browser,
  page,
}) => {
  // Two accounts, the NPPES check, evidence files and the claims history's NPDB file on a 2-core machine.
  test.setTimeout(180_000);
  // Lists that cover nobody: 'Start Review' leaves the exclusion screening pending (issue 51 item 1),
  // so the NPI is the one item verified below.
  await staleExclusionLists();
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
  // Issue 51 item 6: the completed file's page says when the checklist comes.
  await expect(
    page.getByText("The checklist is generated when the review starts ('Start Review')."),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Start Review' }).click();
  await expect(page.getByText('Under Review', { exact: true })).toBeVisible();
  await expect(page.getByText('Reviewer').locator('..')).toContainText('you');

  // 'Check NPPES' (issue 15): the fake registry's record, its name highlighted as differing, recorded
  // in one click.
  const npiCard = item(page, 'NPI');
  await npiCard.getByRole('button', { name: 'Check NPPES' }).click();
  const registry = npiCard.getByLabel('NPPES record');
  await expect(registry).toContainText('JANE REGISTRY, M.D.');
  await expect(registry).toContainText('Internal Medicine (207R00000X), license IL L-1');
  // Every practice location, the primary first (issue 30 item 6).
  await expect(registry.getByRole('list', { name: 'Practice locations' }).getByRole('listitem')).toHaveText([
    '1 MAIN ST, CHICAGO, IL, 60601',
    '500 LAKE SHORE DR, EVANSTON, IL, 60201',
  ]);
  await expect(registry.locator('mark')).toContainText(
    'Name: NPPES has JANE REGISTRY, the application Priya Pending',
  );
  await expectNoAxeViolations(page);
  await registry.scrollIntoViewIfNeeded();
  if (SHOTS) await registry.screenshot({ path: `${SHOTS}/review-nppes-check.png` });
  await registry.getByRole('button', { name: 'Record as verified' }).click();
  await expect(npiCard.getByText('Verified', { exact: true })).toBeVisible();
  await expect(npiCard).toContainText('Verified against NPPES NPI Registry');
  await expect(page.getByText(/^1 of \d+ verified or waived$/)).toBeVisible();
  // An evidence file: the NPPES printout, attached to the NPI item (admins only).
  const npi = item(page, 'NPI');
  const chooser = page.waitForEvent('filechooser');
  await npi.getByRole('button', { name: /^Attach Evidence/ }).click();
  await (await chooser).setFiles({
    name: 'nppes-printout.pdf',
    mimeType: 'application/pdf',
    buffer: PDF_BYTES,
  });
  const downloadLink = npi.getByRole('link', { name: 'Download nppes-printout.pdf' });
  await expect(downloadLink).toBeVisible();
  const [downloaded] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
  expect(downloaded.suggestedFilename()).toBe('nppes-printout.pdf');
  expect(fs.readFileSync(await downloaded.path()).equals(PDF_BYTES)).toBe(true);
  // A file the documents refuse: the server's message under the button, nothing listed.
  const refusedChooser = page.waitForEvent('filechooser');
  await npi.getByRole('button', { name: /^Attach Evidence/ }).click();
  await (await refusedChooser).setFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not evidence'),
  });
  await expect(npi.getByRole('alert')).toHaveText(UNSUPPORTED_EXTENSION_MESSAGE);
  // A second file, removed again after the confirmation.
  const extraChooser = page.waitForEvent('filechooser');
  await npi.getByRole('button', { name: /^Attach Evidence/ }).click();
  await (await extraChooser).setFiles({ name: 'extra.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES });
  await expect(npi.getByRole('alert')).toHaveCount(0);
  await expect(npi.getByRole('link', { name: 'Download extra.pdf' })).toBeVisible();
  if (SHOTS) await npi.screenshot({ path: `${SHOTS}/review-evidence.png` });
  await npi.getByRole('button', { name: 'Remove extra.pdf' }).click();
  await page.getByRole('dialog', { name: 'Remove evidence' }).getByRole('button', { name: 'Remove' }).click();
  await expect(npi.getByRole('link', { name: 'Download extra.pdf' })).toHaveCount(0);
  await expect(downloadLink).toBeVisible();

  // Issue 31 item 4: the claims history is verified with the NPDB query result attached. Said on the
  // item, refused by the server without it, recorded once the file is there.
  const claims = item(page, 'Claims history');
  await expect(claims).toContainText('Claims history: no claims in the last 10 years');
  await expect(claims).toContainText('Primary source: NPDB query (attach the query result as evidence)');
  const npdbRule = 'Attach the NPDB query result to the claims history item before verifying it.';
  await expect(claims.getByText(npdbRule)).toBeVisible();
  await claims.getByRole('button', { name: /^Verify / }).click();
  await claims.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Checklist Not Updated')).toBeVisible();
  await expect(claims.getByText('Pending', { exact: true })).toBeVisible();
  await claims.getByRole('button', { name: 'Cancel' }).click();
  await attachNpdbResult(page);
  await expect(claims.getByText(npdbRule)).toHaveCount(0);
  await verify(claims);

  // Issue 32: an administrator prepares the file; 'Approve' is not theirs, 'Send for Decision' is.
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Send for Decision' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Not done' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText("'Send for Decision' needs every checklist item verified");
  // Shown once, in the page: no 'Send for Decision Failed' toast repeats it (issue 28). The toast would
  // have come with the inline message; the wait covers its container's first load.
  await page.waitForTimeout(1000);
  await expect(page.getByText('Send for Decision Failed')).toHaveCount(0);
  await expect(
    refusal.getByRole('listitem').filter({ hasText: 'Highest education: Uni (pending)' }),
  ).toBeVisible();
  await expect(page.getByText('Under Review', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // An unknown id is a clear dead end, not a crash.
  await page.goto('/admin/applications/00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('alert').filter({ hasText: 'Application not found' })).toBeVisible();
});

test("from completion to approval: queue, Start Review, a request on Professional Licenses, the response, every item verified, 'Send for Decision', the medical director's 'Approve'", async ({
  browser,
  page,
}) => {
  // Two accounts, a completion, a request and its response, then every checklist item verified one
  // by one (each a dialog and a save): 2 minutes ran out on a quiet 2-core machine.
  test.setTimeout(300_000);
  const provider = await providerWithCompletedApplication(browser, {
    firstName: 'Lena',
    lastName: 'Lindqvist',
  });
  const p = provider.page;

  // The administrator finds the application in the Review Queue and opens it.
  await signInAsNewAdmin(page, { firstName: 'Grace', lastName: 'Gathoni', emailPrefix: 'gathoni' });
  await page.getByRole('tab', { name: 'Review Queue' }).click();
  const row = page.getByRole('listitem').filter({ hasText: 'Lena Lindqvist' });
  await expect(row).toBeVisible();
  await expect(row.getByText('Submitted', { exact: true })).toBeVisible();
  await shot(page, 'review-queue');
  await row.getByRole('link', { name: /Open Review/ }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/applications/${provider.applicationId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Lena Lindqvist' })).toBeVisible();
  // The attestation she signed (issue 14): her typed name, an answer to every disclosure question
  // (issue 31 item 2), the snapshot it signs.
  const attestation = page.getByRole('region', { name: 'Signed with the completion' });
  await expect(attestation).toContainText('“Lena Lindqvist”');
  await expect(attestation.getByRole('listitem')).toHaveCount(disclosureQuestions.length);
  await expect(attestation).toContainText('Signs version 1, SHA-256');
  await expect(page.getByText('Re-attestation required')).toHaveCount(0);

  await page.getByRole('button', { name: 'Start Review' }).click();
  await expect(page.getByText('Under Review', { exact: true })).toBeVisible();

  // 'Request Information' on Professional Licenses.
  await page.getByRole('button', { name: 'Request Information' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Information' });
  await dialog
    .getByLabel('Message')
    .fill('Please correct your license number: the state board lists IL-2026-77.');
  await dialog.getByRole('checkbox', { name: 'Professional Licenses' }).check();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Waiting for the provider')).toBeVisible();
  // Sending for decision waits for the response.
  await expect(page.getByRole('button', { name: 'Send for Decision' })).toHaveCount(0);

  // The provider sees 'Action required', edits the license and submits the response.
  await p.goto('/dashboard');
  const banner = p.getByRole('alert').filter({ hasText: 'Action required' });
  await expect(banner).toContainText('the state board lists IL-2026-77');
  await expectNoAxeViolations(p);
  await shot(p, 'provider-action-required');
  // Sections the request does not name stay read-only, and say why (the server's own words).
  await p.goto(`/education/${provider.applicationId}`);
  await expect(p.getByRole('heading', { level: 1, name: 'Education' })).toBeVisible();
  const readOnly = p.getByRole('status').filter({ hasText: 'Read-only' });
  await expect(readOnly).toContainText(
    'is with the credentialing team; you can change it only when they request information',
  );
  await expect(p.getByRole('button', { name: 'Save & Continue' })).toHaveCount(0);
  await expect(p.getByRole('button', { name: 'Add Education' })).toBeHidden();
  await expect(p.getByLabel('Institution Name').first()).toBeDisabled();
  await expectNoAxeViolations(p);
  await p.goto(`/documents/${provider.applicationId}`);
  await expect(p.getByRole('status').filter({ hasText: 'Read-only' })).toBeVisible();
  await expect(p.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await expect(p.getByText('Upload Document')).toHaveCount(0);
  await p.goto('/dashboard');
  await banner.getByRole('link', { name: 'Professional Licenses' }).click();
  await expect(
    p.getByRole('status').filter({ hasText: 'The credentialing team asked for changes here' }),
  ).toContainText('the state board lists IL-2026-77');
  await expect(p.getByRole('heading', { level: 1, name: 'Professional Licenses' })).toBeVisible();
  await p
    .getByRole('region', { name: 'License 1', exact: true })
    .getByLabel('License Number')
    .fill('IL-2026-77');
  await p.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(p.getByText('Professional licenses saved successfully')).toBeVisible();
  await p.goto('/dashboard');
  await p.getByRole('button', { name: 'Submit Response' }).click();
  await expect(p.getByRole('alert').filter({ hasText: 'Action required' })).toHaveCount(0);

  // The administrator sees what changed between the versions.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Version' })).toHaveValue(/^Version 2/);
  // Changes by row identity (issue 29 item 5): the one license, its number before and after.
  const changes = page.getByRole('list', { name: 'Changes since version 1' });
  const changed = changes.getByRole('listitem', { name: /^Professional Licenses › .*, changed$/ });
  await expect(changed).toHaveCount(1);
  await expect(changed.getByRole('heading', { level: 4 })).toContainText('IL-2026-77');
  await expect(changed).toContainText('License Number: Before: L-1 → After: IL-2026-77');
  await expectNoAxeViolations(page);
  await shot(page, 'review-page-changes');

  // Every checklist item verified (the claims history with its NPDB query result), then 'Approve'.
  // The exclusion screening is verified against current lists only (issue 51 item 1).
  await currentExclusionLists();
  await attachNpdbResult(page);
  const pending = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: /^Verify / }) })
    .filter({ has: page.getByText('Pending', { exact: true }) });
  for (let left = await pending.count(); left > 0; left--) {
    const name = (await pending.first().getAttribute('aria-label'))!;
    await verify(page.getByRole('listitem', { name, exact: true }));
    await expect(pending).toHaveCount(left - 1);
  }
  await expect(page.getByText(/^(\d+) of \1 verified or waived$/)).toBeVisible();
  // Issue 32 item 4: every item verified and none of the criteria holds: a clean file, criteria listed.
  const clean = page.getByRole('region', { name: 'Clean file' });
  await expect(clean.getByRole('listitem')).toHaveText([...CLEAN_FILE_CRITERIA]);
  await expect(page.getByRole('alert', { name: 'Needs committee review' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Send for Decision' }).click();
  await expect(page.getByText("On 'Clean Files'")).toBeVisible();
  await expect(
    page.getByText('The Medical Director approves it or sends it to the committee.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send for Decision' })).toHaveCount(0);

  // Issue 32 item 4: the medical director finds it on 'Clean Files', with its clock, and approves it.
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Mina', lastName: 'Director', emailPrefix: 'mina-md' },
    'medical-director',
  );
  await director.getByRole('tab', { name: 'Decisions' }).click();
  const cleanFile = director
    .getByRole('region', { name: 'Clean Files' })
    .getByRole('row')
    .filter({ hasText: 'Lena Lindqvist' });
  await expect(cleanFile).toContainText('Decision due in 120 days');
  await expectNoAxeViolations(director);
  await cleanFile.getByRole('button', { name: 'Approve Lena Lindqvist' }).click();
  // Issue 50 item 7: signed 'I reviewed this file' with the director's authenticator code.
  const approval = director.getByRole('dialog', { name: 'Approve Clean File' });
  await approval.getByRole('checkbox', { name: 'I reviewed this file' }).check();
  await approval.getByLabel('Authentication code').fill(totpCode(staffSecretOf(director)));
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(director, 'File approved')).toBeVisible();
  await expect(cleanFile).toHaveCount(0);

  await page.reload();
  await expect(page.getByText('Approved', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Decided by the Medical Director \(clean file\) on /)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  // On a phone the page stacks: no sideways scrolling, still axe-clean.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Lena Lindqvist' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoAxeViolations(page);
  await shot(page, 'review-page-phone');

  // The provider's dashboard shows the decision, and the approval email is in the outbox.
  await p.goto('/dashboard');
  await expect(p.getByText('Approved', { exact: true })).toBeVisible();
  await expect(p.getByText(/Approved on /)).toBeVisible();
  await shot(p, 'provider-approved');
  await expect(async () => {
    await p.goto('/dev/mail');
    await expect(
      p
        .getByRole('listitem')
        .filter({ hasText: provider.email })
        .filter({ hasText: 'Your credentialing application was approved' }),
    ).toBeVisible({ timeout: 250 });
  }).toPass({ timeout: 10_000 });
  await p.context().close();
});

test("an admin imports the OIG LEIE in the browser; a provider whose NPI is on it shows 'Match' on the review page", async ({
  browser,
  page,
}) => {
  // A provider with an NPI of their own (valid check digit), then completed.
  const providerPage = await (await browser.newContext()).newPage();
  const email = uniqueEmail('excluded');
  await signUpAndConfirm(providerPage, { firstName: 'Ezra', lastName: 'Excluded', email });
  await signIn(providerPage, email);
  const applicationId = await startAndFillApplication(providerPage);
  const npi = await providerPage.request.put(
    `/api/applications/${applicationId}/sections/personal-information`,
    {
      headers: { origin: new URL(providerPage.url()).origin },
      data: { providerType: 'MD', ssn: '123-45-6789', npiNumber: '1245319599', city: 'Boston', state: 'MA' },
    },
  );
  expect(npi.status(), await npi.text()).toBeLessThan(300);
  await providerPage.reload();
  await providerPage.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(providerPage, 'Ezra Excluded');
  await expect(providerPage.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await providerPage.context().close();

  // The administrator imports a synthetic LEIE file (invented names) that lists that NPI: 'Import
  // File' reads it and shows a summary; 'Apply' makes it the list (issue 30 item 1).
  await signInAsNewAdmin(page, { firstName: 'Olu', lastName: 'Oyelaran', emailPrefix: 'oyelaran' });
  await page.getByRole('tab', { name: 'Exclusions' }).click();
  const csv = [
    'LASTNAME,FIRSTNAME,MIDNAME,BUSNAME,GENERAL,SPECIALTY,UPIN,NPI,DOB,ADDRESS,CITY,STATE,ZIP,EXCLTYPE,EXCLDATE,REINDATE,WAIVERDATE,WVRSTATE',
    'EXCLUDED,EZRA,,,IND- LIC HC SERV PRO,PHYSICIAN,,1245319599,19700101,1 INVENTED RD,NOWHERE,MA,02100,1128a1,20240101,00000000,00000000,',
    'NOBODY,KNOWN,,,IND- LIC HC SERV PRO,NURSE,,0000000000,19800101,2 INVENTED RD,NOWHERE,MA,02100,1128b4,20230101,00000000,00000000,',
  ].join('\r\n');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import File' }).click();
  await (await chooser).setFiles({
    name: 'UPDATED.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${csv}\r\n`),
  });
  const summary = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { name: 'OIG LEIE full list (UPDATED.csv): UPDATED.csv' }),
  });
  await expect(summary).toContainText('Rows read2 rows');
  await expect(summary.getByRole('row').filter({ hasText: 'EXCLUDED, EZRA' })).toContainText('1245319599');
  await shot(page, 'admin-exclusions-summary');
  await summary.getByRole('button', { name: 'Apply UPDATED.csv' }).click();
  await expect(summary).toHaveCount(0);
  const leie = page
    .getByRole('table', { name: 'Exclusion list sources' })
    .getByRole('row')
    .filter({ hasText: 'OIG LEIE' });
  await expect(leie).toContainText('2 rows');
  await expect(leie).toContainText('UPDATED.csv (full list, 2 rows)');
  await expectNoAxeViolations(page);
  await shot(page, 'admin-exclusions-tab');

  // Start Review screens the application: the exclusion item shows the match.
  await page.goto(`/admin/applications/${applicationId}`);
  await page.getByRole('button', { name: 'Start Review' }).click();
  const exclusion = page.getByRole('listitem', { name: 'Exclusion screening', exact: true });
  // The status badge (the first 'Discrepancy'; the second is the button).
  await expect(exclusion.getByText('Discrepancy', { exact: true }).first()).toBeVisible();
  await expect(exclusion).toContainText('Note: Match: OIG LEIE: EXCLUDED, EZRA; NPI 1245319599');
  await shot(page, 'review-exclusion-match');
});
