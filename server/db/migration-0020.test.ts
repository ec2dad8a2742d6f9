/**
 * Migration 0020's data step (issue 30: "never lose the list"): the OIG LEIE list imported before it,
 * in the old `leie_exclusions` / `leie_imports` tables (recreated here from migration 0011's own
 * statements), becomes the 'oig_leie' source's applied list, each row with the entry key and row hash
 * the import computes for the same row read from a file (domain/screening/exclusion-formats.ts, then
 * server/screening/entry-identity.ts): so the first monthly reinstatement file after the upgrade still
 * finds the exclusions it ends.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectExclusionFormat,
  LEIE_COLUMNS,
  readExclusionRow,
} from '../../domain/screening/exclusion-formats.ts';
import { createTestApp, type TestApp } from '../../tests/harness.ts';
import { rowHash } from '../screening/entry-identity.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

function statements(file: string, from: string, to?: string): string[] {
  const text = readFileSync(new URL(`./migrations/${file}`, import.meta.url), 'utf8');
  const start = text.indexOf(from);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = to ? text.indexOf(to, start) : text.length;
  return text
    .slice(start, end)
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
}

describe('migration 0020 brings the imported LEIE along', () => {
  it('moves the latest import and every row, with the identities the import code computes', async () => {
    const pool = app.runtime.deps.database.pool;
    for (const statement of statements('0011_leie.sql', 'CREATE TABLE "leie_exclusions"', 'ALTER TABLE')) {
      await pool.query(statement);
    }
    await pool.query(
      `insert into leie_imports (imported_at, file_name, row_count) values
         ('2026-09-01T10:00:00Z', 'UPDATED-old.csv', 80000), ('2026-10-01T10:00:00Z', 'UPDATED.csv', 2)`,
    );
    // Two rows as issue 15's import stored them (a real 1701REIN.csv person before reinstatement, and
    // an organisation).
    await pool.query(
      `insert into leie_exclusions (last_name, first_name, mid_name, bus_name, general, specialty, upin, npi, dob,
         address, city, state, zip, excl_type, excl_date, rein_date, waiver_date, waiver_state, name_key) values
       ('ASHFORD', 'VICTORIA', 'JOY', '', 'PRIVATE CIT/ENTITY', 'HEALTH CARE AIDE', '', null, '1974-03-30',
        '361 SW 2ND AVENUE', 'CANBY', 'OR', '97013', '1128a1', '2011-01-19', null, null, '', 'ASHFORD|VICTORIA'),
       ('', '', '', 'INVENTED CLINIC, LLC', 'OTHER BUSINESS', 'CLINIC', '', '1245319599', null,
        '1 MAIN ST', 'SPRINGFIELD', 'IL', '62701', '1128b7', '2015-12-17', null, null, '', '')`,
    );
    for (const statement of statements('0020_exclusion-screening.sql', '-- Issue 30:'))
      await pool.query(statement);

    const imports = await pool.query(`select * from exclusion_imports`);
    expect(imports.rows).toHaveLength(1);
    expect(imports.rows[0]).toMatchObject({
      source: 'oig_leie',
      kind: 'full',
      status: 'applied',
      file_name: 'UPDATED.csv',
      row_count: 2,
      rows_after: 2,
    });
    const rows = await pool.query(
      `select *, dob::text as dob, exclusion_date::text as exclusion_date from exclusion_entries order by line`,
    );
    expect(rows.rows).toHaveLength(2);
    const [person, clinic] = rows.rows;
    expect(person).toMatchObject({ staged: false, line: 2, name_key: 'ASHFORD|VICTORIA', dob: '1974-03-30' });
    expect(person.fields).toMatchObject({
      LASTNAME: 'ASHFORD',
      DOB: '19740330',
      EXCLDATE: '20110119',
      REINDATE: '',
    });
    expect(clinic).toMatchObject({ business_name: 'INVENTED CLINIC, LLC', npi: '1245319599', line: 3 });
    // As the LEIE reader writes it (domain/screening/exclusion-formats.ts): GENERAL / SPECIALTY.
    expect(person.provider_type).toBe('PRIVATE CIT/ENTITY / HEALTH CARE AIDE');
    const detected = detectExclusionFormat(LEIE_COLUMNS, 'UPDATED.csv');
    if (!('format' in detected)) throw new Error(detected.error);
    for (const row of [person, clinic]) {
      // The row as the LEIE file writes it, read by the import's own reader.
      const record = LEIE_COLUMNS.map((column) => String(row.fields[column] ?? ''));
      const read = readExclusionRow(detected.format, record, 2, new Date('2026-11-26T00:00:00Z'));
      if (!('entry' in read)) throw new Error(read.skip);
      expect(row.entry_key).toBe(read.entry.entryKey);
      expect(row.provider_type).toBe(read.entry.providerType);
      expect(row.row_hash).toBe(rowHash(read.entry.entryKey, read.entry));
    }
    const old = await pool.query(
      `select to_regclass('leie_exclusions') as t, to_regclass('leie_imports') as i`,
    );
    expect(old.rows[0]).toEqual({ t: null, i: null });
  });
});
