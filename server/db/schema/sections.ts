/**
 * Section tables (spec §3): personal_information (one row per application) and the list sections.
 * Column names are the spec's snake_case names; TS property names are the camelCase keys of the domain
 * row schemas (`domain/sections/*.ts`), so a parsed row maps onto a table insert without renaming.
 * Each table row also has `id`, `application_id` (cascade on application delete), `created_at` and
 * `updated_at`; repeatable-card tables add `position` (card order on screen, 0-based).
 * Documents live in ./documents.ts; `sectionTables` below maps every section key to its table.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  type PgTable,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { certificationKinds } from '../../../domain/sections/certifications.ts';
import { cmeCategories } from '../../../domain/sections/cme.ts';
import { degreeTypes } from '../../../domain/sections/education.ts';
import { admittingArrangements, privilegeStatuses } from '../../../domain/sections/hospital-affiliations.ts';
import { claimStatuses } from '../../../domain/sections/malpractice-claims.ts';
import { credentialingStatuses } from '../../../domain/sections/payors.ts';
import { acceptingNewPatientsOptions } from '../../../domain/sections/practice-locations.ts';
import { licenseStatuses, licenseTypes } from '../../../domain/sections/professional-licenses.ts';
import type { SectionKey } from '../../../domain/sections/registry.ts';
import { specialtyRanks } from '../../../domain/sections/specialties.ts';
import { trainingTypes, yesNo } from '../../../domain/sections/training.ts';
import { vaccineNames } from '../../../domain/sections/vaccinations.ts';
import { providerApplications } from './core.ts';
import { documents } from './documents.ts';

export const licenseTypeEnum = pgEnum('license_type', licenseTypes);
export const licenseStatusEnum = pgEnum('license_status', licenseStatuses);
export const degreeTypeEnum = pgEnum('degree_type', degreeTypes);
export const vaccineNameEnum = pgEnum('vaccine_name', vaccineNames);
export const credentialingStatusEnum = pgEnum('credentialing_status', credentialingStatuses);
export const cmeCategoryEnum = pgEnum('cme_category', cmeCategories);
export const certificationKindEnum = pgEnum('certification_kind', certificationKinds);
export const specialtyRankEnum = pgEnum('specialty_rank', specialtyRanks);
export const acceptingNewPatientsEnum = pgEnum('accepting_new_patients', acceptingNewPatientsOptions);
export const privilegeStatusEnum = pgEnum('privilege_status', privilegeStatuses);
export const admittingArrangementEnum = pgEnum('admitting_arrangement', admittingArrangements);
export const trainingTypeEnum = pgEnum('training_type', trainingTypes);
export const yesNoEnum = pgEnum('yes_no', yesNo);
export const claimStatusEnum = pgEnum('claim_status', claimStatuses);

/** Columns every section table has. A function, because Drizzle column builders belong to one table. */
function sectionColumns() {
  return {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => providerApplications.id, { onDelete: 'cascade' }),
    /**
     * The row's identity across versions and copies (issue 29): new with the row, taken over by
     * 'Start Recredentialing' / 'Start New Application' (applications/copy-forward.ts), so the changes
     * view pairs a row with its copy. Never sent by or to the provider's forms.
     */
    rowKey: uuid('row_key').notNull().defaultRandom(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  };
}

/** Card order of a repeatable-card screen; the server writes each card's index on save. */
function positionColumn() {
  return integer('position').notNull().default(0);
}

/** ISO calendar date exchanged as 'YYYY-MM-DD' (no time-zone shifts). */
function isoDate(name: string) {
  return date(name, { mode: 'string' });
}

// ---- Section 1: personal information (one row per application) ---------------------------------

