/**
 * The verification checklist generated from an application's snapshot (issue 13, decision 018),
 * modelled on FHIR R4 VerificationResult (target, status, primary source, validator, date, note).
 * Pure: the server stores the items (server/review/verification-checklist.ts) and the reviewer
 * records each one's outcome.
 */
import { formatIsoDay, isoDay } from '../calendar.ts';
import { isBoardCertificationRow } from '../sections/certification-kinds.ts';
import {
  type AdmittingArrangement,
  admittingArrangementLabel,
  type PrivilegeStatus,
  privilegeStatusLabel,
} from '../sections/hospital-affiliations.ts';
import { CLAIMS_HISTORY_YEARS, formatUsd } from '../sections/malpractice-claims.ts';
import { policyInForce } from '../sections/malpractice-insurance.ts';
import { specialtyName } from '../sections/specialties.ts';
import { type TrainingType, trainingTypeLabel } from '../sections/training.ts';
import { GAP_LOOKBACK_YEARS } from '../sections/work-history-gaps.ts';
import type { ApplicationSnapshot, SnapshotRow } from './application-snapshot.ts';

export { isBoardCertificationRow, isoDay };

export const verificationKinds = [
  'license',
  'dea',
  'npi',
  'board_certification',
  'education',
  'work_history',
  'work_history_gap',
  'malpractice',
  'exclusions',
  // Issue 31 item 4: the sections of decision 028.
  'training',
  'hospital_privileges',
  'admitting_arrangement',
  'claims_history',
] as const;
export type VerificationKind = (typeof verificationKinds)[number];

/** What each kind of checklist item is called on the review page. */
export const verificationKindLabel: Record<VerificationKind, string> = {
  license: 'Professional license',
  dea: 'DEA registration',
  npi: 'NPI',
  board_certification: 'Board certification',
  education: 'Education',
  work_history: 'Work history',
  work_history_gap: 'Work history gap',
  malpractice: 'Malpractice coverage',
  exclusions: 'Exclusion screening',
  training: 'Training',
  hospital_privileges: 'Hospital privileges',
  admitting_arrangement: 'Admitting arrangement',
  claims_history: 'Claims history',
};

/**
 * FHIR VerificationResult.status narrowed to the credentialing team's four outcomes (issue 13), plus
 * `needs_reverification` (issue 29): set by the server, never by a reviewer, when a later version
 * changed what a verification or waiver covered (./verification-fingerprint.ts).
 */
export const verificationStatuses = [
  'pending',
  'verified',
  'discrepancy',
  'waived',
  'needs_reverification',
] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];

/** The outcomes a reviewer records ('Verify', discrepancy, waive, back to pending). */
export const recordableVerificationStatuses = ['pending', 'verified', 'discrepancy', 'waived'] as const;
export type RecordableVerificationStatus = (typeof recordableVerificationStatuses)[number];

/** Labels and badge colours (Mantine names, shades picked by the web theme) of the outcomes. */
export const verificationStatusLabel: Record<VerificationStatus, string> = {
  pending: 'Pending',
  verified: 'Verified',
  discrepancy: 'Discrepancy',
  waived: 'Waived',
  needs_reverification: 'Needs re-verification',
};
export const verificationStatusColor: Record<
  VerificationStatus,
  'yellow' | 'green' | 'red' | 'blue' | 'orange'
> = {
  pending: 'yellow',
  verified: 'green',
  discrepancy: 'red',
  waived: 'blue',
  needs_reverification: 'orange',
};

/** NCQA 2025: a verification older than this many days at the decision must be redone (issue 13). */
export const DEFAULT_VERIFICATION_MAX_AGE_DAYS = 120;

/** Work-history gap rules live in domain/sections/work-history-gaps.ts (issue 29 item 7, one source). */
export { GAP_LOOKBACK_YEARS, WORK_GAP_MONTHS } from '../sections/work-history-gaps.ts';

export interface ChecklistItem {
  /** Stable within an application: the same credential gives the same key in every version. */
  itemKey: string;
  kind: VerificationKind;
  /** What is verified, without SSN or other identifiers beyond the credential's own number. */
  target: string;
  /** The primary source to check (NCQA CR 3). */
  primarySource: string;
  /** The section row the item verifies (`rowIdentity`), for row-bound kinds (issue 29); else null. */
  rowKey: string | null;
}

