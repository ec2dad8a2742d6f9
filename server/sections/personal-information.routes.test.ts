/**
 * Personal information (spec §2, §3, §6, §7) against the real PostgreSQL: upsert, every field round
 * trip, the SSN stored only encrypted and masked for admins; and progress after two sections (§4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** A canary SSN: it must never appear in the database or the logs. */
const CANARY_SSN = '987-65-4329';

const everyField = {
  providerType: 'MD',
  gender: 'F',
  ssn: CANARY_SSN,
  dateOfBirth: '1980-02-29',
  mobilePhone: '(555) 010-2233',
  npiNumber: '1234567893',
  deaNumber: 'AB1234563',
  caqhId: '12345678',
  medicaidNumber: 'MCD-445566',
  medicareNumber: 'MCR-778899',
  addressLine1: '100 Main Street',
  addressLine2: 'Suite 200',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  driverLicenseNumber: 'D123-4567-8901',
  driverLicenseState: 'IL',
  driverLicenseExpiration: '2028-02-29',
};

interface PersonalInformationDto extends Record<string, unknown> {
  id: string;
  updatedAt: string;
  ssn: string | null;
}

async function providerWithApplication() {
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  const applicationId = created.body.id;
  return { provider, applicationId, url: `/api/applications/${applicationId}/sections/personal-information` };
}

describe('personal information', () => {
  it('starts empty, upserts one row, and reads every field back exactly', async () => {
    const { provider, applicationId, url } = await providerWithApplication();
    // First, there is nothing yet.
    const empty = await provider.request('GET', url);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('cache-control')).toBe('no-store');
    expect(await empty.json()).toEqual({ personalInformation: null });

    // Second, Alice saves every field, then saves again with a custom provider type and fewer fields.
    const first = await provider.json<PersonalInformationDto>('PUT', url, everyField);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.any(String), updatedAt: expect.any(String), ...everyField });
    const read = await provider.json<{ personalInformation: PersonalInformationDto }>('GET', url);
    expect(read.body.personalInformation).toEqual(first.body);

    const custom = {
      ...everyField,
      providerType: 'Certified Registered Nurse Anesthetist',
      addressLine2: '',
      gender: '',
    };
    const second = await provider.json<PersonalInformationDto>('PUT', url, custom);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      ...first.body,
      updatedAt: expect.any(String),
      providerType: 'Certified Registered Nurse Anesthetist',
      addressLine2: null,
      gender: null,
    });
    expect(Date.parse(second.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.updatedAt));
    expect(
      (await provider.json<{ personalInformation: PersonalInformationDto }>('GET', url)).body
        .personalInformation,
    ).toEqual(second.body);
    const count = await app.runtime.deps.database.pool.query(
      'select count(*)::int as n from personal_information where application_id = $1',
      [applicationId],
    );
    expect(count.rows[0].n).toBe(1);
  });

  it('stores the SSN only encrypted, shows admins the mask, and clears it when emptied', async () => {
    const { provider, applicationId, url } = await providerWithApplication();
    await provider.json('PUT', url, everyField);

    // The database holds no plaintext SSN in any column, only the ciphertext and the last four.
    const { rows } = await app.runtime.deps.database.pool.query(
      'select * from personal_information where application_id = $1',
      [applicationId],
    );
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(CANARY_SSN);
    expect(stored).not.toContain(CANARY_SSN.replaceAll('-', ''));
    expect(rows[0].ssn_encrypted).toMatch(/^v1:/);
    expect(rows[0].ssn_last4).toBe('4329');
    expect(app.logs.join('\n')).not.toContain(CANARY_SSN);

    // An admin reads the section with the SSN masked.
    const admin = await signUpAndSignIn(app);
    await grantAdmin(app, admin);
    const adminRead = await admin.json<{ personalInformation: PersonalInformationDto }>('GET', url);
    expect(adminRead.status).toBe(200);
    expect(adminRead.body.personalInformation).toEqual({ ...(await ownerView()), ssn: '***-**-4329' });
    expect(JSON.stringify(adminRead.body)).not.toContain(CANARY_SSN);
    const audit = await app.runtime.deps.database.pool.query(
      `select action, resource_id, details from audit_log where actor_user_id = $1`,
      [admin.userId],
    );
    expect(audit.rows).toContainEqual({
      action: 'admin.view_provider',
      resource_id: applicationId,
      details: { section: 'personalInformation' },
    });
    // Admins cannot change it; another provider cannot see it.
    expect((await admin.json('PUT', url, { ...everyField, city: 'Chicago' })).status).toBe(403);
    const bob = await signUpAndSignIn(app);
    expect((await bob.json('GET', url)).status).toBe(404);
    expect((await bob.json('PUT', url, everyField)).status).toBe(404);
    expect((await ownerView()).city).toBe('Springfield');

    // Emptying the SSN clears both stored columns.
    const cleared = await provider.json<PersonalInformationDto>('PUT', url, { ...everyField, ssn: '' });
    expect(cleared.body.ssn).toBeNull();
    const after = await app.runtime.deps.database.pool.query(
      'select ssn_encrypted, ssn_last4 from personal_information where application_id = $1',
      [applicationId],
    );
    expect(after.rows[0]).toEqual({ ssn_encrypted: null, ssn_last4: null });
    expect(
      (await admin.json<{ personalInformation: PersonalInformationDto }>('GET', url)).body.personalInformation
        .ssn,
    ).toBeNull();

    async function ownerView() {
      return (await provider.json<{ personalInformation: PersonalInformationDto }>('GET', url)).body
        .personalInformation;
    }
  });

  it('refuses bad input with 400 and the field, never 500', async () => {
    const { provider, url } = await providerWithApplication();
    const badDate = await provider.json<{ code: string; message: string; issues: unknown[] }>('PUT', url, {
      ...everyField,
      dateOfBirth: '1981-02-29',
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.issues).toEqual([
      { path: ['dateOfBirth'], message: 'Enter a valid date (YYYY-MM-DD)' },
    ]);
    expect(badDate.body.message).toContain('Date of Birth');
    expect((await provider.json('PUT', url, { gender: 'X' })).status).toBe(400);
    expect((await provider.json('PUT', url, [everyField])).status).toBe(400);
    expect((await provider.json('PUT', url, { city: 'x'.repeat(101) })).status).toBe(400);
    expect((await provider.json('PUT', url, { city: 'A\u0000' })).status).toBe(400);
    // Unknown fields are dropped; nothing was saved by the refused calls.
    const saved = await provider.json<PersonalInformationDto>('PUT', url, {
      city: 'Springfield',
      ssnEncrypted: 'forged',
      ssnLast4: '0000',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).not.toHaveProperty('ssnEncrypted');
    expect(saved.body.ssn).toBeNull();
  });
});

describe('progress', () => {
  it('counts personal information and one payor: 2 of 16 sections, 13%', async () => {
    const { provider, applicationId, url } = await providerWithApplication();
    await provider.json('PUT', url, { providerType: 'DO' });
    const payor = await provider.json('POST', `/api/applications/${applicationId}/sections/payors`, {
      payorName: 'Aetna',
    });
    expect(payor.status).toBe(201);
    const application = await provider.json<{ completeSections: string[]; progress: number }>(
      'GET',
      `/api/applications/${applicationId}`,
    );
    expect(application.body.completeSections).toEqual(['personalInformation', 'payors']);
    // Issue 31: every section counts, the five of 'Additional Information' too (2 / 16 = 12.5%).
    expect(application.body.progress).toBe(13);
  });
});
