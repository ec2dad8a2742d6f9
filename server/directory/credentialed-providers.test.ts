/**
 * The directory query (issue 33 item 3, part A) against the real PostgreSQL with a hand-built
 * fixture: who is in (a credential in state 'credentialed' at `now`) and who is not (never approved,
 * ended by a denial, expired, draft only, approved with an effective date still ahead), each fact
 * mapped from the credential's published version (issue 49: a change saved after it is not
 * published until a version is), the filters, keyset pages and batches.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/harness.ts';
import { publishCredentialVersion } from '../credential/published-credential.ts';
import type { Database } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { profiles, providerApplications } from '../db/schema/core.ts';
import { providerCredentials } from '../db/schema/credentials.ts';
import {
  certifications,
  education,
  personalInformation,
  practiceLocations,
  professionalLicenses,
  specialties,
} from '../db/schema/sections.ts';
import { storeNextVersion } from '../notifications/application-snapshot.ts';
import {
  credentialedProviderBatches,
  credentialedProviderPage,
  type DirectoryProvider,
} from './credentialed-providers.ts';

let app: TestApp;
let db: Database;
const now = new Date('2027-03-01T12:00:00Z');

interface Fixture {
  userId: string;
  applicationId: string;
}

/** A user with a profile and one application of `status`; the credential when `credential` is given. */
async function provider(
  firstName: string,
  lastName: string,
  options: {
    status?: 'draft' | 'approved' | 'rejected';
    npi?: string;
    credential?: { endsOn: string; endedOn?: string | null; credentialedAt?: Date };
  } = {},
): Promise<Fixture> {
  const userId = randomUUID();
  await db
    .insert(user)
    .values({ id: userId, name: `${firstName} ${lastName}`, email: `${userId}@example.test` });
  await db.insert(profiles).values({ userId, firstName, lastName, email: `${userId}@example.test` });
  const [application] = await db
    .insert(providerApplications)
    .values({ userId, applicationStatus: options.status ?? 'approved' })
    .returning();
  const applicationId = application!.id;
  await db.insert(personalInformation).values({
    applicationId,
    providerType: 'MD',
    gender: 'F',
    npiNumber: options.npi ?? null,
    ssnLast4: '6789',
  });
  if (options.credential) {
    await db.insert(providerCredentials).values({
      userId,
      applicationId,
      credentialedAt: options.credential.credentialedAt ?? new Date('2025-01-10T15:00:00Z'),
      approvedAt: new Date('2025-01-10T15:00:00Z'),
      endsOn: options.credential.endsOn,
      endedOn: options.credential.endedOn ?? null,
    });
  }
  return { userId, applicationId };
}

/** Store the application's current rows as its next version and publish it (as an approval does). */
async function publish(f: Fixture, at = new Date('2025-01-10T15:00:00Z')) {
  await db.transaction(async (tx) => {
    const { version } = await storeNextVersion(tx, { id: f.applicationId, userId: f.userId }, 'completion');
    await publishCredentialVersion(tx, { ...f, version, now: at });
  });
}

let full: Fixture;
let plain: Fixture;
const excluded: Record<string, Fixture> = {};

