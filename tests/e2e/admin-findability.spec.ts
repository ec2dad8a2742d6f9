/**
 * Issue 28 items 15 and 18 in Chromium: an administrator finds a provider by NPI and by license
 * number; the dashboard's tab and filters are in its URL and its search in history state (never the
 * URL: no PHI in URLs), so Back from a review page shows the dashboard as it was; every admin tab and the Sign Up screen have their own title; a disclosure
 * answered Yes in the attestation is flagged at the top of the review page.
 */
import { expect, type Page, test } from '@playwright/test';
import { disclosureQuestions } from '../../domain/attestation.ts';
import {
  completionReceiverForSpec,
  currentExclusionLists,
  expectNoAxeViolations,
  signIn,
  signInAsNewAdmin,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

completionReceiverForSpec();

/** A random NPI with a valid check digit (Luhn over '80840' + the first nine digits, CMS). */
function randomNpi(): string {
  const body = `1${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const digits = `80840${body}`.split('').map(Number);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // From the right of the number to be completed, every other digit (starting with the last) doubles.
    let d = digits[digits.length - 1 - i]!;
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const TITLE_SUFFIX = ' - Credentialing';
const felony = disclosureQuestions.find((q) => q.id === 'licenseLossOrFelony')!.text;
const EXPLANATION = 'Massachusetts license suspended for 30 days in 2015 over late CME; reinstated.';

/** The open tab's title: 'Review Queue - Administration - Credentialing'. */
async function expectAdminTitle(page: Page, tab: string) {
  await expect(page).toHaveTitle(`${tab} - Administration${TITLE_SUFFIX}`);
}

test('an admin finds a provider by NPI, sees her Yes answer first, and Back keeps the dashboard as it was', async ({
  page,
}) => {
  // Two accounts, a completion and an administrator's second factor on a shared 2-core machine.
  test.setTimeout(240_000);
  // The exclusion lists are current, so the Yes answer is the file's one reason (issue 51 item 1).
  await currentExclusionLists();
  // First, Nadia completes an application with her own NPI and license number, answering Yes to one
  // disclosure question with an explanation.
  const npi = randomNpi();
  const license = `MA-${Date.now().toString(36).toUpperCase()}`;
  const email = uniqueEmail('nadia');
  await signUpAndConfirm(page, { firstName: 'Nadia', lastName: 'Farouk', email });
  await signIn(page, email);
  const applicationId = await startAndFillApplication(page);
  const headers = { origin: new URL(page.url()).origin };
  const base = `/api/applications/${applicationId}/sections`;
  for (const [url, data] of [
    [`${base}/personal-information`, { providerType: 'MD', npiNumber: npi, city: 'Boston', state: 'MA' }],
    [`${base}/professional-licenses`, { rows: [{ licenseNumber: license, issuingState: 'MA' }] }],
  ] as const) {
    const saved = await page.request.put(url, { headers, data });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Attestation' });
  for (const question of disclosureQuestions) {
    const group = dialog.getByRole('radiogroup', { name: question.text });
    await group.getByRole('radio', { name: question.id === 'licenseLossOrFelony' ? 'Yes' : 'No' }).check();
  }
  await dialog.getByLabel('Explanation').fill(EXPLANATION);
  await dialog.getByLabel('Full name (signature)').fill('Nadia Farouk');
  await dialog.getByRole('button', { name: 'Sign and Complete' }).click();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // Second, an administrator lands on the dashboard: 'Users & Applications' has its own title.
  await signInAsNewAdmin(page, { firstName: 'Omar', lastName: 'Okoye', emailPrefix: 'findability' });
  await expectAdminTitle(page, 'Users & Applications');

  // Her NPI finds her, and only her (exact match). The term stays out of the URL (no PHI in URLs):
  // the dashboard keeps it in its history entry's state.
  const searchBox = page.getByPlaceholder('Search users by name or email...');
  await searchBox.fill(npi);
  const cards = page.getByRole('list', { name: 'Users', exact: true });
  await expect(page.getByText(/^Showing 1–1 of 1 user$/)).toBeVisible();
  expect(page.url()).not.toContain(npi);
  expect(await page.evaluate(() => (window.history.state as { usr?: unknown } | null)?.usr)).toEqual({
    adminSearch: npi,
  });
  await expect(cards.getByRole('listitem')).toHaveCount(1);
  await expect(cards).toContainText(email);

  // Third, 'Open Review': the Yes answer is flagged at the top, before any scrolling, as the reason
  // the file needs committee review (issue 31 item 4: one flag with every reason, naming the question).
  await cards.getByRole('link', { name: 'Open Review' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/applications/${applicationId}$`));
  const flag = page.getByRole('alert', { name: 'Needs committee review' });
  await expect(flag).toBeVisible();
  await expect(flag.getByRole('heading', { level: 2, name: 'Needs committee review' })).toBeVisible();
  await expect(flag.getByRole('listitem')).toHaveCount(1);
  await expect(flag.getByRole('listitem')).toContainText(`Yes to: ${felony}`);
  await expect(flag).toContainText(`Explanation: ${EXPLANATION}`);
  await expect(page.getByText('Disclosures answered Yes')).toHaveCount(0);
  for (const question of disclosureQuestions.filter((q) => q.id !== 'licenseLossOrFelony')) {
    await expect(flag).not.toContainText(question.text);
  }
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(flag).toBeInViewport();
  // It comes before the actions and the attestation panel in reading order too.
  const [flagTop, panelTop] = await Promise.all([
    flag.evaluate((el) => el.getBoundingClientRect().top),
    page
      .getByRole('heading', { name: 'Attestation', exact: true })
      .evaluate((el) => el.getBoundingClientRect().top),
  ]);
  expect(flagTop).toBeLessThan(panelTop);
  await expectNoAxeViolations(page);

  // Back: the dashboard with her search still in the box and her card still listed.
  await page.goBack();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(searchBox).toHaveValue(npi);
  await expect(cards.getByRole('listitem')).toHaveCount(1);
  await expectAdminTitle(page, 'Users & Applications');

  // Her license number, typed in lower case, finds her too.
  await searchBox.fill(license.toLowerCase());
  await expect(page.getByText(/^Showing 1–1 of 1 user$/)).toBeVisible();
  expect(page.url().toLowerCase()).not.toContain(license.toLowerCase());
  await expect(cards.getByRole('listitem')).toHaveCount(1);

  // Fourth, the admin starts her review, then filters the Review Queue to it: 'Under Review', 'Assigned to me'.
  const started = await page.request.post(`/api/admin/applications/${applicationId}/start-review`, {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(started.status(), await started.text()).toBe(200);
  await searchBox.fill('');
  await page.getByRole('tab', { name: 'Review Queue' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=review$/);
  await expectAdminTitle(page, 'Review Queue');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Under Review' }).click();
  // A click, then the state: the checkbox follows the URL, which the router updates in a transition
  // (locator.check() wants the state changed by the time the click returns).
  await page.getByRole('checkbox', { name: 'Assigned to me' }).click();
  await expect(page.getByRole('checkbox', { name: 'Assigned to me' })).toBeChecked();
  await expect(page).toHaveURL(/\/admin\?tab=review&status=under_review&assigned=me$/);
  const queue = page.getByRole('list', { name: 'Review queue, oldest first' });
  await expect(queue.getByRole('listitem')).toHaveCount(1);
  const filteredUrl = page.url();

  // Open her review, then the browser's Back: the Review Queue, filtered as it was.
  await queue.getByRole('link', { name: 'Open Review of Nadia Farouk' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/applications/${applicationId}$`));
  await expect(page.getByRole('alert', { name: 'Needs committee review' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(filteredUrl);
  await expect(page.getByRole('tab', { name: 'Review Queue' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Under Review');
  await expect(page.getByRole('checkbox', { name: 'Assigned to me' })).toBeChecked();
  await expect(queue.getByRole('listitem')).toHaveCount(1);
  await expectAdminTitle(page, 'Review Queue');

  // The page's own 'Back to Admin Dashboard' link returns there too.
  await queue.getByRole('link', { name: 'Open Review of Nadia Farouk' }).click();
  await page.getByRole('link', { name: '← Back to Admin Dashboard' }).click();
  await expect(page).toHaveURL(filteredUrl);
  await expect(queue.getByRole('listitem')).toHaveCount(1);

  // Every tab has its own title (and is in the URL: a reload keeps it).
  for (const tab of [
    'All Documents',
    'Audit Log',
    'Notifications',
    'Exclusions',
    'Screening Matches',
    'Expiring',
  ]) {
    await page.getByRole('tab', { name: tab }).click();
    await expectAdminTitle(page, tab);
  }
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Expiring' })).toHaveAttribute('aria-selected', 'true');
  await expectAdminTitle(page, 'Expiring');
});

test("the Sign Up tab has its own title, and Sign In keeps 'Sign In'", async ({ page }) => {
  await page.goto('/auth');
  await expect(page).toHaveTitle(`Sign In${TITLE_SUFFIX}`);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page).toHaveTitle(`Sign Up${TITLE_SUFFIX}`);
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await expect(page).toHaveTitle(`Sign In${TITLE_SUFFIX}`);
});
