/**
 * The five 'Additional Information' sections end to end (issue 31 items 1 and 3), at a desktop
 * (1280 px) and a phone (390 px) size: the dashboard's second card lists them under the spec's
 * eleven; a provider fills every screen in the browser, saves, and finds every value after a reload;
 * axe finds nothing on any screen. On the way: the specialty search finds 'Cardiovascular Disease'
 * by name ('cardio') and by code ('207RC') and links a board certification; a second primary
 * specialty is refused on the screen with the one-primary message; a hospital affiliation without
 * admitting privileges asks for the admitting arrangement instead; training not completed asks why;
 * and Malpractice Claims' none answer is saved, then withdrawn for a claim.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { NO_CLAIMS } from '../../domain/sections/malpractice-claims.ts';
import { ONE_PRIMARY_SPECIALTY } from '../../domain/sections/specialties.ts';
import { NO_TRAINING } from '../../domain/sections/training.ts';
import { expectNoAxeViolations, newProviderWithApplication } from './helpers.ts';

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const CARDIOLOGY = 'Internal Medicine, Cardiovascular Disease (207RC0000X)';
const INTERVENTIONAL = 'Internal Medicine, Interventional Cardiology (207RI0011X)';
const BOARD_CERTIFICATION = 'Board Certification in Internal Medicine — American Board of Internal Medicine';

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The input labelled exactly `label` (a required field's label also carries its ' *'). */
const field = (scope: Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));

/** From the dashboard, open a section by its card in 'Additional Information'. */
async function openSection(page: Page, title: string) {
  await page
    .getByRole('region', { name: 'Additional Information' })
    .getByRole('link', { name: new RegExp(`^${title}:`) })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** 'Save & Continue', then the dashboard with the section's green check. */
async function saveAndExpectComplete(page: Page, key: string) {
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId(`complete-${key}`)).toBeVisible();
}

