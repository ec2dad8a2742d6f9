/**
 * The FHIR mappings (issue 33 items 3 and 5): every resource of a provider with every directory
 * fact filled validates against the R4 base definitions with zero errors, and the NDH rules the
 * API follows (NPI identifier system, NUCC specialty codes, the newpatients and
 * practitioner-qualification extensions, AcceptingPatientsCS, Location status) hold.
 */
import type { Extension } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import type { DirectoryProvider } from '../directory/credentialed-providers.ts';
import {
  ACCEPTING_PATIENTS_SYSTEM,
  type ChecklistItemFacts,
  NEW_PATIENTS_EXTENSION,
  NPI_SYSTEM,
  NUCC_SYSTEM,
  PRACTITIONER_QUALIFICATION_EXTENSION,
  toLocation,
  toOrganization,
  toPractitioner,
  toPractitionerRole,
  toVerificationResult,
  USPS_STATE_SYSTEM,
} from './fhir-resources.ts';
import { fhirValidationErrors } from './testing/validate-fhir.ts';

const updated = new Date('2027-01-02T03:04:05.000Z');

/** A provider with every directory fact filled (the shape credentialedProviderPage answers). */
const fullProvider: DirectoryProvider = {
  userId: 'u-1',
  applicationId: '8a8f0661-13d6-42b7-8511-21a0db936106',
  lastUpdated: updated,
  npi: '1234567893',
  givenName: 'Grace',
  familyName: 'Hopper',
  degree: 'MD',
  gender: 'F',
  dea: { number: 'AB1234563', expiresOn: '2029-02-28', state: 'IL' },
  licenses: [
    {
      rowKey: 'lk1',
      type: 'medical_license',
      number: 'MD-1',
      state: 'IL',
      issuedOn: '2010-06-01',
      expiresOn: '2030-06-01',
      status: 'active',
    },
    {
      rowKey: 'lk2',
      type: 'medical_license',
      number: 'WI-9',
      state: 'WI',
      issuedOn: null,
      expiresOn: '2020-01-01',
      status: 'expired',
    },
  ],
  education: [
    {
      rowKey: 'ek1',
      degreeType: 'doctorate',
      fieldOfStudy: 'Medicine',
      institution: 'University of Illinois',
      graduatedOn: '2009-05-15',
    },
  ],
  boardCertifications: [
    {
      rowKey: 'ck1',
      name: 'Board Certified, Internal Medicine',
      board: 'ABIM',
      number: 'C-1',
      issuedOn: '2012-07-01',
      expiresOn: '2032-12-31',
      specialtyCodes: ['207R00000X'],
    },
  ],
  specialties: [
    {
      rowKey: 'sk1',
      code: '207R00000X',
      display: 'Internal Medicine',
      rank: 'primary',
      boardCertificationRowKey: 'c1',
    },
    {
      rowKey: 'sk2',
      code: '207RC0000X',
      display: 'Internal Medicine, Cardiovascular Disease',
      rank: 'secondary',
      boardCertificationRowKey: null,
    },
  ],
  practiceLocations: [
    {
      rowKey: 'f7c1d0d5-91e6-43ee-b8d1-2feb7402af38',
      name: 'Springfield Internal Medicine',
      groupNpi: '1987654328',
      address: {
        line1: '1 Main Street',
        line2: 'Suite 2',
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
      },
      phone: '(555) 010-3000',
      fax: '(555) 010-3009',
      email: 'front@clinic.example',
      primary: true,
      acceptingNewPatients: 'yes',
      languagesSpoken: 'English, Spanish',
    },
    {
      rowKey: '903cce51-9131-4710-8d76-4142ed0f315a',
      name: 'North Clinic',
      groupNpi: null,
      address: { line1: null, line2: null, city: null, state: null, postalCode: null },
      phone: null,
      fax: null,
      email: null,
      primary: false,
      acceptingNewPatients: 'existing_only',
      languagesSpoken: null,
    },
  ],
  credentialedOn: '2022-01-10',
  recredentialingDueOn: '2028-01-10',
  version: 1,
  standing: 'active',
  standingReason: null,
  findings: [],
};

const item = (over: Partial<ChecklistItemFacts>): ChecklistItemFacts => ({
  id: '0b6f8d3e-3f7e-4a53-9d43-8d1f0b6f8d3e',
  kind: 'license',
  status: 'verified',
  verifiedAt: '2026-11-20',
  updatedAt: updated,
  ...over,
});

