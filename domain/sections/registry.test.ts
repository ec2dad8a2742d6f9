import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { cmeSchema } from './cme.ts';
import { documentObjectKey, documentSchema, formatFileSizeMb, sanitizeDocumentName } from './documents.ts';
import { payorSchema } from './payors.ts';
import { peerReferenceSchema } from './peer-references.ts';
import {
  isPredefinedProviderType,
  maskSsn,
  npiCheckDigitValid,
  personalInformationSchema,
  ssnLast4,
} from './personal-information.ts';
import { professionalLicenseSchema } from './professional-licenses.ts';
import {
  APPLICATION_SECTION_COUNT,
  computeProgress,
  listSections,
  repeatableSections,
  SECTION_COUNT,
  type SectionKey,
  type SectionRow,
  sectionByKey,
  sectionBySlug,
  sections,
} from './registry.ts';
import { repeatableSaveSchema } from './section.ts';
import { ADDITIONAL_SECTIONS_TITLE, sectionsOfGroup } from './section-catalog.ts';
import { workHistorySchema, workHistorySection } from './work-history.ts';

/** The messages of a failed parse, by field path. */
function messagesOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('section registry', () => {
  it('lists the eleven sections of spec §2 in dashboard order, then the five of issue 31', () => {
    expect(SECTION_COUNT).toBe(16);
    expect(sections).toHaveLength(SECTION_COUNT);
    expect(APPLICATION_SECTION_COUNT).toBe(11);
    expect(sections.map((s) => [s.key, s.title, s.description, s.slug, s.kind, s.layout])).toEqual([
      [
        'personalInformation',
        'Personal Information',
        'basic information and identification',
        'personal-information',
        'single',
        'single-form',
      ],
      [
        'professionalLicenses',
        'Professional Licenses',
        'medical licenses and certifications',
        'professional-licenses',
        'list',
        'repeatable-cards',
      ],
      ['education', 'Education', 'academic background and degrees', 'education', 'list', 'repeatable-cards'],
      [
        'workHistory',
        'Work History',
        'employment history and experience',
        'work-history',
        'list',
        'repeatable-cards',
      ],
      [
        'malpracticeInsurance',
        'Malpractice Insurance',
        'insurance coverage information',
        'malpractice-insurance',
        'list',
        'repeatable-cards',
      ],
      ['vaccinations', 'Vaccinations', 'immunization records', 'vaccinations', 'list', 'repeatable-cards'],
      ['payors', 'Payors', 'insurance payors and contracts', 'payors', 'list', 'add-form-table'],
      [
        'certifications',
        'Certifications',
        'board certifications and credentials',
        'certifications',
        'list',
        'add-form-table',
      ],
      ['cme', 'CME Credits', 'continuing medical education', 'cme', 'list', 'add-form-table'],
      [
        'peerReferences',
        'Peer References',
        'professional references',
        'peer-references',
        'list',
        'add-form-table',
      ],
      ['documents', 'Documents', 'supporting documentation', 'documents', 'list', 'documents'],
      [
        'specialties',
        'Specialties',
        'specialties and taxonomy codes',
        'specialties',
        'list',
        'repeatable-cards',
      ],
      [
        'practiceLocations',
        'Practice Locations',
        'offices where you see patients',
        'practice-locations',
        'list',
        'repeatable-cards',
      ],
      [
        'hospitalAffiliations',
        'Hospital Affiliations',
        'hospital privileges and admitting arrangements',
        'hospital-affiliations',
        'list',
        'repeatable-cards',
      ],
      [
        'training',
        'Training',
        'internship, residency and fellowship',
        'training',
        'list',
        'repeatable-cards',
      ],
      [
        'malpracticeClaims',
        'Malpractice Claims',
        'claims history of the last 10 years',
        'malpractice-claims',
        'list',
        'repeatable-cards',
      ],
    ]);
  });

  it("keeps the spec's eleven on the 'Application Sections' card and the five on 'Additional Information'", () => {
    expect(sectionsOfGroup('application').map((s) => s.key)).toEqual(
      sections.slice(0, APPLICATION_SECTION_COUNT).map((s) => s.key),
    );
    expect(sectionsOfGroup('additional').map((s) => s.key)).toEqual([
      'specialties',
      'practiceLocations',
      'hospitalAffiliations',
      'training',
      'malpracticeClaims',
    ]);
    expect(ADDITIONAL_SECTIONS_TITLE).toBe('Additional Information');
  });

  it('gives the five additional sections none answers and rules over all rows where the issue asks', () => {
    expect(sectionByKey.training.noneAnswer).toEqual({
      field: 'noTraining',
      label: 'No internship, residency or fellowship',
      noun: 'training programs',
    });
    expect(sectionByKey.malpracticeClaims.noneAnswer).toEqual({
      field: 'noClaims',
      label: 'No claims in the last 10 years',
      noun: 'claims',
    });
    const withRules = sections.filter((s) => 'rowsRule' in s && s.rowsRule).map((s) => s.key);
    expect(withRules).toEqual(['specialties', 'practiceLocations', 'training', 'malpracticeClaims']);
  });

  it('finds sections by key and slug, and lists the fifteen list sections', () => {
    expect(sectionByKey.cme.title).toBe('CME Credits');
    expect(sectionBySlug('peer-references')?.key).toBe('peerReferences');
    expect(sectionBySlug('malpractice-claims')?.key).toBe('malpracticeClaims');
    expect(sectionBySlug('nope')).toBeUndefined();
    expect(listSections).toHaveLength(15);
    expect(listSections.map((s) => s.key)).not.toContain('personalInformation');
    expect(repeatableSections.map((s) => s.addLabel)).toEqual([
      'Add License',
      'Add Education',
      'Add Position',
      'Add Policy',
      'Add Vaccination',
      'Add Specialty',
      'Add Location',
      'Add Affiliation',
      'Add Training',
      'Add Claim',
    ]);
  });

  it('orders CME by completion date, cards by position, other lists by creation', () => {
    const orders = Object.fromEntries(listSections.map((s) => [s.key, s.orderBy]));
    expect(orders).toMatchObject({
      cme: 'completionDate',
      payors: 'createdAt',
      workHistory: 'position',
      documents: 'uploadedAt',
      specialties: 'position',
      practiceLocations: 'position',
      hospitalAffiliations: 'position',
      training: 'position',
      malpracticeClaims: 'position',
    });
  });

  it('names only fields its schema has, and summarizes an empty row', () => {
    for (const section of sections) {
      const keys = Object.keys(section.schema.shape);
      for (const field of section.fields) expect(keys).toContain(field.name);
    }
    expect(sectionByKey.personalInformation.fields).toHaveLength(18);
    expect(workHistorySection.summarize(workHistorySchema.parse({}))).toBe('');
  });

  it('uses the spec §8 toast texts, with silent loads for payors, CME and peer references', () => {
    expect(sectionByKey.certifications.messages).toEqual({
      loadError: 'Failed to load certifications',
      saveError: 'Failed to save certification',
      saveSuccess: 'Certification added successfully',
      deleteError: 'Failed to delete certification',
      deleteSuccess: 'Certification deleted successfully',
    });
    expect(sectionByKey.payors.messages.saveError).toBe('Failed to save payor information.');
    for (const key of ['payors', 'cme', 'peerReferences'] as const) {
      expect(sectionByKey[key].messages.loadError).toBeUndefined();
    }
  });

  it('computes progress as complete sections / 16, rounded to a percent (issue 31: every section counts)', () => {
    expect(computeProgress(0)).toBe(0);
    expect(computeProgress(1)).toBe(6);
    expect(computeProgress(8)).toBe(50);
    // The spec's eleven alone are no longer 100%.
    expect(computeProgress(11)).toBe(69);
    expect(computeProgress(15)).toBe(94);
    expect(computeProgress(16)).toBe(100);
  });

  it('keeps literal keys and parsed row types', () => {
    expectTypeOf<SectionKey>().toEqualTypeOf<
      | 'personalInformation'
      | 'professionalLicenses'
      | 'education'
      | 'workHistory'
      | 'malpracticeInsurance'
      | 'vaccinations'
      | 'payors'
      | 'certifications'
      | 'cme'
      | 'peerReferences'
      | 'documents'
      | 'specialties'
      | 'practiceLocations'
      | 'hospitalAffiliations'
      | 'training'
      | 'malpracticeClaims'
    >();
    expectTypeOf<SectionRow<'malpracticeClaims'>['amountPaid']>().toEqualTypeOf<number | null>();
    expectTypeOf<SectionRow<'specialties'>['boardCertificationId']>().toEqualTypeOf<string | null>();
    expectTypeOf<SectionRow<'cme'>['creditHours']>().toEqualTypeOf<number | null>();
    expectTypeOf<SectionRow<'peerReferences'>['yearsKnown']>().toEqualTypeOf<number>();
    expectTypeOf<SectionRow<'professionalLicenses'>['status']>().toEqualTypeOf<
      'active' | 'inactive' | 'pending' | 'expired'
    >();
  });
});

