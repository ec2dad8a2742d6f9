/**
 * What a verification covers (issue 29 item 3: "a verification is bound to the data it verified").
 * When a reviewer verifies or waives a checklist item, the server records the values of exactly the
 * snapshot fields the item covers (`coveredValues`), as `{ label: value }`, and the SHA-256 of their
 * canonical JSON. When a later version changes any of them (`changedFields`), the item becomes
 * 'Needs re-verification' with what changed; items whose fields did not change stay as they were.
 *
 * One list per item kind (`verificationCoverage`): the fields a primary source confirms, plus the
 * provider's documents of the types that evidence the item (a replaced or added file changes them).
 * Pure: no Node, no zod (decision 021); the server hashes (server/review/verification-binding.ts).
 */
import { type DocumentType, documentTypeLabel } from '../sections/document-files.ts';
import type { ApplicationSnapshot, SnapshotRow } from './application-snapshot.ts';
import {
  certificationItemKey,
  claimLine,
  hospitalAffiliationItemKey,
  isBoardCertificationRow,
  isoDay,
  licenseItemKey,
  malpracticePolicyOn,
  primarySpecialtyCertification,
  rowIdentity,
  sameIdentityRows,
  trainingItemKey,
  type VerificationKind,
} from './verification-checklist.ts';

export { rowIdentity };

/** The covered fields of one item as recorded: label -> value ('' when empty). */
export type CoveredValues = Record<string, string>;

/** One covered field that differs from what was verified. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** A checklist item as far as its coverage goes. */
export interface CoveredItem {
  kind: VerificationKind;
  itemKey: string;
  /** The section row the item verifies (its `row_key`, or `id` in snapshots older than issue 29). */
  rowKey?: string | null;
}

interface Coverage {
  /** The fields a person reads in the changes ('Expiration date'), in order. */
  fields: readonly string[];
  /** Document types whose files evidence the item. */
  documentTypes: readonly DocumentType[];
}

/**
 * The covered fields and evidencing document types per item kind (issue 29: "for a license: type,
 * number, state, issue and expiry dates; for the NPI: the number and the name; and so on").
 */
export const verificationCoverage: Record<VerificationKind, Coverage> = {
  license: {
    fields: ['License type', 'License number', 'Issuing state', 'Issue date', 'Expiration date'],
    documentTypes: ['medical_license'],
  },
  dea: {
    fields: ['DEA number', 'DEA license number', 'DEA license state', 'DEA license expiration date'],
    documentTypes: ['dea_license'],
  },
  npi: { fields: ['NPI', 'First name', 'Last name'], documentTypes: [] },
  board_certification: {
    fields: [
      'Certification name',
      'Certifying body',
      'Certification number',
      'Issue date',
      'Expiration date',
      // Issue 31: the primary specialty it certifies, when the specialty links it ('' otherwise).
      'Primary specialty',
    ],
    documentTypes: [],
  },
  education: {
    fields: ['Institution', 'Degree', 'Field of study', 'Graduation date'],
    documentTypes: ['diploma', 'transcript'],
  },
  work_history: { fields: ['Positions', 'Gap explanations'], documentTypes: ['cv_resume'] },
  work_history_gap: { fields: ['Gap', 'Explanation'], documentTypes: [] },
  malpractice: {
    fields: ['Insurance company', 'Policy number', 'Coverage amount', 'Effective date', 'Expiration date'],
    documentTypes: ['malpractice_insurance'],
  },
  exclusions: { fields: ['First name', 'Last name', 'NPI', 'Date of birth'], documentTypes: [] },
  // Issue 31 item 4 (decision 028's sections). The program confirms what it trained and when.
  training: {
    fields: ['Training type', 'Program', 'Institution', 'Specialty', 'Start date', 'End date', 'Completed'],
    documentTypes: [],
  },
  // The facility's medical staff office confirms the privileges, their status and their dates.
  hospital_privileges: {
    fields: ['Facility', 'City', 'State', 'Department', 'Privilege status', 'Start date', 'End date'],
    documentTypes: [],
  },
  admitting_arrangement: {
    fields: ['Privilege status', 'Admitting arrangement', 'Covering physician or group'],
    documentTypes: [],
  },
  // The NPDB query is checked against every claim listed (or the answer that there is none).
  claims_history: { fields: ['Claims'], documentTypes: [] },
};

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());