/** A row's identity across versions and copies: `row_key`, else `id` (snapshots before issue 29). */
export function rowIdentity(row: SnapshotRow): string {
  return text(row.row_key) || text(row.id);
}

const degreeRank: Record<string, number> = {
  certificate: 1,
  associate: 2,
  bachelor: 3,
  master: 4,
  doctorate: 5,
};

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());

/** The key of the item verifying a professional license row (snapshot shape, snake_case). */
export function licenseItemKey(l: SnapshotRow): string {
  return `license:${text(l.license_type)}:${text(l.issuing_state)}:${text(l.license_number)}`;
}

/** The key of the item verifying a board certification row (snapshot shape, snake_case). */
export function certificationItemKey(c: SnapshotRow): string {
  return `board_certification:${text(c.certification_name)}:${text(c.certifying_body)}:${text(c.certification_number)}`;
}

/**
 * The primary specialty of `snapshot` and the key of the certification item of its linked board
 * certification (issue 31 item 4: "one per primary specialty's board certification"), or null when
 * there is no primary specialty or it links none. The snapshot's specialty carries the linked
 * certification as `board_certification` (its name, body and number, the payload's shape), which
 * keys the same item as the certification's own row.
 */
export function primarySpecialtyCertification(
  snapshot: ApplicationSnapshot,
): { specialty: string; certificationKey: string } | null {
  for (const row of snapshot.lists?.specialties ?? []) {
    if ((text(row.specialty_rank) || 'primary') !== 'primary') continue;
    const linked = row.board_certification;
    if (!linked || typeof linked !== 'object') return null;
    return {
      specialty: specialtyName({
        taxonomyCode: text(row.taxonomy_code) || null,
        classification: text(row.classification) || null,
        specialization: text(row.specialization) || null,
      }),
      certificationKey: certificationItemKey(linked),
    };
  }
  return null;
}

/** The one item verifying the current malpractice coverage (issue 13), whichever policy that is. */
export const MALPRACTICE_ITEM_KEY = 'malpractice';

/**
 * The checklist item a lapsed credential reopens (issue 14: an approved provider's lapse is a
 * discrepancy): a license row's own item (a DEA license's is the DEA item; an NPI row has none), a
 * certification's item, the malpractice coverage item, a hospital affiliation's privileges item (issue
 * 31). Null for credentials the checklist does not verify (vaccinations, driver's license, payor
 * contracts).
 * @param kind domain/credentials/expiring-credentials.ts `CredentialKind`
 * @param row the section row (snapshot shape, snake_case)
 */
export function lapsedCredentialItemKey(kind: string, row: SnapshotRow): string | null {
  if (!verifiedCredentialKinds.includes(kind)) return null;
  if (kind === 'professional_license') {
    const type = text(row.license_type);
    if (type === 'npi') return null;
    return type === 'dea_license' ? 'dea' : licenseItemKey(row);
  }
  if (kind === 'certification') return certificationItemKey(row);
  if (kind === 'malpractice_insurance') return MALPRACTICE_ITEM_KEY;
  // Issue 31: privileges past their end date reopen the affiliation's item.
  if (kind === 'hospital_privileges') return holdsPrivileges(row) ? hospitalAffiliationItemKey(row) : null;
  return null;
}

/** The credential kinds the checklist verifies, whose lapse can reopen an item (lapsedCredentialItemKey). */
export const verifiedCredentialKinds: readonly string[] = [
  'professional_license',
  'certification',
  'malpractice_insurance',
  'hospital_privileges',
];

/** A snapshot row of Training or Malpractice Claims that is the section's none answer (decision 028). */
const isNoneAnswer = (row: SnapshotRow, column: 'no_training' | 'no_claims') => row[column] === true;

/** The key of the item verifying a training program row (issue 31): the row's identity. */
export function trainingItemKey(row: SnapshotRow): string {
  return `training:${rowIdentity(row)}`;
}

/**
 * The key of the item verifying a hospital affiliation row (issue 31): the row's identity, the same
 * whether the row holds privileges (a `hospital_privileges` item) or, with status 'none', the
 * admitting arrangement (an `admitting_arrangement` item), so a row that changes status keeps its item.
 */
export function hospitalAffiliationItemKey(row: SnapshotRow): string {
  return `hospital_affiliation:${rowIdentity(row)}`;
}

/** Whether a hospital affiliation row (snapshot or table shape, snake_case) holds privileges. */
export function holdsPrivileges(row: SnapshotRow): boolean {
  return (text(row.privilege_status) || 'active') !== 'none';
}

