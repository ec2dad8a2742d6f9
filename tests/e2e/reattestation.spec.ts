/**
 * 'Attest Again' in Chromium (issue 14): an application with the credentialing team whose
 * attestation is older than ATTESTATION_VALID_DAYS (120 by default; its signing time is moved back
 * 121 days: the clock) shows 'Re-attestation required' on the dashboard; the provider signs again in
 * the completion's dialog, which refuses a mismatched name first, and the card goes away.
 * With E2E_SCREENSHOTS=<folder>, the card and the dialog are saved there.
 */
import { expect, test } from '@playwright/test';
import {
  completionReceiverForSpec,
  e2eSql,
  expectNoAxeViolations,
  signAttestation,
  signIn,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

completionReceiverForSpec();

test("an aged attestation asks for 'Attest Again', and signing again clears it", async ({ page }) => {
  const email = uniqueEmail('kofi');
  await signUpAndConfirm(page, { firstName: 'Kofi', lastName: 'Mensah', email });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const applicationId = await startAndFillApplication(page);
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, 'Kofi Mensah');
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Re-attestation required' })).toHaveCount(0);

  // 121 days later: the signing time moves back (the table refuses updates; replica mode skips its
  // trigger for this one session of the test's own).
  expect(applicationId).toMatch(/^[0-9a-f-]{36}$/);
  await e2eSql(
    `set session_replication_role = replica;
     update application_attestations set signed_at = signed_at - interval '121 days'
       where application_id = '${applicationId}';`,
  );
  await page.reload();
  const card = page.getByRole('region', { name: 'Re-attestation required' });
  await expect(card).toBeVisible();
  await expectNoAxeViolations(page);
  if (process.env.E2E_SCREENSHOTS) {
    await card.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/reattestation-card.png` });
  }

  await card.getByRole('button', { name: 'Attest Again' }).click();
  const dialog = page.getByRole('dialog', { name: 'Attestation' });
  await expect(dialog).toBeVisible();
  for (const group of await dialog.getByRole('radiogroup').all()) {
    await group.getByRole('radio', { name: 'No' }).check();
  }
  // Another name than the profile's is refused in the dialog.
  await dialog.getByLabel('Full name (signature)').fill('Someone Else');
  await dialog.getByRole('button', { name: 'Sign and Complete' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Type your full name as your profile has it: Kofi Mensah.')).toBeVisible();
  if (process.env.E2E_SCREENSHOTS) {
    await dialog.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/attestation-dialog.png` });
  }
  await dialog.getByLabel('Full name (signature)').fill('');
  await signAttestation(page, 'Kofi Mensah');
  await expect(page.getByText('The credentialing team has your new attestation.')).toBeVisible();
  await expect(card).toHaveCount(0);
});