function findRow(
  rows: readonly SnapshotRow[],
  rowKey: string | null | undefined,
  matches: (row: SnapshotRow) => boolean,
): SnapshotRow | undefined {
  return (rowKey ? rows.find((r) => rowIdentity(r) === rowKey) : undefined) ?? rows.find(matches);
}

/** 'cv.pdf (3f2a9c1b0d4e)' per file of the types, sorted, so an added or replaced file is a change. */
function documentValues(snapshot: ApplicationSnapshot, types: readonly DocumentType[]): CoveredValues {
  const values: CoveredValues = {};
  for (const type of types) {
    const files = (snapshot.documents ?? [])
      .filter((d) => text(d.document_type) === type)
      .map((d) => `${text(d.filename) || text(d.document_name)} (${text(d.sha256).slice(0, 12)})`)
      .sort();
    values[`Documents: ${documentTypeLabel[type]}`] = files.join(', ');
  }
  return values;
}

function zip(fields: readonly string[], values: readonly unknown[]): CoveredValues {
  return Object.fromEntries(fields.map((field, i) => [field, text(values[i])]));
}

/**
 * The dates of the other cards of the same credential (issue 51 item 3: a renewed license added as a
 * second card joins the first's item): 'Card 2: Issue date', 'Card 2: Expiration date', ... (their
 * identity fields equal the first card's by definition), so a card added, removed or changed is a
 * change of the item.
 */
function otherCardValues(
  cards: readonly SnapshotRow[],
  dates: readonly [label: string, column: string][],
): CoveredValues {
  const values: CoveredValues = {};
  cards.slice(1).forEach((card, i) => {
    for (const [label, column] of dates) values[`Card ${i + 2}: ${label}`] = text(card[column]);
  });
  return values;
}

/** The positions and their gap explanations, in start-date order, as two covered values. */
function workHistoryValues(rows: readonly SnapshotRow[]): CoveredValues {
  const sorted = [...rows].sort((a, b) => text(a.start_date).localeCompare(text(b.start_date)));
  const positions = sorted.map(
    (r) =>
      `${[text(r.position_title), text(r.employer_name)].filter(Boolean).join(' at ') || 'Position'} ${
        text(r.start_date) || '?'
      } – ${r.is_current_position === true ? 'present' : text(r.end_date) || '?'}`,
  );
  const explanations = sorted
    .filter((r) => text(r.gap_explanation))
    .map((r) => `before ${text(r.start_date) || '?'}: ${text(r.gap_explanation)}`);
  return { Positions: positions.join('; '), 'Gap explanations': explanations.join('; ') };
}

/**
 * The values `item` covers in `snapshot` as of `now` (the version's date: the current malpractice
 * policy depends on it, issue 51 item 3), or null when the row it verified is gone from the
 * application. A license or board certification covers every card of the same credential (issue 51
 * item 3: `Card 2: Expiration date`, ...).
 */