/** The one item verifying the claims history (issue 31 item 4), when the section has rows. */
export const CLAIMS_HISTORY_ITEM_KEY = 'claims_history';

/**
 * The claims history's primary source: the National Practitioner Data Bank (NCQA CR 3: malpractice
 * history is verified with the NPDB), whose query result the reviewer attaches to the item.
 */
export const NPDB_PRIMARY_SOURCE = 'NPDB query (attach the query result as evidence)';

/**
 * Kinds whose 'Verify' needs an evidence file attached to the item first (issue 31 item 4: the claims
 * history is verified "with the NPDB query result attached as evidence"), with the server's refusal.
 * Waiving needs none: a waiver gives its own reason.
 */
export const evidenceRequiredMessage: Partial<Record<VerificationKind, string>> = {
  claims_history: 'Attach the NPDB query result to the claims history item before verifying it.',
};

/**
 * The training program's primary source (NCQA CR 3): the program itself, or for a physician the AMA
 * Physician Profile (MD) or the AOA Physician Profile (DO), which report completed US residencies and
 * fellowships. Other provider types (nurses, physician assistants, custom types) have the program only.
 */
function trainingPrimarySource(row: SnapshotRow, providerType: string): string {
  const program = text(row.program_name) || text(row.institution_name) || 'The training program';
  const type = providerType.toUpperCase();
  if (type === 'DO') return `${program} or the AOA Physician Profile`;
  if (type === 'MD' || type.startsWith('MD-') || type.startsWith('MD ')) {
    return `${program} or the AMA Physician Profile`;
  }
  return program;
}

/** 'Training: Residency in Internal Medicine, Northwestern IM Residency, Northwestern University'. */
function trainingTarget(row: SnapshotRow): string {
  const type = trainingTypeLabel[text(row.training_type) as TrainingType] ?? 'Training program';
  const specialty = text(row.specialty);
  const parts = [
    specialty ? `${type} in ${specialty}` : type,
    text(row.program_name),
    text(row.institution_name),
  ].filter(Boolean);
  return `Training: ${parts.join(', ')}${text(row.completed) === 'no' ? ' (not completed)' : ''}`;
}

/** 'Hospital privileges: Northwestern Memorial Hospital, Chicago, IL (Active)'. */
function privilegesTarget(row: SnapshotRow): string {
  const status = privilegeStatusLabel[text(row.privilege_status) as PrivilegeStatus] ?? 'Active';
  const place = [text(row.city), text(row.state)].filter(Boolean).join(', ');
  const where = [text(row.facility_name) || 'facility not named', place].filter(Boolean).join(', ');
  return `Hospital privileges: ${where} (${status})`;
}

/** 'Admitting arrangement: Hospitalist group, Northside Hospitalists'. */
function arrangementTarget(row: SnapshotRow): string {
  const arrangement =
    admittingArrangementLabel[text(row.admitting_arrangement) as AdmittingArrangement] ?? 'Not named';
  return `Admitting arrangement: ${[arrangement, text(row.arrangement_name)].filter(Boolean).join(', ')}`;
}

/** 'Claims history: no claims in the last 10 years', '2 claims in the last 10 years, 1 paid'. */
function claimsTarget(claims: readonly SnapshotRow[]): string {
  const listed = claims.filter((c) => !isNoneAnswer(c, 'no_claims'));
  if (listed.length === 0) return `Claims history: no claims in the last ${CLAIMS_HISTORY_YEARS} years`;
  const paid = listed.filter((c) => claimAmount(c) > 0).length;
  return `Claims history: ${listed.length} claim${listed.length === 1 ? '' : 's'} in the last ${CLAIMS_HISTORY_YEARS} years${
    paid > 0 ? `, ${paid} paid` : ''
  }`;
}

/** A claim row's amount paid in US dollars (the payload sends a number; 0 when none or unreadable). */
export function claimAmount(row: SnapshotRow): number {
  const amount = Number(row.amount_paid ?? 0);
  return Number.isFinite(amount) ? amount : 0;
}

/**
 * One claim as the claims history item's covered value reads it (issue 31):
 * '2024-03-01 Settled $250,000.00 MedPro'; the none answer reads 'No claims in the last 10 years'.
 */
