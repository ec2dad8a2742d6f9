/**
 * Exclusion file formats (issue 30 items 1 and 3): detection from the real headers and names, and
 * the real-format fixtures of tests/fixtures/exclusions read row by row (SOURCES.md says where each
 * sample was published and which rows are synthetic).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  detectExclusionFormat,
  type ExclusionEntryInput,
  exclusionFormats,
  exclusionSources,
  FIELD_MAX,
  LEIE_COLUMNS,
  listFileDialect,
  readExclusionRow,
  settleExclusionFormat,
} from '../../domain/screening/exclusion-formats.ts';
import { byName, FIXTURE_NOW, fixtureRecords, format, readFixture } from './testing/exclusion-fixtures.ts';

const now = FIXTURE_NOW;

describe('sources and formats', () => {
  it('has one source per id and at least one accepted file for each', () => {
    const ids = exclusionSources.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(exclusionFormats.some((f) => f.source === id)).toBe(true);
    for (const f of exclusionFormats) expect(ids).toContain(f.source);
    expect(exclusionSources.filter((s) => s.state !== null).map((s) => s.state)).toEqual(['NY', 'PA']);
  });
});

describe('detectExclusionFormat', () => {
  it.each([
    ['leie/UPDATED.csv', 'oig_leie', 'full'],
    ['leie/1701REIN.csv', 'oig_leie', 'reinstatements'],
    ['leie/1701EXCL.csv', 'oig_leie', 'additions'],
    ['leie/header-only.csv', 'oig_leie', 'full'],
    ['leie/smith-john-61.csv', 'oig_leie', 'full'],
    ['sam/SAM_Exclusions_Public_Extract_V2_23326.CSV', 'sam', 'full'],
    ['ny/exclusion-list.txt', 'ny_omig', 'full'],
    ['ny/exclusion-list-current.csv', 'ny_omig', 'full'],
    ['pa/medicheck.txt', 'pa_medicheck', 'full'],
    ['pa/medicheck-18.csv', 'pa_medicheck', 'full'],
  ])('reads the real header of %s as %s, %s', (file, source, kind) => {
    const [header] = fixtureRecords(file);
    expect(format(header!.record, path.basename(file))).toMatchObject({ source, kind });
  });

  it('tells the three LEIE files apart by name alone, the header being the same', () => {
    expect(format(LEIE_COLUMNS, 'UPDATED.csv').kind).toBe('full');
    expect(format(LEIE_COLUMNS, '1701REIN.csv').kind).toBe('reinstatements');
    expect(format(LEIE_COLUMNS, '2403excl.CSV').kind).toBe('additions');
    expect(format(LEIE_COLUMNS, 'C:\\Users\\a\\Downloads\\1701REIN (1).csv').kind).toBe('reinstatements');
    expect(format(LEIE_COLUMNS, '/tmp/upload/2401EXCL.csv').kind).toBe('additions');
    expect(format(LEIE_COLUMNS, 'leie-2026-08.csv').kind).toBe('full');
    expect(format(LEIE_COLUMNS, 'REIN.csv').kind).toBe('full');
    expect(format(LEIE_COLUMNS, '1701REIN.csv.bak').kind).toBe('full');
  });

  it('ignores a byte-order mark, spacing and case in the header', () => {
    const header = LEIE_COLUMNS.map((c, i) => (i === 0 ? `\uFEFF${c.toLowerCase()}` : ` ${c} `));
    expect(format(header, 'UPDATED.csv').source).toBe('oig_leie');
  });

  it("refuses SAM.gov's retired V1 extract, saying which file to download instead", () => {
    const [header] = fixtureRecords('sam/SAM_Exclusions_Public_Extract_16202.CSV');
    const detected = detectExclusionFormat(header!.record, 'SAM_Exclusions_Public_Extract_16202.CSV');
    expect(detected).toEqual({ error: expect.stringMatching(/V1 .*DUNS.*Exclusions Public V2/) });
  });

  it('refuses an unknown header with a sentence naming the files accepted', () => {
    const detected = detectExclusionFormat(['Name', 'DOB', 'NPI'], 'staff.csv');
    expect('error' in detected && detected.error).toMatch(/3 columns, starting 'Name'/);
    for (const accepted of ['UPDATED.csv', 'YYMMREIN.csv', 'SAM.gov', 'New York OMIG', 'Medicheck']) {
      expect('error' in detected && detected.error).toContain(accepted);
    }
    // A LEIE header with a column missing is not the LEIE.
    expect('error' in detectExclusionFormat(LEIE_COLUMNS.slice(0, 17), 'UPDATED.csv')).toBe(true);
    expect(detectExclusionFormat([''], 'empty.csv')).toEqual({
      error: expect.stringContaining('no header row'),
    });
  });
});

describe('listFileDialect', () => {
  it('splits New York OMIG on tabs without quoting, the others on commas with quotes', () => {
    expect(listFileDialect('PROVIDER_NAME\tLICENSE_NUMBER\tNPI_Number\tPROVIDER_TYPE')).toEqual({
      delimiter: '\t',
      quote: null,
    });
    expect(listFileDialect('"LASTNAME","FIRSTNAME","MIDNAME","BUSNAME"')).toEqual({
      delimiter: ',',
      quote: '"',
    });
  });
});

describe('OIG LEIE files', () => {
  it('reads the full file: people and organizations, dates, NPIs and name keys', () => {
    const { entries, skips } = readFixture('leie/UPDATED.csv');
    expect(skips).toEqual([]);
    expect(entries).toHaveLength(62);
    const [ali] = byName(entries, 'ALI', 'MUHAMMAD');
    expect(ali).toMatchObject({
      middleName: 'WASIM',
      businessName: '',
      npi: '1790709913',
      dob: '1964-08-03',
      address: 'P O BOX 150160',
      city: 'ATLANTA',
      state: 'GA',
      providerType: 'DOCTOR(MD, DO) / GENERAL PRACTICE',
      exclusionType: '1128a4',
      exclusionDate: '2016-11-20',
      reinstatementDate: null,
      waiverDate: null,
      waiverState: '',
      isIndividual: true,
      nameKey: 'ALI|MUHAMMAD',
      line: expect.any(Number),
    });
    expect(ali!.fields.MIDNAME).toBe('WASIM');
    expect(ali!.fields.REINDATE).toBe('00000000');
    // The NPI placeholder is no NPI; a hyphenated name keeps one key.
    expect(byName(entries, 'ANIEZE-SMITH', 'QUEEN')[0]).toMatchObject({
      npi: null,
      nameKey: 'ANIEZESMITH|QUEEN',
    });
    // The row quoted in a public ETL script (1610EXCL.csv), with its trailing-space middle name.
    expect(byName(entries, 'SHOPE', 'JEFFREY')[0]).toMatchObject({
      middleName: 'R',
      npi: '1134286958',
      dob: '1970-11-09',
      exclusionDate: '2016-11-20',
    });
    const business = entries.find((e) => e.businessName === 'CAREWELL AMBULETTE, INC');
    expect(business).toMatchObject({
      lastName: '',
      firstName: '',
      npi: '1700085289',
      dob: null,
      isIndividual: false,
      nameKey: '',
      exclusionDate: '2016-01-20',
    });
    expect(entries.filter((e) => !e.isIndividual)).toHaveLength(8);
  });

  it('reads the real 1701REIN.csv: 13 reinstatements, each ending one row of the full list', () => {
    const { format: fmt, entries, skips } = readFixture('leie/1701REIN.csv');
    expect(fmt.kind).toBe('reinstatements');
    expect(skips).toEqual([]);
    expect(entries).toHaveLength(13);
    expect(entries.every((e) => e.reinstatementDate !== null)).toBe(true);
    expect(byName(entries, 'GARNER', 'JEFFREY')[0]).toMatchObject({
      npi: '1871606244',
      exclusionType: '1128b14',
      exclusionDate: '2016-10-20',
      reinstatementDate: '2017-01-09',
    });
    // Reinstated the day of the exclusion, and one reinstated in 2014, as published.
    expect(byName(entries, 'GARCIA', 'ANNALYN')[0]!.reinstatementDate).toBe('2016-07-20');
    expect(byName(entries, 'JOHNSON', 'CINDY')[0]!.reinstatementDate).toBe('2014-04-09');

    const full = readFixture('leie/UPDATED.csv').entries;
    const fullKeys = new Map(full.map((e) => [e.entryKey, e]));
    expect(fullKeys.size).toBe(full.length);
    for (const rein of entries) {
      const listed = fullKeys.get(rein.entryKey);
      expect(listed, `${rein.lastName} ${rein.firstName}`).toBeDefined();
      expect(listed!.reinstatementDate).toBeNull();
      expect([listed!.lastName, listed!.firstName, listed!.dob]).toEqual([
        rein.lastName,
        rein.firstName,
        rein.dob,
      ]);
    }
    expect(full.filter((e) => entries.some((r) => r.entryKey === e.entryKey))).toHaveLength(13);
  });

  it('reads a LEIE file whose rows all have a REINDATE as reinstatements, whatever its name (issue 52 item 1)', () => {
    const [header, ...rows] = fixtureRecords('leie/1701REIN.csv');
    for (const name of ['rein1511.csv', 'LEIE_2611REIN.csv', 'UPDATED.csv', '1701EXCL.csv']) {
      const byName = format(header!.record, name);
      const entries = rows.map((r) => readExclusionRow(byName, r.record, r.line, now));
      const withReinstatement = entries.filter((e) => 'entry' in e && e.entry.reinstatementDate).length;
      expect(settleExclusionFormat(byName, { rows: entries.length, withReinstatement }), name).toMatchObject({
        source: 'oig_leie',
        kind: 'reinstatements',
      });
    }
    // Where the rows do not decide (exclusions in force, or no rows), the name stays the tie-breaker.
    const full = readFixture('leie/UPDATED.csv');
    const counts = { rows: full.entries.length, withReinstatement: 0 };
    expect(settleExclusionFormat(full.format, counts).kind).toBe('full');
    expect(settleExclusionFormat(format(LEIE_COLUMNS, '1701EXCL.csv'), counts).kind).toBe('additions');
    expect(
      settleExclusionFormat(format(LEIE_COLUMNS, 'UPDATED.csv'), { rows: 0, withReinstatement: 0 }).kind,
    ).toBe('full');
    // One row in force among reinstatements: not a reinstatements file by content.
    expect(settleExclusionFormat(full.format, { rows: 14, withReinstatement: 13 }).kind).toBe('full');
  });

  it('skips a row of a reinstatement file that has no REINDATE', () => {
    const [header, first] = fixtureRecords('leie/UPDATED.csv');
    const rein = format(header!.record, '1701REIN.csv');
    expect(readExclusionRow(rein, first!.record, 2, now)).toEqual({
      skip: 'line 2: a reinstatement needs its REINDATE',
    });
  });

  it('reads the monthly exclusions file as additions', () => {
    const { format: fmt, entries, skips } = readFixture('leie/1701EXCL.csv');
    expect(fmt).toMatchObject({ kind: 'additions', label: 'OIG LEIE monthly exclusions (YYMMEXCL.csv)' });
    expect(skips).toEqual([]);
    expect(entries).toHaveLength(20);
    expect(entries[0]).toMatchObject({
      businessName: 'AK CHIROPRACTIC, P C',
      middleName: '',
      npi: '1780812768',
      exclusionType: '1128b7',
      exclusionDate: '2016-12-16',
      isIndividual: false,
      line: 2,
    });
  });

  it('reads a file with only the header as a full list of no rows', () => {
    const { format: fmt, entries, skips } = readFixture('leie/header-only.csv');
    expect(fmt.kind).toBe('full');
    expect([entries.length, skips.length]).toEqual([0, 0]);
  });

  it('reports the bad rows by line and why, and reads slash dates and Windows-1252 names', () => {
    const { entries, skips } = readFixture('leie/bad-rows.csv');
    expect(skips).toEqual([
      'line 3: DOB 19870231 is not a date',
      'line 6: ADDRESS contains a NUL byte',
      'line 7 has 12 fields instead of 18',
    ]);
    expect(entries.map((e) => e.line)).toEqual([2, 4, 5, 8]);
    expect(byName(entries, 'ROE', 'RICHARD')[0]).toMatchObject({
      dob: '1987-09-08',
      exclusionDate: '2016-10-20',
    });
    expect(entries.find((e) => e.line === 5)).toMatchObject({
      lastName: 'MUÑOZ',
      firstName: 'MARIA',
      nameKey: 'MUNOZ|MARIA',
    });
    // The reasons name the field at fault, never the row's other values.
    for (const value of ['DOE', 'JANE', 'NULLBYTE', 'PINE', 'SHORT', 'BIRCH', 'BOISE']) {
      expect(skips.join(' ')).not.toContain(value);
    }
  });

  it('reads all 61 SMITH,JOHN rows, the one with the birth date last', () => {
    const { entries, skips } = readFixture('leie/smith-john-61.csv');
    expect(skips).toEqual([]);
    expect(entries).toHaveLength(61);
    expect(entries.every((e) => e.nameKey === 'SMITH|JOHN')).toBe(true);
    expect(entries.filter((e) => e.dob === '1978-06-14').map((e) => e.line)).toEqual([62]);
    expect(new Set(entries.map((e) => e.entryKey)).size).toBe(61);
  });
});

describe('SAM.gov exclusions extract', () => {
  const { entries, skips } = readFixture('sam/SAM_Exclusions_Public_Extract_V2_23326.CSV');

  it('keeps the 9 individuals and skips the 7 firms and entities, saying why', () => {
    expect(entries).toHaveLength(9);
    expect(entries.every((e) => e.isIndividual && e.businessName === '')).toBe(true);
    expect(skips).toHaveLength(7);
    expect(skips[0]).toBe(
      "line 2: Classification 'Firm' is not an individual (SAM.gov rows are kept for individuals only)",
    );
    expect(skips.filter((s) => s.includes("'Special Entity Designation'"))).toHaveLength(3);
  });

  it('reads names, dates and the termination date (Indefinite: none)', () => {
    expect(byName(entries, 'PIEXOTTO', 'CARLOS')[0]).toMatchObject({
      city: 'BROOKLYN',
      state: 'NY',
      zip: '11236',
      exclusionType: 'Ineligible (Proceedings Completed)',
      exclusionDate: '2023-11-22',
      reinstatementDate: '2026-10-19',
      npi: null,
      dob: null,
    });
    const [flores] = byName(entries, 'FLORES', 'ANTONIO');
    expect(flores).toMatchObject({ reinstatementDate: null, exclusionDate: '2023-11-20' });
    expect(flores!.fields.Suffix).toBe('III');
    expect(byName(entries, 'BERZUNZA LARA', 'FRANCISCO')[0]).toMatchObject({
      middleName: 'ENRIQUE',
      nameKey: 'BERZUNZALARA|FRANCISCO',
    });
    // A 749-character comment, as published, is kept.
    const [martinez] = byName(entries, 'MARTINEZ', 'VICTOR');
    expect(martinez!.fields['Additional Comments']!.length).toBeGreaterThan(FIELD_MAX);
  });
});

describe('New York OMIG exclusion list', () => {
  const { entries, skips } = readFixture('ny/exclusion-list.txt');
  const row = (name: string) => {
    const found = entries.filter((e) => e.fields.PROVIDER_NAME === name);
    expect(found, name).toHaveLength(1);
    return found[0]!;
  };

  it('reads every row of the tab-separated file', () => {
    expect(skips).toEqual([]);
    expect(entries).toHaveLength(34);
  });

  it.each([
    ['ABADI JAMSHEED S           MD', 'ABADI', 'JAMSHEED', 'S'],
    ['ABATE JOSEPH A III MD', 'ABATE', 'JOSEPH', 'A'],
    ['ABDEL-HAMEED MOHAMMAD  F MD', 'ABDEL-HAMEED', 'MOHAMMAD', 'F'],
    ['ABERNATHY STANLEY   RN', 'ABERNATHY', 'STANLEY', ''],
    ['ADAMS-EMBRACK Michelle', 'ADAMS-EMBRACK', 'Michelle', ''],
    ['ARABATZIS,  KONSTANTINOS A/K/A KOSTA', 'ARABATZIS', 'KONSTANTINOS', ''],
    ['BLOCK TERESA aka Powers, Palmer', 'BLOCK', 'TERESA', ''],
    ['COSIMO AKA FAZZOLARI ELEONORA', 'FAZZOLARI', 'ELEONORA', ''],
    ['DANTZLER, ALONA', 'DANTZLER', 'ALONA', ''],
    ['DE ALMEIDA LEILA ALVES  MD', 'DE ALMEIDA', 'LEILA', 'ALVES'],
    ['DI SCENZA RONALD R    MD', 'DI SCENZA', 'RONALD', 'R'],
    ['FRANK SIDNEY ALAN, MD', 'FRANK', 'SIDNEY', 'ALAN'],
    ['GOLOWATY MARIA dba ONE TO ONE CARE', 'GOLOWATY', 'MARIA', ''],
    ['KAHN MOHAMMAD SAEED A/KA/ "SAHI"', 'KAHN', 'MOHAMMAD', 'SAEED'],
    ['MOORE THOMAS WILLIAM MD    JR', 'MOORE', 'THOMAS', 'WILLIAM'],
    ['VAN KLEECK WILLIAM JAY JR  DO', 'VAN KLEECK', 'WILLIAM', 'JAY'],
    ['ABOLAFIA HARRY', 'ABOLAFIA', 'HARRY', ''],
  ])('splits the person %j', (name, last, first, middle) => {
    expect(row(name)).toMatchObject({
      lastName: last,
      firstName: first,
      middleName: middle,
      businessName: '',
      isIndividual: true,
    });
  });

  it.each([
    '1 STOP PHARMACY AND FOOD MART INC',
    'ABDUL MALIK PHYSICIAN PC',
    'ABLE ORTHOPEDIC & SPORTS MEDICINE',
    'BELLEROSE RADIOLOGY',
    'EX-L AMBULETTE, INC',
    'FAMILY MEDICAL GROUP OF MANHATTAN, P.C.',
    'LINDENHURST DRUG          INC',
  ])('keeps the organization %j whole', (name) => {
    expect(row(name)).toMatchObject({ businessName: name, lastName: '', isIndividual: false, nameKey: '' });
  });

  it.each([
    // Synthetic names in the list's form, for the rules the sample has no row for.
    ['DE LA CRUZ JUAN CARLOS MD', 'DE LA CRUZ', 'JUAN', 'CARLOS'],
    ['LE ANH TUAN', 'LE', 'ANH', 'TUAN'],
    ['NGUYEN, THI MAI, RN', 'NGUYEN', 'THI', 'MAI'],
    ["O'BRIEN-SMITH KATE", "O'BRIEN-SMITH", 'KATE', ''],
  ])('splits %j the same way', (name, last, first, middle) => {
    const ny = format(
      ['PROVIDER_NAME', 'LICENSE_NUMBER', 'NPI_Number', 'PROVIDER_TYPE', 'SANCTION_DATE', 'ACTION_TYPE'],
      'x.txt',
    );
    const read = readExclusionRow(ny, [name, '', '', 'Physician', '01/02/2015', 'Exclusion'], 2, now);
    expect('entry' in read && read.entry).toMatchObject({
      lastName: last,
      firstName: first,
      middleName: middle,
    });
  });

  it("reads today's five-column list saved as CSV as the 2016 file, without an action (issue 52 item 1)", () => {
    const today = readFixture('ny/exclusion-list-current.csv');
    expect(today.format.columns).toEqual([
      'provider_name',
      'license_num',
      'npi_num',
      'provider_type',
      'exclusion_effective_date',
    ]);
    expect(today.skips).toEqual([]);
    expect(today.entries).toHaveLength(34);
    const pick = (e: ExclusionEntryInput) => [
      e.lastName,
      e.firstName,
      e.middleName,
      e.businessName,
      e.npi,
      e.licenseNumber,
      e.providerType,
      e.exclusionDate,
      e.isIndividual,
      e.nameKey,
    ];
    expect(today.entries.map(pick)).toEqual(entries.map(pick));
    expect(today.entries.every((e) => e.exclusionType === '')).toBe(true);
    expect(today.entries.find((e) => e.lastName === 'ABADI')).toMatchObject({
      npi: '1477537496',
      exclusionDate: '2014-05-20',
      fields: { provider_name: 'ABADI JAMSHEED S           MD', license_num: '00136045' },
    });
  });

  it('reads NPIs (empty, NA, none and nine digits are none), licenses, dates and the action', () => {
    expect(row('ABADI JAMSHEED S           MD')).toMatchObject({
      npi: '1477537496',
      licenseNumber: '00136045',
      providerType: 'Physician',
      exclusionType: 'Exclusion - 18NYCRR515.8',
      exclusionDate: '2014-05-20',
      reinstatementDate: null,
      nameKey: 'ABADI|JAMSHEED',
    });
    expect(row('ABDEL-HAMEED MOHAMMAD  F MD').npi).toBeNull();
    expect(row('GORDON WILBURT').npi).toBeNull();
    expect(row('JANVIRIYA VICHA            MD').npi).toBeNull();
    expect(row('ADAMS-EMBRACK Michelle').licenseNumber).toBe('00270304/00584317');
    expect(row('1 STOP PHARMACY AND FOOD MART INC').providerType).toBe('Pharmacy');
  });
});

describe('Pennsylvania Medicheck list', () => {
  const { entries, skips } = readFixture('pa/medicheck.txt');
  const rows = (providerName: string) => entries.filter((e) => e.fields.ProviderName === providerName);

  it('reads the Windows-1252 file; the one row without any name is skipped', () => {
    expect(skips).toEqual(['line 14 has no name']);
    expect(entries).toHaveLength(34);
  });

  it('reads the name parts, the status, the begin and end dates and the NPI', () => {
    expect(rows('Evrard, Helen M., MD')[0]).toMatchObject({
      lastName: 'Evrard',
      firstName: 'Helen',
      middleName: 'M.',
      npi: '1700838133',
      exclusionType: 'Precluded',
      exclusionDate: '2012-06-25',
      reinstatementDate: '2299-12-31',
      licenseNumber: '172434 (NY)',
      providerType: 'MD',
      state: 'CT',
      isIndividual: true,
      nameKey: 'EVRARD|HELEN',
    });
    expect(rows('Mahajan, Shyam S., MD')[0]).toMatchObject({
      exclusionDate: '1994-12-05',
      reinstatementDate: '2004-12-05',
      state: '',
    });
    expect(rows('Stein, Daniel')[0]).toMatchObject({ state: 'PA', exclusionType: 'Precluded' });
  });

  it("reads today's 18-column file (NBR_FEIN last) as the 17-column one, keeping the FEIN (issue 52 item 1)", () => {
    const today = readFixture('pa/medicheck-18.csv');
    expect(today.format.columns).toHaveLength(18);
    expect(today.format.columns.at(-1)).toBe('NBR_FEIN');
    expect(today.skips).toEqual(['line 14 has no name']);
    expect(today.entries).toHaveLength(14);
    // The 12 real rows read exactly as in the 2016 file, the empty FEIN aside.
    for (const e of today.entries.slice(0, 12)) {
      const { NBR_FEIN, ...fields } = e.fields;
      expect(NBR_FEIN).toBe('');
      const before = entries.find((b) => b.fields.ProviderName === e.fields.ProviderName)!;
      expect({ ...e, fields, line: 0 }).toEqual({ ...before, line: 0 });
    }
    expect(today.entries[12]).toMatchObject({
      businessName: 'Example Home Care Agency, LLC',
      isIndividual: false,
      exclusionDate: '2021-03-02',
      fields: { NBR_FEIN: '99-0000001' },
    });
    expect(today.entries[13]).toMatchObject({
      lastName: 'Sample',
      firstName: 'Pat',
      npi: '1234567893',
      state: 'NJ',
      reinstatementDate: '2299-12-31',
    });
  });

  it("reads 'Out of State (NY)' written with no-break spaces, and the other out-of-state forms", () => {
    expect(rows('Ripps, Daniel DDS').map((e) => e.state)).toEqual(['NY', 'NY']);
    expect(rows('Akhigbe, Ehigiator O., MD')[0]!.state).toBe('WV');
    expect(rows('Scherr, Jeffrey A.')[0]!.state).toBe('CA');
  });

  it('tells organizations from people, past the placeholders the list writes', () => {
    expect(rows('G.H. Stokes Associates, Inc.')[0]).toMatchObject({
      lastName: '',
      businessName: 'G.H. Stokes Associates, Inc.',
      isIndividual: false,
    });
    expect(rows('Universal Pharmacy Solutions, Inc.')[0]).toMatchObject({ isIndividual: false });
    expect(rows('Bryant-Sampson, Stacia (HHA)')[0]).toMatchObject({
      lastName: 'Bryant-Sampson',
      firstName: 'Stacia',
      isIndividual: true,
    });
    expect(rows('Lock Chiropractic Center')[0]).toMatchObject({
      businessName: 'Lock Chiropractic Center',
      isIndividual: false,
    });
    // 'None' and 'N/A' are no NPI.
    expect(entries.filter((e) => e.npi !== null && !/^\d{10}$/.test(e.npi))).toEqual([]);
  });
});

describe('readExclusionRow rules', () => {
  const leie = format(LEIE_COLUMNS, 'UPDATED.csv');
  const person = (changes: Partial<Record<(typeof LEIE_COLUMNS)[number], string>> = {}) =>
    LEIE_COLUMNS.map(
      (c) =>
        changes[c] ??
        {
          LASTNAME: 'Muñoz-Díaz',
          FIRSTNAME: ' José ',
          DOB: '19800229',
          NPI: '1234567893',
          EXCLTYPE: '1128b4',
          EXCLDATE: '20200115',
          REINDATE: '00000000',
        }[c as string] ??
        '',
    );

  it('trims fields and folds the entry key: accents, case, spaces and punctuation', () => {
    const read = readExclusionRow(leie, person(), 2, now);
    expect('entry' in read && read.entry).toMatchObject({
      lastName: 'Muñoz-Díaz',
      firstName: 'José',
      dob: '1980-02-29',
      nameKey: 'MUNOZDIAZ|JOSE',
      entryKey: 'oig_leie|MUNOZDIAZ|JOSE|||1234567893|19800229|1128B4|20200115',
    });
    const upper = readExclusionRow(leie, person({ LASTNAME: 'MUNOZ DIAZ', FIRSTNAME: 'JOSE' }), 3, now);
    const reinstated = readExclusionRow(leie, person({ REINDATE: '20240101' }), 4, now);
    const key = (r: typeof read) => ('entry' in r ? r.entry.entryKey : r.skip);
    expect(key(upper)).toBe(key(read));
    expect(key(reinstated)).toBe(key(read));
    expect(key(readExclusionRow(leie, person({ EXCLDATE: '20200116' }), 5, now))).not.toBe(key(read));
  });

  it('skips a field longer than FIELD_MAX, naming the column only', () => {
    const long = 'X'.repeat(FIELD_MAX + 1);
    expect(readExclusionRow(leie, person({ ADDRESS: long }), 9, now)).toEqual({
      skip: `line 9: ADDRESS is longer than ${FIELD_MAX} characters`,
    });
    expect('entry' in readExclusionRow(leie, person({ ADDRESS: long.slice(1) }), 9, now)).toBe(true);
  });

  it('skips a row with neither a name nor an organization', () => {
    expect(readExclusionRow(leie, person({ LASTNAME: '', FIRSTNAME: '' }), 11, now)).toEqual({
      skip: 'line 11 has no name',
    });
  });

  it('names an invalid exclusion date as such, whichever date column it is', () => {
    expect(readExclusionRow(leie, person({ EXCLDATE: '2020-13-01' }), 12, now)).toEqual({
      skip: 'line 12: EXCLDATE 2020-13-01 is not a date',
    });
    expect(readExclusionRow(leie, person({ WAIVERDATE: 'soon' }), 13, now)).toEqual({
      skip: 'line 13: WAIVERDATE soon is not a date',
    });
  });

  it('skips a row with more fields than the header', () => {
    expect(readExclusionRow(leie, [...person(), 'extra'], 14, now)).toEqual({
      skip: 'line 14 has 19 fields instead of 18',
    });
  });
});