export function coveredValues(
  item: CoveredItem,
  snapshot: ApplicationSnapshot,
  now: Date,
): CoveredValues | null {
  const coverage = verificationCoverage[item.kind];
  const lists = snapshot.lists ?? {};
  const personal = snapshot.personalInformation ?? {};
  const profile = snapshot.profile ?? {};
  const documents = () => documentValues(snapshot, coverage.documentTypes);
  switch (item.kind) {
    case 'license': {
      const licenses = lists.licenses ?? [];
      const row = findRow(licenses, item.rowKey, (r) => licenseItemKey(r) === item.itemKey);
      if (!row) return null;
      return {
        ...zip(coverage.fields, [
          row.license_type,
          row.license_number,
          row.issuing_state,
          // Spec §7 payload names of the license dates.
          row.license_issue,
          row.license_exp,
        ]),
        ...otherCardValues(sameIdentityRows(licenses, row, licenseItemKey), [
          ['Issue date', 'license_issue'],
          ['Expiration date', 'license_exp'],
        ]),
        ...documents(),
      };
    }
    case 'dea': {
      const license = (lists.licenses ?? []).find((l) => text(l.license_type) === 'dea_license');
      if (!text(personal.dea_number) && !license) return null;
      return {
        ...zip(coverage.fields, [
          personal.dea_number,
          license?.license_number,
          license?.issuing_state,
          license?.license_exp,
        ]),
        ...documents(),
      };
    }
    case 'npi':
      return zip(coverage.fields, [personal.npi_number, profile.first_name, profile.last_name]);
    case 'board_certification': {
      const certifications = lists.certifications ?? [];
      const row = findRow(certifications, item.rowKey, (r) => certificationItemKey(r) === item.itemKey);
      // Issue 51 item 4: a certification that is no longer a board certification is not this item's.
      if (!row || !isBoardCertificationRow(row)) return null;
      const primary = primarySpecialtyCertification(snapshot);
      return {
        ...zip(coverage.fields, [
          row.certification_name,
          row.certifying_body,
          row.certification_number,
          row.cert_issue_date,
          row.cert_exp_date,
          primary?.certificationKey === certificationItemKey(row) ? primary.specialty : '',
        ]),
        ...otherCardValues(
          sameIdentityRows(certifications.filter(isBoardCertificationRow), row, certificationItemKey),
          [
            ['Issue date', 'cert_issue_date'],
            ['Expiration date', 'cert_exp_date'],
          ],
        ),
      };
    }
    case 'education': {
      const row = findRow(
        lists.education ?? [],
        item.rowKey,
        (r) => `education:${text(r.institution_name)}:${text(r.degree_type)}` === item.itemKey,
      );
      if (!row) return null;
      return {
        ...zip(coverage.fields, [
          row.institution_name,
          row.degree_type,
          row.field_of_study,
          row.graduation_date,
        ]),
        ...documents(),
      };
    }
    case 'work_history':
      return { ...workHistoryValues(lists.workHistory ?? []), ...documents() };
    case 'work_history_gap': {
      // `work_history_gap:<from>:<to>`: the explanation is on the position starting at <to>.
      const [, from = '', to = ''] = item.itemKey.split(':');
      const next = (lists.workHistory ?? []).find((r) => text(r.start_date) === to);
      return { Gap: `${from} to ${to}`, Explanation: text(next?.gap_explanation) };
    }
    case 'malpractice': {
      // Issue 51 item 3: whichever policy the version's date makes current (or the next one), never
      // the row the item was first generated from (`rowKey` of items stored before is ignored).
      const row = malpracticePolicyOn(lists.malpracticeInsurance ?? [], isoDay(now))?.row;
      const values = zip(
        coverage.fields,
        row
          ? [
              row.insurance_company,
              row.policy_number,
              row.coverage_amount,
              row.effective_date,
              row.expiration_date,
            ]
          : [],
      );
      return { ...values, ...documents() };
    }
    case 'exclusions':
      return zip(coverage.fields, [
        profile.first_name,
        profile.last_name,
        personal.npi_number,
        personal.date_of_birth,
      ]);
    case 'training': {
      const row = findRow(lists.training ?? [], item.rowKey, (r) => trainingItemKey(r) === item.itemKey);
      if (!row || row.no_training === true) return null;
      return zip(coverage.fields, [
        row.training_type,
        row.program_name,
        row.institution_name,
        row.specialty,
        row.start_date,
        row.end_date,
        row.completed,
      ]);
    }
    case 'hospital_privileges':
    case 'admitting_arrangement': {
      const row = findRow(
        lists.hospitalAffiliations ?? [],
        item.rowKey,
        (r) => hospitalAffiliationItemKey(r) === item.itemKey,
      );
      if (!row) return null;
      // A row that changed between privileges and an arrangement reads with this kind's fields: the
      // values it no longer has are emptied, so the item needs re-verification.
      return item.kind === 'hospital_privileges'
        ? zip(coverage.fields, [
            row.facility_name,
            row.city,
            row.state,
            row.department,
            row.privilege_status,
            row.start_date,
            row.end_date,
          ])
        : zip(coverage.fields, [row.privilege_status, row.admitting_arrangement, row.arrangement_name]);
    }
    case 'claims_history': {
      const claims = lists.malpracticeClaims ?? [];
      if (claims.length === 0) return null;
      return { Claims: claims.map(claimLine).sort().join('; ') };
    }
  }
}

/**
 * The covered fields whose value differs between what was verified and `current` (null: the row is
 * gone, every field reads '(removed)'), in the verified record's order then new fields.
 */
export function changedFields(verified: CoveredValues, current: CoveredValues | null): FieldChange[] {
  if (current === null) {
    return [{ field: 'Entry', before: 'on the application', after: 'removed' }];
  }
  const changes: FieldChange[] = [];
  for (const [field, before] of Object.entries(verified)) {
    const after = current[field] ?? '';
    if (after !== before) changes.push({ field, before, after });
  }
  for (const [field, after] of Object.entries(current)) {
    if (!(field in verified) && after !== '') changes.push({ field, before: '', after });
  }
  return changes;
}