export const personalInformation = pgTable(
  'personal_information',
  {
    ...sectionColumns(),
    /** Predefined type (MD, DO, ...) or the provider's custom free text. */
    providerType: text('provider_type'),
    gender: text('gender'),
    /** SSN ciphertext written by the server's encryption; never plaintext. */
    ssnEncrypted: text('ssn_encrypted'),
    /** Last four SSN digits for masked display (spec §6). */
    ssnLast4: text('ssn_last4'),
    dateOfBirth: isoDate('date_of_birth'),
    mobilePhone: text('mobile_phone'),
    npiNumber: text('npi_number'),
    deaNumber: text('dea_number'),
    caqhId: text('caqh_id'),
    medicaidNumber: text('medicaid_number'),
    medicareNumber: text('medicare_number'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    driverLicenseNumber: text('driver_license_number'),
    driverLicenseState: text('driver_license_state'),
    driverLicenseExpiration: isoDate('driver_license_expiration'),
  },
  (t) => [
    uniqueIndex('personal_information_application_id_key').on(t.applicationId),
    // The admin search by exact NPI (issue 28, server/admin/admin-list-query.ts providerMatches).
    index('personal_information_npi_number_idx').on(t.npiNumber),
    // The admin 'Expiring' tab (issue 14, decision 023): dated rows in date order, id as the tiebreak,
    // and the application, so counting the tab's rows reads the index alone.
    index('personal_information_driver_license_expiration_idx').on(
      t.driverLicenseExpiration,
      t.id,
      t.applicationId,
    ),
    check('personal_information_gender_check', sql`${t.gender} in ('M', 'F')`),
    check('personal_information_ssn_last4_check', sql`${t.ssnLast4} ~ '^[0-9]{4}$'`),
  ],
);

// ---- Sections 2-6: repeatable cards, ordered by position -----------------------------------------

export const professionalLicenses = pgTable(
  'professional_licenses',
  {
    ...sectionColumns(),
    position: positionColumn(),
    licenseType: licenseTypeEnum('license_type'),
    licenseNumber: text('license_number'),
    issuingState: text('issuing_state'),
    issueDate: isoDate('issue_date'),
    expirationDate: isoDate('expiration_date'),
    status: licenseStatusEnum('status').notNull().default('active'),
  },
  (t) => [
    index('professional_licenses_application_position_idx').on(t.applicationId, t.position),
    // The admin search by exact license number, case-insensitive (issue 28, providerMatches).
    index('professional_licenses_license_number_idx').on(sql`lower(${t.licenseNumber})`),
    // The admin 'Expiring' tab (issue 14, decision 023): dated rows in date order, id as the tiebreak,
    // and the application, so counting the tab's rows reads the index alone.
    index('professional_licenses_expiration_idx').on(t.expirationDate, t.id, t.applicationId),
  ],
);

export const education = pgTable(
  'education',
  {
    ...sectionColumns(),
    position: positionColumn(),
    institutionName: text('institution_name'),
    degreeType: degreeTypeEnum('degree_type'),
    fieldOfStudy: text('field_of_study'),
    graduationDate: isoDate('graduation_date'),
    gpa: text('gpa'),
  },
  (t) => [index('education_application_position_idx').on(t.applicationId, t.position)],
);

export const workHistory = pgTable(
  'work_history',
  {
    ...sectionColumns(),
    position: positionColumn(),
    employerName: text('employer_name'),
    positionTitle: text('position_title'),
    startDate: isoDate('start_date'),
    endDate: isoDate('end_date'),
    isCurrentPosition: boolean('is_current_position').notNull().default(false),
    responsibilities: text('responsibilities'),
    supervisorName: text('supervisor_name'),
    supervisorContact: text('supervisor_contact'),
    /**
     * The provider's explanation of the gap of 6 months or more before this position (issue 29, NCQA
     * CR 3; domain/sections/work-history-gaps.ts); null when there is no such gap or none was given.
     */
    gapExplanation: text('gap_explanation'),
  },
  (t) => [
    index('work_history_application_position_idx').on(t.applicationId, t.position),
    // A current position has no end date (the domain schema clears it; this keeps the data honest).
    check(
      'work_history_current_no_end_check',
      sql`not (${t.isCurrentPosition} and ${t.endDate} is not null)`,
    ),
  ],
);

export const malpracticeInsurance = pgTable(
  'malpractice_insurance',
  {
    ...sectionColumns(),
    position: positionColumn(),
    insuranceCompany: text('insurance_company'),
    policyNumber: text('policy_number'),
    /** Free text (spec §3). */
    coverageAmount: text('coverage_amount'),
    effectiveDate: isoDate('effective_date'),
    expirationDate: isoDate('expiration_date'),
  },
  (t) => [
    index('malpractice_insurance_application_position_idx').on(t.applicationId, t.position),
    // The admin 'Expiring' tab (issue 14, decision 023): dated rows in date order, id as the tiebreak,
    // and the application, so counting the tab's rows reads the index alone.
    index('malpractice_insurance_expiration_idx').on(t.expirationDate, t.id, t.applicationId),
  ],
);

export const vaccinations = pgTable(
  'vaccinations',
  {
    ...sectionColumns(),
    position: positionColumn(),
    vaccineName: vaccineNameEnum('vaccine_name'),
    administrationDate: isoDate('administration_date'),
    expirationDate: isoDate('expiration_date'),
    lotNumber: text('lot_number'),
    administeringProvider: text('administering_provider'),
  },
  (t) => [
    index('vaccinations_application_position_idx').on(t.applicationId, t.position),
    // The admin 'Expiring' tab (issue 14, decision 023): dated rows in date order, id as the tiebreak,
    // and the application, so counting the tab's rows reads the index alone.
    index('vaccinations_expiration_idx').on(t.expirationDate, t.id, t.applicationId),
  ],
);

// ---- Sections 7-10: add form plus table, newest first (CME by completion date) -------------------

export const payors = pgTable(
  'payors',
  {
    ...sectionColumns(),
    payorName: text('payor_name').notNull(),
    contractType: text('contract_type'),
    contractStartDate: isoDate('contract_start_date'),
    contractEndDate: isoDate('contract_end_date'),
    credentialingStatus: credentialingStatusEnum('credentialing_status').notNull().default('pending'),
    notes: text('notes'),
  },
  (t) => [
    index('payors_application_created_idx').on(t.applicationId, t.createdAt.desc()),
    // The admin 'Expiring' tab (issue 14, decision 023): dated rows in date order, id as the tiebreak,
    // and the application, so counting the tab's rows reads the index alone.
    index('payors_contract_end_idx').on(t.contractEndDate, t.id, t.applicationId),
  ],
);

export const certifications = pgTable(
  'certifications',
  {
    ...sectionColumns(),
    /**
     * 'board' or 'other' (issue 51 item 4): only a board certification is a checklist item and may be
     * linked to a specialty. Required by the row schema on every write through the API; the default
     * is what every row written before the column was (all were treated as board certifications), so
     * the migration keeps old rows, and rows inserted by SQL without it, as they were.
     */
    certificationKind: certificationKindEnum('certification_kind').notNull().default('board'),
    certificationName: text('certification_name').notNull(),
    certifyingBody: text('certifying_body').notNull(),
    certificationNumber: text('certification_number'),
    issueDate: isoDate('issue_date'),
    expirationDate: isoDate('expiration_date'),
  },
  (t) => [
    index('certifications_application_created_idx').on(t.applicationId, t.createdAt.desc()),
    // The admin 'Expiring' tab (issue 14, decision 023): dated rows in date order, id as the tiebreak,
    // and the application, so counting the tab's rows reads the index alone.
    index('certifications_expiration_idx').on(t.expirationDate, t.id, t.applicationId),
  ],
);

export const cme = pgTable(
  'cme',
  {
    ...sectionColumns(),
    activityTitle: text('activity_title').notNull(),
    /** The organisation that ran the activity. */
    providerName: text('provider_name').notNull(),
    category: cmeCategoryEnum('category'),
    /** Hours in steps of 0.5 (spec §9); numeric keeps 0.5 steps exact, read and written as a JS number. */
    creditHours: numeric('credit_hours', { precision: 5, scale: 1, mode: 'number' }),
    completionDate: isoDate('completion_date'),
    certificateNumber: text('certificate_number'),
  },
  (t) => [
    index('cme_application_completion_idx').on(t.applicationId, t.completionDate.desc()),
    check(
      'cme_credit_hours_check',
      sql`${t.creditHours} between 0 and 999 and mod(${t.creditHours} * 2, 1) = 0`,
    ),
  ],
);

export const peerReferences = pgTable(
  'peer_references',
  {
    ...sectionColumns(),
    referenceName: text('reference_name').notNull(),
    title: text('title'),
    organization: text('organization'),
    email: text('email'),
    phone: text('phone'),
    relationship: text('relationship'),
    yearsKnown: integer('years_known').notNull().default(0),
  },
  (t) => [
    index('peer_references_application_created_idx').on(t.applicationId, t.createdAt.desc()),
    check('peer_references_years_known_check', sql`${t.yearsKnown} >= 0`),
  ],
);

// ---- Issue 31: the 'Additional Information' sections, repeatable cards ordered by position ---------

export const specialties = pgTable(
  'specialties',
  {
    ...sectionColumns(),
    position: positionColumn(),
    specialtyRank: specialtyRankEnum('specialty_rank').notNull().default('primary'),
    /** NUCC taxonomy code; classification and specialization are the code set's names, written by the server. */
    taxonomyCode: text('taxonomy_code').notNull(),
    classification: text('classification'),
    specialization: text('specialization'),
    /** A certification of the same application (the server checks it); cleared when that row is deleted. */
    boardCertificationId: uuid('board_certification_id').references(() => certifications.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('specialties_application_position_idx').on(t.applicationId, t.position),
    index('specialties_board_certification_idx').on(t.boardCertificationId),
    check('specialties_taxonomy_code_check', sql`${t.taxonomyCode} ~ '^[0-9]{3}[0-9A-Z]{6}X$'`),
  ],
);

export const practiceLocations = pgTable(
  'practice_locations',
  {
    ...sectionColumns(),
    position: positionColumn(),
    practiceName: text('practice_name').notNull(),
    groupNpi: text('group_npi'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    phone: text('phone'),
    fax: text('fax'),
    email: text('email'),
    isPrimaryLocation: boolean('is_primary_location').notNull().default(false),
    acceptingNewPatients: acceptingNewPatientsEnum('accepting_new_patients'),
    languagesSpoken: text('languages_spoken'),
    officeHours: text('office_hours'),
    accessibilityNotes: text('accessibility_notes'),
  },
  (t) => [
    index('practice_locations_application_position_idx').on(t.applicationId, t.position),
    // The FHIR API (issue 33): a Location or PractitionerRole read by its id (the row key), and an
    // Organization by its group NPI.
    index('practice_locations_row_key_idx').on(t.rowKey),
    index('practice_locations_group_npi_idx').on(t.groupNpi).where(sql`${t.groupNpi} is not null`),
  ],
);

export const hospitalAffiliations = pgTable(
  'hospital_affiliations',
  {
    ...sectionColumns(),
    position: positionColumn(),
    privilegeStatus: privilegeStatusEnum('privilege_status').notNull().default('active'),
    facilityName: text('facility_name'),
    city: text('city'),
    state: text('state'),
    department: text('department'),
    startDate: isoDate('start_date'),
    /** When the privileges end; the 'Expiring' tab lists it (decision 023). */
    endDate: isoDate('end_date'),
    admittingArrangement: admittingArrangementEnum('admitting_arrangement'),
    arrangementName: text('arrangement_name'),
  },
  (t) => [
    index('hospital_affiliations_application_position_idx').on(t.applicationId, t.position),
    // The admin 'Expiring' tab (decision 023): dated rows in date order, id as the tiebreak.
    index('hospital_affiliations_end_idx').on(t.endDate, t.id, t.applicationId),
  ],
);

export const training = pgTable(
  'training',
  {
    ...sectionColumns(),
    position: positionColumn(),
    /** The section's none answer (issue 31): 'No internship, residency or fellowship'. */
    noTraining: boolean('no_training').notNull().default(false),
    trainingType: trainingTypeEnum('training_type'),
    programName: text('program_name'),
    institutionName: text('institution_name'),
    specialty: text('specialty'),
    startDate: isoDate('start_date'),
    endDate: isoDate('end_date'),
    completed: yesNoEnum('completed'),
    notCompletedReason: text('not_completed_reason'),
  },
  (t) => [index('training_application_position_idx').on(t.applicationId, t.position)],
);

export const malpracticeClaims = pgTable(
  'malpractice_claims',
  {
    ...sectionColumns(),
    position: positionColumn(),
    /** The section's none answer (issue 31): 'No claims in the last 10 years'. */
    noClaims: boolean('no_claims').notNull().default(false),
    incidentDate: isoDate('incident_date'),
    claimDate: isoDate('claim_date'),
    status: claimStatusEnum('status'),
    /** US dollars with cents, read and written as a JS number. */
    amountPaid: numeric('amount_paid', { precision: 12, scale: 2, mode: 'number' }),
    insurer: text('insurer'),
    description: text('description'),
  },
  (t) => [
    index('malpractice_claims_application_position_idx').on(t.applicationId, t.position),
    check('malpractice_claims_amount_paid_check', sql`${t.amountPaid} >= 0`),
  ],
);

/**
 * The table of each section, keyed like the domain registry, for generic code (completeness,
 * admin detail, completion payload). Every table has an `applicationId` column.
 */
export const sectionTables = {
  personalInformation,
  professionalLicenses,
  education,
  workHistory,
  malpracticeInsurance,
  vaccinations,
  payors,
  certifications,
  cme,
  peerReferences,
  documents,
  specialties,
  practiceLocations,
  hospitalAffiliations,
  training,
  malpracticeClaims,
} as const satisfies Record<SectionKey, PgTable>;

export type SectionTables = typeof sectionTables;
