/**
 * Changes by row identity on the review page (issue 29 item 5): after a response that rewrites a
 * work history entry's 200-character responsibilities, the administrator reads one changed row,
 * 'Work History › …', with the whole text before and after, on a phone (390x844) and a desktop
 * (1280x800): nothing cut off, no sideways scrolling of the row or of the page. axe on both.
 */
import { expect, type Page, test } from '@playwright/test';
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

// The completion notification is delivered, so the dashboard shows 'Completed ✓' (spec §7).
completionReceiverForSpec();

/** Where to save screenshots of the screens (E2E_SCREENSHOTS, as in responsive.spec.ts), if anywhere. */
const SHOTS = process.env.E2E_SCREENSHOTS;

/** 200 characters, one of its words a 64-character token (a link pasted in) that must wrap too. */
function responsibilities(start: string): string {
  const text = `${start} inpatient internal medicine, teaching rounds and quality review; see https://example.org/${'x'.repeat(40)} for the department's duty roster and the on-call rota`;
  return `${text.padEnd(199, ' and more').slice(0, 199)}.`;
}
const BEFORE = responsibilities('Until May:');
const AFTER = responsibilities('Since May:');

/** The origin header a state-changing API call from the page needs (the CSRF guard). */
const originOf = (page: Page) => ({ origin: new URL(page.url()).origin });

/** PUT the first work history entry's responsibilities through the API, as the provider. */
async function setResponsibilities(page: Page, applicationId: string, text: string) {
  const path = `/api/applications/${applicationId}/sections/work-history`;
  const { rows } = (await (await page.request.get(path)).json()) as { rows: Record<string, unknown>[] };
  const { createdAt: _c, ...row } = rows[0]!;
  const saved = await page.request.put(path, {
    headers: originOf(page),
    data: { rows: [{ ...row, responsibilities: text }] },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

test('a changed 200-character value is read whole, before and after, at 390 px and 1280 px', async ({
  browser,
  page,
}) => {
  // Two accounts (the administrator with a second factor), a completion, a request and a response,
  // then axe twice: under load on a shared 2-core machine this takes minutes.
  test.setTimeout(300_000);
  // First, a provider fills her application (responsibilities of 200 characters) and completes it.
  const provider = await (await browser.newContext()).newPage();
  const email = uniqueEmail('wren');
  await signUpAndConfirm(provider, { firstName: 'Wren', lastName: 'Whitaker', email });
  await signIn(provider, email);
  const applicationId = await startAndFillApplication(provider);
  await setResponsibilities(provider, applicationId, BEFORE);
  await provider.reload();
  await provider.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(provider, 'Wren Whitaker');
  await expect(provider.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();

  // Second, an administrator starts the review and asks about Work History.
  await signInAsNewAdmin(page, { firstName: 'Ines', lastName: 'Ibarra', emailPrefix: 'ibarra' });
  const admin = `/api/admin/applications/${applicationId}`;
  expect(
    (await page.request.post(`${admin}/start-review`, { headers: originOf(page), data: {} })).status(),
  ).toBe(200);
  const requested = await page.request.post(`${admin}/request-information`, {
    headers: originOf(page),
    data: { message: 'Please describe your current duties.', sections: ['workHistory'] },
  });
  expect(requested.status(), await requested.text()).toBe(200);
  const { requestId } = (await requested.json()) as { requestId: string };

  // Third, the provider rewrites the responsibilities and responds: version 2.
  await setResponsibilities(provider, applicationId, AFTER);
  const responded = await provider.request.post(
    `/api/applications/${applicationId}/information-requests/${requestId}/response`,
    { headers: originOf(provider), data: { reply: 'Updated.' } },
  );
  expect(responded.status(), await responded.text()).toBe(200);
  await provider.context().close();

  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(`/admin/applications/${applicationId}`);
    await expect(page.getByRole('combobox', { name: 'Version' })).toHaveValue(/^Version 2/);
    await expect(page.getByRole('heading', { level: 3, name: 'Changes since version 1' })).toBeVisible();
    const changes = page.getByRole('list', { name: 'Changes since version 1' });
    // One row changed: the work history entry, named as a person would, with its badge.
    await expect(changes.getByRole('listitem', { name: /, (added|removed|changed)$/ })).toHaveCount(1);
    const row = changes.getByRole('listitem', { name: /^Work History › Clinic, changed$/ });
    await expect(row.getByRole('heading', { level: 4, name: 'Work History › Clinic' })).toBeVisible();
    await expect(row.getByText('Changed', { exact: true })).toBeVisible();

    // Before and after, each whole, each named for a screen reader, both in view.
    const before = row.locator('del');
    const after = row.locator('ins');
    await expect(before).toHaveText(`Before: ${BEFORE}`);
    await expect(after).toHaveText(`After: ${AFTER}`);
    await before.scrollIntoViewIfNeeded();
    await expect(before).toBeVisible();
    await expect(after).toBeVisible();

    // Nothing cut off or scrolled sideways: the card, its field line, the texts and the page.
    const line = row.getByRole('listitem').filter({ hasText: 'Responsibilities:' });
    for (const element of [row, line]) {
      const { scrollWidth, clientWidth } = await element.evaluate((e) => ({
        scrollWidth: e.scrollWidth,
        clientWidth: e.clientWidth,
      }));
      expect(scrollWidth, `${size.width} px`).toBeLessThanOrEqual(clientWidth);
    }
    for (const text of [before, after]) {
      const right = await text.evaluate((e) => e.getBoundingClientRect().right);
      expect(right, `${size.width} px`).toBeLessThanOrEqual(size.width);
    }
    const page_ = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(page_.scrollWidth, `${size.width} px`).toBeLessThanOrEqual(page_.innerWidth);
    await expectNoAxeViolations(page);
    if (SHOTS) await row.screenshot({ path: `${SHOTS}/version-changes-${size.width}.png` });
  }
});
