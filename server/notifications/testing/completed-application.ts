/**
 * Test and benchmark factory: a provider's draft application at 100% (spec §4), written straight
 * through Drizzle and object storage (faster than the section screens, and independent of them).
 * Every section of the registry (16 since issue 31) gets one row (licenses two; certifications two
 * since issue 51 item 4, a board certification and ACLS of kind 'other'), documents get real stored
 * objects.
 *
 * The five sections of issue 31 hold (FACTORY_ADDITIONAL says the values tests compare with):
 * - Specialties: 207R00000X (Internal Medicine), primary, linked to the factory's certification
 *   ('Board Certified, Internal Medicine', ABIM): the payload sends that certification's name, body
 *   and number with the specialty.
 * - Practice Locations: one primary location with a valid type 2 group NPI.
 * - Hospital Affiliations: active privileges at one hospital, no end date (so the 'Expiring' tab and
 *   the credential-expiry job, which list privileges end dates, see nothing of the factory's).
 * - Training: one completed residency.
 * - Malpractice Claims: one settled claim paid in 2018, more than 5 years ago: the claim and its
 *   numeric amount travel in the payload, and the file does NOT need committee review for it (issue
 *   31 item 4 flags a claim paid in the last 5 years), so tests of the review stay about what they set up.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { Database } from '../../db/client.ts';
import { providerApplications } from '../../db/schema/core.ts';
import { documents } from '../../db/schema/documents.ts';
import {
  certifications,
  cme,
  education,
  hospitalAffiliations,
  malpracticeClaims,
  malpracticeInsurance,
  payors,
  peerReferences,
  personalInformation,
  practiceLocations,
  professionalLicenses,
  specialties,
  training,
  vaccinations,
  workHistory,
} from '../../db/schema/sections.ts';
import type { FieldCipher } from '../../security/field-cipher.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';

/** The SSN the factory stores (encrypted); the payload must carry it decrypted. */
export const FACTORY_SSN = '123-45-6789';

/**
 * The rows the factory writes in the five sections of issue 31 (Drizzle property names), for tests
 * that compare the payload, snapshot or copy with them. The specialty is also linked to the factory's
 * certification (`boardCertificationId`, set at insert).
 */
export const FACTORY_ADDITIONAL = {
  specialty: {
    specialtyRank: 'primary',
    taxonomyCode: '207R00000X',
    classification: 'Internal Medicine',
    specialization: null,
  },
  certification: {
    certificationKind: 'board',
    certificationName: 'Board Certified, Internal Medicine',
    certifyingBody: 'ABIM',
    certificationNumber: 'C-1',
    issueDate: '2012-07-01',
  },
  /**
   * A certification that is not a board certification (issue 51 item 4): in the record and the
   * payload, never a checklist item. Written before the board one, so the board one is the newest.
   */
  otherCertification: {
    certificationKind: 'other',
    certificationName: 'Advanced Cardiovascular Life Support',
    certifyingBody: 'American Heart Association',
    certificationNumber: null,
    issueDate: '2024-05-01',
  },
  practiceLocation: {
    practiceName: 'Springfield Internal Medicine',
    groupNpi: '1987654328',
    addressLine1: '1 Main Street',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    phone: '(555) 010-3000',
    isPrimaryLocation: true,
    acceptingNewPatients: 'yes',
    languagesSpoken: 'English, Spanish',
    officeHours: 'Mon-Fri 8:00-17:00',
  },
  hospitalAffiliation: {
    privilegeStatus: 'active',
    facilityName: 'Springfield General Hospital',
    city: 'Springfield',
    state: 'IL',
    department: 'Internal Medicine',
    startDate: '2012-02-01',
  },
  training: {
    trainingType: 'residency',
    programName: 'Internal Medicine Residency',
    institutionName: 'University of Illinois Hospital',
    specialty: 'Internal Medicine',
    startDate: '2009-07-01',
    endDate: '2012-06-30',
    completed: 'yes',
  },
  malpracticeClaim: {
    incidentDate: '2017-09-12',
    claimDate: '2018-03-01',
    status: 'settled',
    amountPaid: 125000.5,
    insurer: 'MedPro',
    description: 'Delayed diagnosis alleged; settled without admission of fault.',
  },
} as const;

export interface FactoryDocument {
  id: string;
  filePath: string;
  sha256: string;
  size: number;
}

export interface CompletedApplication {
  applicationId: string;
  documents: FactoryDocument[];
}

export interface CompletedApplicationOptions {
  db: Database;
  storage: ObjectStorage;
  cipher: FieldCipher;
  userId: string;
  /** Use this draft instead of creating one. */
  applicationId?: string;
  /** Sizes in bytes of the documents to store (default one of 40 000 bytes). */
  documentSizes?: number[];
  /** Store the bytes of a document as given (tests), else random bytes. */
  documentBytes?: (index: number, size: number) => Buffer;
}

/** Random bytes produced in 1 MiB slices, so 10 MB documents never sit whole in memory. */
function randomStream(size: number): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, 1024 * 1024);
      left -= n;
      this.push(randomBytes(n));
    },
  });
}

