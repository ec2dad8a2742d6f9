/**
 * The payer roster (issue 33 item 2): real PostgreSQL, real HTTP. Three providers credentialed the
 * way the product does it (verified, sent for decision, approved by the medical director) are read
 * back from the CSV and the XLSX; the column choice is remembered per administrator; an API client
 * with `roster.read` downloads it; formula cells are defused; every download is audited. And the row
 * rules, on hand-made directory facts: one row per practice location, the license of the location's
 * state, the primary specialty's certification.
 */

import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRosterColumns, rosterColumnHeader } from '../../domain/exports/roster.ts';
import { createTestApp, signUpAndSignIn, signUpStaff, type TestApp } from '../../tests/harness.ts';
import { clientWithToken } from '../api-clients/testing.ts';
import { approveCleanFile, reviewedFile } from '../committee/testing/decide.ts';
import { publishCredentialVersion } from '../credential/published-credential.ts';
import { auditLog } from '../db/schema/audit.ts';
import { providerApplications } from '../db/schema/core.ts';
import { practiceLocations } from '../db/schema/sections.ts';
import type { DirectoryProvider } from '../directory/credentialed-providers.ts';
import { storeNextVersion } from '../notifications/application-snapshot.ts';
import { rosterRows } from './roster.ts';

let app: TestApp;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;
/** The three credentialed providers' application ids. */
const credentialed: string[] = [];
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist');
  for (let i = 0; i < 3; i++) {
    const { applicationId } = await reviewedFile(app, specialist);
    await approveCleanFile(app, specialist, applicationId);
    credentialed.push(applicationId);
  }
  // One location's name a spreadsheet would run as a formula, published as an accepted credential
  // update would publish it (issue 49: the roster reads the published version only).
  const db = app.runtime.deps.db;
  await db
    .update(practiceLocations)
    // Typed as the issue found it: the roster writes '(305) 555-0100' and the extension apart.
    .set({ practiceName: '=HYPERLINK("http://evil.example","Clinic")', phone: '+1 (305) 555-0100 x12' })
    .where(eq(practiceLocations.applicationId, credentialed[2]!));
  const [renamed] = await db
    .select({ userId: providerApplications.userId })
    .from(providerApplications)
    .where(eq(providerApplications.id, credentialed[2]!));
  await db.transaction(async (tx) => {
    const application = { id: credentialed[2]!, userId: renamed!.userId };
    const { version } = await storeNextVersion(tx, application, 'credential_update');
    await publishCredentialVersion(tx, {
      userId: application.userId,
      applicationId: application.id,
      version,
      now: new Date(),
    });
  });
  // A change nobody reviewed (saved to the live section) is not on the roster.
  await db
    .update(practiceLocations)
    .set({ practiceName: 'Unreviewed Clinic Name' })
    .where(eq(practiceLocations.applicationId, credentialed[1]!));
  // A provider still under review is not on the roster.
  await reviewedFile(app, specialist);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

async function csvOf(response: Response): Promise<string[][]> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes.subarray(3).toString('utf8')) as string[][];
}

/** The sheet's cells as text, a date cell as its `YYYY-MM-DD` (UTC); and the sheet itself. */
async function xlsxOf(response: Response): Promise<string[][] & { sheet: ExcelJS.Worksheet }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await response.arrayBuffer());
  const sheet = workbook.getWorksheet('Roster')!;
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    rows.push(
      Array.from({ length: sheet.columnCount }, (_, i) => {
        const value = row.getCell(i + 1).value;
        if (value instanceof Date) return value.toISOString().slice(0, 10);
        return value === null || value === undefined ? '' : String(value);
      }),
    );
  });
  return Object.assign(rows, { sheet });
}

/** The location name's column in the default layout. */
const LOCATION = defaultRosterColumns.indexOf('location_name');

