/**
 * The volume seed's credentialing history (issue 34, the reports at volume): what 36 months of work
 * leave behind for 100,000 providers, written after seed-statements.ts's rows, in the same
 * transaction and in the same way (generate_series; no round trip per row).
 *
 * - One decided application per provider ("history", application numbers after the seed's
 *   `applications`), decided over the ~30 months before that provider's application in review was
 *   created (so the one in review stays the current one): nine in ten approved, one in ten rejected;
 *   two in five initial, the rest recredentialing; 20 to 121 days from completion to decision (about
 *   1% over NCQA's 120), with the review started 0 to 9 days after completion, a 'Send for Decision'
 *   referral for the last 0 to 6 days and, for one in ten, an answered information request; decided
 *   by one of three medical directors (seeded providers REVIEWERS+1..REVIEWERS+3).
 * - Its checklist: eight items verified by its reviewer on the days after the review started.
 * - A completion attestation for every completed application: the history's and the ones in review.
 * - Each decision's figures (decision_facts, migration 0031), recorded once the rows above exist.
 * - A running credential (`provider_credentials`, ends 36 months after the approval) per approved one.
 * - Monitoring: the monthly screening job's run for each of the last 36 months, an applied import of
 *   every source each month, and `providers / 50` findings over the 36 months, a third of them
 *   matches, the possible matches of the last 90 days still open.
 */

import { disclosureQuestions } from '../../domain/attestation.ts';
import type { FieldCipher } from '../../server/security/field-cipher.ts';
import { SEED_USER_PREFIX } from './seed-ids.ts';
import { REVIEWERS, type SeedSize, type SeedStatement } from './seed-statements.ts';

/** Seeded providers REVIEWERS+1..REVIEWERS+MEDICAL_DIRECTORS decide the history's files. */
export const MEDICAL_DIRECTORS = 3;

/** File names of the seed's applied imports start with this (`--replace` deletes them by it). */
export const SEED_IMPORT_FILE_PREFIX = 'volume-seed-';

/** Application number of provider `owner`'s decided history file (after the seed's applications). */
const historyApp = (size: SeedSize, owner: string) => `pg_temp.seed_app_id(${size.applications} + ${owner})`;

/**
 * The history statements for `size`, to run after seedStatements(size).
 * @param answersEncrypted the completion attestations' answers, encrypted with the deployment's field
 *   cipher (`seedAttestationAnswers`), so a seeded file's review page reads them like any other
 */
