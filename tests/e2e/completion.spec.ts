/**
 * The completion button in Chromium (spec §4, §8; issue 5) against the real server, which sends the
 * notification to a real receiver started here on PORT + 1000 (see start-server.sh).
 *
 * The sections and the document are filled through the API (the point here is the button, not the
 * section screens).
 */
import { expect, type Page, test } from '@playwright/test';
import {
  completionReceiverForSpec,
  expectNoAxeViolations,
  PDF_BYTES,
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

test('when the receiver is down, the provider is told so and the notification is delivered later', async ({
  page,
}) => {
  const applicationId = await providerAt99Percent(page, 'Ravi');
  await page.reload();

  receiver.answers = [503];
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await expect(page.getByText('Failed to send application completion notification')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'is queued and will be delivered' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Application Completed' })).toBeEnabled();
  await expectNoAxeViolations(page);

  // The server retries on its own; once delivered, the dashboard shows it.
  await expect
    .poll(() => receiver.delivered.filter((r) => r.body?.toString().includes(applicationId)).length, {
      timeout: 20_000,
    })
    .toBe(1);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'queued' })).toHaveCount(0);
});