/** The factory's provider as the default layout writes it (server/notifications/testing). */
const factoryRow = (
  locationName = 'Springfield Internal Medicine',
  phone: [string, string] = ['(555) 010-3000', ''],
) => [
  '1234567893',
  expect.any(String),
  expect.any(String),
  'MD',
  '207R00000X',
  'Internal Medicine',
  '',
  'IL',
  'MD-1',
  '2030-06-01',
  'Board Certified, Internal Medicine (ABIM)',
  '',
  locationName,
  '1 Main Street',
  '',
  'Springfield',
  'IL',
  '62701',
  ...phone,
  'Yes',
  'Active',
  today(),
  expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
];

describe('GET /api/admin/roster.csv and roster.xlsx', () => {
  it('write the credentialed providers, one row per practice location, in the default layout', async () => {
    const csv = await specialist.request('GET', '/api/admin/roster.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain(`credentialed-roster-${today()}.csv`);
    const records = await csvOf(csv);
    expect(records[0]).toEqual(defaultRosterColumns.map((c) => rosterColumnHeader[c]));
    expect(records.slice(1)).toHaveLength(3);
    // Sorted by location name: the defused one (a leading ') first.
    const sorted = records.slice(1).sort((a, b) => a[LOCATION]!.localeCompare(b[LOCATION]!));
    // Defused: the leading ' keeps a spreadsheet from running it.
    expect(sorted[0]).toEqual(
      factoryRow(`'=HYPERLINK("http://evil.example","Clinic")`, ['(305) 555-0100', '12']),
    );
    expect(sorted[1]).toEqual(factoryRow());
    expect(sorted[2]).toEqual(factoryRow());

    const xlsx = await specialist.request('GET', '/api/admin/roster.xlsx');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const sheet = await xlsxOf(xlsx);
    expect(sheet[0]).toEqual(records[0]);
    // The same rows; a text cell is never a formula in XLSX, so the name is written as it is.
    const sheetRows = sheet.slice(1).sort((a, b) => a[LOCATION]!.localeCompare(b[LOCATION]!));
    expect(sheetRows[0]).toEqual(
      factoryRow('=HYPERLINK("http://evil.example","Clinic")', ['(305) 555-0100', '12']),
    );
    expect(sheetRows.slice(1)).toEqual(sorted.slice(1));
    // Issue 52 item 4: dates are date cells shown yyyy-mm-dd; identifiers are text cells formatted Text.
    const second = sheet.sheet.getRow(2);
    const cell = (key: (typeof defaultRosterColumns)[number]) =>
      second.getCell(defaultRosterColumns.indexOf(key) + 1);
    for (const key of ['license_expires_on', 'credentialed_on', 'recredentialing_due_on'] as const) {
      expect(cell(key).value).toBeInstanceOf(Date);
      expect(cell(key).numFmt).toBe('yyyy-mm-dd');
    }
    expect(cell('credentialed_on').value).toEqual(new Date(`${today()}T00:00:00Z`));
    for (const key of ['npi', 'postal_code', 'phone', 'license_number'] as const) {
      expect(typeof cell(key).value).toBe('string');
      expect(cell(key).numFmt).toBe('@');
    }
    expect(cell('last_name').numFmt).toBeUndefined();

    const audits = await app.runtime.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'export.roster_downloaded'));
    expect(audits.map((a) => [a.actorUserId, a.details])).toEqual([
      [specialist.userId, { format: 'csv', columns: defaultRosterColumns.length }],
      [specialist.userId, { format: 'xlsx', columns: defaultRosterColumns.length }],
    ]);
  });

  it("remembers each administrator's column choice; ?columns= overrides it; bad columns are refused", async () => {
    const other = await signUpStaff(app, 'specialist');
    const before = await specialist.json('GET', '/api/admin/roster/columns');
    expect(before.body).toEqual({ columns: defaultRosterColumns, isDefault: true });
    const saved = await specialist.json('PUT', '/api/admin/roster/columns', {
      columns: ['last_name', 'npi', 'group_npi'],
    });
    expect(saved.status).toBe(200);
    expect((await specialist.json('GET', '/api/admin/roster/columns')).body).toEqual({
      columns: ['last_name', 'npi', 'group_npi'],
      isDefault: false,
    });
    const mine = await csvOf(await specialist.request('GET', '/api/admin/roster.csv'));
    expect(mine[0]).toEqual(['Last Name', 'NPI', 'Group NPI']);
    expect(mine[1]!.slice(1)).toEqual(['1234567893', '1987654328']);
    // Another administrator still has the default.
    const theirs = await csvOf(await other.request('GET', '/api/admin/roster.csv'));
    expect(theirs[0]).toHaveLength(defaultRosterColumns.length);
    // A query's columns win, without changing what is remembered.
    const asked = await csvOf(await specialist.request('GET', '/api/admin/roster.csv?columns=npi,city'));
    expect(asked[0]).toEqual(['NPI', 'City']);
    expect(
      (await specialist.json<{ columns: string[] }>('GET', '/api/admin/roster/columns')).body.columns,
    ).toEqual(['last_name', 'npi', 'group_npi']);

    for (const [body, message] of [
      [{ columns: [] }, 'Choose at least one column'],
      [{ columns: ['npi', 'npi'] }, 'Choose each column once'],
      [{ columns: ['ssn'] }, 'Choose columns from the roster column list'],
    ] as const) {
      const refused = await specialist.json('PUT', '/api/admin/roster/columns', body);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(message);
    }
    const bad = await specialist.json('GET', '/api/admin/roster.csv?columns=npi,password');
    expect(bad.status).toBe(400);
  });

  it('serves an API client whose token grants roster.read; refuses other scopes, sessions of providers and anonymous callers', async () => {
    const reader = await clientWithToken(app, ['roster.read']);
    const answer = await fetch(`${app.baseUrl}/api/admin/roster.csv?columns=npi,state`, {
      headers: { authorization: `Bearer ${reader.accessToken}` },
    });
    expect(answer.status).toBe(200);
    const rows = await csvOf(answer);
    expect(rows).toEqual([['NPI', 'State'], ...[1, 2, 3].map(() => ['1234567893', 'IL'])]);
    const audited = await app.runtime.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, reader.id));
    expect(audited.map((a) => [a.action, a.actorUserId, a.resourceType])).toContainEqual([
      'export.roster_downloaded',
      null,
      'api_client',
    ]);

    const fhirOnly = await clientWithToken(app, ['system/*.read']);
    const refused = await fetch(`${app.baseUrl}/api/admin/roster.xlsx`, {
      headers: { authorization: `Bearer ${fhirOnly.accessToken}` },
    });
    expect(refused.status).toBe(403);
    const forged = await fetch(`${app.baseUrl}/api/admin/roster.csv`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(forged.status).toBe(401);
    const provider = await signUpAndSignIn(app);
    expect((await provider.request('GET', '/api/admin/roster.csv')).status).toBe(403);
    expect((await fetch(`${app.baseUrl}/api/admin/roster.csv?columns=bogus`)).status).toBe(401);
  });
});

