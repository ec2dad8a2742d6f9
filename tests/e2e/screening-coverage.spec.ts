/**
 * Screening verdicts name what was screened (issue 51 item 1), in Chromium: with every exclusion list
 * older than 35 days (or never imported), a specialist's 'Verify' of the exclusion screening is
 * refused with a message naming the lists; once an administrator imports the OIG LEIE and SAM.gov,
 * the item names each list with the day it was imported and its rows, on the review page and in the
 * File Summary PDF (read with poppler's pdftotext).
 *
 * The LEIE file is invented rows in the LEIE's 18-column format; the SAM.gov file is the real public
 * extract sample of tests/fixtures/exclusions/sam/ (SOURCES.md).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { LEIE_COLUMNS } from '../../domain/screening/exclusion-formats.ts';
import {
  completedApplicationInBrowser,
  completionReceiverForSpec,
  expectNoAxeViolations,
  signInAsNewAdmin,
  signInAsNewStaff,
  staleExclusionLists,
} from './helpers.ts';

completionReceiverForSpec();

/** The PDF's text, whitespace collapsed (a table cell may wrap). */
const pdfText = (file: string) =>
  execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

/** Stage and apply `buffer` as `name` through the 'Exclusions' tab's API; @returns the rows after. */
async function importList(admin: Page, name: string, buffer: Buffer): Promise<number> {
  const headers = { origin: new URL(admin.url()).origin };
  const staged = await admin.request.post('/api/admin/exclusions/imports', {
    headers,
    multipart: { file: { name, mimeType: 'text/csv', buffer } },
  });
  expect(staged.status(), await staged.text()).toBe(200);
  const { id, needsReason } = (await staged.json()) as { id: number; needsReason: string | null };
  // Lists other specs imported may be longer than this one: the shrink needs a reason.
  const applied = await admin.request.post(`/api/admin/exclusions/imports/${id}/apply`, {
    headers,
    data: needsReason ? { reason: 'The current full list replaces the old one.' } : {},
  });
  expect(applied.status(), await applied.text()).toBe(200);
  return ((await applied.json()) as { rowsAfter: number }).rowsAfter;
}

test('a specialist cannot verify exclusion screening until the lists are current, then sees each list named with its day', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  // Every list imported so far by other specs is now older than the 35-day monitoring period.
  await staleExclusionLists();
  const provider = await (await browser.newContext()).newPage();
  const { applicationId } = await completedApplicationInBrowser(provider, {
    firstName: 'Sasha',
    lastName: 'Screened',
    emailPrefix: 'sasha-coverage',
  });
  await provider.context().close();

  await signInAsNewStaff(
    page,
    { firstName: 'Sol', lastName: 'Specialist', emailPrefix: 'sol-coverage' },
    'specialist',
  );
  await page.goto(`/admin/applications/${applicationId}`);
  await page.getByRole('button', { name: 'Start Review' }).click();
  const item = page.getByRole('listitem', { name: 'Exclusion screening', exact: true });
  await expect(item.getByText('Pending', { exact: true }).first()).toBeVisible();

  // 'Verify' is refused, naming both federal lists and where to import them.
  await item.getByRole('button', { name: /^Verify / }).click();
  await expect(item.getByLabel('Source')).toHaveAttribute('readonly', '');
  await item.getByRole('button', { name: 'Save' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Checklist Not Updated' });
  await expect(refusal).toContainText('Exclusion screening cannot be verified until every list is current');
  await expect(refusal).toContainText(/OIG LEIE \((never imported|last imported \d{4}-\d{2}-\d{2})\)/);
  await expect(refusal).toContainText(
    /SAM\.gov exclusions \((never imported|last imported \d{4}-\d{2}-\d{2})\)/,
  );
  await expect(refusal).toContainText("on the 'Exclusions' tab");
  await expectNoAxeViolations(page);

  // An administrator imports both federal lists.
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ada', lastName: 'Lists', emailPrefix: 'ada-coverage' });
  const leieRow = (last: string, npi: string) =>
    [
      last,
      'INVENTED',
      '',
      '',
      'IND- LIC HC SERV PRO',
      'NURSE',
      '',
      npi,
      '19600101',
      '1 NOWHERE RD',
      'NOWHERE',
      'MA',
    ]
      .concat(['02100', '1128b4', '20200115', '00000000', '00000000', ''])
      .map((v) => `"${v}"`)
      .join(',');
  const leie = [LEIE_COLUMNS.map((c) => `"${c}"`).join(','), leieRow('NOBODYONE', '1111111112')]
    .concat(leieRow('NOBODYTWO', '0000000000'), leieRow('NOBODYTHREE', '0000000000'))
    .join('\r\n');
  const leieRows = await importList(admin, 'UPDATED.csv', Buffer.from(`${leie}\r\n`));
  const samRows = await importList(
    admin,
    'SAM_Exclusions_Public_Extract_V2_23326.CSV',
    fs.readFileSync(path.resolve('tests/fixtures/exclusions/sam/SAM_Exclusions_Public_Extract_V2_23326.CSV')),
  );
  await admin.context().close();

  // The item names each list screened with its day and rows; the specialist's 'Verify' now stands.
  const today = new Date().toISOString().slice(0, 10);
  const screened = `OIG LEIE of ${today} (${leieRows.toLocaleString('en-US')} rows), SAM.gov exclusions of ${today} (${samRows.toLocaleString('en-US')} rows)`;
  await page.reload();
  await expect(item).toContainText(screened);
  await item.getByRole('button', { name: /^Verify / }).click();
  await expect(item.getByLabel('Source')).toHaveValue(screened);
  await item.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Checklist Updated' })).toBeVisible();
  await expect(item).toContainText(`Verified against ${screened}`);
  await expect(item).toContainText('Sol Specialist');

  // The File Summary says the same.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download File Summary' }).click(),
  ]);
  const text = pdfText(await download.path());
  expect(text).toContain(`Lists screened ${screened}`);
  expect(text).toContain(`Exclusion screening Verified ${screened}`);
});