export function claimLine(row: SnapshotRow): string {
  if (isNoneAnswer(row, 'no_claims')) return `No claims in the last ${CLAIMS_HISTORY_YEARS} years`;
  const amount = claimAmount(row);
  return [
    text(row.claim_date) || text(row.incident_date) || 'undated',
    text(row.status),
    amount > 0 ? formatUsd(amount) : '',
    text(row.insurer),
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The malpractice policy the checklist's one malpractice item verifies in a version (issue 51 item 3:
 * "the policy in force on the version's date, or the next one with its start date shown"): the first
 * row of `rows` (snapshot shape, snake_case) in force on `day` (ISO; domain/sections/
 * malpractice-insurance.ts `policyInForce`), else the row starting soonest after `day`, with
 * `startsOn` its effective date; null when neither exists (every policy expired, or none listed).
 */
export function malpracticePolicyOn(
  rows: readonly SnapshotRow[],
  day: string,
): { row: SnapshotRow; startsOn: string | null } | null {
  const inForce = rows.find((m) =>
    policyInForce({ effectiveDate: text(m.effective_date), expirationDate: text(m.expiration_date) }, day),
  );
  if (inForce) return { row: inForce, startsOn: null };
  const next = rows
    .filter((m) => text(m.effective_date) > day)
    .sort((a, b) => text(a.effective_date).localeCompare(text(b.effective_date)))[0];
  return next ? { row: next, startsOn: text(next.effective_date) } : null;
}

/**
 * The malpractice item's target (issue 51 item 3): 'Current malpractice coverage: MedPro P-9'; a
 * renewal not in force yet: 'Current malpractice coverage: none in force; MedPro P-10 starts
 * 2027-01-01'; nothing: 'Current malpractice coverage: none current on file'.
 */
function malpracticeTarget(policy: ReturnType<typeof malpracticePolicyOn>): string {
  if (!policy) return 'Current malpractice coverage: none current on file';
  const named = [text(policy.row.insurance_company), text(policy.row.policy_number)]
    .filter(Boolean)
    .join(' ');
  return policy.startsOn
    ? `Current malpractice coverage: none in force; ${named || 'a policy'} starts ${policy.startsOn}`
    : `Current malpractice coverage: ${named}`.trim();
}

/**
 * The rows of `rows` with the same identity as `row` (`keyOf`: a license's type, state and number; a
 * certification's name, body and number), `row` first, then the others in snapshot order (issue 51
 * item 3: a renewed license added as a second card is the same credential; one item covers every
 * card, so a change in any of them needs re-verification).
 */
export function sameIdentityRows(
  rows: readonly SnapshotRow[],
  row: SnapshotRow,
  keyOf: (r: SnapshotRow) => string,
): SnapshotRow[] {
  const key = keyOf(row);
  return [row, ...rows.filter((r) => r !== row && keyOf(r) === key)];
}

/** ' (2 cards)' when an item covers more than one card of the same credential, else ''. */
const cardCount = (cards: readonly SnapshotRow[]) => (cards.length > 1 ? ` (${cards.length} cards)` : '');

/** The first row of each identity of `rows` (`keyOf`), in order, with all the rows of that identity. */
function byIdentity(
  rows: readonly SnapshotRow[],
  keyOf: (r: SnapshotRow) => string,
): { first: SnapshotRow; cards: SnapshotRow[] }[] {
  const seen = new Set<string>();
  const groups: { first: SnapshotRow; cards: SnapshotRow[] }[] = [];
  for (const row of rows) {
    const key = keyOf(row);
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push({ first: row, cards: sameIdentityRows(rows, row, keyOf) });
  }
  return groups;
}

/**
 * The checklist of `snapshot` as of `now` (issue 13): one item per professional license (state board),
 * the DEA registration when a DEA number or DEA license is given, the NPI (NPPES), each board
 * certification, the highest education, work history (its gaps are lines of that one item, issue 29
 * item 7), current malpractice coverage, and exclusion screening (OIG LEIE / SAM). Issue 31 item 4
 * adds one item per training program (not for the 'No internship, residency or fellowship' answer),
 * one per hospital affiliation (its privileges, verified with the facility; with status 'none', the
 * admitting arrangement, confirmed by the covering physician or group) and one claims history item
 * (the NPDB) when the Malpractice Claims section has rows; the board certification linked to the
 * primary specialty is the certification's own item, whose target names the specialty (no second
 * item verifying the same certificate with the same board).
 */
export function generateChecklist(snapshot: ApplicationSnapshot, now: Date): ChecklistItem[] {
  const today = isoDay(now);
  const items: ChecklistItem[] = [];
  const licenses = snapshot.lists.licenses ?? [];
  // Issue 51 item 3: cards of the same license (type, state, number) are one item covering them all.
  const stateLicenses = licenses.filter((l) => !['dea_license', 'npi'].includes(text(l.license_type)));
  for (const { first: l, cards } of byIdentity(stateLicenses, licenseItemKey)) {
    const type = text(l.license_type);
    const label =
      `${type.replaceAll('_', ' ') || 'license'} ${text(l.issuing_state)} ${text(l.license_number)}`.trim();
    items.push({
      itemKey: licenseItemKey(l),
      rowKey: rowIdentity(l) || null,
      kind: 'license',
      target: `Professional license: ${label}${cardCount(cards)}`,
      primarySource: `State licensing board${text(l.issuing_state) ? ` (${text(l.issuing_state)})` : ''}`,
    });
  }
  const deaNumber = text(snapshot.personalInformation.dea_number);
  const deaLicense = licenses.find((l) => text(l.license_type) === 'dea_license');
  if (deaNumber || deaLicense) {
    const number = deaNumber || text(deaLicense?.license_number);
    items.push({
      itemKey: 'dea',
      rowKey: null,
      kind: 'dea',
      target: `DEA registration${number ? ` ${number}` : ''}`,
      primarySource: 'DEA Diversion Control Division',
    });
  }
  const npi = text(snapshot.personalInformation.npi_number);
  items.push({
    itemKey: 'npi',
    rowKey: null,
    kind: 'npi',
    target: `NPI${npi ? ` ${npi}` : ' (none given)'}`,
    primarySource: 'NPPES NPI Registry',
  });
  const primary = primarySpecialtyCertification(snapshot);
  // Issue 51 item 4: only board certifications are items; the others stay in the snapshot.
  const boardCertifications = (snapshot.lists.certifications ?? []).filter(isBoardCertificationRow);
  // Issue 51 item 3: cards of the same certificate (name, body, number) are one item, like licenses.
  for (const { first: c, cards } of byIdentity(boardCertifications, certificationItemKey)) {
    const itemKey = certificationItemKey(c);
    // Issue 31 item 4: the certification of the primary specialty is this item, which names it.
    const specialty = primary?.certificationKey === itemKey ? `, primary specialty ${primary.specialty}` : '';
    items.push({
      itemKey,
      rowKey: rowIdentity(c) || null,
      kind: 'board_certification',
      target: `Board certification: ${text(c.certification_name)} (${text(c.certifying_body)})${specialty}${cardCount(cards)}`,
      primarySource: text(c.certifying_body) || 'Certifying board',
    });
  }
  const highest = [...(snapshot.lists.education ?? [])].sort(
    (a, b) =>
      (degreeRank[text(b.degree_type)] ?? 0) - (degreeRank[text(a.degree_type)] ?? 0) ||
      text(b.graduation_date).localeCompare(text(a.graduation_date)),
  )[0];
  if (highest) {
    items.push({
      itemKey: `education:${text(highest.institution_name)}:${text(highest.degree_type)}`,
      rowKey: rowIdentity(highest) || null,
      kind: 'education',
      target: `Highest education: ${
        [
          [text(highest.degree_type), text(highest.field_of_study)].filter(Boolean).join(' '),
          text(highest.institution_name),
        ]
          .filter(Boolean)
          .join(', ') || 'not named'
      }`,
      primarySource: text(highest.institution_name) || 'Educational institution',
    });
  }
  const providerType = text(snapshot.personalInformation.provider_type);
  for (const row of snapshot.lists.training ?? []) {
    if (isNoneAnswer(row, 'no_training')) continue;
    items.push({
      itemKey: trainingItemKey(row),
      rowKey: rowIdentity(row) || null,
      kind: 'training',
      target: trainingTarget(row),
      primarySource: trainingPrimarySource(row, providerType),
    });
  }
  items.push({
    itemKey: 'work_history',
    rowKey: null,
    kind: 'work_history',
    target: `Work history (last ${GAP_LOOKBACK_YEARS} years)`,
    primarySource: 'Employers / CV review',
  });
  // Issue 29 item 7: no `work_history_gap` items any more; the work-history item lists the gaps with
  // their explanations (work-history-gaps.ts `workHistoryGapLines`). Items stored before stay.
  // Issue 51 item 3: the item is the application's coverage, not one row: each version recomputes
  // which policy it verifies (in force on the version's date, else the next), so no row key.
  const policy = malpracticePolicyOn(snapshot.lists.malpracticeInsurance ?? [], today);
  items.push({
    itemKey: MALPRACTICE_ITEM_KEY,
    rowKey: null,
    kind: 'malpractice',
    target: malpracticeTarget(policy),
    primarySource: (policy && text(policy.row.insurance_company)) || 'Malpractice carrier',
  });
  for (const row of snapshot.lists.hospitalAffiliations ?? []) {
    const privileges = holdsPrivileges(row);
    items.push({
      itemKey: hospitalAffiliationItemKey(row),
      rowKey: rowIdentity(row) || null,
      kind: privileges ? 'hospital_privileges' : 'admitting_arrangement',
      target: privileges ? privilegesTarget(row) : arrangementTarget(row),
      primarySource: privileges
        ? `${text(row.facility_name) || 'The facility'} (medical staff office)`
        : `${text(row.arrangement_name) || 'The covering physician or group'} (written confirmation of the arrangement)`,
    });
  }
  const claims = snapshot.lists.malpracticeClaims ?? [];
  if (claims.length > 0) {
    items.push({
      itemKey: CLAIMS_HISTORY_ITEM_KEY,
      rowKey: null,
      kind: 'claims_history',
      target: claimsTarget(claims),
      primarySource: NPDB_PRIMARY_SOURCE,
    });
  }
  items.push({
    itemKey: 'exclusions',
    rowKey: null,
    kind: 'exclusions',
    target: 'Exclusion screening',
    primarySource: 'OIG LEIE / SAM.gov',
  });
  return items;
}

/**
 * One change of a verified field as a person reads it (issue 29): 'Expiration date 2026-12-15 →
 * 2028-12-15'; an empty side reads '(none)'.
 */
export function changeText(change: { field: string; before: string; after: string }): string {
  return `${change.field} ${change.before || '(none)'} → ${change.after || '(none)'}`;
}

/**
 * Kinds whose primary source does not change between cycles (issue 29 item 6; NCQA: education and
 * training are verified once; training joins with issue 31): 'Start Review' of a copied application carries the previous cycle's
 * verification of the same, unchanged entry forward (server/review/carry-forward.ts).
 */
export const carriedForwardKinds: readonly VerificationKind[] = ['education', 'training'];

/**
 * Why 'Approve' must wait (issue 13): the items not verified or waived, and the verified ones older
 * than `maxAgeDays` at `now`, except a verification carried forward from a previous cycle (issue 29
 * item 6: its primary source does not change, so its original date stands). Empty when approval may
 * go ahead.
 */
export function itemsToRedo(
  items: readonly {
    target: string;
    status: VerificationStatus;
    verifiedAt: string | null;
    /** While `needs_reverification`: what changed (issue 29), named in the refusal. */
    changes?: readonly { field: string; before: string; after: string }[] | null;
    /** The previous cycle's item this one carries forward (issue 29 item 6), or null. */
    carriedForwardFrom?: string | null;
  }[],
  now: Date,
  maxAgeDays: number,
): string[] {
  const oldest = isoDay(new Date(now.getTime() - maxAgeDays * 24 * 60 * 60 * 1000));
  const redo: string[] = [];
  for (const item of items) {
    if (item.status === 'needs_reverification') {
      const changed = (item.changes ?? []).map(changeText).join(', ');
      redo.push(`${item.target} (needs re-verification${changed ? `: ${changed}` : ''})`);
    } else if (item.status === 'pending' || item.status === 'discrepancy')
      redo.push(`${item.target} (${item.status})`);
    else if (
      item.status === 'verified' &&
      !item.carriedForwardFrom &&
      (!item.verifiedAt || item.verifiedAt < oldest)
    ) {
      redo.push(
        `${item.target} (verified ${item.verifiedAt ?? 'without a date'}, more than ${maxAgeDays} days ago)`,
      );
    }
  }
  return redo;
}

/**
 * The NPI item's note when NPPES says CMS deactivated the NPI (issue 52 item 2): 'NPI deactivated on
 * Nov 28, 2026 (NPPES: CMS deactivated NPI 1669463816. …)'. NPPES gives no deactivation date, so the
 * day is the day the check found it.
 */
export function npiDeactivatedNote(checkedOn: string, registrySaid: string | null): string {
  return `NPI deactivated on ${formatIsoDay(checkedOn)}${registrySaid ? ` (NPPES: ${registrySaid})` : ''}`;
}
