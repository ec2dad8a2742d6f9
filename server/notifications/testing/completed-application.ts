/**
 * Test and benchmark factory: a provider's draft application at 100% (spec §4), written straight
 * through Drizzle and object storage (faster than the section screens, and independent of them).
 * Every section gets one row (licenses two), documents get real stored objects.
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
  malpracticeInsurance,
  payors,
  peerReferences,
  personalInformation,
  professionalLicenses,
  vaccinations,
  workHistory,
} from '../../db/schema/sections.ts';
import type { FieldCipher } from '../../security/field-cipher.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';

/** The SSN the factory stores (encrypted); the payload must carry it decrypted. */
export const FACTORY_SSN = '123-45-6789';

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
  await db.insert(certifications).values({
    applicationId,
    certificationName: 'Board Certified, Internal Medicine',
    certifyingBody: 'ABIM',
    certificationNumber: 'C-1',
    issueDate: '2012-07-01',
  });
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
