/**
 * The completion button in Chromium (spec §4, §8; issue 5) against the real server, which sends the
 * notification to a real receiver started here on a free port (NOTIFY_WEBHOOK_URL, playwright.config.ts).
 *
 * The sections and the document are filled through the API (the point here is the button, not the
 * section screens).
 */
import { expect, type Page, test } from '@playwright/test';
import { disclosureGroups, disclosureQuestions } from '../../domain/attestation.ts';
import {
  completionReceiverForSpec,
  expectNoAxeViolations,
  PDF_BYTES,
  signAttestation,
  signIn,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

const receiver = completionReceiverForSpec();

/** Sign up and in, start an application, then fill every section and upload a PDF through the API. */
async function providerAt99Percent(page: Page, firstName: string): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  await signUpAndConfirm(page, { firstName, lastName: 'Okafor', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  return startAndFillApplication(page);
}

test('a provider completes the application: Submitting..., Completed ✓, still completed after reload', async ({
  page,
}) => {
  const applicationId = await providerAt99Percent(page, 'Maya');
  await page.reload();
  await expect(page.getByText('100%')).toBeVisible();
  // Issue 51 item 6: at 100% the card says the next step, not 'Complete all sections…'.
  await expect(page.getByText("All sections are complete. Press 'Application Completed'")).toBeVisible();
  await expect(page.getByText('Complete all sections to submit your application for review.')).toHaveCount(0);
  const button = page.getByRole('button', { name: 'Application Completed' });
  await expect(button).toBeEnabled();
  await expectNoAxeViolations(page);

  // The receiver holds its answer until the sending state has been seen.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  receiver.answers = [{ status: 200, until: answered }];
  await button.click();

  // The attestation comes first (issue 14). Nothing answered, nothing signed: every field says why.
  const dialog = page.getByRole('dialog', { name: 'Attestation' });
  await expect(dialog).toBeVisible();
  const signAndComplete = dialog.getByRole('button', { name: 'Sign and Complete' });
  await signAndComplete.click();
  await expect(dialog.getByText('Answer Yes or No.')).toHaveCount(disclosureQuestions.length);
  await expect(dialog.getByText('Type your full name to sign.')).toBeVisible();
  // The first refused question is brought into view and focused (issue 31: the list is long).
  await expect(dialog.getByRole('radiogroup').first().getByRole('radio', { name: 'Yes' })).toBeFocused();
  // The questions sit under their group headings (fieldset and legend), numbered 1..n (issue 31 item 2).
  for (const group of disclosureGroups) {
    await expect(dialog.getByRole('group', { name: group.title, exact: true })).toBeVisible();
  }
  const groups = dialog.getByRole('radiogroup');
  await expect(groups).toHaveCount(disclosureQuestions.length);
  await expect(groups.last()).toHaveAccessibleName(new RegExp(`^${disclosureQuestions.length}\\. `));
  // A "Yes" without an explanation, and a name that is not the profile's.
  for (const [index, question] of disclosureQuestions.entries()) {
    const answer = question.id === 'essentialFunctions' ? 'Yes' : 'No';
    await groups.nth(index).getByRole('radio', { name: answer }).check();
  }
  const signature = dialog.getByLabel('Full name (signature)');
  await signature.fill('Maya Someone');
  await signAndComplete.click();
  await expect(dialog.getByText('Explain your "Yes" answer.')).toBeVisible();
  await expect(dialog.getByText('Type your full name as your profile has it: Maya Okafor.')).toBeVisible();
  expect(receiver.requests.filter((r) => r.body?.toString().includes(applicationId))).toHaveLength(0);
  await expectNoAxeViolations(page);
  // Explained and signed (spaces and case as people type them): the completion goes.
  await dialog
    .getByLabel('Explanation')
    .fill('Needs a standing desk after a back injury in 2024; no limits on practice.');
  await signature.fill('  maya  OKAFOR ');
  if (process.env.E2E_SCREENSHOTS) {
    await dialog.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/attestation-dialog.png` });
  }
  await signAndComplete.click();
  const sending = page.getByRole('button', { name: 'Submitting...' });
  await expect(sending).toBeVisible();
  await expect(sending).toBeDisabled();
  answer();

  const done = page.getByRole('button', { name: 'Completed ✓' });
  await expect(done).toBeVisible();
  await expect(done).toBeDisabled();
  await expect(page.getByText('Application completion notification sent successfully')).toBeVisible();
  await expect(page.getByText('Success', { exact: true })).toBeVisible();
  // Green (spec §4), not the grey of a disabled button.
  expect(await done.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(43, 138, 62)');
  await expectNoAxeViolations(page);

  // The credentialing team's receiver got one signed notification for this application.
  const delivered = receiver.delivered.filter((r) => r.body?.toString().includes(applicationId));
  expect(delivered).toHaveLength(1);
  const payload = JSON.parse(delivered[0]!.body!.toString());
  expect(payload.attestation).toMatchObject({
    kind: 'completion',
    signature: 'maya  OKAFOR',
    snapshotVersion: 1,
  });
  expect(payload.attestation.answers).toHaveLength(disclosureQuestions.length);
  expect(
    payload.attestation.answers.find((a: { questionId: string }) => a.questionId === 'essentialFunctions'),
  ).toMatchObject({
    answer: 'yes',
    explanation: expect.stringContaining('standing desk'),
  });
  expect(payload.documents).toHaveLength(1);
  expect(Buffer.from(payload.documents[0].base64Content, 'base64').equals(PDF_BYTES)).toBe(true);

  // Persisted: after a reload the button still reads 'Completed ✓'; the server made it Submitted
  // (issue 13), and the provider is told it is with the credentialing team.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByText('Submitted', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Your application is with the credentialing team.', { exact: false }),
  ).toBeVisible();
});

test("when the receiver is down, the provider's click still succeeds (the product has the completion) and the notification is delivered later (issue 51 item 6)", async ({
  page,
}) => {
  const applicationId = await providerAt99Percent(page, 'Ravi');
  await page.reload();

  receiver.answers = [503];
  // On a phone (390 px) the long dialog is full screen and nothing in it scrolls sideways (issue 31).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Application Completed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Attestation' });
  await expect(dialog.getByRole('group', { name: disclosureGroups[0].title, exact: true })).toBeVisible();
  expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(390);
  expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
  // Back to Playwright's default size for the rest of the flow.
  await page.setViewportSize({ width: 1280, height: 720 });
  await signAttestation(page, 'Ravi Okafor');
  // The credentialing team has it inside the product (the Review Queue, an email to its reviewers):
  // 'Success' and 'Completed ✓' are true; the webhook's retries are the staff's business.
  await expect(page.getByText('Application completion notification sent successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByText('Failed to send application completion notification')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The server retries on its own; the provider sees nothing change.
  await expect
    .poll(() => receiver.delivered.filter((r) => r.body?.toString().includes(applicationId)).length, {
      timeout: 20_000,
    })
    .toBe(1);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
});

test("a refused webhook is the staff's business: the provider's click succeeds and a reload says nothing of the delivery (issue 51 item 6, issue 28 item 17)", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await providerAt99Percent(page, 'Lena');
  await page.reload();
  const failure = page.getByText('Failed to send application completion notification', { exact: true });
  const success = page.getByText('Application completion notification sent successfully', { exact: true });

  // The receiver refuses the notification: the product has the completion anyway, so the
  // provider's click is answered with the spec's 'Success' (title 'Success'), once.
  receiver.answers = [400];
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, 'Lena Okafor');
  await expect(success).toHaveCount(1);
  await expect(page.getByRole('alert').filter({ has: success })).toContainText('Success');
  await expect(failure).toHaveCount(0);
  const done = page.getByRole('button', { name: 'Completed ✓' });
  await expect(done).toBeDisabled();
  // No second click, no second completion request.
  await expect(page.getByRole('button', { name: 'Application Completed' })).toHaveCount(0);

  // A reload shows no toast, only that the application is with the team and completed.
  await page.reload();
  await expect(
    page.getByText('Your application is with the credentialing team.', { exact: false }),
  ).toBeVisible();
  await expect(page.getByText('Submitted', { exact: true })).toBeVisible();
  await expect(done).toBeDisabled();
  await expect(failure).toHaveCount(0);
  await expect(success).toHaveCount(0);
});
