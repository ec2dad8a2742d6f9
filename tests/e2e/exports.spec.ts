/**
 * Files that leave the product, in Chromium against the real server (issue 33 acceptance): three
 * providers complete their applications and are credentialed (verified, sent for decision, approved
 * by the medical director); the administrator downloads one file's 'Download File Summary' and reads
 * it with poppler's pdftotext (every checklist item with its status, source and date), then 'Export
 * Roster' as CSV and as Excel, each read back with the three providers in it. An administrator
 * registers an 'API Client' whose token reads the roster, rotates its secret (both secrets work for
 * the 24 hours of switching over) and revokes it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { formatIsoDay } from '../../domain/calendar.ts';
import {
  approveThroughApi,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  expectNoAxeViolations,
  signInAsNewAdmin,
  signInAsNewStaff,
  toast,
} from './helpers.ts';

completionReceiverForSpec();

const providers = [
  { firstName: 'Nia', lastName: 'Roster', emailPrefix: 'nia-roster' },
  { firstName: 'Omid', lastName: 'Roster', emailPrefix: 'omid-roster' },
  { firstName: 'Pia', lastName: 'Roster', emailPrefix: 'pia-roster' },
];

interface ReviewChecklist {
  checklist: { target: string; status: string; source: string | null; verifiedAt: string | null }[];
}

/** Every run of whitespace one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The download's text as poppler reads it in content-stream order (`-raw`: the renderer draws a
 * table row cell after cell, so a row reads as one run even where a cell wraps), flattened.
 */
function pdftotext(path: string): string {
  return flat(execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }));
}

async function downloadFrom(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), path: await download.path() };
}

