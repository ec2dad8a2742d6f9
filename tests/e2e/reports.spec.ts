/**
 * The admin 'Reports' tab (issue 34) in Chromium against the real server, on data made through the
 * product: one provider's file is verified by an administrator and approved by the medical director
 * (a decision this month), another provider's file stays under review with a license expiring in 40
 * days and a name on the OIG LEIE list the administrator imports and applies (a monitoring run and an
 * open possible match); the approved credential's recredentialing falls due in 100 days (SQL: the
 * clock). The tab draws each of the six reports, shows each one's numbers under 'Show as table',
 * narrows Backlog and Workload to the administrator, links the oldest open file to its review page
 * (Back keeps the filter), says 'No decisions in this range.' for a range without any, downloads the
 * CSVs, passes axe, and at 390 px draws every chart full width with the tables as cards and nothing
 * scrolling sideways. The medical director, who cannot read the staff list, is offered the people
 * with work in the range.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  approveThroughApi,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  e2eSql,
  expectNoAxeViolations,
  signAttestation,
  signIn,
  signInAsNewAdmin,
  signInAsNewStaff,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

completionReceiverForSpec();

/** Where to save screenshots of the tab (E2E_SCREENSHOTS, as in responsive.spec.ts), if anywhere. */
const SHOTS = process.env.E2E_SCREENSHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const REPORTS = [
  'Turnaround',
  'Backlog and aging',
  'Timeliness',
  'Expirables forecast',
  'Screening',
  'Workload',
] as const;

/** Each report's table (its caption or name) under 'Show as table'. */
const TABLES: Record<(typeof REPORTS)[number], string> = {
  Turnaround: 'Turnaround per month of decision',
  'Backlog and aging': 'Open files by status and days since attestation',
  Timeliness: 'Timeliness per month of decision',
  'Expirables forecast': 'Credentials expiring and recredentialing due per month',
  Screening: 'Monitoring runs and findings per month',
  Workload: 'Workload per person and month',
};

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** 'Mar 2026': the current UTC month as the tables label it. */
const thisMonth = () =>
  new Date().toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', year: 'numeric' });

/** The card of one report: a region named by its heading. */
const report = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/**
 * The charts of a card: images named by what they show (Playwright also counts recharts' unnamed
 * SVG inside each as an image; a screen reader reads the named one only).
 */
const chartsOf = (card: Locator) => card.getByRole('img', { name: /chart of / });

/** 'Show as table' switched on from the keyboard (Tab reaches it, Space toggles it). */
async function showTable(page: Page, card: Locator) {
  const toggle = card.getByRole('switch', { name: 'Show as table' });
  await expect(toggle).not.toBeChecked();
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toBeChecked();
}

/** A CSV download's lines (the BOM checked and dropped). */
async function csvLines(page: Page, link: Locator): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return {
    name: download.suggestedFilename(),
    lines: bytes.subarray(3).toString('utf8').trimEnd().split('\r\n'),
  };
}

/**
 * Perpetua Quillfeather (the name of a row of the LEIE fixture, another birth date) completes an
 * application whose license expires in 40 days. @returns the application id
 */