const sub = (ext: Extension | undefined, url: string) => ext?.extension?.find((e) => e.url === url);

describe('FHIR mappings', () => {
  it('map every fact to resources that validate against R4 with zero errors', () => {
    const resources = [
      toPractitioner(fullProvider),
      ...fullProvider.practiceLocations.flatMap((l) => [
        toPractitionerRole(fullProvider, l),
        toLocation(fullProvider, l),
      ]),
      toOrganization({
        groupNpi: '1987654328',
        location: fullProvider.practiceLocations[0]!,
        lastUpdated: updated,
      }),
      ...['pending', 'verified', 'discrepancy', 'waived', 'needs_reverification'].map((status, i) =>
        toVerificationResult(
          fullProvider,
          item({
            id: `0b6f8d3e-3f7e-4a53-9d43-8d1f0b6f8d3${i}`,
            status,
            kind: ['license', 'npi', 'dea', 'education', 'exclusions'][i]!,
          }),
        ),
      ),
    ];
    for (const resource of resources) expect(fhirValidationErrors(resource)).toEqual([]);
    // The validator does find errors: a Practitioner whose name is not a list fails.
    expect(
      fhirValidationErrors({ ...toPractitioner(fullProvider), name: { family: 'Hopper' } as never }),
    ).not.toEqual([]);
  });

  it('Practitioner: NPI identifier, name, telecom, qualifications with state and period (NDH)', () => {
    const p = toPractitioner(fullProvider);
    expect(p.meta?.lastUpdated).toBe('2027-01-02T03:04:05.000Z');
    expect(p.active).toBe(true);
    expect(p.identifier?.find((i) => i.system === NPI_SYSTEM)?.value).toBe('1234567893');
    expect(p.name?.[0]).toMatchObject({
      family: 'Hopper',
      given: ['Grace'],
      suffix: ['MD'],
      text: 'Grace Hopper, MD',
    });
    expect(p.telecom).toEqual([{ system: 'phone', value: '(555) 010-3000', use: 'work' }]);
    const license = p.qualification?.find((q) => q.identifier?.[0]?.value === 'MD-1');
    expect(license).toMatchObject({
      period: { start: '2010-06-01', end: '2030-06-01' },
      issuer: { display: 'State of IL' },
    });
    const ext = license?.extension?.find((e) => e.url === PRACTITIONER_QUALIFICATION_EXTENSION);
    expect(sub(ext, 'status')?.valueCode).toBe('active');
    expect(sub(ext, 'whereValid')?.valueCodeableConcept?.coding?.[0]).toEqual({
      system: USPS_STATE_SYSTEM,
      code: 'IL',
    });
    // NDH fixes the qualification extension's status to 'active': an expired license goes without it.
    const expired = p.qualification?.find((q) => q.identifier?.[0]?.value === 'WI-9');
    expect(expired?.extension).toBeUndefined();
    const board = p.qualification?.find((q) => q.issuer?.display === 'ABIM');
    expect(board?.code.coding).toEqual([{ system: NUCC_SYSTEM, code: '207R00000X' }]);
    const degree = p.qualification?.find((q) => q.code.text === 'MD');
    expect(degree?.code.coding).toEqual([
      { system: 'http://terminology.hl7.org/CodeSystem/v2-0360', code: 'MD' },
    ]);
    expect(p.qualification?.some((q) => q.issuer?.display === 'University of Illinois')).toBe(true);
    // Every qualification has its code (NDH: qualification.code 1..1).
    for (const q of p.qualification ?? []) expect(q.code.text ?? q.code.coding?.length).toBeTruthy();
  });

  it('PractitionerRole: practitioner, location, NUCC specialties, newpatients (NDH)', () => {
    const role = toPractitionerRole(fullProvider, fullProvider.practiceLocations[0]!);
    expect(role).toMatchObject({
      active: true,
      practitioner: { reference: 'Practitioner/u-1' },
      location: [{ reference: 'Location/f7c1d0d5-91e6-43ee-b8d1-2feb7402af38' }],
      organization: { reference: 'Organization/group-1987654328' },
    });
    expect(role.specialty?.map((s) => s.coding?.[0])).toEqual([
      { system: NUCC_SYSTEM, code: '207R00000X', display: 'Internal Medicine' },
      { system: NUCC_SYSTEM, code: '207RC0000X', display: 'Internal Medicine, Cardiovascular Disease' },
    ]);
    const newPatients = role.extension?.find((e) => e.url === NEW_PATIENTS_EXTENSION);
    expect(sub(newPatients, 'acceptingPatients')?.valueCodeableConcept?.coding?.[0]).toMatchObject({
      system: ACCEPTING_PATIENTS_SYSTEM,
      code: 'yes',
    });
    const existing = toPractitionerRole(fullProvider, fullProvider.practiceLocations[1]!);
    expect(sub(existing.extension?.[0], 'acceptingPatients')?.valueCodeableConcept?.coding?.[0]?.code).toBe(
      'existing',
    );
  });

  it('Location and Organization: status, address, group NPI', () => {
    const location = toLocation(fullProvider, fullProvider.practiceLocations[0]!);
    expect(location).toMatchObject({
      status: 'active',
      name: 'Springfield Internal Medicine',
      address: {
        line: ['1 Main Street', 'Suite 2'],
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
        country: 'US',
      },
      managingOrganization: { reference: 'Organization/group-1987654328' },
    });
    const org = toOrganization({
      groupNpi: '1987654328',
      location: fullProvider.practiceLocations[0]!,
      lastUpdated: updated,
    });
    expect(org.identifier).toEqual([{ use: 'official', system: NPI_SYSTEM, value: '1987654328' }]);
    expect(org.name).toBe('Springfield Internal Medicine');
  });

  it('VerificationResult: the kind, status, source type and date only (minimum necessary)', () => {
    const v = toVerificationResult(fullProvider, item({}));
    expect(v).toMatchObject({
      target: [{ reference: 'Practitioner/u-1', display: 'Professional license' }],
      targetLocation: ['Practitioner.qualification'],
      status: 'validated',
      validationType: { coding: [{ code: 'primary' }] },
      primarySource: [
        {
          who: { display: 'License Board' },
          type: [{ coding: [{ code: 'lic-board' }] }],
          validationStatus: { coding: [{ code: 'successful' }] },
          validationDate: '2026-11-20',
        },
      ],
    });
    expect(toVerificationResult(fullProvider, item({ status: 'pending', verifiedAt: null }))).toMatchObject({
      status: 'in-process',
      primarySource: [{ who: { display: 'License Board' } }],
    });
    expect(toVerificationResult(fullProvider, item({ status: 'discrepancy' })).status).toBe('val-fail');
    // A DEA item says what kind it is, and points at no identifier: the DEA number is never published.
    const dea = toVerificationResult(fullProvider, item({ kind: 'dea' }));
    expect(dea.target?.[0]?.display).toBe('DEA registration');
    expect(dea.targetLocation).toBeUndefined();
  });

  it('a suspended credential is inactive, and its exclusion item fails naming the list and day', () => {
    const suspended: DirectoryProvider = {
      ...fullProvider,
      standing: 'suspended',
      standingReason: 'exclusion: OIG LEIE, 2026-11-28',
      findings: [{ kind: 'exclusion', detail: 'OIG LEIE', foundOn: '2026-11-28' }],
    };
    expect(toPractitioner(suspended).active).toBe(false);
    expect(toPractitionerRole(suspended, suspended.practiceLocations[0]!).active).toBe(false);
    // The item was verified before the match; the published result follows the standing.
    const v = toVerificationResult(suspended, item({ kind: 'exclusions', status: 'verified' }));
    expect(v).toMatchObject({
      status: 'val-fail',
      primarySource: [
        {
          who: { display: 'OIG LEIE' },
          validationStatus: { coding: [{ code: 'failed' }] },
          validationDate: '2026-11-28',
        },
      ],
    });
    expect(fhirValidationErrors(v)).toEqual([]);
    expect(toPractitioner(fullProvider).active).toBe(true);
  });

  it('never publishes the DEA number', () => {
    const text = JSON.stringify([
      toPractitioner(fullProvider),
      ...fullProvider.practiceLocations.map((l) => toPractitionerRole(fullProvider, l)),
    ]);
    expect(text).not.toContain('AB1234563');
    expect(text).not.toContain('us-dea');
  });
});
