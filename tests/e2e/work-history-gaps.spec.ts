/**
 * Issue 29 item 7, acceptance (d): a gap of 8 months in work history blocks completion until it is
 * explained (NCQA CR 3). Every section is filled through the API (helpers.ts), with two positions
 * 8 months apart; the refusal, the 'Gap explanation' field and the completion are in Chromium.
 * The dates are relative to today (the server reads the clock), from the first of this month.
 */
import { expect, test } from '@playwright/test';
import { addMonths, isoDay } from '../../domain/calendar.ts';
import { GAP_TO_EXPLAIN_LABEL, monthYear } from '../../domain/sections/work-history-gaps.ts';
import {
  completionReceiverForSpec,
  expectNoAxeViolations,
  signAttestation,
  signIn,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

const receiver = completionReceiverForSpec();

const monthStart = `${isoDay(new Date()).slice(0, 8)}01`;
const firstStart = addMonths(monthStart, -60);
const firstEnd = addMonths(monthStart, -30);
const secondStart = addMonths(monthStart, -22);

test('an 8-month work-history gap blocks completion until it is explained on the Work History screen', async ({
  page,
}) => {
  // Sign-up, a full application, two completions and three axe checks: slow on a busy machine.
  test.setTimeout(240_000);
  // First, Lena fills every section; her work history has two positions 8 months apart.
  const email = uniqueEmail('lena');
  await signUpAndConfirm(page, { firstName: 'Lena', lastName: 'Marsh', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  const url = `/api/applications/${applicationId}/sections/work-history`;
  const headers = { origin: new URL(page.url()).origin };
  const { rows } = (await (await page.request.get(url)).json()) as { rows: { id: string }[] };
  const saved = await page.request.put(url, {
    headers,
    data: {
      rows: [
        { id: rows[0]!.id, employerName: 'Mercy General', startDate: firstStart, endDate: firstEnd },
        { employerName: 'Lakeside Clinic', startDate: secondStart, isCurrentPosition: true },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // Second, 'Application Completed' is refused before anything is signed, naming the gap under the
  // button (the server refuses it too, after signing: server/notifications/work-history-gap-check.test.ts).
  await page.reload();
  await expect(page.getByText('100%')).toBeVisible();
  // The Work History card says the gap is still to explain, not a green check (issue 51 item 6).
  await expect(page.getByTestId('gaps-workHistory')).toHaveText(GAP_TO_EXPLAIN_LABEL);
  await expect(page.getByTestId('complete-workHistory')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Work History:/ })).toHaveAccessibleName(
    /\(gap to explain\)$/,
  );
  await page.getByRole('button', { name: 'Application Completed' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Not completed yet' });
  await expect(refusal).toContainText(
    `Work history: explain the gap from ${firstEnd} to ${secondStart} (8 months) in Work History before completing.`,
  );
  await expect(page.getByRole('dialog', { name: 'Attestation' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Application Completed' })).toBeEnabled();
  expect(receiver.requests.filter((r) => r.body?.toString().includes(applicationId))).toHaveLength(0);
  await expectNoAxeViolations(page);

  // Third, on Work History the card after the gap asks 'Gap explanation', describing the gap; the
  // first card asks nothing.
  await page.getByRole('link', { name: /^Work History:/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Work History' })).toBeVisible();
  const first = page.getByRole('region', { name: 'Position 1', exact: true });
  const second = page.getByRole('region', { name: 'Position 2', exact: true });
  await expect(first.getByLabel('Employer Name')).toHaveValue('Mercy General');
  await expect(first.getByLabel('Gap explanation')).toHaveCount(0);
  const explanation = second.getByLabel('Gap explanation');
  await expect(explanation).toBeVisible();
  await expect(
    second.getByText(
      `8-month gap: ${monthYear(firstEnd)} to ${monthYear(secondStart)}. Explain it (NCQA asks for it in writing for a gap of a year or more).`,
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // Live: moving the second start 3 months earlier leaves a 5-month gap, and the field goes.
  await second.getByLabel('Start Date').fill(addMonths(monthStart, -25));
  await expect(second.getByLabel('Gap explanation')).toHaveCount(0);
  await second.getByLabel('Start Date').fill(secondStart);
  await expect(explanation).toBeVisible();

  await explanation.fill('Parental leave; back full time since.');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Explained: the green check is true now.
  await expect(page.getByTestId('complete-workHistory')).toBeVisible();
  await expect(page.getByTestId('gaps-workHistory')).toHaveCount(0);

  // Last, the completion goes through and the credentialing team receives the explanation.
  receiver.answers = [200];
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, 'Lena Marsh');
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByRole('alert').filter({ hasText: 'Not completed yet' })).toHaveCount(0);
  const delivered = receiver.delivered.filter((r) => r.body?.toString().includes(applicationId));
  expect(delivered).toHaveLength(1);
  const payload = JSON.parse(delivered[0]!.body!.toString());
  expect(
    payload.workHistory.map((p: { employer_name: string; gap_explanation: string | null }) => [
      p.employer_name,
      p.gap_explanation,
    ]),
  ).toEqual([
    ['Mercy General', null],
    ['Lakeside Clinic', 'Parental leave; back full time since.'],
  ]);
});
