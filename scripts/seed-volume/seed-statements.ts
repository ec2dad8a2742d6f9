/**
 * The volume seed's insert statements, in dependency order: users, profiles, roles, applications,
 * personal information, the nine list-section tables, documents. Each builds its rows inside
 * PostgreSQL with `generate_series` (no round trip per row) and needs the session's id functions
 * (`seedIdFunctionsSql`) to exist.
 */

import { CITIES, FIRST_NAMES, LAST_NAMES, US_STATES } from './sample-values.ts';
import { SEED_EMAIL_DOMAIN, SEED_USER_PREFIX } from './seed-ids.ts';

/** Seeded providers 1..REVIEWERS are administrators and review the applications under review. */
export const REVIEWERS = 20;

/**
 * Expiry dates of the six dated credentials (issue 14, the admin 'Expiring' tab): nine rows in ten
 * carry one, spread evenly from a year ago to three years ahead of the day the seed runs, so about
 * 25% have expired and about 6% expire within 90 days whatever the date. `salt` varies the spread
 * per table; `i` is the row's series variable.
 */
export const EXPIRY_SPREAD_DAYS = { from: -365, days: 1460 } as const;
function expiryDate(i: string, salt: number): string {
  return `case when ${i} % 10 = ${salt % 10} then null
              else current_date + (${EXPIRY_SPREAD_DAYS.from} + (${i}::bigint * 7919 + ${salt}) % ${EXPIRY_SPREAD_DAYS.days})::int end`;
}

/** How many rows the seed writes; every count follows from `providers`. */
export interface SeedSize {
  providers: number;
  /** `providers` (each in review) + one older approved application for every tenth provider. */
  applications: number;
  /** Rows in each list-section table, and personal information rows (one per application but every eleventh). */
  perListTable: number;
  documents: number;
}

/** One insert: `name` labels its progress line and timing; `params` fill `$1…`. */
export interface SeedStatement {
  name: string;
  sql: string;
  params?: unknown[];
}

/** The counts for `providers` providers (a multiple of 10). */
export function seedSize(providers: number): SeedSize {
  return {
    providers,
    applications: providers + providers / 10,
    // 100,000 personal information rows + 9 x 100,000 list rows = 1,000,000 section rows for 100,000.
    perListTable: providers,
    documents: providers * 2,
  };
}

