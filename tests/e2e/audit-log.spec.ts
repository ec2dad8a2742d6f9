/**
 * The admin 'Audit Log' tab's filters and CSV export (issue 34) in Chromium against the real server:
 * an administrator finds a provider by name in the Provider filter (the URL keeps her user id only,
 * never her name or email), narrows the log by action and by one UTC day picked in the date range,
 * exports the filter as CSV and reads it back (header, one row, the export itself audited), with axe
 * clean and nothing scrolling sideways at 390 px.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  e2eSql,
  expectNoAxeViolations,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  uniqueEmail,
} from './helpers.ts';

const today = () => new Date().toISOString().slice(0, 10);

test('an admin filters the audit log by provider, action and date, and exports the filter as CSV', async ({
  page,
}) => {
  // First, a provider signs up and signs in; an older view of her file sits in the log (2001).
  const email = uniqueEmail('priya.audit');
  await signUpAndConfirm(page, { firstName: 'Priya', lastName: 'Auditlog', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await e2eSql(
    `insert into audit_log (occurred_at, action, subject_user_id, resource_type, resource_id)
     select '2001-03-01T12:00:00Z', 'admin.view_provider', id, 'profile', id from "user" where email = $1`,
    [email],
  );

  // Second, an administrator opens her file today (audited as a view of the provider).
  await signInAsNewAdmin(page, { firstName: 'Aldo', lastName: 'Auditing', emailPrefix: 'audit-log-admin' });
  const found = await page.request.get(`/api/admin/providers?search=${encodeURIComponent(email)}`);
  const providerId = ((await found.json()) as { providers: { userId: string }[] }).providers[0]!.userId;
  expect((await page.request.get(`/api/admin/providers/${providerId}`)).status()).toBe(200);

  // Third, the 'Audit Log' tab: the provider found by name, then her provider views.
  await page.getByRole('tab', { name: 'Audit Log' }).click();
  const table = page.getByRole('table', { name: 'Audit events, newest first' });
  await expect(table).toBeVisible();
  await page.getByRole('combobox', { name: 'Provider' }).fill('Priya Auditlog');
  await page
    .getByRole('option', { name: new RegExp(`^Priya Auditlog \\(${email.replace(/\./g, '\\.')}\\)$`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]subject=${providerId}`));
  expect(page.url()).not.toContain('Priya');
  expect(page.url()).not.toContain(encodeURIComponent(email));
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Viewed provider details (admin.view_provider)' }).click();
  const rows = table.getByRole('row');
  // The header, today's view and the one of 2001.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Aldo Auditing');
  await expect(rows.nth(2)).toContainText('Mar 1, 2001');

  // Fourth, one day in the date range (today, UTC): the 2001 view drops out.
  await page.getByRole('button', { name: 'Dates (UTC)' }).click();
  const todayLabel = new Date().toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await page.getByRole('button', { name: todayLabel, exact: true }).click();
  await page.getByRole('button', { name: todayLabel, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`from=${today()}&to=${today()}`));
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Aldo Auditing');
  await expect(page.getByRole('button', { name: 'Dates (UTC)' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Fifth, 'Export CSV' downloads that filter; the file is read back.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`audit-log-${today()}-to-${today()}.csv`);
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'Time (UTC),Action,Action label,Actor,Actor ID,Subject,Subject ID,Resource type,Resource ID,IP address,Details',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    new RegExp(
      `^${today()}T[0-9:.]+Z,admin\\.view_provider,Viewed provider details,Aldo Auditing,[^,]+,Priya Auditlog,${providerId},`,
    ),
  );

  // Sixth, the export is in the log itself, under its own action (the filter holds no names).
  // Mantine hides a select's clear button from assistive technology (re-choosing the option clears it).
  await page.getByRole('combobox', { name: 'Provider' }).locator('xpath=..').locator('button').click();
  await expect(page).not.toHaveURL(/subject=/);
  await page.getByRole('button', { name: 'Clear dates' }).click();
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('combobox', { name: 'Action' }).fill('Exported the audit log');
  await page.getByRole('option', { name: 'Exported the audit log (CSV) (admin.export_audit_log)' }).click();
  await expect(rows.nth(1)).toContainText('Exported the audit log (CSV)');
  await expect(rows.nth(1)).toContainText('Aldo Auditing');

  // Last, at 390 px the filters stack and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const exportLink = page.getByRole('link', { name: 'Export CSV' });
  await exportLink.scrollIntoViewIfNeeded();
  await expect(exportLink).toBeInViewport({ ratio: 1 });
  for (const name of ['Provider', 'Actor', 'Action']) {
    const box = (await page.getByRole('combobox', { name }).boundingBox())!;
    expect(box.x + box.width, name).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
});