/** Open the screen again from its address (a fresh load of its rows). */
async function reopen(page: Page, slug: string, applicationId: string, title: string) {
  await page.goto(`/${slug}/${applicationId}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** The browser's console errors (React warnings included); none is expected. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

for (const size of sizes) {
  test(`a provider fills the five Additional Information sections at ${size.name} size and finds every value after reloading`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const applicationId = await newProviderWithApplication(page, 'Imani', `Adeyemi${size.name}`);
    const errors = consoleErrors(page);
    // First, a board certification to link a specialty to (its own screen is tested elsewhere).
    const certification = await page.request.post(
      `/api/applications/${applicationId}/sections/certifications`,
      {
        headers: { origin: new URL(page.url()).origin },
        data: {
          certificationKind: 'board',
          certificationName: 'Board Certification in Internal Medicine',
          certifyingBody: 'American Board of Internal Medicine',
        },
      },
    );
    expect(certification.status(), await certification.text()).toBe(201);
    await page.reload();

    // The dashboard: the spec's eleven as before, then the second card with the five.
    const applicationCard = page.getByRole('region', { name: 'Application Sections' });
    await expect(applicationCard.getByRole('link')).toHaveCount(11);
    await expect(applicationCard.getByRole('link').first()).toHaveAccessibleName(/^Personal Information:/);
    await expect(applicationCard.getByRole('link').last()).toHaveAccessibleName(/^Documents:/);
    const additional = page.getByRole('region', { name: 'Additional Information' });
    await expect(additional.getByRole('link')).toHaveCount(5);
    const titles = [
      'Specialties',
      'Practice Locations',
      'Hospital Affiliations',
      'Training',
      'Malpractice Claims',
    ];
    for (const [index, title] of titles.entries()) {
      await expect(additional.getByRole('link').nth(index)).toHaveAccessibleName(new RegExp(`^${title}:`));
    }
    await expectNoAxeViolations(page);

    // 1. Specialties: the search by name and by code, the read-only names, the certification link.
    await openSection(page, 'Specialties');
    const first = card(page, 'Specialty 1');
    await expect(first.getByRole('radio', { name: 'Primary' })).toBeChecked();
    const firstSpecialty = first.getByRole('combobox', { name: 'Specialty' });
    await firstSpecialty.fill('cardio');
    await expect(page.getByRole('option', { name: CARDIOLOGY })).toBeVisible();
    await firstSpecialty.fill('207RC');
    await page.getByRole('option', { name: CARDIOLOGY }).click();
    await expect(firstSpecialty).toHaveValue(CARDIOLOGY);
    await expect(first.getByLabel('Grouping')).toHaveValue('Allopathic & Osteopathic Physicians');
    await expect(first.getByLabel('Classification')).toHaveValue('Internal Medicine');
    await expect(first.getByLabel('Specialization')).toHaveValue('Cardiovascular Disease');
    await first.getByRole('combobox', { name: 'Board Certification' }).click();
    await page.getByRole('option', { name: BOARD_CERTIFICATION }).click();
    await expectNoAxeViolations(page);

    // A second specialty starts secondary; made primary too, the screen refuses before any request.
    await page.getByRole('button', { name: 'Add Specialty' }).click();
    const second = card(page, 'Specialty 2');
    await expect(second.getByRole('radio', { name: 'Secondary' })).toBeChecked();
    await second.getByRole('combobox', { name: 'Specialty' }).fill('interventional');
    await page.getByRole('option', { name: INTERVENTIONAL }).click();
    await expect(second.getByRole('combobox', { name: 'Board Certification' })).toBeEnabled();
    await second.getByRole('radio', { name: 'Primary' }).check();
    let saves = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/sections/specialties')) saves += 1;
    });
    await page.getByRole('button', { name: 'Save & Continue' }).click();
    await expect(second.getByText(ONE_PRIMARY_SPECIALTY)).toBeVisible();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Please correct the highlighted fields' }),
    ).toContainText(`Specialty 2, Primary or Secondary: ${ONE_PRIMARY_SPECIALTY}`);
    expect(saves).toBe(0);
    await expectNoAxeViolations(page);
    await second.getByRole('radio', { name: 'Secondary' }).check();
    await saveAndExpectComplete(page, 'specialties');
    expect(saves).toBe(1);

    await reopen(page, 'specialties', applicationId, 'Specialties');
    await expect(first.getByRole('combobox', { name: 'Specialty' })).toHaveValue(CARDIOLOGY);
    await expect(first.getByRole('radio', { name: 'Primary' })).toBeChecked();
    await expect(first.getByRole('combobox', { name: 'Board Certification' })).toHaveValue(
      BOARD_CERTIFICATION,
    );
    await expect(first.getByLabel('Specialization')).toHaveValue('Cardiovascular Disease');
    await expect(second.getByRole('combobox', { name: 'Specialty' })).toHaveValue(INTERVENTIONAL);
    await expect(second.getByRole('radio', { name: 'Secondary' })).toBeChecked();
    await expect(second.getByRole('combobox', { name: 'Board Certification' })).toHaveValue('');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // 2. Practice Locations: every field.
    await openSection(page, 'Practice Locations');
    const location = card(page, 'Location 1');
    const locationValues: [label: string, value: string][] = [
      ['Practice Name', 'Bayshore Cardiology Associates'],
      ['Group NPI', '1234567893'],
      ['Address Line 1', '2100 Bayshore Boulevard'],
      ['Address Line 2', 'Suite 300'],
      ['City', 'Tampa'],
      ['State', 'FL'],
      ['ZIP Code', '33606'],
      ['Phone', '(813) 555-0150'],
      ['Fax', '(813) 555-0151'],
      ['Email', 'office@bayshore.example.test'],
      ['Languages Spoken', 'English, Spanish'],
      ['Office Hours', 'Mon-Fri 8:00-17:00'],
      ['Accessibility Notes', 'Step-free entrance, accessible exam room'],
    ];
    for (const [label, value] of locationValues) await field(location, label).fill(value);
    await location.getByLabel('Primary location').check();
    await location.getByLabel('Accepting New Patients').selectOption({ label: 'Existing patients only' });
    await expectNoAxeViolations(page);
    await saveAndExpectComplete(page, 'practiceLocations');

    await reopen(page, 'practice-locations', applicationId, 'Practice Locations');
    for (const [label, value] of locationValues) {
      await expect(field(location, label)).toHaveValue(value);
    }
    await expect(location.getByLabel('Primary location')).toBeChecked();
    await expect(location.getByLabel('Accepting New Patients')).toHaveValue('existing_only');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // 3. Hospital Affiliations: a facility with privileges, then an admitting arrangement without.
    await openSection(page, 'Hospital Affiliations');
    const hospital = card(page, 'Affiliation 1');
    await expect(hospital.getByLabel('Privilege Status')).toHaveValue('active');
    await expect(hospital.getByLabel('Admitting Arrangement')).toHaveCount(0);
    const hospitalValues: [label: string, value: string][] = [
      ['Facility Name', 'Tampa General Hospital'],
      ['Department', 'Cardiology'],
      ['City', 'Tampa'],
      ['State', 'FL'],
      ['Start Date', '2016-08-01'],
      ['End Date', '2027-07-31'],
    ];
    for (const [label, value] of hospitalValues) await field(hospital, label).fill(value);
    await hospital.getByLabel('Privilege Status').selectOption({ label: 'Courtesy' });
    await page.getByRole('button', { name: 'Add Affiliation' }).click();
    const arrangement = card(page, 'Affiliation 2');
    await arrangement
      .getByLabel('Privilege Status')
      .selectOption({ label: 'None (no admitting privileges)' });
    await expect(arrangement.getByLabel('Facility Name')).toHaveCount(0);
    await arrangement.getByLabel('Admitting Arrangement').selectOption({ label: 'Hospitalist group' });
    await arrangement.getByLabel('Covering Physician or Group').fill('Bay Area Hospitalists');
    await expectNoAxeViolations(page);
    await saveAndExpectComplete(page, 'hospitalAffiliations');

    await reopen(page, 'hospital-affiliations', applicationId, 'Hospital Affiliations');
    await expect(hospital.getByLabel('Privilege Status')).toHaveValue('courtesy');
    for (const [label, value] of hospitalValues) {
      await expect(field(hospital, label)).toHaveValue(value);
    }
    await expect(arrangement.getByLabel('Privilege Status')).toHaveValue('none');
    await expect(arrangement.getByLabel('Admitting Arrangement')).toHaveValue('hospitalist_group');
    await expect(arrangement.getByLabel('Covering Physician or Group')).toHaveValue('Bay Area Hospitalists');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // 4. Training: a residency not completed asks why; the none answer is off while a card holds data.
    await openSection(page, 'Training');
    const noTraining = page.getByRole('checkbox', { name: NO_TRAINING.label });
    await expect(noTraining).toBeEnabled();
    const training = card(page, 'Training Program 1');
    await training.getByLabel('Training Type').selectOption({ label: 'Residency' });
    await expect(noTraining).toBeDisabled();
    await expect(
      page.getByText('To choose this, first remove or clear every training program below.'),
    ).toBeVisible();
    const trainingValues: [label: string, value: string][] = [
      ['Program Name', 'Internal Medicine Residency'],
      ['Institution', 'University of South Florida'],
      ['Specialty', 'Internal Medicine'],
      ['Start Date', '2010-07-01'],
      ['End Date', '2012-06-30'],
    ];
    for (const [label, value] of trainingValues) await field(training, label).fill(value);
    await expect(training.getByLabel('Reason Not Completed')).toHaveCount(0);
    await training.getByRole('radio', { name: 'No' }).check();
    await training
      .getByLabel('Reason Not Completed')
      .fill('Moved to a cardiology fellowship track elsewhere.');
    await expectNoAxeViolations(page);
    await saveAndExpectComplete(page, 'training');

    await reopen(page, 'training', applicationId, 'Training');
    await expect(training.getByLabel('Training Type')).toHaveValue('residency');
    for (const [label, value] of trainingValues) {
      await expect(field(training, label)).toHaveValue(value);
    }
    await expect(training.getByRole('radio', { name: 'No' })).toBeChecked();
    await expect(training.getByLabel('Reason Not Completed')).toHaveValue(
      'Moved to a cardiology fellowship track elsewhere.',
    );
    await expect(noTraining).not.toBeChecked();
    await expect(noTraining).toBeDisabled();
    await page.getByRole('button', { name: 'Cancel' }).click();

    // 5. Malpractice Claims: the none answer alone, saved; then withdrawn for a claim.
    await openSection(page, 'Malpractice Claims');
    const noClaims = page.getByRole('checkbox', { name: NO_CLAIMS.label });
    await noClaims.check();
    await expect(card(page, 'Claim 1')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add Claim' })).toBeDisabled();
    await expectNoAxeViolations(page);
    await saveAndExpectComplete(page, 'malpracticeClaims');

    await reopen(page, 'malpractice-claims', applicationId, 'Malpractice Claims');
    await expect(noClaims).toBeChecked();
    await expect(card(page, 'Claim 1')).toHaveCount(0);
    await expectNoAxeViolations(page);
    // Unchecking the saved answer deletes it at once: an empty claim card takes its place.
    await noClaims.uncheck();
    const claim = card(page, 'Claim 1');
    await expect(claim).toBeVisible();
    await expect(noClaims).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Add Claim' })).toBeEnabled();
    const claimValues: [label: string, value: string][] = [
      ['Incident Date', '2019-03-14'],
      ['Claim Date', '2020-01-09'],
      ['Insurer', 'MedPro Group'],
      ['Description', 'Alleged delayed diagnosis; settled without admission of liability.'],
    ];
    for (const [label, value] of claimValues) await field(claim, label).fill(value);
    await claim.getByLabel('Status').selectOption({ label: 'Settled' });
    await claim.getByLabel('Amount Paid (USD)').fill('250000');
    await expect(noClaims).toBeDisabled();
    await saveAndExpectComplete(page, 'malpracticeClaims');

    await reopen(page, 'malpractice-claims', applicationId, 'Malpractice Claims');
    for (const [label, value] of claimValues) {
      await expect(field(claim, label)).toHaveValue(value);
    }
    await expect(claim.getByLabel('Status')).toHaveValue('settled');
    await expect(claim.getByLabel('Amount Paid (USD)')).toHaveValue('$250,000');
    await expect(noClaims).not.toBeChecked();
    await expect(noClaims).toBeDisabled();
    await expectNoAxeViolations(page);

    // Back on the dashboard, the five are complete.
    await page.getByRole('button', { name: 'Cancel' }).click();
    for (const key of [
      'specialties',
      'practiceLocations',
      'hospitalAffiliations',
      'training',
      'malpracticeClaims',
    ]) {
      await expect(page.getByTestId(`complete-${key}`)).toBeVisible();
    }
    expect(errors).toEqual([]);
  });
}