/** The insert statements for `size`, to run in this order in one transaction. */
export function seedStatements({
  providers,
  applications,
  perListTable,
  documents,
}: SeedSize): SeedStatement[] {
  // Each list table: row g goes to application 1 + (g * k) mod A, with k coprime to A, so the rows
  // of one table land on distinct applications spread over the whole range.
  const spread = (k: number) => `pg_temp.seed_app_id(1 + (g::bigint * ${k}) % ${applications})`;
  return [
    {
      name: 'users',
      sql: `insert into "user" (id, name, email, email_verified, first_name, last_name, created_at, updated_at)
       select pg_temp.seed_user_id(i), fn || ' ' || ln,
              lower(fn || '.' || ln || '.' || i) || '@${SEED_EMAIL_DOMAIN}', true, fn, ln, ts, ts
       from generate_series(1, $3::int) i,
       lateral (select ($1::text[])[1 + i % cardinality($1::text[])] fn,
                       ($2::text[])[1 + (i * 7 + i / 97) % cardinality($2::text[])] ln,
                       now() - (($3::int - i) * interval '13 minutes') - interval '1 day' ts) x`,
      params: [FIRST_NAMES, LAST_NAMES, providers],
    },
    {
      name: 'profiles',
      sql: `insert into profiles (user_id, first_name, last_name, email, created_at)
       select id, first_name, last_name, email, created_at from "user" where id like $1`,
      params: [`${SEED_USER_PREFIX}%`],
    },
    {
      name: 'user_roles',
      sql: `insert into user_roles (user_id, role) select id, 'user' from "user" where id like $1`,
      params: [`${SEED_USER_PREFIX}%`],
    },
    {
      // Issue 13: every provider's first application is in review (the queue's worst case: 100,000
      // for 100,000 providers), half submitted and half under review, completed over the last 90
      // days; every tenth provider also has an older approved one.
      name: 'applications',
      sql: `insert into provider_applications (id, user_id, application_status, created_at, submitted_at,
         review_started_at, reviewer_id, decided_at)
       select pg_temp.seed_app_id(n), pg_temp.seed_user_id(owner), status::application_status, created,
              case when status <> 'approved' then least(now(), created + interval '30 days') - done end,
              case when status = 'under_review' then least(now(), created + interval '30 days') - done / 2 end,
              case when status = 'under_review' then pg_temp.seed_user_id(1 + n % $3::int) end,
              case when status = 'approved' then created + interval '40 days' end
       from generate_series(1, $2::int) n,
       lateral (select pg_temp.seed_app_owner(n) owner) o,
       lateral (select case when n > $1::int then 'approved'
                            when n % 2 = 0 then 'under_review' else 'submitted' end status,
                       now() - (($1::int - owner) * interval '13 minutes')
                         - case when n > $1::int then interval '400 days' else interval '0 days' end
                         - interval '1 day' created,
                       ((n * 7919) % (90 * 24 * 60)) * interval '1 minute' done) x`,
      params: [providers, applications, REVIEWERS],
    },
    {
      // The reviewers of the applications under review: seeded providers 1..REVIEWERS made admins.
      name: 'reviewer roles',
      sql: `update user_roles set role = 'admin' where user_id in
         (select pg_temp.seed_user_id(i) from generate_series(1, $1::int) i)`,
      params: [REVIEWERS],
    },
    {
      // Started reviews have their checklist: 8 items each, a mix of outcomes.
      name: 'verification_items',
      sql: `insert into verification_items (application_id, kind, item_key, target, primary_source, status,
         source, verified_at, validator_id, waiver_reason, position, updated_at)
       select a.id, k.kind, k.kind || ':' || k.i, k.target, k.source, st,
              case when st = 'verified' then k.source end,
              case when st = 'verified' then (a.review_started_at)::date end,
              case when st <> 'pending' then a.reviewer_id end,
              case when st = 'waived' then 'Not applicable to this provider' end,
              k.i, a.review_started_at
       from provider_applications a
       cross join (values (1, 'license', 'Professional license', 'State licensing board'),
                          (2, 'dea', 'DEA registration', 'DEA Diversion Control'),
                          (3, 'npi', 'NPI', 'NPPES NPI Registry'),
                          (4, 'board_certification', 'Board certification', 'Certifying board'),
                          (5, 'education', 'Highest education', 'Educational institution'),
                          (6, 'work_history', 'Work history (last 5 years)', 'Employers'),
                          (7, 'malpractice', 'Current malpractice coverage', 'Malpractice carrier'),
                          (8, 'exclusions', 'Exclusion screening', 'OIG LEIE / SAM.gov')) k(i, kind, target, source),
       lateral (select (array['pending','verified','verified','waived','discrepancy','verified'])
                  [1 + (((hashtext(a.id::text)::bigint + k.i) % 6) + 6) % 6] st) s
       where a.user_id like $1 and a.application_status = 'under_review'`,
      params: [`${SEED_USER_PREFIX}%`],
    },
    {
      // One review in ten waits for the provider: an open information request.
      name: 'information_requests',
      sql: `insert into information_requests (application_id, message, sections, requested_by, requested_at)
       select id, 'Please upload your renewed license.', array['professionalLicenses'], reviewer_id,
              review_started_at + interval '1 hour'
       from provider_applications
       where user_id like $1 and application_status = 'under_review' and hashtext(id::text) % 10 = 0`,
      params: [`${SEED_USER_PREFIX}%`],
    },
    {
      name: 'personal_information',
      sql: `insert into personal_information (application_id, provider_type, gender, ssn_last4, date_of_birth,
         mobile_phone, npi_number, dea_number, caqh_id, address_line1, address_line2, city, state, zip_code,
         driver_license_number, driver_license_state, driver_license_expiration)
       select pg_temp.seed_app_id(n),
              (array['MD','DO','RN','PA','APN','DDS','LPN'])[1 + n % 7],
              (array['M','F'])[1 + n % 2],
              lpad(((n * 7919) % 10000)::text, 4, '0'),
              date '1960-01-01' + (n % 12000)::int,
              '(555) ' || lpad((n % 1000)::text, 3, '0') || '-' || lpad((n % 10000)::text, 4, '0'),
              lpad((1000000000 + n)::text, 10, '0'),
              'B' || chr(65 + (n % 26)::int) || lpad((n % 10000000)::text, 7, '0'),
              (10000000 + n)::text,
              (n % 9000 + 100) || ' Main Street',
              case when n % 3 = 0 then 'Suite ' || (n % 400 + 1) end,
              ($3::text[])[1 + n % cardinality($3::text[])],
              ($4::text[])[1 + n % cardinality($4::text[])],
              lpad((n % 99999)::text, 5, '0'),
              'D' || lpad((n * 37 % 10000000)::text, 7, '0'),
              ($4::text[])[1 + n % cardinality($4::text[])],
              ${expiryDate('n', 1)}
       from generate_series(1, $1::int) n where n % 11 <> 0 limit $2::int`,
      params: [applications, perListTable, CITIES, US_STATES],
    },
    {
      name: 'professional_licenses',
      sql: `insert into professional_licenses (application_id, position, license_type, license_number,
         issuing_state, issue_date, expiration_date, status)
       select ${spread(3)}, 0,
              (array['medical_license','nursing_license','dea_license','npi','other'])[1 + g % 5]::license_type,
              'LIC-' || g, ($2::text[])[1 + g % cardinality($2::text[])],
              date '2010-01-01' + (g % 4000), ${expiryDate('g', 2)},
              (array['active','active','active','pending','expired','inactive'])[1 + g % 6]::license_status
       from generate_series(1, $1::int) g`,
      params: [perListTable, US_STATES],
    },
    {
      name: 'education',
      sql: `insert into education (application_id, position, institution_name, degree_type, field_of_study,
         graduation_date, gpa)
       select ${spread(7)}, 0, 'University of ' || ($2::text[])[1 + g % cardinality($2::text[])],
              (array['associate','bachelor','master','doctorate','certificate'])[1 + g % 5]::degree_type,
              (array['Medicine','Nursing','Biology','Pharmacy','Public Health'])[1 + g % 5],
              date '1985-05-15' + (g % 12000), (2.5 + (g % 16) / 10.0)::text
       from generate_series(1, $1::int) g`,
      params: [perListTable, CITIES],
    },
    {
      name: 'work_history',
      sql: `insert into work_history (application_id, position, employer_name, position_title, start_date,
         end_date, is_current_position, responsibilities, supervisor_name, supervisor_contact)
       select ${spread(13)}, 0, ($2::text[])[1 + g % cardinality($2::text[])] || ' General Hospital',
              (array['Attending Physician','Staff Nurse','Resident','Physician Assistant'])[1 + g % 4],
              date '2005-01-01' + (g % 6000),
              case when g % 4 = 0 then null else date '2021-01-01' + (g % 1000) end,
              g % 4 = 0, 'Patient care and clinical documentation', 'Dr. Supervisor ' || g % 500,
              'supervisor' || g % 500 || '@hospital.example'
       from generate_series(1, $1::int) g`,
      params: [perListTable, CITIES],
    },
    {
      name: 'malpractice_insurance',
      sql: `insert into malpractice_insurance (application_id, position, insurance_company, policy_number,
         coverage_amount, effective_date, expiration_date)
       select ${spread(17)}, 0,
              (array['MedPro Group','The Doctors Company','ProAssurance','Coverys'])[1 + g % 4],
              'POL-' || g, '$1,000,000 / $3,000,000', date '2024-01-01' + (g % 700),
              ${expiryDate('g', 3)}
       from generate_series(1, $1::int) g`,
      params: [perListTable],
    },
    {
      name: 'vaccinations',
      sql: `insert into vaccinations (application_id, position, vaccine_name, administration_date,
         expiration_date, lot_number, administering_provider)
       select ${spread(19)}, 0,
              (array['covid-19','influenza','hepatitis-b','mmr','tdap','varicella','meningococcal','other'])
                [1 + g % 8]::vaccine_name,
              date '2020-01-01' + (g % 2000), ${expiryDate('g', 4)}, 'LOT' || g,
              'County Health Clinic'
       from generate_series(1, $1::int) g`,
      params: [perListTable],
    },
    {
      name: 'payors',
      sql: `insert into payors (application_id, payor_name, contract_type, contract_start_date,
         contract_end_date, credentialing_status, notes)
       select ${spread(23)}, (array['Aetna','Cigna','UnitedHealthcare','Humana','Medicare','Medicaid'])[1 + g % 6],
              (array['Fee for service','Capitation','Value based'])[1 + g % 3],
              date '2022-01-01' + (g % 900), ${expiryDate('g', 5)},
              (array['pending','approved','denied','expired'])[1 + g % 4]::credentialing_status, null
       from generate_series(1, $1::int) g`,
      params: [perListTable],
    },
    {
      name: 'certifications',
      sql: `insert into certifications (application_id, certification_name, certifying_body,
         certification_number, issue_date, expiration_date)
       select ${spread(29)}, (array['BLS','ACLS','PALS','Board Certified Internal Medicine'])[1 + g % 4],
              (array['American Heart Association','ABIM','ANCC'])[1 + g % 3], 'CERT-' || g,
              date '2018-01-01' + (g % 2000), ${expiryDate('g', 6)}
       from generate_series(1, $1::int) g`,
      params: [perListTable],
    },
    {
      name: 'cme',
      sql: `insert into cme (application_id, activity_title, provider_name, category, credit_hours,
         completion_date, certificate_number)
       select ${spread(31)}, 'Clinical Update ' || (g % 300), 'Medical Education Institute',
              (array['Category 1','Category 2','Self-Assessment','Board Certification','Other'])[1 + g % 5]::cme_category,
              (1 + g % 20) * 0.5, date '2022-01-01' + (g % 1000), 'CME-' || g
       from generate_series(1, $1::int) g`,
      params: [perListTable],
    },
    {
      name: 'peer_references',
      sql: `insert into peer_references (application_id, reference_name, title, organization, email, phone,
         relationship, years_known)
       select ${spread(37)}, 'Dr. Reference ' || g, 'Chief of Medicine', 'Regional Medical Center',
              'reference' || g || '@hospital.example', '(555) 010-' || lpad((g % 10000)::text, 4, '0'),
              'Colleague', g % 25
       from generate_series(1, $1::int) g`,
      params: [perListTable],
    },
    {
      name: 'documents',
      sql: `insert into documents (application_id, user_id, document_name, document_type, file_path, file_size,
         mime_type, sha256, uploaded_at)
       select pg_temp.seed_app_id(n), pg_temp.seed_user_id(pg_temp.seed_app_owner(n)),
              (array['cv','license','dea','insurance','diploma','transcript','vaccines','background',
                     'references','other'])[1 + g % 10] || '-' || g || '.pdf',
              (array['cv_resume','medical_license','dea_license','malpractice_insurance','diploma',
                     'transcript','vaccination_record','background_check','references','other'])
                [1 + g % 10]::document_type,
              pg_temp.seed_user_id(pg_temp.seed_app_owner(n)) || '/seed/' || g || '.pdf',
              20000 + (g * 7919) % 2000000, 'application/pdf', repeat('0', 64),
              least(now(), now() - (($2::int - pg_temp.seed_app_owner(n)) * interval '13 minutes')
                           + interval '3 hours' + (g % 600) * interval '1 minute')
       from generate_series(1, $1::int) g,
       lateral (select 1 + (g::bigint * 41) % $3::int n) a`,
      params: [documents, providers, applications],
    },
  ];
}
