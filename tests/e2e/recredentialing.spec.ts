/**
 * Recredentialing in Chromium (issue 14 acceptance): a provider's application is completed and
 * approved by an administrator; once that approval is 34 months old (its recorded time is moved
 * back: the clock) the dashboard says recredentialing is due and offers 'Start Recredentialing',
 * which gives a draft whose sections are copied from the approved one's (each to confirm), with the copied
 * document downloadable. The administrator sees both cycles in the provider's details.
 * With E2E_SCREENSHOTS=<folder>, the dashboard is saved there.
 */
import { expect, test } from '@playwright/test';
import {
  approveThroughApi,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  e2eSql,
  expectNoAxeViolations,
  moveApprovalBack,
  PDF_BYTES,
  signInAsNewAdmin,
  signInAsNewStaff,
  toast,
} from './helpers.ts';

completionReceiverForSpec();

test("'Start Recredentialing' on an approved application gives a complete draft with downloadable copied documents", async ({
  browser,
}) => {
  // The provider completes an application: every section and a PDF.
  const provider = await (await browser.newContext()).newPage();
  const { email, applicationId: approvedId } = await completedApplicationInBrowser(provider, {
    firstName: 'Ines',
    lastName: 'Okafor',
    emailPrefix: 'ines',
  });

  // An administrator reviews it through the API the review page uses: every item verified, approved.
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ada', lastName: 'Reviewer', emailPrefix: 'ada-recred' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Mia', lastName: 'Director', emailPrefix: 'ada-recred-md' },
    'medical-director',
  );
  await approveThroughApi(admin, approvedId, director);

  // Today the dashboard shows the due date 36 months ahead, and no 'Start Recredentialing' yet.
  await provider.reload();
  await expect(provider.getByText(/^Recredentialing due /)).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Start Recredentialing' })).toHaveCount(0);

  // 34 months later: the approval's recorded time moves back, so the due date is within 180 days
  // (issue 29: the credential's end date, set by the approval, moves back with it).
  await moveApprovalBack(approvedId, 34);
  await provider.reload();
  await expect(provider.getByText(/^Recredentialing due .*Start it now/)).toBeVisible();
  await expectNoAxeViolations(provider);
  if (process.env.E2E_SCREENSHOTS) {
    await provider.screenshot({
      path: `${process.env.E2E_SCREENSHOTS}/recredentialing-due.png`,
      fullPage: true,
    });
  }
  // A second document whose file is gone from storage: the copy goes on without it and names it.
  await e2eSql(
    `insert into documents (application_id, user_id, document_name, document_type, file_path, file_size, mime_type, sha256)
     select application_id, user_id, 'board-letter.pdf', document_type, replace(file_path, '.pdf', '-lost.pdf'),
            file_size, mime_type, sha256
     from documents where application_id = $1 and document_name = 'cv.pdf'`,
    [approvedId],
  );
  await provider.getByRole('button', { name: 'Start Recredentialing' }).click();
  // Issue 29 item 2: the start is confirmed in a dialog that says a copy is opened.
  await provider
    .getByRole('dialog', { name: 'Start Recredentialing?' })
    .getByRole('button', { name: 'Start Recredentialing' })
    .click();
  await expect(provider.getByText('New credentialing application started')).toBeVisible();
  // The fifteen sections of rows (the spec's ten and issue 31's five) and the one document copied.
  await expect(
    provider.getByText(/^Copied 15 sections and 1 document from your application of /),
  ).toBeVisible();
  await expect(toast(provider, 'Documents Not Copied')).toBeVisible();
  await expect(
    provider.getByText(
      'This file could not be copied from your previous application: board-letter.pdf. Upload it again in Documents.',
    ),
  ).toBeVisible();

  // The new draft: every section copied, each to check ('Review and Confirm', issue 29 item 6: none
  // counts before it is confirmed, confirm-copies.spec.ts), and the card that says where it came from.
  const copiedCard = provider.getByRole('region', { name: 'Pre-filled From Your Previous Application' });
  await expect(copiedCard).toBeVisible();
  await expect(provider.getByText('Draft', { exact: true })).toBeVisible();
  await expect(provider.getByText('0%', { exact: true })).toBeVisible();
  // The spec's eleven and issue 31's five.
  await expect(provider.locator('[data-testid^="unconfirmed-"]')).toHaveCount(16);
  await expectNoAxeViolations(provider);
  if (process.env.E2E_SCREENSHOTS) {
    await provider.screenshot({
      path: `${process.env.E2E_SCREENSHOTS}/recredentialing-copied.png`,
      fullPage: true,
    });
  }

  // The copied document downloads from the new application's Documents screen, byte for byte.
  const { applications } = (await (await provider.request.get('/api/applications')).json()) as {
    applications: { id: string; copiedFromId: string | null }[];
  };
  const draft = applications[0]!;
  expect(draft.copiedFromId).toBe(approvedId);
  await provider.getByRole('link', { name: /^Documents:/ }).click();
  await expect(provider).toHaveURL(new RegExp(`/documents/${draft.id}$`));
  const download = provider.waitForEvent('download');
  await provider.getByRole('link', { name: 'Download cv.pdf' }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(PDF_BYTES)).toBe(true);

  // The administrator sees both cycles: the approved one with its due date, and the new draft.
  await admin.goto('/admin');
  await admin.getByPlaceholder('Search users by name or email...').fill(email);
  await admin
    .getByRole('list', { name: 'Users' })
    .getByRole('listitem')
    .filter({ hasText: email })
    .getByRole('button', { name: 'View Details' })
    .click();
  const cycles = admin.getByRole('region', { name: 'Credentialing Cycles' });
  await expect(cycles.getByRole('row')).toHaveCount(3);
  await expect(cycles.getByRole('row').nth(1)).toContainText('Approved');
  await expect(cycles.getByRole('row').nth(1)).toContainText(approvedId.slice(0, 8));
  await expect(cycles.getByRole('row').nth(2)).toContainText(`copy of ${approvedId.slice(0, 8)}`);
  await expect(cycles.getByRole('row').nth(2)).toContainText('Draft');
});
