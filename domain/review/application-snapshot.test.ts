/**
 * Changes by row identity (issue 29 item 5): rows pair by row_key across versions and copies, so one
 * date change plus one upload is two row changes, not every row after the new document.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApplicationSnapshot,
  canonicalJson,
  diffByRow,
  type SnapshotRow,
} from './application-snapshot.ts';

const license = (n: number, overrides: SnapshotRow = {}): SnapshotRow => ({
  row_key: `license-key-${n}`,
  license_type: 'medical_license',
  license_number: `MD-${n}`,
  issuing_state: 'IL',
  license_issue: '2020-01-01',
  license_exp: '2026-12-15',
  status: 'active',
  ...overrides,
});

const document = (n: number, overrides: SnapshotRow = {}): SnapshotRow => ({
  id: `document-id-${n}`,
  row_key: `document-key-${n}`,
  application_id: 'application-1',
  user_id: 'user-1',
  document_name: `file-${n}.pdf`,
  filename: `file-${n}.pdf`,
  document_type: 'other',
  file_size: 1000 + n,
  mime_type: 'application/pdf',
  sha256: `sha-${n}`,
  uploaded_at: `2026-01-0${n}T10:00:00.000Z`,
  ...overrides,
});

const workHistory = (n: number): SnapshotRow => ({
  id: `work-id-${n}`,
  row_key: `work-key-${n}`,
  application_id: 'application-1',
  created_at: '2026-01-01T00:00:00.000Z',
  employer_name: `Hospital ${n}`,
  position_title: 'Attending',
  start_date: `201${n}-01-01`,
  end_date: `201${n}-12-31`,
});

function snapshot(overrides: Partial<ApplicationSnapshot> = {}): ApplicationSnapshot {
  return {
    applicationId: 'application-1',
    userId: 'user-1',
    personalInformation: { npi_number: '1234567893', ssn: '***-**-6789', city: 'Chicago' },
    profile: { user_id: 'user-1', first_name: 'Ada', last_name: 'Lovelace', created_at: '2026-01-01' },
    lists: {
      licenses: [license(1), license(2), license(3)],
      workHistory: [workHistory(1), workHistory(2), workHistory(3)],
    },
    documents: [5, 4, 3, 2, 1].map((n) => document(n)),
    ...overrides,
  };
}

describe('diffByRow', () => {
  it("gives the issue's example, one date change plus one upload, as exactly two row changes", () => {
    const before = snapshot();
    const after = snapshot({
      lists: {
        ...before.lists,
        licenses: [license(1), license(2, { license_exp: '2028-12-15' }), license(3)],
      },
      // Newest upload first (documents are listed by upload time): every old document moves down one.
      documents: [document(6, { document_name: 'cv.pdf', filename: 'cv.pdf' }), ...before.documents],
    });

    const changes = diffByRow(before, after);

    expect(changes).toEqual([
      {
        section: 'licenses',
        sectionLabel: 'Professional Licenses',
        rowKey: 'license-key-2',
        rowLabel: expect.stringContaining('MD-2'),
        change: 'changed',
        fields: [
          { field: 'license_exp', label: 'Expiration Date', before: '2026-12-15', after: '2028-12-15' },
        ],
      },
      {
        section: 'documents',
        sectionLabel: 'Documents',
        rowKey: 'document-key-6',
        rowLabel: 'cv.pdf',
        change: 'added',
        fields: [
          { field: 'document_name', label: 'Document Name', before: null, after: 'cv.pdf' },
          { field: 'document_type', label: 'Document Type', before: null, after: 'Other' },
          { field: 'file_size', label: 'File Size', before: null, after: 1006 },
          { field: 'mime_type', label: 'MIME Type', before: null, after: 'application/pdf' },
        ],
      },
    ]);
  });

  it('sees no change in reordered rows, nor in bookkeeping (ids, timestamps, owners)', () => {
    const before = snapshot();
    const after = snapshot({
      lists: {
        licenses: [license(3), license(1), license(2)],
        workHistory: [...before.lists.workHistory!].reverse().map((row) => ({
          ...row,
          id: `new-${row.id}`,
          created_at: '2029-01-01T00:00:00.000Z',
        })),
      },
      documents: [...before.documents]
        .reverse()
        .map((d) => ({ ...d, uploaded_at: '2029-01-01T00:00:00.000Z' })),
      profile: { ...before.profile!, created_at: '2029-01-01' },
    });
    expect(diffByRow(before, after)).toEqual([]);
  });

  it('lists a removed row with its fields as before, and names the row as a person would', () => {
    const before = snapshot();
    const after = snapshot({ lists: { ...before.lists, workHistory: [workHistory(1), workHistory(3)] } });
    expect(diffByRow(before, after)).toEqual([
      {
        section: 'workHistory',
        sectionLabel: 'Work History',
        rowKey: 'work-key-2',
        rowLabel: 'Attending · Hospital 2 · 2012-01-01 – 2012-12-31',
        change: 'removed',
        fields: [
          { field: 'employer_name', label: 'Employer Name', before: 'Hospital 2', after: null },
          { field: 'position_title', label: 'Position Title', before: 'Attending', after: null },
          { field: 'start_date', label: 'Start Date', before: '2012-01-01', after: null },
          { field: 'end_date', label: 'End Date', before: '2012-12-31', after: null },
        ],
      },
    ]);
  });

  it('shows a document whose bytes differ as its name and "file replaced", not as a hash', () => {
    const before = snapshot();
    const after = snapshot({
      documents: before.documents.map((d) =>
        d.row_key === 'document-key-3' ? { ...d, sha256: 'other', file_size: 99 } : d,
      ),
    });
    expect(diffByRow(before, after)).toEqual([
      expect.objectContaining({
        section: 'documents',
        rowLabel: 'file-3.pdf',
        change: 'changed',
        fields: [
          { field: 'sha256', label: 'File', before: 'file-3.pdf', after: 'file-3.pdf (file replaced)' },
        ],
      }),
    ]);
  });

  it('pairs a copy with its source by row_key across applications (a recredentialing cycle)', () => {
    const source = snapshot();
    // The copy has new ids and its own application; row keys came along (copy-forward).
    const copy = snapshot({
      applicationId: 'application-2',
      lists: {
        licenses: source.lists.licenses!.map((row) => ({ ...row })),
        workHistory: source.lists.workHistory!.map((row) => ({
          ...row,
          id: `copy-${row.id}`,
          application_id: 'application-2',
          ...(row.row_key === 'work-key-3' ? { position_title: 'Chief of Medicine' } : {}),
        })),
      },
      documents: source.documents.map((d) => ({ ...d, id: `copy-${d.id}`, application_id: 'application-2' })),
    });
    expect(diffByRow(source, copy)).toEqual([
      expect.objectContaining({
        section: 'workHistory',
        rowKey: 'work-key-3',
        change: 'changed',
        fields: [
          {
            field: 'position_title',
            label: 'Position Title',
            before: 'Attending',
            after: 'Chief of Medicine',
          },
        ],
      }),
    ]);
  });

  it('pairs the rows of snapshots stored before row keys by id, and single records directly', () => {
    const withoutKeys = (rows: SnapshotRow[]) => rows.map(({ row_key: _k, ...row }) => row);
    const before = snapshot();
    before.lists = { workHistory: withoutKeys(before.lists.workHistory!) };
    before.documents = withoutKeys(before.documents);
    const after = snapshot({
      personalInformation: { ...before.personalInformation, city: 'Springfield' },
      lists: { workHistory: [workHistory(3), workHistory(2), workHistory(1)] },
    });
    expect(diffByRow(before, after)).toEqual([
      {
        section: 'personalInformation',
        sectionLabel: 'Personal Information',
        rowKey: 'personalInformation',
        rowLabel: null,
        change: 'changed',
        fields: [{ field: 'city', label: 'City', before: 'Chicago', after: 'Springfield' }],
      },
    ]);
  });

  it('pairs old license rows (no id, no row_key) in order, and an emptied value is a change', () => {
    const withoutKeys = (rows: SnapshotRow[]) => rows.map(({ row_key: _k, ...row }) => row);
    const before = snapshot();
    before.lists = { licenses: withoutKeys(before.lists.licenses!) };
    const after = snapshot();
    after.lists = { licenses: [license(1), license(2, { issuing_state: '' }), license(3)] };
    expect(
      diffByRow(before, after).map((c) => [c.change, c.fields.map((f) => [f.label, f.before, f.after])]),
    ).toEqual([['changed', [['Issuing State', 'IL', '']]]]);
  });

  it("shows a specialty's linked board certification by name, and its change as one field (issue 31)", () => {
    const specialty = (certification: SnapshotRow['board_certification']): SnapshotRow => ({
      id: 'specialty-id-1',
      row_key: 'specialty-key-1',
      specialty_rank: 'primary',
      taxonomy_code: '207RC0000X',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
      board_certification: certification,
    });
    const abim = {
      certification_name: 'Cardiovascular Disease',
      certifying_body: 'ABIM',
      certification_number: 'C-7',
    };
    const before = snapshot({ lists: { specialties: [specialty(abim)] } });
    // The same certification read back from a stored version (jsonb orders keys by length): no change.
    const storedOrder = {
      certifying_body: abim.certifying_body,
      certification_name: abim.certification_name,
      certification_number: abim.certification_number,
    };
    expect(Object.keys(storedOrder)).not.toEqual(Object.keys(abim));
    expect(diffByRow(before, snapshot({ lists: { specialties: [specialty(storedOrder)] } }))).toEqual([]);
    // Linked to another certification, then unlinked: one field, shown as text.
    const relinked = snapshot({
      lists: { specialties: [specialty({ ...abim, certification_number: null, certifying_body: 'AOBIM' })] },
    });
    expect(diffByRow(before, relinked)).toEqual([
      {
        section: 'specialties',
        sectionLabel: 'Specialties',
        rowKey: 'specialty-key-1',
        rowLabel: 'Primary · Internal Medicine, Cardiovascular Disease (207RC0000X)',
        change: 'changed',
        fields: [
          {
            field: 'board_certification',
            label: 'Board Certification',
            before: 'Cardiovascular Disease · ABIM · C-7',
            after: 'Cardiovascular Disease · AOBIM',
          },
        ],
      },
    ]);
    expect(diffByRow(before, snapshot({ lists: { specialties: [specialty(null)] } }))[0]!.fields).toEqual([
      {
        field: 'board_certification',
        label: 'Board Certification',
        before: 'Cardiovascular Disease · ABIM · C-7',
        after: null,
      },
    ]);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}',
    );
  });
});