beforeAll(async () => {
  app = await createTestApp();
  db = app.runtime.deps.db;
  // First, a credentialed provider with every directory section filled.
  full = await provider('Grace', 'Hopper', {
    npi: '1234567893',
    credential: { endsOn: '2028-01-10', credentialedAt: new Date('2022-01-10T15:00:00Z') },
  });
  await db
    .update(personalInformation)
    .set({ deaNumber: 'AB1234563' })
    .where(eq(personalInformation.applicationId, full.applicationId));
  await db.insert(professionalLicenses).values([
    {
      applicationId: full.applicationId,
      position: 0,
      licenseType: 'medical_license',
      licenseNumber: 'MD-1',
      issuingState: 'IL',
      issueDate: '2010-06-01',
      expirationDate: '2030-06-01',
    },
    {
      applicationId: full.applicationId,
      position: 1,
      licenseType: 'dea_license',
      licenseNumber: 'AB1234563',
      issuingState: 'IL',
      expirationDate: '2029-02-28',
    },
    { applicationId: full.applicationId, position: 2, licenseType: 'npi', licenseNumber: '1234567893' },
  ]);
  await db.insert(education).values({
    applicationId: full.applicationId,
    institutionName: 'University of Illinois',
    degreeType: 'doctorate',
    fieldOfStudy: 'Medicine',
    graduationDate: '2009-05-15',
  });
  const [cert] = await db
    .insert(certifications)
    .values({
      applicationId: full.applicationId,
      certificationName: 'Board Certified, Internal Medicine',
      certifyingBody: 'ABIM',
      certificationNumber: 'C-1',
      issueDate: '2012-07-01',
      expirationDate: '2032-12-31',
    })
    .returning();
  await db.insert(specialties).values([
    {
      applicationId: full.applicationId,
      position: 0,
      specialtyRank: 'secondary',
      taxonomyCode: '207RC0000X',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
    },
    {
      applicationId: full.applicationId,
      position: 1,
      specialtyRank: 'primary',
      taxonomyCode: '207R00000X',
      classification: 'Internal Medicine',
      boardCertificationId: cert!.id,
    },
  ]);
  await db.insert(practiceLocations).values([
    {
      applicationId: full.applicationId,
      position: 0,
      practiceName: 'North Clinic',
      addressLine1: '9 North Road',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62702',
      acceptingNewPatients: 'no',
    },
    {
      applicationId: full.applicationId,
      position: 1,
      practiceName: 'Springfield Internal Medicine',
      groupNpi: '1987654328',
      addressLine1: '1 Main Street',
      addressLine2: 'Suite 2',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      phone: '(555) 010-3000',
      isPrimaryLocation: true,
      acceptingNewPatients: 'yes',
      languagesSpoken: 'English, Spanish',
    },
  ]);
  // Second, one credentialed with nothing but the credential and personal information.
  plain = await provider('Alan', 'Turing', { npi: '1245319599', credential: { endsOn: '2027-03-01' } });
  // Then everyone who is not in the directory.
  excluded.neverApproved = await provider('Never', 'Approved', { status: 'rejected', npi: '1111111112' });
  excluded.ended = await provider('Ended', 'Denied', {
    npi: '1111111113',
    credential: { endsOn: '2028-01-01', endedOn: '2027-02-01' },
  });
  excluded.expired = await provider('Expired', 'Lapsed', {
    npi: '1111111114',
    credential: { endsOn: '2027-02-28' },
  });
  excluded.draft = await provider('Draft', 'Only', { status: 'draft', npi: '1111111115' });
  // Approved with an effective date after `now` (issue 49 item 5): published only from that day.
  excluded.notYetEffective = await provider('Future', 'Effective', {
    npi: '1111111116',
    credential: { endsOn: '2030-03-15', credentialedAt: new Date('2027-03-15T00:00:00Z') },
  });
  for (const f of [full, plain, excluded.ended!, excluded.expired!, excluded.notYetEffective!])
    await publish(f);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const ids = (page: DirectoryProvider[]) => page.map((p) => p.userId);

describe('credentialedProviderPage', () => {
  it('lists exactly the providers credentialed at now, in userId order', async () => {
    const page = await credentialedProviderPage(db, { now, limit: 100 });
    expect(ids(page)).toEqual([full.userId, plain.userId].sort());
    for (const out of Object.values(excluded)) expect(ids(page)).not.toContain(out.userId);
    // The day after the credential's end it is expired; on its end day it still runs.
    const later = await credentialedProviderPage(db, { now: new Date('2027-03-02T00:00:00Z'), limit: 100 });
    expect(ids(later)).toEqual([full.userId]);
  });

  it('maps every directory fact from the credential application', async () => {
    const [p] = await credentialedProviderPage(db, { now, limit: 1, userIds: [full.userId] });
    expect(p).toBeDefined();
    const got = p!;
    expect(got).toMatchObject({
      userId: full.userId,
      applicationId: full.applicationId,
      npi: '1234567893',
      givenName: 'Grace',
      familyName: 'Hopper',
      degree: 'MD',
      gender: 'F',
      dea: { number: 'AB1234563', expiresOn: '2029-02-28', state: 'IL' },
      credentialedOn: '2022-01-10',
      recredentialingDueOn: '2028-01-10',
    });
    // DEA and NPI rows are not professional licenses of the directory.
    expect(got.licenses).toEqual([
      expect.objectContaining({
        type: 'medical_license',
        number: 'MD-1',
        state: 'IL',
        issuedOn: '2010-06-01',
        expiresOn: '2030-06-01',
        status: 'active',
      }),
    ]);
    expect(got.education).toEqual([
      expect.objectContaining({
        degreeType: 'doctorate',
        fieldOfStudy: 'Medicine',
        institution: 'University of Illinois',
        graduatedOn: '2009-05-15',
      }),
    ]);
    expect(got.boardCertifications).toEqual([
      expect.objectContaining({
        name: 'Board Certified, Internal Medicine',
        board: 'ABIM',
        number: 'C-1',
        issuedOn: '2012-07-01',
        expiresOn: '2032-12-31',
        specialtyCodes: ['207R00000X'],
      }),
    ]);
    // Primary first.
    expect(got.specialties.map((s) => [s.code, s.display, s.rank])).toEqual([
      ['207R00000X', 'Internal Medicine', 'primary'],
      ['207RC0000X', 'Internal Medicine, Cardiovascular Disease', 'secondary'],
    ]);
    expect(got.specialties[0]!.boardCertificationRowKey).toBe(got.boardCertifications[0]!.rowKey);
    // Primary location first, with its row key.
    expect(got.practiceLocations.map((l) => l.name)).toEqual([
      'Springfield Internal Medicine',
      'North Clinic',
    ]);
    expect(got.practiceLocations[0]).toMatchObject({
      groupNpi: '1987654328',
      address: {
        line1: '1 Main Street',
        line2: 'Suite 2',
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
      },
      phone: '(555) 010-3000',
      primary: true,
      acceptingNewPatients: 'yes',
      languagesSpoken: 'English, Spanish',
    });
    expect(got.practiceLocations[0]!.rowKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.lastUpdated).toBeInstanceOf(Date);
    // Nothing of the SSN reaches the directory.
    expect(JSON.stringify(got)).not.toMatch(/ssn/i);
  });

  it('gives empty lists and a null DEA to a provider with no rows in those sections', async () => {
    const [p] = await credentialedProviderPage(db, { now, limit: 1, userIds: [plain.userId] });
    expect(p).toMatchObject({
      dea: null,
      licenses: [],
      education: [],
      boardCertifications: [],
      specialties: [],
      practiceLocations: [],
    });
  });

  it('filters by NPI, name and ids, and pages by keyset', async () => {
    expect(ids(await credentialedProviderPage(db, { now, limit: 10, npi: '1234567893' }))).toEqual([
      full.userId,
    ]);
    // An excluded provider's NPI finds nobody.
    expect(await credentialedProviderPage(db, { now, limit: 10, npi: '1111111113' })).toEqual([]);
    expect(ids(await credentialedProviderPage(db, { now, limit: 10, name: 'hop' }))).toEqual([full.userId]);
    expect(ids(await credentialedProviderPage(db, { now, limit: 10, name: 'ALAN' }))).toEqual([plain.userId]);
    expect(ids(await credentialedProviderPage(db, { now, limit: 10, name: '%' }))).toEqual([]);
    const first = await credentialedProviderPage(db, { now, limit: 1 });
    const second = await credentialedProviderPage(db, { now, limit: 1, after: first[0]!.userId });
    expect([...ids(first), ...ids(second)]).toEqual([full.userId, plain.userId].sort());
    expect(await credentialedProviderPage(db, { now, limit: 1, after: second[0]!.userId })).toEqual([]);
    await expect(credentialedProviderPage(db, { now, limit: 1001 })).rejects.toThrow(RangeError);
  });

  it('publishes only the published version: live edits wait, a published version moves lastUpdated', async () => {
    const [before] = await credentialedProviderPage(db, { now, limit: 1, userIds: [full.userId] });
    const mark = new Date(Math.max(before!.lastUpdated.getTime(), Date.now()) + 1000);
    expect(await credentialedProviderPage(db, { now, limit: 10, updatedSince: mark })).toEqual([]);
    // First, the provider changes the phone, the NPI, adds a license and renames the account: nobody
    // reviewed any of it, so the directory still says what was approved.
    await db
      .update(practiceLocations)
      .set({ phone: '(555) 010-3001' })
      .where(eq(practiceLocations.applicationId, full.applicationId));
    await db
      .update(personalInformation)
      .set({ npiNumber: '1999999992', deaNumber: 'ZZ9999999' })
      .where(eq(personalInformation.applicationId, full.applicationId));
    await db.insert(professionalLicenses).values({
      applicationId: full.applicationId,
      position: 9,
      licenseType: 'medical_license',
      licenseNumber: 'CA-FAKE-001',
      issuingState: 'CA',
    });
    await db.update(profiles).set({ firstName: 'Gus' }).where(eq(profiles.userId, full.userId));
    const [unchanged] = await credentialedProviderPage(db, { now, limit: 1, userIds: [full.userId] });
    expect(unchanged).toEqual(before);
    expect(await credentialedProviderPage(db, { now, limit: 10, npi: '1999999992' })).toEqual([]);
    expect(await credentialedProviderPage(db, { now, limit: 10, updatedSince: mark })).toEqual([]);
    // Then a reviewer accepts the change: that version is published, and lastUpdated moves.
    const acceptedAt = new Date(mark.getTime() + 1000);
    await publish(full, acceptedAt);
    const changed = await credentialedProviderPage(db, { now, limit: 10, updatedSince: mark });
    expect(ids(changed)).toEqual([full.userId]);
    expect(changed[0]).toMatchObject({ npi: '1999999992', givenName: 'Gus', lastUpdated: acceptedAt });
    expect(changed[0]!.licenses.map((l) => l.number)).toEqual(['MD-1', 'CA-FAKE-001']);
    expect(ids(await credentialedProviderPage(db, { now, limit: 10, updatedUntil: mark }))).toEqual([
      plain.userId,
    ]);
  });

  it('publishes an approval from its effective date on, not before', async () => {
    const f = excluded.notYetEffective!;
    expect(await credentialedProviderPage(db, { now, limit: 10, userIds: [f.userId] })).toEqual([]);
    const onTheDay = new Date('2027-03-15T00:00:00Z');
    expect(
      ids(await credentialedProviderPage(db, { now: onTheDay, limit: 10, userIds: [f.userId] })),
    ).toEqual([f.userId]);
  });
});

describe('credentialedProviderBatches', () => {
  it('yields every credentialed provider once, in batches of batchSize', async () => {
    const batches: string[][] = [];
    for await (const batch of credentialedProviderBatches(db, { now, batchSize: 1 }))
      batches.push(ids(batch));
    expect(batches).toEqual(
      [[full.userId, plain.userId].sort()[0], [full.userId, plain.userId].sort()[1]].map((id) => [id]),
    );
  });
});