describe('section schemas', () => {
  it('accepts an empty personal information form, as null fields (spec §5: no validation)', () => {
    const parsed = personalInformationSchema.parse({ ssn: '', city: '  ', npiNumber: '12' });
    expect(Object.keys(parsed)).toHaveLength(18);
    expect(parsed.ssn).toBeNull();
    expect(parsed.city).toBeNull();
    expect(parsed.npiNumber).toBe('12');
    expect(parsed.dateOfBirth).toBeNull();
  });

  it('still type-checks optional fields: dates are real dates, enums are enums', () => {
    expect(messagesOf(personalInformationSchema, { dateOfBirth: '2024-02-30' })).toEqual({
      dateOfBirth: 'Enter a valid date (YYYY-MM-DD)',
    });
    expect(personalInformationSchema.parse({ dateOfBirth: '2024-02-29' }).dateOfBirth).toBe('2024-02-29');
    expect(messagesOf(personalInformationSchema, { gender: 'X' })).toEqual({
      gender: 'Choose Male or Female',
    });
    expect(messagesOf(professionalLicenseSchema, { licenseType: 'pilot' })).toEqual({
      licenseType: 'Choose a license type from the list',
    });
  });

  it('defaults a license to active and a payor to pending (spec §9)', () => {
    expect(professionalLicenseSchema.parse({}).status).toBe('active');
    expect(professionalLicenseSchema.parse({ status: '' }).status).toBe('active');
    expect(professionalLicenseSchema.parse({ status: 'expired' }).status).toBe('expired');
    expect(payorSchema.parse({ payorName: 'Aetna' }).credentialingStatus).toBe('pending');
  });

  it('requires the payor name', () => {
    expect(messagesOf(payorSchema, {})).toEqual({ payorName: 'Payor name is required' });
    expect(messagesOf(payorSchema, { payorName: '   ' })).toEqual({ payorName: 'Payor name is required' });
    expect(payorSchema.parse({ payorName: ' Aetna ', contractStartDate: '' })).toMatchObject({
      payorName: 'Aetna',
      contractStartDate: null,
    });
  });

  it('requires the certification type, name and certifying body (issue 51 item 4: the type)', () => {
    expect(messagesOf(sectionByKey.certifications.schema, { certificationName: '' })).toEqual({
      certificationKind: 'Choose a certification type from the list',
      certificationName: 'Certification name is required',
      certifyingBody: 'Certifying body is required',
    });
    const acls = { certificationName: 'ACLS', certifyingBody: 'American Heart Association' };
    expect(messagesOf(sectionByKey.certifications.schema, { ...acls, certificationKind: '' })).toEqual({
      certificationKind: 'Choose a certification type from the list',
    });
    expect(messagesOf(sectionByKey.certifications.schema, { ...acls, certificationKind: 'acls' })).toEqual({
      certificationKind: 'Choose a certification type from the list',
    });
    expect(sectionByKey.certifications.schema.parse({ ...acls, certificationKind: 'other' })).toMatchObject({
      certificationKind: 'other',
    });
  });

  it('requires the CME title and provider, and takes credit hours in steps of 0.5 (spec §9)', () => {
    expect(messagesOf(cmeSchema, {})).toEqual({
      activityTitle: 'Activity title is required',
      providerName: 'CME provider name is required',
    });
    const base = { activityTitle: 'ACLS', providerName: 'AHA' };
    expect(cmeSchema.parse({ ...base, creditHours: 1.5 }).creditHours).toBe(1.5);
    expect(cmeSchema.parse({ ...base, creditHours: '2.5' }).creditHours).toBe(2.5);
    expect(messagesOf(cmeSchema, { ...base, creditHours: 1.25 })).toEqual({
      creditHours: 'Enter credit hours in steps of 0.5',
    });
    expect(messagesOf(cmeSchema, { ...base, creditHours: -1 })).toEqual({
      creditHours: 'Credit hours cannot be negative',
    });
    expect(messagesOf(cmeSchema, { ...base, creditHours: 'lots' })).toEqual({
      creditHours: 'Enter credit hours as a number',
    });
    // Spec §5: empty optional CME fields are sent as null.
    expect(
      cmeSchema.parse({ ...base, creditHours: '', completionDate: '', certificateNumber: '', category: '' }),
    ).toEqual({
      ...base,
      creditHours: null,
      completionDate: null,
      certificateNumber: null,
      category: null,
    });
  });

  it('reads years known as an integer (0 when blank) and checks the reference email format', () => {
    const base = { referenceName: 'Dr. Grey' };
    expect(peerReferenceSchema.parse({ ...base, yearsKnown: '' }).yearsKnown).toBe(0);
    expect(peerReferenceSchema.parse(base).yearsKnown).toBe(0);
    expect(peerReferenceSchema.parse({ ...base, yearsKnown: '7' }).yearsKnown).toBe(7);
    // Spec §5 "parsed as an integer": the whole part, as parseInt reads it.
    expect(peerReferenceSchema.parse({ ...base, yearsKnown: 2.5 }).yearsKnown).toBe(2);
    expect(peerReferenceSchema.parse({ ...base, yearsKnown: '2.5' }).yearsKnown).toBe(2);
    expect(peerReferenceSchema.parse({ ...base, yearsKnown: ' 9.99 ' }).yearsKnown).toBe(9);
    expect(peerReferenceSchema.parse({ ...base, yearsKnown: 0.5 }).yearsKnown).toBe(0);
    expect(messagesOf(peerReferenceSchema, { ...base, yearsKnown: 'six' })).toEqual({
      yearsKnown: 'Enter years known as a whole number',
    });
    expect(messagesOf(peerReferenceSchema, { ...base, email: 'grey@' })).toEqual({
      email: 'Enter a valid email address',
    });
    expect(peerReferenceSchema.parse({ ...base, email: ' grey@example.org ' }).email).toBe(
      'grey@example.org',
    );
    expect(peerReferenceSchema.parse({ ...base, email: '' }).email).toBeNull();
    expect(messagesOf(peerReferenceSchema, { email: 'a@b.co' })).toEqual({
      referenceName: 'Reference name is required',
    });
  });

  it('clears the end date of a current position', () => {
    expect(workHistorySchema.parse({ isCurrentPosition: true, endDate: '2020-01-31' })).toMatchObject({
      isCurrentPosition: true,
      endDate: null,
    });
    expect(workHistorySchema.parse({ endDate: '2020-01-31' })).toMatchObject({
      isCurrentPosition: false,
      endDate: '2020-01-31',
    });
    expect(messagesOf(workHistorySchema, { startDate: '2024-02-30' })).toEqual({
      startDate: 'Enter a valid date (YYYY-MM-DD)',
    });
  });

  it('saves a repeatable-card screen as up to 50 cards, each optionally naming its saved row', () => {
    const save = repeatableSaveSchema(workHistorySection);
    const id = '3f2b8c1e-2a4d-4c6b-9e8f-0a1b2c3d4e5f';
    expect(save.parse([{ id, isCurrentPosition: true, endDate: '2020-01-01' }, {}])).toMatchObject([
      { id, endDate: null },
      { isCurrentPosition: false },
    ]);
    expect(messagesOf(save, [{ id: 'not-a-uuid' }])).toEqual({ '0.id': 'Unknown saved row' });
    expect(save.safeParse(Array.from({ length: 51 }, () => ({}))).success).toBe(false);
  });

  it('validates document metadata', () => {
    expect(
      messagesOf(documentSchema, { documentName: 'cv.pdf', fileSize: 10, mimeType: 'application/pdf' }),
    ).toEqual({ documentType: 'Please select a document type first' });
    expect(
      documentSchema.safeParse({
        documentName: 'a.exe',
        documentType: 'other',
        fileSize: 10,
        mimeType: 'application/x-msdownload',
      }).success,
    ).toBe(false);
    expect(formatFileSizeMb(1_310_720)).toBe('1.25 MB');
    expect(documentObjectKey('u1', 'cv_resume', 1700000000000, 'pdf')).toBe('u1/cv_resume/1700000000000.pdf');
    expect(sanitizeDocumentName('C:\\Users\\me\\cv\u202egpj.pdf')).toBe('cvgpj.pdf');
  });
});

describe('personal information helpers', () => {
  it('checks the NPI check digit (advisory)', () => {
    expect(npiCheckDigitValid('1234567893')).toBe(true);
    expect(npiCheckDigitValid('1234567890')).toBe(false);
    expect(npiCheckDigitValid('12345')).toBe(false);
  });

  it('masks the SSN from its last four digits', () => {
    expect(ssnLast4('123-45-6789')).toBe('6789');
    expect(ssnLast4('12')).toBeNull();
    expect(maskSsn('6789')).toBe('***-**-6789');
    expect(maskSsn(null)).toBe('');
  });

  it('tells predefined provider types from custom entries', () => {
    expect(isPredefinedProviderType('MD-PhD')).toBe(true);
    expect(isPredefinedProviderType('Custom Entry')).toBe(false);
    expect(isPredefinedProviderType('Naturopath')).toBe(false);
  });
});
