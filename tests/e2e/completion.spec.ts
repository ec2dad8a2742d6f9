/**
 * The completion button in Chromium (spec §4, §8; issue 5) against the real server, which sends the
 * notification to a real receiver started here on PORT + 1000 (see start-server.sh).
 *
 * The sections and the document are filled through the API (the point here is the button, not the
 * section screens).
 */
import { expect, type Page, test } from '@playwright/test';
import { WebhookReceiver } from '../../server/notifications/testing/webhook-receiver.ts';
import { expectNoAxeViolations, signIn, signUpAndConfirm, uniqueEmail } from './helpers.ts';

/** The test-only secret of start-server.sh. */
const SECRET = 'whsec_pBPvcKLMACQL4VARJRDbv+AcGGhWm0/Z+vRh9SuUCrQ=';
const PORT = Number(process.env.E2E_PORT ?? 3100);
const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
    'trailer <</Root 1 0 R>>\n%%EOF\n',
);

const receiver = new WebhookReceiver({ secret: SECRET });
test.beforeAll(async () => {
  await receiver.listen(PORT + 1000);
});
test.afterAll(async () => {
  await receiver.close();
});

/** Sign up and in, start an application, then fill every section and upload a PDF through the API. */
async function providerAt99Percent(page: Page, firstName: string): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  await signUpAndConfirm(page, { firstName, lastName: 'Okafor', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('New credentialing application started')).toBeVisible();
  const { applications } = (await (await page.request.get('/api/applications')).json()) as {
    applications: { id: string }[];
  };
  const applicationId = applications[0]!.id;
  const base = `/api/applications/${applicationId}`;
  // State-changing calls from the page's session carry our Origin (CSRF guard).
  const headers = { origin: new URL(page.url()).origin };
  const saves = [
    page.request.put(`${base}/sections/personal-information`, {
      headers,
      data: { providerType: 'MD', ssn: '123-45-6789', npiNumber: '1234567893', city: 'Boston', state: 'MA' },
    }),
    page.request.put(`${base}/sections/professional-licenses`, {
      headers,
      data: { rows: [{ licenseNumber: 'L-1' }] },
    }),
    page.request.put(`${base}/sections/education`, { headers, data: { rows: [{ institutionName: 'Uni' }] } }),
    page.request.put(`${base}/sections/work-history`, {
      headers,
      data: { rows: [{ employerName: 'Clinic' }] },
    }),
    page.request.put(`${base}/sections/malpractice-insurance`, {
      headers,
      data: { rows: [{ insuranceCompany: 'MedPro' }] },
    }),
    page.request.put(`${base}/sections/vaccinations`, {
      headers,
      data: { rows: [{ vaccineName: 'influenza' }] },
    }),
    page.request.post(`${base}/sections/payors`, { headers, data: { payorName: 'Medicare' } }),
    page.request.post(`${base}/sections/certifications`, {
      headers,
      data: { certificationName: 'Board Certified', certifyingBody: 'ABIM' },
    }),
    page.request.post(`${base}/sections/cme`, {
      headers,
      data: { activityTitle: 'Sepsis', providerName: 'ACP' },
    }),
    page.request.post(`${base}/sections/peer-references`, { headers, data: { referenceName: 'Dr. Ada' } }),
    page.request.post(`${base}/documents`, {
      headers,
      multipart: {
        documentType: 'cv_resume',
        file: { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES },
      },
    }),
  ];
  for (const save of saves) {
    const response = await save;
    expect(response.status(), await response.text()).toBeLessThan(300);
  }
  return applicationId;
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

  // Persisted: after a reload the button still reads 'Completed ✓'; the status is still Draft.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
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
