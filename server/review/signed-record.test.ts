/**
 * Every saved field reaches the signed record (issue 51 item 2), checked column by column from the
 * section tables themselves (server/db/schema/sections.ts `sectionTables`, keyed like the domain
 * registry), so a column added later is checked without touching this test: each stored value of a
 * completed application is in the stored snapshot (version 1) under its column's name, the review
 * page answers that snapshot, and the File Summary prints the identity the snapshot describes.
 * Address Line 2 was the field it caught: saved, shown by 'View Details', missing from the record.
 * Real PostgreSQL and HTTP.
 */
import { and, eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationVersion } from '../../domain/api/review.ts';
import type { ApplicationSnapshot } from '../../domain/review/application-snapshot.ts';
import { describeSnapshot, payloadColumnAliases } from '../../domain/review/snapshot-labels.ts';
import { payloadKeyOfSection } from '../../domain/sections/payload-keys.ts';
import { listSections } from '../../domain/sections/registry.ts';
import { createTestApp, signUpStaff, type TestApp } from '../../tests/harness.ts';
import { applicationVersions } from '../db/schema/review.ts';
import { sectionTables } from '../db/schema/sections.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { completedApplication } from './testing/completed-review-application.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/**
 * Columns that are this system's bookkeeping, the row's identity or the SSN's storage, not a field the
 * provider saves (spec §7 leaves ids and times out of most sections' rows).
 */
const notFields = new Set([
  'id',
  'application_id',
  'created_at',
  'updated_at',
  'position',
  'row_key',
  'ssn_encrypted',
  'ssn_last4',
  // A document's object key is storage bookkeeping (application-snapshot.ts leaves it out).
  'file_path',
]);

/** A stored value as the snapshot writes it: ISO text for instants, the scalar otherwise. */
function asSnapshot(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * The saved rows of `table` for the application: each row's key (`row_key`, which the snapshot rows
 * carry, issue 29 item 5) and its fields as { column name: value }.
 */
async function savedRows(table: PgTable, applicationId: string) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const rows = (await app.runtime.deps.db
    .select()
    .from(table)
    .where(eq(columns.applicationId!, applicationId))) as Record<string, unknown>[];
  return rows.map((row) => ({
    key: row.rowKey as string | undefined,
    fields: Object.entries(columns)
      .filter(([, column]) => !notFields.has(column.name))
      .map(([property, column]) => ({ property, column: column.name, value: row[property] })),
  }));
}

/**
 * The key a column has in the record: its name, or the name spec §7 gives it (`license_issue` for a
 * license's `issue_date`; domain/review/snapshot-labels.ts `payloadColumnAliases`).
 */
function recordKey(payloadKey: string, field: { property: string; column: string }): string {
  const aliases = Object.entries(payloadColumnAliases[payloadKey] ?? {});
  return aliases.find(([, property]) => property === field.property)?.[0] ?? field.column;
}

describe('the signed record (issue 51 item 2)', () => {
  it('holds every saved field of every section, on the review page and in the File Summary', async () => {
    const { applicationId } = await completedApplication(app);
    const specialist = await signUpStaff(app, 'specialist');
    const [stored] = await app.runtime.deps.db
      .select({ snapshot: applicationVersions.snapshot })
      .from(applicationVersions)
      .where(and(eq(applicationVersions.applicationId, applicationId), eq(applicationVersions.version, 1)));
    const snapshot = stored?.snapshot as ApplicationSnapshot;
    expect(snapshot).toBeDefined();

    // Personal Information: every column the provider saves, under its name ('' when empty).
    const [personal] = await savedRows(sectionTables.personalInformation, applicationId);
    const checked: string[] = [];
    for (const { column: name, value } of personal?.fields ?? []) {
      expect(snapshot.personalInformation, `personal information: ${name}`).toHaveProperty([name]);
      if (value !== null) {
        expect(snapshot.personalInformation[name], name).toBe(String(asSnapshot(value)));
      }
      checked.push(name);
    }
    expect(snapshot.personalInformation.address_line2).toBe('Suite 2');
    // The SSN is in the record masked (spec §6), from its encrypted column.
    expect(snapshot.personalInformation.ssn).toMatch(/^\*\*\*-\*\*-\d{4}$/);

    // The list sections (documents included): every row, every column, paired by row key.
    let listFields = 0;
    for (const section of listSections) {
      const rows = await savedRows(sectionTables[section.key], applicationId);
      const payloadKey = payloadKeyOfSection[section.key as keyof typeof payloadKeyOfSection];
      const inRecord = (section.key === 'documents' ? snapshot.documents : snapshot.lists[payloadKey]) ?? [];
      expect(inRecord, section.key).toHaveLength(rows.length);
      for (const row of rows) {
        expect(row.key, `${section.key} has row keys`).toEqual(expect.any(String));
        const recorded = inRecord.find((r) => r.row_key === row.key);
        expect(recorded, `${section.key} row ${row.key}`).toBeDefined();
        for (const field of row.fields) {
          const name = recordKey(payloadKey ?? 'documents', field);
          const value = field.value;
          const got = recorded?.[name];
          // A specialty's linked certification is written out (issue 31); its id is the stored value.
          if (got !== null && typeof got === 'object') continue;
          expect(recorded, `${section.key}.${name}`).toHaveProperty([name]);
          expect(got, `${section.key}.${name}`).toEqual(asSnapshot(value));
          listFields += 1;
        }
      }
    }
    // The factory fills every section, so the loop above checked real values, not an empty record.
    expect(checked.length).toBeGreaterThanOrEqual(17);
    expect(listFields).toBeGreaterThan(100);

    // The review page answers the stored snapshot itself.
    const page = await specialist.json<ApplicationVersion>(
      'GET',
      `/api/admin/applications/${applicationId}/versions/1`,
    );
    expect(page.status).toBe(200);
    expect(page.body.snapshot).toEqual(snapshot);

    // The File Summary prints the identity the snapshot describes, Address Line 2 among it.
    const started = await specialist.json(
      'POST',
      `/api/admin/applications/${applicationId}/start-review`,
      {},
    );
    expect(started.status).toBe(200);
    const pdf = await specialist.request('GET', `/api/admin/applications/${applicationId}/file-summary.pdf`);
    expect(pdf.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).replace(/\s+/g, ' ');
    const identity = describeSnapshot(snapshot)[0]?.entries[0] ?? [];
    expect(identity.find((f) => f.label === 'Address Line 2')?.value).toBe('Suite 2');
    for (const field of identity) {
      if (field.value) expect(text, field.label).toContain(`${field.label} ${field.value}`);
    }
  }, 120_000);
});