/** Create (or fill) a draft application with every section complete. */
export async function createCompletedApplication(
  options: CompletedApplicationOptions,
): Promise<CompletedApplication> {
  const { db, storage, cipher, userId } = options;
  let applicationId = options.applicationId;
  if (!applicationId) {
    const [created] = await db.insert(providerApplications).values({ userId }).returning();
    applicationId = created!.id;
  }
  await db.insert(personalInformation).values({
    applicationId,
    providerType: 'MD',
    gender: 'F',
    ssnEncrypted: cipher.encrypt(FACTORY_SSN),
    ssnLast4: FACTORY_SSN.slice(-4),
    dateOfBirth: '1980-02-29',
    mobilePhone: '(555) 010-2000',
    npiNumber: '1234567893',
    deaNumber: 'AB1234563',
    caqhId: '12345678',
    addressLine1: '1 Main Street',
    addressLine2: 'Suite 2',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    driverLicenseNumber: 'D1234567',
    driverLicenseState: 'IL',
    driverLicenseExpiration: '2030-01-31',
    // medicaid and medicare numbers left empty: the payload sends ''.
  });
  await db.insert(professionalLicenses).values([
    {
      applicationId,
      position: 0,
      licenseType: 'medical_license',
      licenseNumber: 'MD-1',
      issuingState: 'IL',
      issueDate: '2010-06-01',
      expirationDate: '2030-06-01',
    },
    { applicationId, position: 1, licenseType: 'dea_license', status: 'pending' },
  ]);
  await db.insert(education).values({
    applicationId,
    institutionName: 'University of Illinois',
    degreeType: 'doctorate',
    fieldOfStudy: 'Medicine',
    graduationDate: '2009-05-15',
    gpa: '3.9',
  });
  await db.insert(workHistory).values({
    applicationId,
    employerName: 'Springfield General',
    positionTitle: 'Attending Physician',
    startDate: '2012-01-01',
    isCurrentPosition: true,
    responsibilities: 'Internal medicine "ward" duty\nand teaching',
  });
  await db.insert(malpracticeInsurance).values({
    applicationId,
    insuranceCompany: 'MedPro',
    policyNumber: 'P-9',
    coverageAmount: '$1,000,000 / $3,000,000',
    effectiveDate: '2024-01-01',
    expirationDate: '2025-01-01',
  });
  await db.insert(vaccinations).values({
    applicationId,
    vaccineName: 'influenza',
    administrationDate: '2024-10-01',
    lotNumber: 'L-77',
  });
  await db.insert(payors).values({ applicationId, payorName: 'Medicare', credentialingStatus: 'approved' });
  await db.insert(certifications).values({ applicationId, ...FACTORY_ADDITIONAL.otherCertification });
  const [certification] = await db
    .insert(certifications)
    .values({ applicationId, ...FACTORY_ADDITIONAL.certification })
    .returning({ id: certifications.id });
  await db.insert(cme).values({
    applicationId,
    activityTitle: 'Sepsis update',
    providerName: 'ACP',
    category: 'Category 1',
    creditHours: 1.5,
    completionDate: '2024-03-01',
  });
  await db.insert(peerReferences).values({
    applicationId,
    referenceName: 'Dr. Ada Lovelace',
    email: 'ada@example.test',
    yearsKnown: 7,
  });
  // Issue 31: the 'Additional Information' sections.
  await db
    .insert(specialties)
    .values({ applicationId, ...FACTORY_ADDITIONAL.specialty, boardCertificationId: certification!.id });
  await db.insert(practiceLocations).values({ applicationId, ...FACTORY_ADDITIONAL.practiceLocation });
  await db.insert(hospitalAffiliations).values({ applicationId, ...FACTORY_ADDITIONAL.hospitalAffiliation });
  await db.insert(training).values({ applicationId, ...FACTORY_ADDITIONAL.training });
  await db.insert(malpracticeClaims).values({ applicationId, ...FACTORY_ADDITIONAL.malpracticeClaim });

  const stored: FactoryDocument[] = [];
  const sizes = options.documentSizes ?? [40_000];
  for (const [index, size] of sizes.entries()) {
    const filePath = `${userId}/medical_license/${Date.now()}${index}.pdf`;
    const given = options.documentBytes?.(index, size);
    const hash = createHash('sha256');
    const source = given ? Readable.from([given]) : randomStream(size);
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await storage.put(filePath, source.pipe(hashing), { contentType: 'application/pdf' });
    const sha256 = hash.digest('hex');
    const [row] = await db
      .insert(documents)
      .values({
        applicationId,
        userId,
        documentName: `License ${index + 1}.pdf`,
        documentType: 'medical_license',
        filePath,
        fileSize: given?.length ?? size,
        mimeType: 'application/pdf',
        sha256,
      })
      .returning();
    stored.push({ id: row!.id, filePath, sha256, size: given?.length ?? size });
  }
  return { applicationId, documents: stored };
}
