import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, PDF_BYTES, signIn, signInAsNewAdmin, signUpAndConfirm } from './helpers.ts';

const SSN = '123-45-6789';

/** State-changing API calls from the page's session need our Origin (CSRF guard). */
function originOf(page: Page) {
  return { origin: new URL(page.url()).origin };
}

test('an admin finds a provider, reviews every section with the SSN masked, downloads a document, and sees both in the audit log', async ({
  page,
}) => {
  // First, a provider signs up, starts an application, fills some sections and uploads a document.
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const providerEmail = `noor.haddad.${tag}@clinic.example`;
  await signUpAndConfirm(page, { firstName: 'Noor', lastName: 'Haddad', email: providerEmail });
  await signIn(page, providerEmail);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Start New Application' }).click();
  await expect(page.getByText('New credentialing application started')).toBeVisible();
  const { applications } = (await (await page.request.get('/api/applications')).json()) as {
    applications: { id: string }[];
  };
  const base = `/api/applications/${applications[0]!.id}`;
  const headers = originOf(page);
  const saved = await page.request.put(`${base}/sections/personal-information`, {
    headers,
    data: {
      providerType: 'MD',
      ssn: SSN,
      npiNumber: '1234567893',
      addressLine1: '10 Elm Street',
      addressLine2: 'Suite 400',
      city: 'Boston',
      state: 'MA',
    },
  });
  expect(saved.status(), await saved.text()).toBeLessThan(300);
  const payor = await page.request.post(`${base}/sections/payors`, {
    headers,
    data: { payorName: `Aetna ${tag}`, credentialingStatus: 'approved' },
  });
  expect(payor.status(), await payor.text()).toBeLessThan(300);
  const reference = await page.request.post(`${base}/sections/peer-references`, {
    headers,
    data: { referenceName: `Dr. Imani ${tag}`, email: 'imani@hospital.example', yearsKnown: 6 },
  });
  expect(reference.status(), await reference.text()).toBeLessThan(300);
  const upload = await page.request.post(`${base}/documents`, {
    headers,
    multipart: {
      documentType: 'cv_resume',
      file: { name: `cv-${tag}.pdf`, mimeType: 'application/pdf', buffer: PDF_BYTES },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // Second, an administrator made with the CLI signs in, sets up a second factor (issue 16) and
  // lands on /admin with the counters.
  const adminEmail = await signInAsNewAdmin(page, {
    firstName: 'Rita',
    lastName: 'Reviewer',
    emailPrefix: 'reviewer',
  });
  await expect(page.getByText('Admin', { exact: true })).toBeVisible();
  const totals = page.getByRole('region', { name: 'Totals' });
  for (const label of ['Total Users', 'Total Applications', 'Total Documents']) {
    await expect(totals.getByText(label)).toBeVisible();
  }
  await expect(totals).not.toContainText('…');
  await expect(page.getByRole('tab', { name: 'Users & Applications' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expectNoAxeViolations(page);

  // Third, the admin finds the provider by part of the email.
  await page.getByPlaceholder('Search users by name or email...').fill(`haddad.${tag}@clin`);
  const card = page.getByRole('listitem').filter({ hasText: providerEmail });
  await expect(card).toBeVisible();
  await expect(page.getByRole('list', { name: 'Users' }).getByRole('listitem')).toHaveCount(1);
  await expect(card.getByText('Noor Haddad')).toBeVisible();
  await expect(card.getByText('Draft', { exact: true })).toBeVisible();
  await expect(card.getByText('1 document')).toBeVisible();
  await expect(card.getByRole('button', { name: `Download cv-${tag}.pdf` })).toBeVisible();
  await expectNoAxeViolations(page);

  // Fourth, the details: every section, the SSN masked by the server, address line 2 included.
  await card.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Noor Haddad' });
  await expect(dialog).toBeVisible();
  for (const title of [
    'Personal Information',
    'Professional Licenses',
    'Education',
    'Work History',
    'Malpractice Insurance',
    'Vaccinations',
    'Payors',
    'Certifications',
    'CME Credits',
    'Peer References',
    'Documents',
  ]) {
    await expect(dialog.getByRole('heading', { name: title, exact: true })).toBeVisible();
  }
  await expect(dialog.getByText('***-**-6789')).toBeVisible();
  await expect(dialog.getByText('Suite 400')).toBeVisible();
  await expect(dialog.getByText(`Aetna ${tag}`)).toBeVisible();
  await expect(dialog.getByText(`Dr. Imani ${tag}`)).toBeVisible();
  await expect(page.locator('body')).not.toContainText(SSN);
  await expectNoAxeViolations(page);

  // Fifth, the document download: the bytes are the ones uploaded.
  const documents = dialog.getByRole('region', { name: 'Documents' });
  const downloadPromise = page.waitForEvent('download');
  await documents.getByRole('button', { name: `Download cv-${tag}.pdf` }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`cv-${tag}.pdf`);
  expect(fs.readFileSync((await download.path())!)).toEqual(PDF_BYTES);
  await expect(page.getByText('Document downloaded successfully.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close details' }).click();
  await expect(dialog).toBeHidden();

  // Sixth, the 'All Documents' tab lists the upload with its owner.
  await page.getByRole('tab', { name: 'All Documents' }).click();
  await expect(page.getByRole('row').filter({ hasText: `cv-${tag}.pdf` })).toContainText(providerEmail);
  await expectNoAxeViolations(page);

  // Last, both accesses are in the audit log, attributed to the admin.
  await page.getByRole('tab', { name: 'Audit Log' }).click();
  const events = page.getByRole('row').filter({ hasText: providerEmail });
  await expect(events.filter({ hasText: 'admin.view_provider' }).first()).toContainText(adminEmail);
  await expect(events.filter({ hasText: 'document.download' }).first()).toContainText(adminEmail);
  await expectNoAxeViolations(page);
});