test('the file summary PDF lists every checklist item; the roster downloads as CSV and Excel with the credentialed providers', async ({
  browser,
  page,
}) => {
  // Three applications filled in parallel, then verified and approved: minutes, not seconds.
  test.setTimeout(300_000);
  const completed = await Promise.all(
    providers.map(async (name) =>
      completedApplicationInBrowser(await (await browser.newContext()).newPage(), name),
    ),
  );
  await signInAsNewAdmin(page, { firstName: 'Eve', lastName: 'Exporter', emailPrefix: 'eve-exports' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Dan', lastName: 'Director', emailPrefix: 'dan-exports' },
    'medical-director',
  );
  for (const { applicationId } of completed) await approveThroughApi(page, applicationId, director);

  // The file summary of the first provider: every checklist item with its status, source and date.
  const [first] = completed;
  await page.goto(`/admin/applications/${first!.applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Nia Roster' })).toBeVisible();
  const summary = await downloadFrom(page, () =>
    page.getByRole('link', { name: 'Download File Summary' }).click(),
  );
  expect(summary.name).toBe(`credentialing-file-summary-${first!.applicationId.slice(0, 8)}-v1.pdf`);
  const text = pdftotext(summary.path);
  const review = (await (
    await page.request.get(`/api/admin/applications/${first!.applicationId}/review`)
  ).json()) as ReviewChecklist;
  expect(review.checklist.length).toBeGreaterThan(5);
  for (const item of review.checklist) {
    expect(item.status).toBe('verified');
    expect(text, item.target).toContain(
      flat(`${item.target} Verified ${item.source} ${formatIsoDay(item.verifiedAt!)} Eve Exporter`),
    );
  }
  expect(text).toContain('Decision Approved Decided by the Medical Director (clean file)');
  expect(text).toContain('SSN ***-**-');

  // 'Export Roster' from the dashboard: the default columns, CSV first.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Export Roster' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export Roster' });
  await expect(dialog.getByRole('checkbox', { name: 'NPI', exact: true })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Group NPI' })).not.toBeChecked();
  await expectNoAxeViolations(page);
  const csv = await downloadFrom(page, () => dialog.getByRole('button', { name: 'Download' }).click());
  expect(csv.name).toMatch(/^credentialed-roster-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync(csv.path, 'utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toMatch(/^NPI,Last Name,First Name,Degree,Primary Taxonomy,/);
  for (const { firstName } of providers) {
    expect(lines.filter((line) => line.includes(`,Roster,${firstName},`))).toHaveLength(1);
  }

  // Then Excel, with 'Group NPI' added: the choice is remembered for the next export.
  await page.getByRole('button', { name: 'Export Roster' }).click();
  await dialog.getByRole('radio', { name: 'Excel (XLSX)' }).check();
  await dialog.getByRole('checkbox', { name: 'Group NPI' }).check();
  const xlsx = await downloadFrom(page, () => dialog.getByRole('button', { name: 'Download' }).click());
  expect(xlsx.name).toMatch(/^credentialed-roster-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(xlsx.path);
  const sheet = workbook.getWorksheet('Roster')!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header).toContain('Group NPI');
  const names: string[] = [];
  sheet.eachRow((row, index) => {
    if (index > 1) names.push(`${row.getCell(3).value} ${row.getCell(2).value}`);
  });
  for (const { firstName } of providers) expect(names).toContain(`${firstName} Roster`);
  await page.getByRole('button', { name: 'Export Roster' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Group NPI' })).toBeChecked();
});

test("an administrator registers an 'API Client', whose token reads the roster, rotates its secret, then revokes it", async ({
  page,
}) => {
  await signInAsNewAdmin(page, { firstName: 'Ivy', lastName: 'Integrator', emailPrefix: 'ivy-clients' });
  await page.getByRole('tab', { name: 'API Clients' }).click();
  await expect(page.getByText('No API client is registered yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Register API Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register API Client' });
  // Both fields are required: the contract's messages under them.
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Enter a name')).toBeVisible();
  await expect(dialog.getByText('Choose at least one scope')).toBeVisible();
  await dialog.getByLabel('Name').fill('Payer directory');
  await dialog.getByRole('checkbox', { name: /^roster\.read:/ }).check();
  // A private key pasted by mistake is refused before it leaves the browser.
  const keys = dialog.getByLabel('Public keys (JWKS, optional)');
  await keys.fill('{"keys":[{"kty":"EC","crv":"P-384","kid":"k1","x":"x","y":"y","d":"secret"}]}');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Key 1 holds private key material (d)')).toBeVisible();
  await keys.fill('');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Copy the client secret now')).toBeVisible();
  await expectNoAxeViolations(page);
  const clientId = (await dialog.getByLabel('client_id', { exact: true }).textContent()) ?? '';
  const clientSecret = (await dialog.getByLabel('client_secret', { exact: true }).textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Payer directory' });
  await expect(row).toContainText(clientId);
  await expect(row).toContainText('Active');
  await expect(row).toContainText('None (secret only)');

  // The client's token reads the roster (a machine: no cookie, no Origin).
  const tokenWith = (secret: string) =>
    page.request.fetch('/oauth/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: '',
      },
      data: 'grant_type=client_credentials',
    });
  const token = await tokenWith(clientSecret);
  expect(token.status(), await token.text()).toBe(200);
  const accessToken = ((await token.json()) as { access_token: string }).access_token;
  const roster = () =>
    page.request.get('/api/admin/roster.csv?columns=npi', {
      headers: { authorization: `Bearer ${accessToken}`, cookie: '' },
    });
  expect((await roster()).status()).toBe(200);

  // 'Rotate Secret' (issue 52 item 3), confirmed: the new secret is shown once; it works, and the
  // old one still does for its system's 24 hours of switching over.
  await row.getByRole('button', { name: 'Rotate Secret' }).click();
  const confirm = page.getByRole('dialog', { name: 'Rotate Secret' });
  await expect(confirm).toContainText('Payer directory gets a new client secret, shown once.');
  await expect(confirm).toContainText('The current secret keeps working for 24 hours');
  await confirm.getByRole('button', { name: 'Rotate Secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'New client secret' });
  await expect(rotated.getByText('Copy the client secret now')).toBeVisible();
  await expectNoAxeViolations(page);
  await expect(rotated.getByLabel('client_id', { exact: true })).toHaveText(clientId);
  const newSecret = (await rotated.getByLabel('client_secret', { exact: true }).textContent()) ?? '';
  expect(newSecret.length).toBeGreaterThan(20);
  expect(newSecret).not.toBe(clientSecret);
  await rotated.getByRole('button', { name: 'Done' }).click();
  await expect(rotated).toBeHidden();
  expect((await tokenWith(newSecret)).status()).toBe(200);
  expect((await tokenWith(clientSecret)).status()).toBe(200);
  expect((await tokenWith(`${newSecret}x`)).status()).toBe(401);

  // 'Revoke', confirmed: the token is refused from then on.
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke API Client' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(toast(page, 'API client revoked')).toBeVisible();
  await expect(row).toContainText('Revoked');
  expect((await roster()).status()).toBe(401);
});