describe("the payer template's columns the application collects (issue 52 item 4)", () => {
  it('offers gender, CAQH ID, Medicare PTAN, Medicaid ID, fax, languages and office hours from the published credential', async () => {
    const columns = 'npi,gender,caqh_id,medicare_ptan,medicaid_id,fax,languages,office_hours';
    const rows = await csvOf(await specialist.request('GET', `/api/admin/roster.csv?columns=${columns}`));
    expect(rows[0]).toEqual([
      'NPI',
      'Gender',
      'CAQH ID',
      'Medicare PTAN',
      'Medicaid ID',
      'Fax',
      'Languages',
      'Office Hours',
    ]);
    // The factory's provider (server/notifications/testing): no Medicare or Medicaid number, no fax.
    for (const row of rows.slice(1)) {
      expect(row).toEqual([
        '1234567893',
        'F',
        '12345678',
        '',
        '',
        '',
        'English, Spanish',
        'Mon-Fri 8:00-17:00',
      ]);
    }
    // Not in the default layout: the default stays what administrators have been sent.
    expect(defaultRosterColumns).not.toContain('caqh_id');
  });
});

describe('GET /api/admin/roster.csv?guard=none&bom=false (issue 52 item 4)', () => {
  const EVIL = '=HYPERLINK("http://evil.example","Clinic")';

  it('writes the values exactly for a machine, without the byte order mark when asked; audited as unguarded', async () => {
    const reader = await clientWithToken(app, ['roster.read']);
    const answer = await fetch(
      `${app.baseUrl}/api/admin/roster.csv?columns=location_name,phone&guard=none&bom=false`,
      { headers: { authorization: `Bearer ${reader.accessToken}` } },
    );
    expect(answer.status).toBe(200);
    const text = Buffer.from(await answer.arrayBuffer()).toString('utf8');
    // No BOM: a plain utf-8 reader gets 'Practice Location' as the first header, not '\uFEFFPractice…'.
    expect(text.startsWith('Practice Location,Phone\r\n')).toBe(true);
    const rows = parse(text) as string[][];
    expect(rows.slice(1).map((r) => r[0])).toContain(EVIL);
    expect(rows.slice(1).map((r) => r[1])).toContain('(305) 555-0100');
    const audited = await app.runtime.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, reader.id));
    expect(audited.filter((a) => a.action === 'export.roster_downloaded').map((a) => a.details)).toEqual([
      { format: 'csv', columns: 2, guard: 'none' },
    ]);

    // Staff may ask the same; the default is still guarded and with the BOM.
    const staff = await csvOf(
      await specialist.request('GET', '/api/admin/roster.csv?columns=location_name&guard=none'),
    );
    expect(staff.slice(1).map((r) => r[0])).toContain(EVIL);
    const guarded = await csvOf(
      await specialist.request('GET', '/api/admin/roster.csv?columns=location_name'),
    );
    expect(guarded.slice(1).map((r) => r[0])).toContain(`'${EVIL}`);
  });

  it('leaves authorization as it is and refuses an unknown guard with what to write', async () => {
    expect((await fetch(`${app.baseUrl}/api/admin/roster.csv?guard=none`)).status).toBe(401);
    const provider = await signUpAndSignIn(app);
    expect((await provider.request('GET', '/api/admin/roster.csv?guard=none')).status).toBe(403);
    const fhirOnly = await clientWithToken(app, ['system/*.read']);
    const refused = await fetch(`${app.baseUrl}/api/admin/roster.csv?guard=none`, {
      headers: { authorization: `Bearer ${fhirOnly.accessToken}` },
    });
    expect(refused.status).toBe(403);
    const bad = await specialist.json('GET', '/api/admin/roster.csv?guard=off');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('guard=none');
  });
});