async function openFileWithExpiringLicense(browser: Browser): Promise<string> {
  const page = await (await browser.newContext()).newPage();
  const email = uniqueEmail('perpetua-reports');
  await signUpAndConfirm(page, { firstName: 'Perpetua', lastName: 'Quillfeather', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  const headers = { origin: new URL(page.url()).origin };
  for (const [section, data] of [
    [
      'personal-information',
      {
        providerType: 'MD',
        ssn: '123-45-6789',
        npiNumber: '1234567893',
        dateOfBirth: '1985-03-03',
        city: 'Boston',
        state: 'MA',
      },
    ],
    [
      'professional-licenses',
      {
        rows: [
          {
            licenseType: 'medical_license',
            licenseNumber: 'MA-40',
            issuingState: 'MA',
            expirationDate: isoDay(40),
          },
        ],
      },
    ],
  ] as const) {
    const saved = await page.request.put(`/api/applications/${applicationId}/sections/${section}`, {
      headers,
      data,
    });
    expect(saved.status(), await saved.text()).toBeLessThan(300);
  }
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, 'Perpetua Quillfeather');
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await page.context().close();
  return applicationId;
}

/**
 * What this spec leaves that later specs would see: the suite's specs share one database. Its
 * applied OIG LEIE import (Start Review screens against an applied list; the next full file needs a
 * reason) goes with its entries; and Perpetua, whose name is screening.spec's provider's (both match
 * the same row of the fixture, so that spec's import would find her too), goes with her account.
 */
const leftovers: { importId?: number; applicationId?: string } = {};

test.afterAll(async () => {
  if (leftovers.applicationId)
    await e2eSql('delete from "user" where id = (select user_id from provider_applications where id = $1)', [
      leftovers.applicationId,
    ]);
  if (leftovers.importId !== undefined)
    await e2eSql('delete from exclusion_imports where id = $1', [leftovers.importId]);
});

test('the Reports tab draws six reports with their tables and CSVs, passes axe and fits 390 px', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  // First, two providers complete their applications (in parallel: minutes, not seconds).
  const [approved, openApplicationId] = await Promise.all([
    (async () =>
      completedApplicationInBrowser(await (await browser.newContext()).newPage(), {
        firstName: 'Rhea',
        lastName: 'Reported',
        emailPrefix: 'rhea-reports',
      }))(),
    openFileWithExpiringLicense(browser),
  ]);

  // Second, an administrator verifies Rhea's file and the medical director approves it; her
  // credential's recredentialing is moved to 100 days from now, inside the 12-month forecast.
  await signInAsNewAdmin(page, { firstName: 'Rory', lastName: 'Reports', emailPrefix: 'rory-reports' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Dana', lastName: 'Decider', emailPrefix: 'dana-reports' },
    'medical-director',
  );
  await approveThroughApi(page, approved.applicationId, director);
  await e2eSql(`update provider_credentials set ends_on = current_date + 100 where application_id = $1`, [
    approved.applicationId,
  ]);

  // Third, he starts Perpetua's review (she is his file now), then imports and applies the OIG LEIE
  // list: a monitoring run, and her name on it makes a possible match.
  const headers = { origin: new URL(page.url()).origin };
  const started = await page.request.post(`/api/admin/applications/${openApplicationId}/start-review`, {
    headers,
    data: {},
  });
  expect(started.status(), await started.text()).toBe(200);
  const staged = await page.request.post('/api/admin/exclusions/imports', {
    headers,
    multipart: {
      file: {
        name: 'UPDATED.csv',
        mimeType: 'text/csv',
        buffer: fs.readFileSync(path.resolve('tests/fixtures/exclusions/e2e/leie-full-40.csv')),
      },
    },
  });
  expect(staged.status(), await staged.text()).toBe(200);
  const { id: importId, needsReason } = (await staged.json()) as { id: number; needsReason: string | null };
  const applied = await page.request.post(`/api/admin/exclusions/imports/${importId}/apply`, {
    headers,
    // A reason only if the list on file was longer (another spec's, when the suite runs whole).
    data: needsReason ? { reason: 'The e2e list of the reports.' } : {},
  });
  expect(applied.status(), await applied.text()).toBe(200);
  leftovers.importId = importId;
  leftovers.applicationId = openApplicationId;

  // Fourth, the 'Reports' tab: its own URL and title, and a card per report with its chart.
  // From here on the browser console stays clean (recharts warns of charts drawn without a size; React
  // Router warned of every URL filter's `flushSync` before web/main.tsx used 'react-router/dom').
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.getByRole('tab', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=reports$/);
  await expect(page).toHaveTitle('Reports - Administration - Credentialing');
  await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toBeVisible();
  for (const title of REPORTS) {
    const card = report(page, title);
    await expect(card.getByRole('heading', { level: 3, name: title })).toBeVisible();
    // Each chart is an image named by what it shows; recharts draws it as an SVG inside.
    const charts = chartsOf(card);
    await expect(charts.first()).toBeVisible();
    for (const chart of await charts.all()) {
      await expect(chart).toHaveAccessibleName(/chart of .*'Show as table'/);
      await expect(chart.locator('svg.recharts-surface')).toBeVisible();
    }
    await expect(card.getByRole('link', { name: 'Export CSV' })).toBeVisible();
  }
  // Two charts each: Turnaround (days, and stages) and Workload (files decided, items verified).
  await expect(chartsOf(report(page, 'Turnaround'))).toHaveCount(2);
  await expect(chartsOf(report(page, 'Workload'))).toHaveCount(2);
  await expect(chartsOf(report(page, 'Expirables forecast'))).toHaveAccessibleName(
    /: [1-9][\d,]* credentials? expiring, [1-9][\d,]* recredentialings? due\./,
  );

  // Fifth, 'Show as table' under each chart shows its numbers, reached and switched by keyboard.
  for (const title of REPORTS) {
    const card = report(page, title);
    await expect(card.getByRole('table', { name: TABLES[title] })).toHaveCount(0);
    await showTable(page, card);
    await expect(card.getByRole('table', { name: TABLES[title] })).toBeVisible();
  }
  // The dated reports have a row per month of the last 12 (the current one included), plus the header.
  const monthRows = (title: (typeof REPORTS)[number]) =>
    report(page, title).getByRole('table', { name: TABLES[title] }).getByRole('row');
  for (const title of ['Turnaround', 'Timeliness', 'Expirables forecast', 'Screening'] as const) {
    await expect(monthRows(title)).toHaveCount(13);
  }
  // This month: Rhea's decision in time, the applied list's run and Perpetua's possible match.
  const decidedNow = monthRows('Turnaround').filter({ hasText: thisMonth() });
  await expect(decidedNow.getByRole('cell').nth(1)).toHaveText(/^[1-9]\d*$/);
  const timelyNow = monthRows('Timeliness').filter({ hasText: thisMonth() }).getByRole('cell');
  await expect(timelyNow.nth(1)).toHaveText(/^[1-9]\d*$/);
  await expect(timelyNow.nth(5)).toHaveText(/^\d+(\.\d)?%$/);
  const screenedNow = monthRows('Screening').filter({ hasText: thisMonth() }).getByRole('cell');
  await expect(screenedNow.nth(2)).toHaveText(/^[1-9]\d*$/);
  await expect(screenedNow.nth(4)).toHaveText(/^[1-9]\d*$/);
  const screening = report(page, 'Screening');
  await expect(
    screening.getByText(/^[1-9]\d* possible match(es)? open; the oldest was found (today|\d+ days? ago)\.$/),
  ).toBeVisible();
  await expect(
    screening
      .getByRole('table', { name: "Each exclusion list's last applied import" })
      .getByRole('row')
      .filter({ hasText: 'OIG LEIE' }),
  ).toContainText(/40\b/);
  await expect(
    report(page, 'Timeliness').getByRole('heading', { level: 4, name: 'Files that missed' }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await shot(page, 'reports-desktop');

  // Sixth, the specialist filter: Rory's open files and Rory's work only, kept in the URL as his id.
  await page.getByRole('combobox', { name: 'Specialist' }).click();
  await page.getByRole('option', { name: /^Rory Reports \(/ }).click();
  await expect(page).toHaveURL(/[?&]specialist=[^&]+/);
  expect(page.url()).not.toContain('Rory');
  const backlog = report(page, 'Backlog and aging');
  await expect(backlog.getByText('1 open file', { exact: true })).toBeVisible();
  await expect(
    backlog
      .getByRole('table', { name: TABLES['Backlog and aging'] })
      .getByRole('row')
      .filter({ hasText: 'All open' }),
  ).toContainText('1');
  const workloadRows = report(page, 'Workload')
    .getByRole('table', { name: TABLES.Workload })
    .getByRole('row');
  await expect(workloadRows).toHaveCount(2);
  // Files decided 0, Decisions recorded 0 (issue 50 item 9), then the items he verified.
  await expect(workloadRows.nth(1)).toContainText(`${thisMonth()}Rory Reports00`);
  const verifiedByRory = Number(await workloadRows.nth(1).getByRole('cell').nth(4).innerText());
  expect(verifiedByRory).toBeGreaterThan(0);

  // The CSVs download with the same query: Workload's one row is Rory's, Backlog's counts his file.
  const workloadCsv = await csvLines(
    page,
    report(page, 'Workload').getByRole('link', { name: 'Export CSV' }),
  );
  expect(workloadCsv.name).toMatch(/^workload-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(workloadCsv.lines[0]).toBe(
    'Month,Staff member,User ID,Files decided,Decisions recorded,Items verified',
  );
  expect(workloadCsv.lines).toHaveLength(2);
  expect(workloadCsv.lines[1]).toMatch(
    new RegExp(`^\\d{4}-\\d{2},Rory Reports,[^,]+,0,0,${verifiedByRory}$`),
  );
  const backlogCsv = await csvLines(page, backlog.getByRole('link', { name: 'Export CSV' }));
  expect(backlogCsv.name).toMatch(/^backlog-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(backlogCsv.lines[0]).toBe('Status,0–30 days,31–60 days,61–90 days,91–120 days,Over 120 days,Total');
  expect(backlogCsv.lines.at(-1)).toBe('All open,1,0,0,0,0,1');

  // The oldest open file links to its review page; Back returns to the tab with the filter.
  const filteredUrl = page.url();
  await backlog
    .getByRole('table', { name: 'The oldest open files, oldest attestation first' })
    .getByRole('link', { name: 'Perpetua Quillfeather' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/applications/${openApplicationId}$`));
  // The review page has replaced the tab (until its chunk has loaded, the router's transition keeps
  // the tab on screen, and going back then would find it as it was).
  await expect(page.getByRole('heading', { level: 1, name: 'Perpetua Quillfeather' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(filteredUrl);
  await expect(backlog.getByText('1 open file', { exact: true })).toBeVisible();

  // Seventh, one day picked as the range (today, UTC): the dated reports cover it, the URL keeps it.
  await page.getByRole('button', { name: 'Dates (UTC)' }).click();
  const todayLabel = new Date().toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await page.getByRole('button', { name: todayLabel, exact: true }).click();
  await page.getByRole('button', { name: todayLabel, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`reportFrom=${isoDay(0)}&reportTo=${isoDay(0)}`));
  const todayText = new Date().toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(report(page, 'Workload').getByText(`${todayText} to ${todayText} (UTC)`)).toBeVisible();
  // (The tab was left for the review page and came back: its tables start hidden again.)
  await showTable(page, report(page, 'Turnaround'));
  await expect(monthRows('Turnaround')).toHaveCount(2);

  // Then a range without decisions: the decision reports say so; its CSV carries the range.
  await page.goto('/admin?tab=reports&reportFrom=2001-01-01&reportTo=2001-12-31');
  await expect(report(page, 'Turnaround').getByText('No decisions in this range.')).toBeVisible();
  await expect(report(page, 'Timeliness').getByText('No decisions in this range.')).toBeVisible();
  await expect(report(page, 'Turnaround').getByText('Jan 1, 2001 to Dec 31, 2001 (UTC)')).toBeVisible();
  const emptyCsv = await csvLines(page, report(page, 'Turnaround').getByRole('link', { name: 'Export CSV' }));
  expect(emptyCsv.name).toBe('turnaround-2001-01-01-2001-12-31.csv');
  expect(emptyCsv.lines[0]).toMatch(/^Month,All files,All median days,All 90th percentile days,/);
  expect(emptyCsv.lines).toHaveLength(13);
  expect(emptyCsv.lines[1]).toMatch(/^2001-01,0,,,/);
  await expectNoAxeViolations(page);

  // Last, at 390 px: every chart spans its card, the tables are cards, nothing scrolls sideways.
  await page.goto('/admin?tab=reports');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chartsOf(report(page, 'Workload')).first()).toBeVisible();
  for (const title of REPORTS) {
    const card = report(page, title);
    const cardBox = (await card.boundingBox())!;
    for (const chart of await chartsOf(card).all()) {
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.boundingBox())!;
      expect(box.x + box.width, title).toBeLessThanOrEqual(390);
      // Full width: the card's width less its padding (16 px a side).
      expect(box.width, title).toBeGreaterThanOrEqual(cardBox.width - 34);
    }
    await showTable(page, card);
    await expect(card.getByRole('list', { name: TABLES[title] })).toBeVisible();
    await expect(card.getByRole('table', { name: TABLES[title] })).toHaveCount(0);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await shot(page, 'reports-phone');
  expect(problems).toEqual([]);

  // The medical director reads the reports too; without the staff list, the specialist filter
  // offers the people with work in the range (Rory verified, she decided).
  await director.goto('/admin?tab=reports');
  await expect(director.getByRole('tab', { name: 'Reports' })).toHaveAttribute('aria-selected', 'true');
  await expect(chartsOf(report(director, 'Workload')).first()).toBeVisible();
  await director.getByRole('combobox', { name: 'Specialist' }).click();
  await expect(director.getByRole('option', { name: 'Rory Reports', exact: true })).toBeVisible();
  await expect(director.getByRole('option', { name: 'Dana Decider', exact: true })).toBeVisible();
  await director.context().close();
});
