/**
 * The ten section screens end to end (issue 3; spec §2, §4, §5, §8): a provider fills every section with
 * realistic data, watches the green checks and the progress rise, then reloads every screen and finds
 * every value exactly as entered. And a repeatable-card save with a bad second card names the card and
 * field and changes nothing on the server.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { SECTION_COUNT } from '../../domain/sections/registry.ts';
import { expectNoAxeViolations, newProviderWithApplication } from './helpers.ts';

/** Progress after `n` complete sections (spec §4: n / SECTION_COUNT, rounded; 16 since issue 31). */
const progressAfter = (n: number) => `${Math.round((n / SECTION_COUNT) * 100)}%`;

/** From the dashboard, open a section by its card. */
async function openSection(page: Page, title: string, heading = title) {
  await page.getByRole('link', { name: new RegExp(`^${title}:`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** Back on the dashboard: the section's green check and the new progress. */
async function expectComplete(page: Page, key: string, completeCount: number) {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId(`complete-${key}`)).toBeVisible();
  await expect(page.getByText(progressAfter(completeCount), { exact: true })).toBeVisible();
}

/**
 * Collects the browser's console errors (React warnings included). A refused request the test provokes
 * on purpose logs "Failed to load resource"; that one is expected where the test says so.
 */
function consoleErrors(page: Page, { allowFailedRequests = false } = {}): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (allowFailedRequests && message.text().startsWith('Failed to load resource')) return;
    errors.push(message.text());
  });
  return errors;
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The table row of a saved entry, found by one of its cells. */
const tableRow = (page: Page, cellText: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: cellText, exact: true }) });

async function expectCells(row: Locator, cells: string[]) {
  for (const text of cells) await expect(row.getByRole('cell', { name: text, exact: true })).toBeVisible();
}