describe('rosterRows', () => {
  const provider = (overrides: Partial<DirectoryProvider> = {}): DirectoryProvider => ({
    userId: 'u1',
    applicationId: 'a1',
    lastUpdated: new Date('2026-01-01T00:00:00Z'),
    npi: '1234567893',
    givenName: 'Ann',
    familyName: 'Lee',
    degree: 'DO',
    gender: 'F',
    dea: { number: 'AL1234563', expiresOn: '2027-05-31', state: 'IL' },
    licenses: [
      {
        rowKey: 'l1',
        type: 'medical_license',
        number: 'IL-1',
        state: 'IL',
        issuedOn: null,
        expiresOn: '2027-01-31',
        status: 'active',
      },
      {
        rowKey: 'l2',
        type: 'medical_license',
        number: 'WI-1',
        state: 'WI',
        issuedOn: null,
        expiresOn: '2026-12-31',
        status: 'active',
      },
      {
        rowKey: 'l3',
        type: 'medical_license',
        number: 'WI-2',
        state: 'WI',
        issuedOn: null,
        expiresOn: '2028-12-31',
        status: 'active',
      },
    ],
    education: [],
    boardCertifications: [
      {
        rowKey: 'c1',
        name: 'Family Medicine',
        board: 'ABFM',
        number: null,
        issuedOn: null,
        expiresOn: '2029-01-01',
        specialtyCodes: [],
      },
      {
        rowKey: 'c2',
        name: 'Sports Medicine',
        board: 'ABFM',
        number: null,
        issuedOn: null,
        expiresOn: '2030-01-01',
        specialtyCodes: ['207QS0010X'],
      },
    ],
    specialties: [
      {
        rowKey: 's1',
        code: '207Q00000X',
        display: 'Family Medicine',
        rank: 'secondary',
        boardCertificationRowKey: 'c1',
      },
      {
        rowKey: 's2',
        code: '207QS0010X',
        display: 'Family Medicine, Sports Medicine',
        rank: 'primary',
        boardCertificationRowKey: 'c2',
      },
    ],
    practiceLocations: [],
    credentialedOn: '2026-01-01',
    recredentialingDueOn: '2029-01-01',
    version: 1,
    standing: 'active',
    standingReason: null,
    findings: [],
    ...overrides,
  });
  const location = (state: string, name: string): DirectoryProvider['practiceLocations'][number] => ({
    rowKey: name,
    name,
    groupNpi: null,
    address: { line1: '1 Main', line2: null, city: 'Town', state, postalCode: '00000' },
    phone: null,
    fax: null,
    email: null,
    primary: false,
    acceptingNewPatients: 'existing_only',
    languagesSpoken: null,
  });

  it("one row per location with the license of the location's state (latest expiry), else the first", () => {
    const rows = rosterRows(
      provider({
        practiceLocations: [location('WI', 'Madison'), location('IN', 'Gary'), location('IL', 'Joliet')],
      }),
    );
    expect(
      rows.map((r) => [r.location_name, r.license_state, r.license_number, r.license_expires_on]),
    ).toEqual([
      ['Madison', 'WI', 'WI-2', '2028-12-31'],
      ['Gary', 'IL', 'IL-1', '2027-01-31'],
      ['Joliet', 'IL', 'IL-1', '2027-01-31'],
    ]);
    expect(rows[0]!.accepting_new_patients).toBe('Existing patients only');
  });

  it("the primary specialty's taxonomy and board certification; the others as secondary taxonomies", () => {
    const [row] = rosterRows(provider());
    expect(row).toMatchObject({
      primary_taxonomy: '207QS0010X',
      primary_specialty: 'Family Medicine, Sports Medicine',
      secondary_taxonomies: '207Q00000X',
      board_certification: 'Sports Medicine (ABFM)',
      board_certification_expires_on: '2030-01-01',
      dea_number: 'AL1234563',
      dea_expires_on: '2027-05-31',
    });
  });

  it("writes phone and fax in the roster format, the phone's extension apart; the payer identifiers as published", () => {
    const [row] = rosterRows(
      provider({
        caqhId: '12345678',
        medicarePtan: 'P12345',
        medicaidId: null,
        practiceLocations: [
          {
            ...location('IL', 'Joliet'),
            phone: '+1 305 555 0100 ext. 4',
            fax: '+1 (305) 555-0199',
            officeHours: 'Mon-Fri 8:00-17:00',
          },
        ],
      }),
    );
    expect(row).toMatchObject({
      phone: '(305) 555-0100',
      phone_extension: '4',
      fax: '(305) 555-0199',
      office_hours: 'Mon-Fri 8:00-17:00',
      gender: 'F',
      caqh_id: '12345678',
      medicare_ptan: 'P12345',
      medicaid_id: null,
    });
    // Facts published before issue 52 have no identifiers or office hours: empty cells, not 'undefined'.
    const [older] = rosterRows(provider({ practiceLocations: [location('IL', 'Joliet')] }));
    expect(older).toMatchObject({ caqh_id: null, office_hours: null, fax: null, phone: null });
  });

  it('a provider with no practice location gets one row, its location columns empty', () => {
    const rows = rosterRows(provider({ specialties: [], boardCertifications: [], licenses: [], dea: null }));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      location_name: null,
      city: null,
      license_number: null,
      primary_taxonomy: null,
      secondary_taxonomies: null,
      board_certification: null,
      dea_number: null,
      credentialed_on: '2026-01-01',
    });
  });
});
