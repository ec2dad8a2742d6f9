/**
 * A copy must be confirmed, not resubmitted (issue 29 item 6), in Chromium: an approved provider
 * whose recredentialing window is open (the approval and the credential's end moved back 34 months,
 * as recredentialing.spec.ts does) starts recredentialing. The new draft's sixteen copied sections (eleven on the 'Application Sections' card)
 * show 'Review and Confirm' on the dashboard and count nothing (0%); 'Review and Confirm' on the
 * Education screen makes it count (1 of 16: 6%); the completion is refused naming the sections still
 * unconfirmed, and goes through once all are confirmed, with a new attestation.
 */
import { expect, test } from '@playwright/test';
import { disclosureQuestions } from '../../domain/attestation.ts';
import {
  approveThroughApi,
  completedApplicationInBrowser,
  completionReceiverForSpec,
  expectNoAxeViolations,
  moveApprovalBack,
  signAttestation,
  signInAsNewAdmin,
  signInAsNewStaff,
} from './helpers.ts';

completionReceiverForSpec();

test('a recredentialing copy counts a section once confirmed and completes only when all are', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // First, Rosa completes her first application and an administrator approves it.
  const provider = await (await browser.newContext()).newPage();
  const { applicationId: approvedId } = await completedApplicationInBrowser(provider, {
    firstName: 'Rosa',
    lastName: 'Lindqvist',
    emailPrefix: 'rosa',
  });
  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Ada', lastName: 'Reviewer', emailPrefix: 'ada-confirm' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Mia', lastName: 'Director', emailPrefix: 'ada-confirm-md' },
    'medical-director',
  );
  await approveThroughApi(admin, approvedId, director);

  // 34 months later (the clock): the recredentialing window is open.
  await moveApprovalBack(approvedId, 34);

  // Second, she starts recredentialing (confirming the dialog when there is one).
  await provider.reload();
  await provider.getByRole('button', { name: 'Start Recredentialing' }).click();
  const dialog = provider.getByRole('dialog', { name: 'Start Recredentialing?' });
  if (
    await dialog.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    )
  ) {
    await dialog.getByRole('button', { name: 'Start Recredentialing' }).click();
  }
  await expect(provider.getByText('New credentialing application started')).toBeVisible();

  // Every copied section asks to be checked; none counts yet.
  const sectionsCard = provider.getByRole('region', { name: 'Application Sections' });
  await expect(sectionsCard.locator('[data-testid^="unconfirmed-"]')).toHaveCount(11);
  await expect(sectionsCard.locator('[data-testid^="complete-"]')).toHaveCount(0);
  await expect(sectionsCard.getByText(/^11 copied sections to check/)).toBeVisible();
  await expect(provider.getByText('0%', { exact: true })).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Application Completed' })).toHaveCount(0);
  await expectNoAxeViolations(provider);

  // Third, she opens Education: the screen says it was copied; 'Review and Confirm' makes it count.
  await sectionsCard.getByRole('link', { name: /^Education:.*Review and Confirm/ }).click();
  await expect(provider).toHaveURL(/\/education\//);
  await expect(
    provider.getByText(/^This section was copied from your previous application and must be checked/),
  ).toBeVisible();
  await expectNoAxeViolations(provider);
  await provider.getByRole('button', { name: 'Review and Confirm' }).click();
  await expect(provider.getByText('Education now counts towards your progress.')).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Review and Confirm' })).toHaveCount(0);

  await provider.goto('/dashboard');
  await expect(sectionsCard.locator('[data-testid="complete-education"]')).toBeVisible();
  await expect(sectionsCard.locator('[data-testid^="complete-"]')).toHaveCount(1);
  await expect(sectionsCard.locator('[data-testid^="unconfirmed-"]')).toHaveCount(10);
  // One of 16 sections (issue 31: progress counts the 'Additional Information' five too).
  await expect(provider.getByText('6%', { exact: true })).toBeVisible();

  // The completion is refused while fifteen copied sections are unconfirmed, naming them.
  const { applications } = (await (await provider.request.get('/api/applications')).json()) as {
    applications: { id: string; copiedFromId: string | null }[];
  };
  const copy = applications[0]!;
  expect(copy.copiedFromId).toBe(approvedId);
  const headers = { origin: new URL(provider.url()).origin };
  // A signed attestation, as the dialog sends it: the refusal is about the sections, not the signature.
  const attestation = {
    answers: Object.fromEntries(disclosureQuestions.map((q) => [q.id, { answer: 'no' }])),
    signature: 'Rosa Lindqvist',
  };
  const refused = await provider.request.post(`/api/applications/${copy.id}/completion`, {
    headers,
    data: attestation,
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'Review and confirm each copied section first: Personal Information, Professional Licenses, Work History, Malpractice Insurance, Vaccinations, Payors, Certifications, CME Credits, Peer References, Documents, Specialties, Practice Locations, Hospital Affiliations, Training, Malpractice Claims.',
  );

  // Fourth, she confirms the other fifteen (through the API the button calls), then completes with a new attestation.
  for (const slug of [
    'personal-information',
    'professional-licenses',
    'work-history',
    'malpractice-insurance',
    'vaccinations',
    'payors',
    'certifications',
    'cme',
    'peer-references',
    'documents',
    'specialties',
    'practice-locations',
    'hospital-affiliations',
    'training',
    'malpractice-claims',
  ]) {
    const confirmed = await provider.request.post(`/api/applications/${copy.id}/sections/${slug}/confirm`, {
      headers,
      data: {},
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
  }
  await provider.reload();
  await expect(provider.getByText('100%', { exact: true })).toBeVisible();
  await expect(sectionsCard.locator('[data-testid^="complete-"]')).toHaveCount(11);
  await provider.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(provider, 'Rosa Lindqvist');
  await expect(provider.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();
});