export function historyStatements(size: SeedSize, answersEncrypted: string): SeedStatement[] {
  const { providers } = size;
  const app = (owner: string) => historyApp(size, owner);
  return [
    {
      name: 'medical director roles',
      sql: `insert into staff_roles (user_id, role)
       select pg_temp.seed_user_id(i), 'medical_director'
       from generate_series($1::int + 1, $1::int + $2::int) i`,
      params: [REVIEWERS, MEDICAL_DIRECTORS],
    },
    {
      // o: the owner; created: when their application in review was created (seed-statements.ts).
      name: 'decided history',
      sql: `insert into provider_applications (id, user_id, application_status, cycle, created_at, submitted_at,
         review_started_at, reviewer_id, decided_at, decided_by, decided_by_role, effective_date, decision_reason)
       select ${app('o')}, pg_temp.seed_user_id(o), status::application_status,
              case when o % 5 < 2 then 'initial' else 'recredentialing' end,
              decided - turnaround - interval '15 days', decided - turnaround,
              decided - turnaround + (o % 10) * interval '1 day', pg_temp.seed_user_id(1 + o % $2::int),
              decided, pg_temp.seed_user_id($2::int + 1 + o % $3::int), 'medical_director',
              (decided at time zone 'UTC')::date,
              case when status = 'rejected' then 'Incomplete work history could not be verified.' end
       from generate_series(1, $1::int) o,
       lateral (select now() - (($1::int - o) * interval '13 minutes') - interval '1 day' as created) c,
       lateral (select c.created - interval '1 hour' - ((o * 7919) % (60 * 24 * 60)) * interval '1 minute' as decided,
                       (20 + (o * 31) % 102) * interval '1 day' + (o % 24) * interval '1 hour' as turnaround,
                       case when o % 10 = 3 then 'rejected' else 'approved' end as status) d`,
      params: [providers, REVIEWERS, MEDICAL_DIRECTORS],
    },
    {
      name: 'history checklists',
      sql: `insert into verification_items (application_id, kind, item_key, target, primary_source, status,
         source, verified_at, validator_id, position, updated_at)
       select a.id, k.kind, k.kind || ':' || k.i, k.target, k.source, 'verified', k.source,
              (a.review_started_at at time zone 'UTC')::date + k.i, a.reviewer_id, k.i,
              a.review_started_at + k.i * interval '1 day'
       from provider_applications a
       cross join (values (1, 'license', 'Professional license', 'State licensing board'),
                          (2, 'dea', 'DEA registration', 'DEA Diversion Control'),
                          (3, 'npi', 'NPI', 'NPPES NPI Registry'),
                          (4, 'board_certification', 'Board certification', 'Certifying board'),
                          (5, 'education', 'Highest education', 'Educational institution'),
                          (6, 'work_history', 'Work history (last 5 years)', 'Employers'),
                          (7, 'malpractice', 'Current malpractice coverage', 'Malpractice carrier'),
                          (8, 'exclusions', 'Exclusion screening', 'OIG LEIE / SAM.gov')) k(i, kind, target, source)
       where a.id between ${app('1')} and ${app('$1::int')}`,
      params: [providers],
    },
    {
      name: 'history referrals',
      sql: `insert into decision_referrals (application_id, track, reasons, sent_at, sent_by, closed_at, outcome)
       select a.id, case when hashtext(a.id::text) % 4 = 0 then 'committee' else 'clean_files' end, '[]'::jsonb,
              a.decided_at - (hashtext(a.id::text)::bigint % 7 + 7) % 7 * interval '1 day' - interval '2 hours',
              a.reviewer_id, a.decided_at, a.application_status::text
       from provider_applications a
       where a.id between ${app('1')} and ${app('$1::int')}`,
      params: [providers],
    },
    {
      name: 'history information requests',
      sql: `insert into information_requests (application_id, message, sections, requested_by, requested_at,
         response, responded_at)
       select a.id, 'Please upload your renewed license.', array['professionalLicenses'], a.reviewer_id,
              a.review_started_at + interval '1 day', 'Uploaded.', a.review_started_at + interval '4 days'
       from provider_applications a
       where a.id between ${app('1')} and ${app('$1::int')} and hashtext(a.id::text) % 10 = 0`,
      params: [providers],
    },
    {
      name: 'completion attestations',
      sql: `insert into application_attestations (application_id, user_id, kind, answers_encrypted, statement,
         signature, signed_at, snapshot_version, snapshot_sha256)
       select a.id, a.user_id, 'completion', $2, 'I attest that the information is true and complete.',
              'Seeded Provider', a.submitted_at, 1, repeat('0', 64)
       from provider_applications a
       where a.user_id like $1 and a.submitted_at is not null`,
      params: [`${SEED_USER_PREFIX}%`, answersEncrypted],
    },
    {
      // The history was inserted decided, before its checklists, requests, referrals and attestations:
      // record its figures again now that they exist (what the decisions would have recorded).
      name: 'decision facts',
      sql: `select decision_facts_refresh(array(
         select a.id from provider_applications a
         where a.user_id like $1 and a.application_status in ('approved', 'rejected')))`,
      params: [`${SEED_USER_PREFIX}%`],
    },
    {
      name: 'running credentials',
      sql: `insert into provider_credentials (user_id, application_id, credentialed_at, approved_at, ends_on)
       select a.user_id, a.id, a.decided_at, a.decided_at, ((a.decided_at at time zone 'UTC') + interval '36 months')::date
       from provider_applications a
       where a.id between ${app('1')} and ${app('$1::int')} and a.application_status = 'approved'`,
      params: [providers],
    },
    {
      name: 'screening job runs',
      sql: `insert into scheduled_job_runs (job, period, instance_id, started_at, lease_until, finished_at)
       select 'exclusion-screening', to_char(m, 'YYYY-MM'), gen_random_uuid(), m + interval '2 hours',
              m + interval '3 hours', m + interval '2 hours 20 minutes'
       from generate_series(date_trunc('month', now() at time zone 'UTC') - interval '35 months',
                            date_trunc('month', now() at time zone 'UTC') - interval '1 month', interval '1 month') m
       on conflict (job, period) do nothing`,
    },
    {
      name: 'exclusion imports',
      sql: `insert into exclusion_imports (source, kind, status, file_name, encoding, row_count, staged_at,
         applied_at, rows_before, rows_after)
       select s.source, 'full', 'applied', $1::text || s.source || '-' || to_char(m, 'YYYY-MM') || '.csv', 'utf-8', 80000,
              m + interval '5 days', m + interval '5 days 1 hour', 80000, 80000
       from generate_series(date_trunc('month', now() at time zone 'UTC') - interval '35 months',
                            date_trunc('month', now() at time zone 'UTC') - interval '1 month', interval '1 month') m
       cross join (values ('oig_leie'), ('sam'), ('ny_omig'), ('pa_medicheck')) s(source)`,
      params: [SEED_IMPORT_FILE_PREFIX],
    },
    {
      // Findings on the providers' current applications; possible matches of the last 90 days still open.
      name: 'screening findings',
      sql: `insert into screening_findings (application_id, user_id, source, row_hash, entry_key, entry, strength,
         matched_on, status, found_at, decided_at, reason)
       select pg_temp.seed_app_id(o), pg_temp.seed_user_id(o), 'oig_leie', md5('seed-finding-' || f),
              'seed-' || f, '{}'::jsonb, strength, case when strength = 'match' then 'npi' else 'name' end,
              case when strength = 'possible_match' and found > now() - interval '90 days' then 'open'
                   when strength = 'match' then 'confirmed' else 'cleared' end,
              found,
              case when not (strength = 'possible_match' and found > now() - interval '90 days')
                   then found + interval '2 days' end,
              case when not (strength = 'possible_match' and found > now() - interval '90 days')
                   then 'Seeded review.' end
       from generate_series(1, $1::int / 50) f,
       lateral (select 1 + (f::bigint * 7919) % $1::int as o,
                       case when f % 3 = 0 then 'match' else 'possible_match' end as strength,
                       now() - ((f::bigint * 104729) % (1095 * 24)) * interval '1 hour' as found) x`,
      params: [providers],
    },
  ];
}

/**
 * The seeded attestations' answers: 'No' to every disclosure question of the dialog (domain/attestation.ts),
 * encrypted with `cipher`, the one the server reading the database uses (FIELD_ENCRYPTION_KEYS or the
 * key file in DATA_DIR).
 */
export function seedAttestationAnswers(cipher: Pick<FieldCipher, 'encrypt'>): string {
  return cipher.encrypt(
    JSON.stringify(Object.fromEntries(disclosureQuestions.map((q) => [q.id, { answer: 'no' }]))),
  );
}
