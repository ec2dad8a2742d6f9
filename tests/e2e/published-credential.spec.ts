/**
 * What the directory publishes about a provider (issue 49 acceptance), in Chromium against the real
 * server: a provider is approved; then, without 'Submit Update', changes the NPI and DEA number on
 * Personal Information (in the browser, in update mode), adds a license and renames the account: FHIR
 * and the roster still say what was approved. Then an OIG LEIE file naming the provider's NPI is
 * imported: the Practitioner is inactive, the roster's 'Credential Status' says why, and the
 * provider's dashboard says what was found and what happens next.
 */
import { expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { LEIE_COLUMNS } from '../../domain/screening/exclusion-formats.ts';
import {
  approveThroughApi,
  completionReceiverForSpec,
  e2eSql,
  expectNoAxeViolations,
  signAttestation,
  signIn,
  signInAsNewAdmin,
  signInAsNewStaff,
  signUpAndConfirm,
  startAndFillApplication,
  uniqueEmail,
} from './helpers.ts';

completionReceiverForSpec();

/** A check-digit-valid NPI no other spec uses, so the OIG row below names this provider only. */
const NPI = '1492581636';
const NAME = { firstName: 'Greta', lastName: 'Published' };

/** A bearer token of a payer's client with the FHIR and roster scopes, registered by `admin`. */
async function payerToken(admin: Page): Promise<string> {
  const origin = new URL(admin.url()).origin;
  const created = await admin.request.post('/api/admin/api-clients', {
    headers: { origin },
    data: { name: 'Payer directory (e2e)', scopes: ['system/*.read', 'roster.read'] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { client, clientSecret } = (await created.json()) as {
    client: { clientId: string };
    clientSecret: string;
  };
  const token = await admin.request.post('/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret },
  });
  expect(token.status(), await token.text()).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

test.afterAll(async () => {
  // Nothing left behind for the specs after this one: the OIG list this spec applied goes.
  await e2eSql(`delete from exclusion_imports where source = 'oig_leie'`);
});

test('edits nobody reviewed are not published; an OIG match suspends the published credential', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  // First, Greta completes her application with her NPI, and is approved.
  const email = uniqueEmail('greta-published');
  await signUpAndConfirm(page, { ...NAME, email });
  await signIn(page, email);
  const applicationId = await startAndFillApplication(page);
  const origin = new URL(page.url()).origin;
  const personal = `/api/applications/${applicationId}/sections/personal-information`;
  const own = await page.request.put(personal, {
    headers: { origin },
    data: {
      providerType: 'MD',
      ssn: '123-45-6789',
      npiNumber: NPI,
      deaNumber: 'AP1234563',
      city: 'Boston',
      state: 'MA',
    },
  });
  expect(own.status(), await own.text()).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: 'Application Completed' }).click();
  await signAttestation(page, `${NAME.firstName} ${NAME.lastName}`);
  await expect(page.getByRole('button', { name: 'Completed ✓' })).toBeDisabled();

  const admin = await (await browser.newContext()).newPage();
  await signInAsNewAdmin(admin, { firstName: 'Pam', lastName: 'Publisher', emailPrefix: 'pam-published' });
  const director = await (await browser.newContext()).newPage();
  await signInAsNewStaff(
    director,
    { firstName: 'Dora', lastName: 'Director', emailPrefix: 'dora-published' },
    'medical-director',
  );
  await approveThroughApi(admin, applicationId, director);
  const token = await payerToken(admin);
  const bearer = { authorization: `Bearer ${token}` };
  const userId = ((await (await page.request.get('/api/me')).json()) as { user: { id: string } }).user.id;
  const practitioner = async () => {
    const answer = await admin.request.get(`/fhir/Practitioner/${userId}`, { headers: bearer });
    expect(answer.status()).toBe(200);
    return (await answer.json()) as {
      active: boolean;
      identifier?: { value: string }[];
      name: { given: string[] }[];
    };
  };
  const rosterRow = async () => {
    const answer = await admin.request.get('/api/admin/roster.csv', { headers: bearer });
    expect(answer.status()).toBe(200);
    const [header, ...rows] = parse((await answer.text()).replace(/^\uFEFF/, '')) as string[][];
    const row = rows.find((r) => r[0] === NPI || r[1] === NAME.lastName);
    expect(row, 'the provider is on the roster').toBeDefined();
    return Object.fromEntries(row!.map((v, i) => [header![i], v]));
  };
  const approved = { practitioner: await practitioner(), roster: await rosterRow() };
  expect(approved.practitioner.active).toBe(true);
  expect(approved.roster).toMatchObject({ NPI, 'Credential Status': 'Active' });

  // Second, Greta edits her NPI and DEA number in the browser, in update mode, and saves.
  await page.goto(`/personal-information/${applicationId}?update=1`);
  await page.getByLabel('NPI Number').fill('1589273642');
  await page.getByLabel('DEA Number').fill('BP1234567');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page.getByText('Personal information saved successfully')).toBeVisible();
  // She adds a license and tries to rename her account: not sent for review either.
  const license = await page.request.put(
    `/api/applications/${applicationId}/sections/professional-licenses`,
    {
      headers: { origin },
      data: {
        rows: [
          {
            licenseType: 'medical_license',
            licenseNumber: 'CA-FAKE-001',
            issuingState: 'CA',
            status: 'active',
          },
        ],
      },
    },
  );
  expect(license.status(), await license.text()).toBe(200);
  const rename = await page.request.post('/api/auth/update-user', {
    headers: { origin },
    data: { firstName: 'Gus' },
  });
  expect(rename.status()).toBe(409);
  expect(((await rename.json()) as { message: string }).message).toContain("Use 'Change Legal Name'");

  // The directory and the roster still say what was approved.
  expect(await practitioner()).toEqual(approved.practitioner);
  expect(JSON.stringify(await practitioner())).not.toContain('1589273642');
  expect(await rosterRow()).toEqual(approved.roster);

  // Third, OIG lists Greta's NPI: the administrator imports and applies the file.
  const leieRow = (npi: string, last: string) =>
    [
      last,
      'GRETA',
      '',
      '',
      'IND- LIC HC SERV PRO',
      'PHYSICIAN',
      '',
      npi,
      '',
      '1 INVENTED RD',
      'BOSTON',
      'MA',
      '02100',
      '1128b4',
      '20261101',
      '00000000',
      '00000000',
      '',
    ]
      .map((v) => `"${v}"`)
      .join(',');
  const csv = [
    LEIE_COLUMNS.map((c) => `"${c}"`).join(','),
    leieRow('1111111112', 'SOMEONE'),
    leieRow(NPI, 'PUBLISHED'),
  ].join('\r\n');
  const staged = await admin.request.post('/api/admin/exclusions/imports', {
    headers: { origin: new URL(admin.url()).origin },
    multipart: { file: { name: 'UPDATED.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\r\n`) } },
  });
  expect(staged.status(), await staged.text()).toBe(200);
  const { id } = (await staged.json()) as { id: number };
  const applied = await admin.request.post(`/api/admin/exclusions/imports/${id}/apply`, {
    headers: { origin: new URL(admin.url()).origin },
    data: {},
  });
  expect(applied.status(), await applied.text()).toBe(200);

  // The directory publishes the credential as inactive, the roster says why.
  const today = new Date().toISOString().slice(0, 10);
  expect((await practitioner()).active).toBe(false);
  expect((await rosterRow())['Credential Status']).toBe(`Suspended (exclusion: OIG LEIE, ${today})`);

  // Greta's dashboard says what was found and what happens next.
  await page.goto('/dashboard');
  const notice = page.getByTestId('monitoring-notice');
  await expect(notice).toContainText('Credential suspended');
  await expect(notice).toContainText('the OIG LEIE exclusion list named you as excluded');
  await expect(notice).toContainText('while the credentialing committee reviews the finding');
  await expect(page.getByText('Suspended', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // The file waits on 'Ready for Committee' with the reason.
  const list = await admin.request.get('/api/admin/decisions?list=committee');
  const files = (
    (await list.json()) as { files: { applicationId: string; kind: string; reasons: string[] }[] }
  ).files;
  expect(files.find((f) => f.applicationId === applicationId)).toMatchObject({
    kind: 'monitoring',
    reasons: [`Monitoring finding: exclusion: OIG LEIE, ${today}`],
  });
  await admin.context().close();
  await director.context().close();
});