test('a provider fills all ten sections, sees the progress rise and finds every value after reloading', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const applicationId = await newProviderWithApplication(page, 'Renata', 'Vasquez');
  // From here on, signed in.
  const errors = consoleErrors(page);
  await expect(page.getByText(progressAfter(0), { exact: true })).toBeVisible();

  // 1. Personal information, with a custom provider type, the SSN mask and the NPI check-digit warning.
  await openSection(page, 'Personal Information');
  await expectNoAxeViolations(page);
  await expect(page.getByLabel('Custom Provider Type')).toHaveCount(0);
  await page.getByLabel('Provider Type').selectOption('Custom Entry');
  await page.getByLabel('Custom Provider Type').fill('CRNA (Certified Registered Nurse Anesthetist)');
  await page.getByLabel('Gender').selectOption({ label: 'Female' });
  const ssn = page.getByLabel('SSN');
  await expect(ssn).toHaveAttribute('placeholder', 'XXX-XX-XXXX');
  await ssn.pressSequentially('123456789');
  await expect(ssn).toHaveValue('123-45-6789');
  await page.getByLabel('Date of Birth').fill('1984-07-16');
  await expect(page.getByLabel('Mobile Phone')).toHaveAttribute('placeholder', '(XXX) XXX-XXXX');
  await page.getByLabel('Mobile Phone').fill('(813) 555-0142');
  const npi = page.getByLabel('NPI Number');
  await expect(npi).toHaveAttribute('placeholder', '10-digit NPI number');
  await npi.fill('1234567890');
  await expect(page.getByText('This NPI fails its check digit')).toBeVisible();
  await npi.fill('1234567893');
  await expect(page.getByText('This NPI fails its check digit')).toHaveCount(0);
  // Issue 15: the DEA number's check digit is checked as typed, and never blocks the save.
  const dea = page.getByLabel('DEA Number');
  await dea.fill('BV1234564');
  await expect(page.getByText('This DEA number fails its check digit')).toBeVisible();
  await dea.fill('BV1234563');
  await expect(page.getByText('This DEA number fails its check digit')).toHaveCount(0);
  await page.getByLabel('CAQH ID').fill('16273849');
  await page.getByLabel('Medicaid Number').fill('FL-MCD-448812');
  await page.getByLabel('Medicare Number').fill('MCR-551203');
  await page.getByLabel('Address Line 1').fill('1200 Bayshore Blvd');
  await page.getByLabel('Address Line 2').fill('Apt 4B');
  await page.getByLabel('City').fill('Tampa');
  await page.getByLabel('State', { exact: true }).fill('FL');
  await page.getByLabel('ZIP Code').fill('33606');
  await page.getByLabel("Driver's License Number").fill('V245-812-84-716-0');
  await page.getByLabel("Driver's License State").fill('FL');
  await page.getByLabel("Driver's License Expiration").fill('2030-07-16');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Personal information saved successfully')).toBeVisible();
  await expectComplete(page, 'personalInformation', 1);

  // 2. Professional licenses: two cards; the trash button appears only with more than one card.
  await openSection(page, 'Professional Licenses');
  await expectNoAxeViolations(page);
  await expect(page.getByRole('button', { name: /^Remove license/ })).toHaveCount(0);
  let license = card(page, 'License 1');
  await expect(license.getByLabel('Status')).toHaveValue('active');
  await license.getByLabel('License Type').selectOption('nursing_license');
  await license.getByLabel('License Number').fill('APRN9312755');
  await license.getByLabel('Issuing State').fill('FL');
  await license.getByLabel('Issue Date').fill('2012-09-04');
  await license.getByLabel('Expiration Date').fill('2026-07-31');
  await page.getByRole('button', { name: 'Add License' }).click();
  license = card(page, 'License 2');
  await expect(page.getByRole('button', { name: 'Remove license 2' })).toBeVisible();
  await license.getByLabel('License Type').selectOption('dea_license');
  await license.getByLabel('License Number').fill('BV1234563');
  await license.getByLabel('Issuing State').fill('GA');
  await license.getByLabel('Issue Date').fill('2013-01-15');
  await license.getByLabel('Expiration Date').fill('2025-12-31');
  await license.getByLabel('Status').selectOption('expired');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Professional licenses saved successfully')).toBeVisible();
  await expectComplete(page, 'professionalLicenses', 2);

  // 3. Education.
  await openSection(page, 'Education');
  await expectNoAxeViolations(page);
  const school = card(page, 'Education 1');
  await school.getByLabel('Institution Name').fill('Emory University');
  await school.getByLabel('Degree Type').selectOption('doctorate');
  await school.getByLabel('Field of Study').fill('Nurse Anesthesia Practice');
  await school.getByLabel('Graduation Date').fill('2012-05-12');
  await school.getByLabel('GPA').fill('3.85 / 4.0');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Education records saved successfully')).toBeVisible();
  await expectComplete(page, 'education', 3);

  // 4. Work history: the current position's checkbox disables and clears the end date.
  await openSection(page, 'Work History');
  await expectNoAxeViolations(page);
  let position = card(page, 'Position 1');
  await position.getByLabel('Employer Name').fill('Tampa General Hospital');
  await position.getByLabel('Position Title').fill('Staff CRNA');
  await position.getByLabel('Start Date').fill('2016-08-01');
  await position.getByLabel('End Date').fill('2020-01-31');
  await position.getByLabel('Current position').check();
  await expect(position.getByLabel('End Date')).toBeDisabled();
  await expect(position.getByLabel('End Date')).toHaveValue('');
  await position
    .getByLabel('Responsibilities')
    .fill('General and regional anesthesia for the Level I trauma center.');
  await position.getByLabel('Supervisor Name').fill('Dr. Alan Reyes');
  await position.getByLabel('Supervisor Contact').fill('areyes@tgh.example.test');
  await page.getByRole('button', { name: 'Add Position' }).click();
  position = card(page, 'Position 2');
  await position.getByLabel('Employer Name').fill('Piedmont Atlanta Hospital');
  await position.getByLabel('Position Title').fill('ICU Registered Nurse');
  await position.getByLabel('Start Date').fill('2008-06-02');
  await position.getByLabel('End Date').fill('2010-07-30');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Work history saved successfully')).toBeVisible();
  await expectComplete(page, 'workHistory', 4);

  // 5. Malpractice insurance.
  await openSection(page, 'Malpractice Insurance');
  await expectNoAxeViolations(page);
  const policy = card(page, 'Policy 1');
  await policy.getByLabel('Insurance Company').fill('The Doctors Company');
  await policy.getByLabel('Policy Number').fill('TDC-2025-448190');
  await policy.getByLabel('Coverage Amount').fill('$1,000,000 / $3,000,000');
  await policy.getByLabel('Effective Date').fill('2025-01-01');
  await policy.getByLabel('Expiration Date').fill('2026-01-01');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Malpractice insurance saved successfully')).toBeVisible();
  await expectComplete(page, 'malpracticeInsurance', 5);

  // 6. Vaccinations.
  await openSection(page, 'Vaccinations');
  await expectNoAxeViolations(page);
  const shot = card(page, 'Vaccination 1');
  await shot.getByLabel('Vaccine Name').selectOption('influenza');
  await shot.getByLabel('Administration Date').fill('2025-10-03');
  await shot.getByLabel('Expiration Date').fill('2026-09-30');
  await shot.getByLabel('Lot Number').fill('FLU-25-118A');
  await shot.getByLabel('Administering Provider').fill('TGH Employee Health');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Vaccination records saved successfully')).toBeVisible();
  await expectComplete(page, 'vaccinations', 6);

  // 7. Payors: the name is required; add two, delete one with confirmation; status badges.
  await openSection(page, 'Payors');
  await expectNoAxeViolations(page);
  await expect(page.getByRole('table')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add Payor' }).click();
  await expect(page.getByText('Payor name is required').first()).toBeVisible();
  await page.getByLabel('Payor Name').fill('Cigna');
  await expect(page.getByLabel('Credentialing Status')).toHaveValue('pending');
  await page.getByRole('button', { name: 'Add Payor' }).click();
  await expect(page.getByText('Payor information saved successfully.')).toBeVisible();
  await expect(tableRow(page, 'Cigna').getByText('Pending', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Payor Name')).toHaveValue('');
  await page.getByLabel('Payor Name').fill('Aetna');
  await page.getByLabel('Contract Type').fill('Commercial PPO');
  await page.getByLabel('Contract Start Date').fill('2024-01-01');
  await page.getByLabel('Contract End Date').fill('2026-12-31');
  await page.getByLabel('Credentialing Status').selectOption('approved');
  await page.getByLabel('Notes').fill('Group contract through TGH Physicians');
  await page.getByRole('button', { name: 'Add Payor' }).click();
  await expect(tableRow(page, 'Aetna').getByText('Approved', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Delete payor Cigna' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete payor' });
  await expect(dialog).toContainText('Cigna');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Payor deleted successfully.')).toBeVisible();
  await expect(tableRow(page, 'Cigna')).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expectComplete(page, 'payors', 7);

  // 8. Certifications: 'Loading...' first (the list is held back until the page has shown it).
  let releaseList = () => {};
  const listHeld = new Promise<void>((resolve) => {
    releaseList = resolve;
  });
  await page.route('**/sections/certifications', async (route) => {
    if (route.request().method() === 'GET') await listHeld;
    await route.continue();
  });
  await openSection(page, 'Certifications');
  await expect(page.getByText('Loading...')).toBeVisible();
  releaseList();
  await expect(page.getByText('Nothing added yet.')).toBeVisible();
  await page.unroute('**/sections/certifications');
  await expectNoAxeViolations(page);
  // Issue 51 item 4: NBCRNA is not an ABMS/AOA board.
  await page.getByLabel('Certification Type').selectOption('other');
  await page.getByLabel('Certification Name').fill('Certified Registered Nurse Anesthetist');
  await page.getByLabel('Certifying Body').fill('NBCRNA');
  await page.getByLabel('Certification Number').fill('CRNA-1122334');
  await page.getByLabel('Issue Date').fill('2012-09-01');
  await page.getByLabel('Expiration Date').fill('2028-08-31');
  await page.getByRole('button', { name: 'Add Certification' }).click();
  await expect(page.getByText('Certification added successfully')).toBeVisible();
  await expect(tableRow(page, 'NBCRNA')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expectComplete(page, 'certifications', 8);

  // 9. CME: 1.5 credit hours (step 0.5).
  await openSection(page, 'CME Credits');
  await expectNoAxeViolations(page);
  await page.getByLabel('Activity Title').fill('Advanced Airway Management');
  await page.getByLabel('Provider Name').fill('American Association of Nurse Anesthesiology');
  await page.getByLabel('Category').selectOption('Category 1');
  // Credit hours step by 0.5: 1, then one step up.
  await page.getByLabel('Credit Hours').fill('1');
  await page.getByLabel('Credit Hours').press('ArrowUp');
  await expect(page.getByLabel('Credit Hours')).toHaveValue('1.5');
  await page.getByLabel('Completion Date').fill('2025-03-14');
  await page.getByLabel('Certificate Number').fill('AANA-25-0042');
  await page.getByRole('button', { name: 'Add CME Record' }).click();
  await expect(page.getByText('CME record saved successfully.')).toBeVisible();
  await expect(tableRow(page, 'Advanced Airway Management')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expectComplete(page, 'cme', 9);

  // 10. Peer references: the email must look like one; years known is a whole number.
  await openSection(page, 'Peer References');
  await expectNoAxeViolations(page);
  await page.getByLabel('Reference Name').fill('Dr. Alan Reyes');
  await page.getByLabel('Title').fill('Chief of Anesthesiology');
  await page.getByLabel('Organization').fill('Tampa General Hospital');
  await page.getByLabel('Email').fill('alan.reyes@tgh');
  await page.getByRole('button', { name: 'Add Reference' }).click();
  await expect(page.getByText('Enter a valid email address').first()).toBeVisible();
  await page.getByLabel('Email').fill('alan.reyes@tgh.example.test');
  await page.getByLabel('Phone').fill('(813) 555-0199');
  await page.getByLabel('Relationship').fill('Supervisor');
  await page.getByLabel('Years Known').fill('6');
  await page.getByRole('button', { name: 'Add Reference' }).click();
  await expect(page.getByText('Peer reference saved successfully.')).toBeVisible();
  await expect(tableRow(page, 'Dr. Alan Reyes')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expectComplete(page, 'peerReferences', 10);
  for (const key of [
    'personalInformation',
    'professionalLicenses',
    'education',
    'workHistory',
    'malpracticeInsurance',
    'vaccinations',
    'payors',
    'certifications',
    'cme',
    'peerReferences',
  ]) {
    await expect(page.getByTestId(`complete-${key}`)).toBeVisible();
  }
  await expect(page.getByTestId('complete-documents')).toHaveCount(0);

  // Now every screen again, from a fresh page load: every value exactly as entered.
  const open = async (slug: string, heading: string) => {
    await page.goto(`/${slug}/${applicationId}`);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText('Loading...')).toHaveCount(0);
  };

  await open('personal-information', 'Personal Information');
  await expect(page.getByLabel('Provider Type', { exact: true })).toHaveValue('Custom Entry');
  await expect(page.getByLabel('Custom Provider Type')).toHaveValue(
    'CRNA (Certified Registered Nurse Anesthetist)',
  );
  const personal: [string, string][] = [
    ['Gender', 'F'],
    ['SSN', '123-45-6789'],
    ['Date of Birth', '1984-07-16'],
    ['Mobile Phone', '(813) 555-0142'],
    ['NPI Number', '1234567893'],
    ['DEA Number', 'BV1234563'],
    ['CAQH ID', '16273849'],
    ['Medicaid Number', 'FL-MCD-448812'],
    ['Medicare Number', 'MCR-551203'],
    ['Address Line 1', '1200 Bayshore Blvd'],
    ['Address Line 2', 'Apt 4B'],
    ['City', 'Tampa'],
    ['State', 'FL'],
    ['ZIP Code', '33606'],
    ["Driver's License Number", 'V245-812-84-716-0'],
    ["Driver's License State", 'FL'],
    ["Driver's License Expiration", '2030-07-16'],
  ];
  for (const [label, value] of personal)
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  await expectNoAxeViolations(page);

  await open('professional-licenses', 'Professional Licenses');
  const licenses: [string, [string, string][]][] = [
    [
      'License 1',
      [
        ['License Type', 'nursing_license'],
        ['License Number', 'APRN9312755'],
        ['Issuing State', 'FL'],
        ['Issue Date', '2012-09-04'],
        ['Expiration Date', '2026-07-31'],
        ['Status', 'active'],
      ],
    ],
    [
      'License 2',
      [
        ['License Type', 'dea_license'],
        ['License Number', 'BV1234563'],
        ['Issuing State', 'GA'],
        ['Issue Date', '2013-01-15'],
        ['Expiration Date', '2025-12-31'],
        ['Status', 'expired'],
      ],
    ],
  ];
  for (const [name, fields] of licenses) {
    for (const [label, value] of fields) await expect(card(page, name).getByLabel(label)).toHaveValue(value);
  }
  await expect(page.getByRole('region', { name: /^License \d$/ })).toHaveCount(2);
  await expectNoAxeViolations(page);

  await open('education', 'Education');
  for (const [label, value] of [
    ['Institution Name', 'Emory University'],
    ['Degree Type', 'doctorate'],
    ['Field of Study', 'Nurse Anesthesia Practice'],
    ['Graduation Date', '2012-05-12'],
    ['GPA', '3.85 / 4.0'],
  ]) {
    await expect(card(page, 'Education 1').getByLabel(label!)).toHaveValue(value!);
  }
  await expectNoAxeViolations(page);

  await open('work-history', 'Work History');
  position = card(page, 'Position 1');
  await expect(position.getByLabel('Employer Name')).toHaveValue('Tampa General Hospital');
  await expect(position.getByLabel('Position Title')).toHaveValue('Staff CRNA');
  await expect(position.getByLabel('Start Date')).toHaveValue('2016-08-01');
  await expect(position.getByLabel('Current position')).toBeChecked();
  await expect(position.getByLabel('End Date')).toBeDisabled();
  await expect(position.getByLabel('End Date')).toHaveValue('');
  await expect(position.getByLabel('Responsibilities')).toHaveValue(
    'General and regional anesthesia for the Level I trauma center.',
  );
  await expect(position.getByLabel('Supervisor Name')).toHaveValue('Dr. Alan Reyes');
  await expect(position.getByLabel('Supervisor Contact')).toHaveValue('areyes@tgh.example.test');
  position = card(page, 'Position 2');
  await expect(position.getByLabel('Employer Name')).toHaveValue('Piedmont Atlanta Hospital');
  await expect(position.getByLabel('Position Title')).toHaveValue('ICU Registered Nurse');
  await expect(position.getByLabel('Start Date')).toHaveValue('2008-06-02');
  await expect(position.getByLabel('End Date')).toHaveValue('2010-07-30');
  await expect(position.getByLabel('Current position')).not.toBeChecked();
  await expectNoAxeViolations(page);

  await open('malpractice-insurance', 'Malpractice Insurance');
  for (const [label, value] of [
    ['Insurance Company', 'The Doctors Company'],
    ['Policy Number', 'TDC-2025-448190'],
    ['Coverage Amount', '$1,000,000 / $3,000,000'],
    ['Effective Date', '2025-01-01'],
    ['Expiration Date', '2026-01-01'],
  ]) {
    await expect(card(page, 'Policy 1').getByLabel(label!)).toHaveValue(value!);
  }
  await expectNoAxeViolations(page);

  await open('vaccinations', 'Vaccinations');
  for (const [label, value] of [
    ['Vaccine Name', 'influenza'],
    ['Administration Date', '2025-10-03'],
    ['Expiration Date', '2026-09-30'],
    ['Lot Number', 'FLU-25-118A'],
    ['Administering Provider', 'TGH Employee Health'],
  ]) {
    await expect(card(page, 'Vaccination 1').getByLabel(label!)).toHaveValue(value!);
  }
  await expectNoAxeViolations(page);

  await open('payors', 'Payors');
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2); // header + Aetna
  await expectCells(tableRow(page, 'Aetna'), [
    'Commercial PPO',
    'Jan 1, 2024',
    'Dec 31, 2026',
    'Approved',
    'Group contract through TGH Physicians',
  ]);
  await expectNoAxeViolations(page);

  await open('certifications', 'Certifications');
  await expectCells(tableRow(page, 'Certified Registered Nurse Anesthetist'), [
    'Other Certification (e.g. ACLS, BLS, PALS)',
    'NBCRNA',
    'CRNA-1122334',
    'Sep 1, 2012',
    'Aug 31, 2028',
  ]);
  await expectNoAxeViolations(page);

  await open('cme', 'CME Credits');
  await expectCells(tableRow(page, 'Advanced Airway Management'), [
    'American Association of Nurse Anesthesiology',
    'Category 1',
    '1.5',
    'Mar 14, 2025',
    'AANA-25-0042',
  ]);
  await expectNoAxeViolations(page);

  await open('peer-references', 'Peer References');
  await expectCells(tableRow(page, 'Dr. Alan Reyes'), [
    'Chief of Anesthesiology',
    'Tampa General Hospital',
    'alan.reyes@tgh.example.test',
    '(813) 555-0199',
    'Supervisor',
    '6',
  ]);
  await expectNoAxeViolations(page);

  // Every screen's way back.
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(progressAfter(10), { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a card save with an invalid second card names that card and field and saves nothing', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const applicationId = await newProviderWithApplication(page, 'Tomas', 'Lindqvist');
  const errors = consoleErrors(page, { allowFailedRequests: true });
  const api = `/api/applications/${applicationId}/sections/professional-licenses`;

  // First, one license is saved.
  await page.goto(`/professional-licenses/${applicationId}`);
  await card(page, 'License 1').getByLabel('License Number').fill('ME-111111');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Professional licenses saved successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Second, the provider changes it and adds a second card whose number is far too long: the form
  // catches it on card 2 before anything is sent.
  let puts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/sections/professional-licenses')) puts++;
  });
  await page.goto(`/professional-licenses/${applicationId}`);
  await card(page, 'License 1').getByLabel('License Number').fill('ME-222222');
  await page.getByRole('button', { name: 'Add License' }).click();
  const second = card(page, 'License 2');
  await second.getByLabel('License Number').fill('X'.repeat(101));
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(second.getByText('Use at most 100 characters')).toBeVisible();
  await expect(card(page, 'License 1').getByText('Use at most 100 characters')).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'License 2, License Number' })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(puts).toBe(0);

  // Third, a date the form cannot produce (2024-02-30) reaches the server in card 2: the server refuses
  // the whole save, and the form shows the error on card 2's issue date.
  await second.getByLabel('License Number').fill('RN-445566');
  await second.getByLabel('Issue Date').fill('2024-02-01');
  await page.route('**/sections/professional-licenses', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    const body = route.request().postDataJSON() as { rows: Record<string, unknown>[] };
    body.rows[1]!.issueDate = '2024-02-30';
    await route.continue({ postData: JSON.stringify(body) });
  });
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Failed to save professional licenses')).toBeVisible();
  await expect(second.getByText('Enter a valid date (YYYY-MM-DD)')).toBeVisible();
  await expect(card(page, 'License 1').getByText('Enter a valid date (YYYY-MM-DD)')).toHaveCount(0);
  await expect(
    page.getByRole('alert').filter({ hasText: 'License 2, Issue Date: Enter a valid date (YYYY-MM-DD)' }),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/professional-licenses/${applicationId}$`));
  expect(puts).toBe(1);

  // Nothing changed on the server: still the one license, with its first number.
  const stored = await page.request.get(api);
  expect(stored.status()).toBe(200);
  const { rows } = (await stored.json()) as { rows: { licenseNumber: string }[] };
  expect(rows.map((r) => r.licenseNumber)).toEqual(['ME-111111']);

  // Without the tampering, the same screen saves both cards.
  await page.unroute('**/sections/professional-licenses');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Professional licenses saved successfully')).toBeVisible();
  const after = (await (await page.request.get(api)).json()) as {
    rows: { licenseNumber: string; issueDate: string | null }[];
  };
  expect(after.rows.map((r) => [r.licenseNumber, r.issueDate])).toEqual([
    ['ME-222222', null],
    ['RN-445566', '2024-02-01'],
  ]);

  // Removing a saved card asks first, then deletes it and reloads the list from the server (spec §4);
  // an unsaved card goes without asking.
  const licenseCards = page.getByRole('region', { name: /^License \d$/ });
  await page.goto(`/professional-licenses/${applicationId}`);
  await page.getByRole('button', { name: 'Add License' }).click();
  await expect(licenseCards).toHaveCount(3);
  await page.getByRole('button', { name: 'Remove license 3' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(licenseCards).toHaveCount(2);
  // Meanwhile the provider saves a third license in another tab (the same session)...
  const inOtherTab = await page.evaluate(async (url) => {
    const { rows } = (await (await fetch(url)).json()) as { rows: unknown[] };
    const response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rows: [...rows, { licenseNumber: 'PA-778899' }] }),
    });
    return response.status;
  }, api);
  expect(inOtherTab).toBe(200);
  // ...and here changes card 1 and adds a card, both unsaved, before removing saved card 2.
  await card(page, 'License 1').getByLabel('Issuing State').fill('NY');
  await page.getByRole('button', { name: 'Add License' }).click();
  await card(page, 'License 3').getByLabel('License Number').fill('NEW-UNSAVED');
  const calls: string[] = [];
  page.on('response', (response) => {
    if (/\/sections\/professional-licenses(\/[^/]+)?$/.test(new URL(response.url()).pathname))
      calls.push(`${response.request().method()} ${response.status()}`);
  });
  await page.getByRole('button', { name: 'Remove license 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove license' });
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  // The delete, then the list read again from the server.
  await expect.poll(() => calls).toEqual(['DELETE 204', 'GET 200']);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The reloaded list: card 1 with the unsaved change, the license from the other tab, the unsaved card.
  await expect(licenseCards).toHaveCount(3);
  await expect(card(page, 'License 1').getByLabel('License Number')).toHaveValue('ME-222222');
  await expect(card(page, 'License 1').getByLabel('Issuing State')).toHaveValue('NY');
  await expect(card(page, 'License 2').getByLabel('License Number')).toHaveValue('PA-778899');
  await expect(card(page, 'License 3').getByLabel('License Number')).toHaveValue('NEW-UNSAVED');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Professional licenses saved successfully')).toBeVisible();
  const remaining = (await (await page.request.get(api)).json()) as {
    rows: { licenseNumber: string; issuingState: string | null }[];
  };
  expect(remaining.rows.map((r) => [r.licenseNumber, r.issuingState])).toEqual([
    ['ME-222222', 'NY'],
    ['PA-778899', null],
    ['NEW-UNSAVED', null],
  ]);
  expect(errors).toEqual([]);
});
