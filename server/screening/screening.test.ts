/**
 * Exclusion screening end to end (issue 30 items 1-5), real PostgreSQL and HTTP, on the real-format
 * fixtures of tests/fixtures/exclusions/ (SOURCES.md says where each came from): Import then Apply,
 * a full file then a reinstatement file, refusals of empty and shrinking files, bad rows reported by
 * line, Windows-1252, the 61 `SMITH,JOHN` rows, SAM.gov and a state list matched; findings never
 * cleared by an import; the 'Screening Matches' decisions and their memory; monitoring's digest.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import type { ApplyImportResult, ScreeningQueue, StagedImport } from '../../domain/api/screening.ts';
import { LEIE_COLUMNS } from '../../domain/screening/exclusion-formats.ts';
import {
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  TEST_ORIGIN,
  type TestApp,
} from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { auditLog } from '../db/schema/audit.ts';
import { exclusionEntries, exclusionImports } from '../db/schema/screening.ts';
import { personalInformation } from '../db/schema/sections.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';
import { runScreeningMonitor } from './monitoring.ts';
import { exclusionSpoolDir } from './screening.routes.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/exclusions');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Screening', lastName: 'Admin' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function stage(content: Buffer | string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const response = await admin.request('POST', '/api/admin/exclusions/imports', form);
  return { status: response.status, body: (await response.json()) as StagedImport & { message?: string } };
}

async function apply(id: number, reason?: string) {
  return admin.json<ApplyImportResult & { message?: string }>(
    'POST',
    `/api/admin/exclusions/imports/${id}/apply`,
    reason === undefined ? {} : { reason },
  );
}

async function stageAndApply(content: Buffer | string, name: string, reason?: string) {
  const staged = await stage(content, name);
  expect(staged.status, staged.body.message).toBe(200);
  const applied = await apply(staged.body.id, reason);
  expect(applied.status, applied.body.message).toBe(200);
  return { staged: staged.body, applied: applied.body };
}

/** A provider whose completed application (with these personal fields) an admin started reviewing. */
async function underReview(first: string, last: string, fields: { npi?: string; dob?: string } = {}) {
  const provider = await signUpAndSignIn(app, { firstName: first, lastName: last });
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  await createCompletedApplication({
    ...app.runtime.deps,
    userId: provider.userId,
    applicationId: created.body.id,
  });
  await app.runtime.deps.db
    .update(personalInformation)
    .set({ npiNumber: fields.npi ?? '1245319599', dateOfBirth: fields.dob ?? '1990-06-15' })
    .where(eq(personalInformation.applicationId, created.body.id));
  const completed = await provider.json(
    'POST',
    `/api/applications/${created.body.id}/completion`,
    await signedAttestation(provider),
  );
  expect([200, 202]).toContain(completed.status);
  const started = await admin.json('POST', `/api/admin/applications/${created.body.id}/start-review`, {});
  expect(started.status).toBe(200);
  return { applicationId: created.body.id, userId: provider.userId, provider };
}

async function exclusionsItem(applicationId: string) {
  const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
  return review.body.checklist.find((i) => i.kind === 'exclusions')!;
}

async function queue() {
  return (await admin.json<ScreeningQueue>('GET', '/api/admin/screening-matches')).body.findings;
}

/** One LEIE row of the real layout (quoted, 18 fields). */
function leieRow(f: { last: string; first: string; npi?: string; dob?: string; exclDate?: string }) {
  return [
    f.last,
    f.first,
    '',
    '',
    'IND- LIC HC SERV PRO',
    'NURSE/NURSES AIDE',
    '',
    f.npi ?? '0000000000',
    f.dob ?? '',
    '1 INVENTED ROAD',
    'SPRINGFIELD',
    'IL',
    '62701',
    '1128b4',
    f.exclDate ?? '20200115',
    '00000000',
    '00000000',
    '',
  ]
    .map((v) => `"${v}"`)
    .join(',');
}
const leieHeader = LEIE_COLUMNS.map((c) => `"${c}"`).join(',');
const tag = () => randomBytes(3).toString('hex').replace(/\d/g, 'q').toUpperCase();

describe('exclusion list imports', () => {
  it('a full file, then its month of reinstatements: the match survives as a pending change, the reinstated rows end', async () => {
    // The full list as it stood before January 2017 (the UPDATED.csv sample holds the 13 rows the real
    // 1701REIN.csv reinstates, as they were listed: SOURCES.md), plus a row listing our provider's NPI.
    const updated = fixture('leie/UPDATED.csv').toString('utf8').trim();
    const provider = await underReview('Casey', `Listed${tag()}`, { npi: '1104081702' });
    const full = `${updated}\r\n${leieRow({ last: 'ANYONE', first: 'ELSE', npi: '1104081702' })}\r\n`;

    const staged = await stage(full, 'UPDATED.csv');
    expect(staged.status).toBe(200);
    expect(staged.body).toMatchObject({
      source: 'oig_leie',
      kind: 'full',
      encoding: 'utf-8',
      skippedCount: 0,
    });
    expect(staged.body.sample.length).toBeGreaterThan(0);
    const rowsInFull = staged.body.rowCount;
    // Nothing changes before 'Apply'.
    expect((await exclusionsItem(provider.applicationId)).status).toBe('pending');
    const applied = await apply(staged.body.id);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ kind: 'full', rowsAfter: rowsInFull });
    expect((await exclusionsItem(provider.applicationId)).status).toBe('discrepancy');
    // Not a clean file (issue 32 item 4): the match is named once, not also as the item's discrepancy.
    const flagged = await admin.json<AdminReview>(
      'GET',
      `/api/admin/applications/${provider.applicationId}/review`,
    );
    // Issue 51 item 1: SAM.gov was never imported, and the criteria say so too.
    expect(flagged.body.committeeReview).toEqual({
      needed: true,
      reasons: [
        'Exclusion screening: Match',
        'Exclusion screening incomplete: SAM.gov exclusions (never imported)',
      ],
    });

    // The real reinstatement file (named as the OIG names it) is detected and ends its 13 rows.
    const reinStaged = await stage(fixture('leie/1701REIN.csv'), '1701REIN.csv');
    expect(reinStaged.body).toMatchObject({ kind: 'reinstatements', rowCount: 13, needsReason: null });
    const reinApplied = await apply(reinStaged.body.id);
    expect(reinApplied.body).toMatchObject({
      changedRows: 13,
      unmatchedRows: 0,
      rowsBefore: rowsInFull,
      rowsAfter: rowsInFull,
    });
    const ended = await app.runtime.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${exclusionEntries} where source = 'oig_leie' and not staged and reinstatement_date is not null`,
    );
    expect(ended.rows[0]!.n).toBe(13);

    // A full file without the provider's row: refused as a shrink? No (one row fewer); applied, and the
    // match is not cleared by it: it waits as a pending change.
    await stageAndApply(`${updated}\r\n`, 'UPDATED.csv');
    expect((await exclusionsItem(provider.applicationId)).status).toBe('discrepancy');
    const pending = (await queue()).find((f) => f.applicationId === provider.applicationId);
    expect(pending).toMatchObject({ strength: 'match', matchedOn: 'npi', pendingChange: 'no_longer_listed' });
    const accepted = await admin.json('POST', `/api/admin/screening-matches/${pending!.id}/decision`, {
      decision: 'accept_change',
      reason: 'OIG removed the row; checked on exclusions.oig.hhs.gov',
    });
    expect(accepted.status).toBe(204);
    // No match left, but SAM.gov was never imported (issue 51 item 1): not verified, and it says why.
    const cleared = await exclusionsItem(provider.applicationId);
    expect(cleared.status).toBe('pending');
    expect(cleared.note).toContain('Not current: SAM.gov exclusions (never imported)');
  });

  it('a LEIE file whose rows all carry a REINDATE is reinstatements whatever its name, and never replaces the list', async () => {
    // Issue 52 item 1: the real 1701REIN.csv as OIG named such files in 2015, renamed, and even saved
    // as UPDATED.csv. Read as a full list it would have replaced the list with 13 reinstated people.
    const rowsBefore = (
      await admin.json<{ sources: { id: string; rows: number }[] }>('GET', '/api/admin/exclusions')
    ).body.sources.find((s) => s.id === 'oig_leie')!.rows;
    for (const name of ['rein1511.csv', 'LEIE_2611REIN.csv', 'UPDATED.csv']) {
      const staged = await stage(fixture('leie/1701REIN.csv'), name);
      expect(staged.status, staged.body.message).toBe(200);
      expect(staged.body, name).toMatchObject({
        source: 'oig_leie',
        kind: 'reinstatements',
        rowCount: 13,
        skippedCount: 0,
        needsReason: null,
      });
      expect(staged.body.formatLabel).toMatch(/reinstatements/);
      if (name !== 'UPDATED.csv')
        await admin.json('DELETE', `/api/admin/exclusions/imports/${staged.body.id}`);
      else {
        const applied = await apply(staged.body.id);
        expect(applied.body).toMatchObject({ kind: 'reinstatements', rowsBefore, rowsAfter: rowsBefore });
      }
    }
  });

  it("stages today's Pennsylvania Medicheck file, 18 columns with NBR_FEIN (issue 52 item 1)", async () => {
    const staged = await stage(fixture('pa/medicheck-18.csv'), 'MedicheckList.csv');
    expect(staged.status, staged.body.message).toBe(200);
    expect(staged.body).toMatchObject({
      source: 'pa_medicheck',
      kind: 'full',
      rowCount: 14,
      skippedCount: 1,
      formatLabel: 'Pennsylvania Medicheck list',
    });
    await admin.json('DELETE', `/api/admin/exclusions/imports/${staged.body.id}`);
  });

  it("stages today's New York OMIG list saved as CSV, five lower-case columns (issue 52 item 1)", async () => {
    const staged = await stage(fixture('ny/exclusion-list-current.csv'), 'Exclusion List.csv');
    expect(staged.status, staged.body.message).toBe(200);
    expect(staged.body).toMatchObject({ source: 'ny_omig', kind: 'full', rowCount: 34, skippedCount: 0 });
    await admin.json('DELETE', `/api/admin/exclusions/imports/${staged.body.id}`);
  });

  it("stages SAM.gov's extract as published, a ZIP holding one CSV, read through that CSV (issue 52 item 1)", async () => {
    const staged = await stage(
      fixture('sam/SAM_Exclusions_Public_Extract_V2_23326.ZIP'),
      'SAM_Exclusions_Public_Extract_V2_23326.ZIP',
    );
    expect(staged.status, staged.body.message).toBe(200);
    expect(staged.body).toMatchObject({
      source: 'sam',
      kind: 'full',
      fileName: 'SAM_Exclusions_Public_Extract_V2_23326.CSV',
      encoding: 'utf-8',
      rowCount: 9,
      skippedCount: 7,
    });
    await admin.json('DELETE', `/api/admin/exclusions/imports/${staged.body.id}`);
    // No extracted copy is left behind.
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('exclusion-list-'))).toEqual([]);
  });

  it("stages New York OMIG's download as published, an Excel workbook, through its first sheet (issue 52 item 1)", async () => {
    const staged = await stage(fixture('ny/exclusion-list-current.xlsx'), 'Exclusion List.xlsx');
    expect(staged.status, staged.body.message).toBe(200);
    expect(staged.body).toMatchObject({
      source: 'ny_omig',
      kind: 'full',
      fileName: 'Exclusion List.csv',
      rowCount: 34,
      skippedCount: 0,
    });
    await admin.json('DELETE', `/api/admin/exclusions/imports/${staged.body.id}`);
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('exclusion-list-'))).toEqual([]);
  });

  it('refuses another ZIP or binary bytes saying what the file is and what to do (issue 52 item 1)', async () => {
    const imports = async () => (await app.runtime.deps.db.select().from(exclusionImports)).length;
    const before = await imports();
    const cases: [string, string, RegExp][] = [
      ['sam/two-extracts.zip', 'exclusions.zip', /^This is a ZIP archive with 2 files; /],
    ];
    for (const [file, name, message] of cases) {
      const refused = await stage(fixture(file), name);
      expect(refused.status, name).toBe(400);
      expect(refused.body.message).toMatch(message);
      expect(refused.body.message).toMatch(/Nothing was imported; the lists are unchanged\.$/);
      expect(refused.body.message).not.toMatch(/PK/);
    }
    const pdf = await stage('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n', 'UPDATED.pdf');
    expect([pdf.status, pdf.body.message]).toEqual([400, expect.stringMatching(/^This is a PDF document/)]);
    expect(await imports()).toBe(before);
  });

  it('refuses to apply a header-only or shrinking full file without a reason, and audits the reason', async () => {
    const header = await stage(fixture('leie/header-only.csv'), 'UPDATED.csv');
    expect(header.body).toMatchObject({ rowCount: 0 });
    expect(header.body.needsReason).toMatch(/no rows/);
    const refused = await apply(header.body.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/Give a reason/);
    await admin.json('DELETE', `/api/admin/exclusions/imports/${header.body.id}`);

    // 20 rows against a list of ~60: more than 10 % fewer.
    const shrinking = await stage(fixture('leie/1701EXCL.csv'), 'UPDATED.csv');
    expect(shrinking.body.kind).toBe('full');
    expect(shrinking.body.needsReason).toMatch(/fewer/);
    expect((await apply(shrinking.body.id)).status).toBe(409);
    const overview = await admin.json<{ sources: { id: string; rows: number }[] }>(
      'GET',
      '/api/admin/exclusions',
    );
    const rowsBefore = overview.body.sources.find((s) => s.id === 'oig_leie')!.rows;
    expect(rowsBefore).toBeGreaterThan(20);
    const withReason = await apply(shrinking.body.id, 'Test of the shrink guard');
    expect(withReason.status).toBe(200);
    const [audit] = await app.runtime.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, String(shrinking.body.id)));
    expect(audit).toMatchObject({ action: 'screening.import_applied' });
    expect(audit!.details).toMatchObject({ reason: 'Test of the shrink guard', rowsBefore, rowsAfter: 20 });
    // Applying twice: the second is a 409, the list unchanged.
    expect((await apply(shrinking.body.id, 'again')).status).toBe(409);
  });

  it('reports bad rows by line and keeps the good ones; reads Windows-1252; never answers 500', async () => {
    const staged = await stage(fixture('leie/bad-rows.csv'), 'UPDATED.csv');
    expect(staged.status).toBe(200);
    expect(staged.body.encoding).toBe('windows-1252');
    const reasons = staged.body.skipped.map((s) => `${s.line}: ${s.reason}`).join('\n');
    expect(reasons).toMatch(/19870231/);
    expect(reasons).toMatch(/NUL/);
    expect(reasons).toMatch(/fields instead of 18/);
    for (const s of staged.body.skipped) expect(s.reason).toContain(`line ${s.line}`);
    const rows = await app.runtime.deps.db
      .select()
      .from(exclusionEntries)
      .where(eq(exclusionEntries.importId, staged.body.id));
    const munoz = rows.find((r) => r.lastName.startsWith('MU') && r.firstName === 'MARIA');
    expect(munoz).toMatchObject({ lastName: 'MUÑOZ', nameKey: 'MUNOZ|MARIA' });
    const roe = rows.find((r) => r.lastName === 'ROE');
    expect(roe).toMatchObject({ dob: '1987-09-08', exclusionDate: '2016-10-20' });
    // A file of no accepted list, and bytes that are not CSV: 400 with a message, never a 500.
    const unknown = await stage('NAME,NPI\nSOMEONE,1234567893\n', 'other.csv');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/not one of the exclusion lists accepted/);
    const unclosed = await stage(`${leieHeader}\n"OPEN,QUOTE\n`, 'UPDATED.csv');
    expect([200, 400]).toContain(unclosed.status);
    await admin.json('DELETE', `/api/admin/exclusions/imports/${staged.body.id}`);
  });
  it('an upload cut off mid-file stages nothing and leaves no spool file; two applies at once: one applies', async () => {
    const spools = () => fs.readdirSync(exclusionSpoolDir(app.runtime.deps.env.dataDir));
    const before = await app.runtime.deps.db.select().from(exclusionImports);
    const boundary = 'cutoff-boundary';
    const file = fixture('leie/UPDATED.csv');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="UPDATED.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const port = new URL(app.baseUrl).port;
    const head = [
      'POST /api/admin/exclusions/imports HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Origin: ${TEST_ORIGIN}`,
      `Cookie: ${admin.cookie}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${body.length}`,
    ].join('\r\n');
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body.subarray(0, Math.floor(body.length / 2))]),
    );
    // The half received is being spooled (the request got past authorization and into the upload).
    const spooling = Date.now() + 5000;
    while (spools().length === 0 && Date.now() < spooling)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(spools()).toHaveLength(1);
    socket.destroy();
    // The server notices the cut, drops the half file and stages nothing.
    const deadline = Date.now() + 5000;
    while (spools().length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spools()).toEqual([]);
    expect(await app.runtime.deps.db.select().from(exclusionImports)).toHaveLength(before.length);

    // The same file whole, then 'Apply' twice at the same moment: one applies, the other is told.
    const staged = await stage(file, 'UPDATED.csv');
    expect(staged.status).toBe(200);
    const [a, b] = await Promise.all([
      apply(staged.body.id, 'twice at once'),
      apply(staged.body.id, 'twice at once'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });
});

describe('screening', () => {
  it('finds the exact name + birth date row among 61 rows of the same name', async () => {
    const provider = await underReview('John', 'Smith', { dob: '1978-06-14' });
    await stageAndApply(fixture('leie/smith-john-61.csv'), 'UPDATED.csv', 'a test list');
    const item = await exclusionsItem(provider.applicationId);
    expect(item.status).toBe('discrepancy');
    expect(item.note).toMatch(/^Match: OIG LEIE: SMITH, JOHN Q; born 1978-06-14/);
  });

  it('matches SAM.gov (individuals), New York OMIG by NPI and Pennsylvania Medicheck by name', async () => {
    const sam = await stage(
      fixture('sam/SAM_Exclusions_Public_Extract_V2_23326.CSV'),
      'SAM_Exclusions_Public_Extract_V2_23326.CSV',
    );
    expect(sam.body).toMatchObject({ source: 'sam', kind: 'full' });
    expect(sam.body.skipped.some((s) => /Individual/i.test(s.reason))).toBe(true);
    expect((await apply(sam.body.id)).status).toBe(200);
    const samPerson = await underReview('Antonio', 'Flores', { dob: '1961-01-01' });
    // Name only: a possible match in the queue, with the list row beside the provider's fields.
    const found = (await queue()).find((f) => f.applicationId === samPerson.applicationId);
    expect(found).toMatchObject({ source: 'sam', strength: 'possible_match', matchedOn: 'name' });
    expect(found!.comparison.find((c) => c.label === 'Last name')).toMatchObject({ agreement: 'same' });

    const ny = fixture('ny/exclusion-list.txt');
    const nyStaged = await stage(ny, 'exclusion-list.txt');
    expect(nyStaged.status, nyStaged.body.message).toBe(200);
    expect(nyStaged.body.source).toBe('ny_omig');
    expect((await apply(nyStaged.body.id)).status).toBe(200);
    const nyRow = await app.runtime.deps.db
      .select()
      .from(exclusionEntries)
      .where(
        sql`${exclusionEntries.source} = 'ny_omig' and ${exclusionEntries.npi} is not null and not ${exclusionEntries.staged}`,
      )
      .limit(1);
    const nyProvider = await underReview('Robin', `Pharmacist${tag()}`, { npi: nyRow[0]!.npi! });
    const item = await exclusionsItem(nyProvider.applicationId);
    expect(item.status).toBe('discrepancy');
    expect(item.note).toContain('New York');

    // Pennsylvania's Medicheck list, published in Windows-1252: a name alone is a possible match.
    const pa = await stage(fixture('pa/medicheck.txt'), 'medicheck.txt');
    expect(pa.body).toMatchObject({ source: 'pa_medicheck', kind: 'full', encoding: 'windows-1252' });
    expect((await apply(pa.body.id)).status).toBe(200);
    const paProvider = await underReview('Daniel', 'Stein', { dob: '1950-03-03' });
    const paFinding = (await queue()).find((f) => f.applicationId === paProvider.applicationId);
    expect(paFinding).toMatchObject({
      source: 'pa_medicheck',
      strength: 'possible_match',
      sourceLabel: 'Pennsylvania Medicheck',
    });
    expect((await exclusionsItem(paProvider.applicationId)).status).toBe('pending');
    // Once the application is decided otherwise (here: rejected), its finding waits for nobody.
    await app.runtime.deps.db.execute(
      sql`update provider_applications set application_status = 'rejected' where id = ${paProvider.applicationId}`,
    );
    expect((await queue()).some((f) => f.applicationId === paProvider.applicationId)).toBe(false);
  });

  it("'Not the Same Person' clears a possible match and is remembered until the row changes; 'Confirm Match' makes it a match", async () => {
    const last = `Namesake${tag()}`;
    const row = leieRow({ last: last.toUpperCase(), first: 'ROWAN', dob: '19551111' });
    const list = fixture('leie/UPDATED.csv').toString('utf8').trim();
    await stageAndApply(`${list}\r\n${row}\r\n`, 'UPDATED.csv');
    const provider = await underReview('Rowan', last, { dob: '1990-01-01' });
    expect((await exclusionsItem(provider.applicationId)).status).toBe('pending');
    const finding = (await queue()).find((f) => f.applicationId === provider.applicationId)!;
    expect(finding.comparison.find((c) => c.label === 'Date of birth')).toMatchObject({
      provider: '1990-01-01',
      list: '1955-11-11',
      agreement: 'different',
    });
    const decide = (reason: string) =>
      admin.json('POST', `/api/admin/screening-matches/${finding.id}/decision`, {
        decision: 'not_same_person',
        reason,
      });
    // Two reviewers at once: one decision wins, the other is told.
    const [a, b] = await Promise.all([decide('Different birth date'), decide('Different birth date too')]);
    expect([a.status, b.status].sort()).toEqual([204, 409]);
    expect((await exclusionsItem(provider.applicationId)).status).toBe('verified');

    // The same row again (a new month's file): not flagged again.
    await stageAndApply(`${list}\r\n${row}\r\n`, 'UPDATED.csv');
    expect((await queue()).some((f) => f.applicationId === provider.applicationId)).toBe(false);
    expect((await exclusionsItem(provider.applicationId)).status).toBe('verified');

    // The row changes (a new address): flagged again; this time confirmed.
    await stageAndApply(`${list}\r\n${row.replace('1 INVENTED ROAD', '9 OTHER ROAD')}\r\n`, 'UPDATED.csv');
    const again = (await queue()).find((f) => f.applicationId === provider.applicationId)!;
    expect(again).toBeDefined();
    const confirmed = await admin.json('POST', `/api/admin/screening-matches/${again.id}/decision`, {
      decision: 'confirm_match',
      reason: 'Same licence number on the board site',
    });
    expect(confirmed.status).toBe(204);
    expect((await exclusionsItem(provider.applicationId)).status).toBe('discrepancy');
    const bad = await admin.json('POST', `/api/admin/screening-matches/${again.id}/decision`, {
      decision: 'not_same_person',
      reason: '',
    });
    expect(bad.status).toBe(400);
  });

  it("a provider's response that changes the NPI is screened at once", async () => {
    const list = fixture('leie/UPDATED.csv').toString('utf8').trim();
    await stageAndApply(
      `${list}\r\n${leieRow({ last: 'SOMEONE', first: 'ELSE', npi: '1316020167' })}\r\n`,
      'UPDATED.csv',
    );
    const { applicationId, provider } = await underReview('Jordan', `Responds${tag()}`, {
      npi: '1245319599',
    });
    expect((await exclusionsItem(applicationId)).status).toBe('verified');
    const requested = await admin.json<{ requestId: string }>(
      'POST',
      `/api/admin/applications/${applicationId}/request-information`,
      { message: 'Please check your NPI.', sections: ['personalInformation'] },
    );
    expect(requested.status).toBe(200);
    const base = `/api/applications/${applicationId}/sections`;
    expect(
      (await provider.json('PUT', `${base}/personal-information`, { npiNumber: '1316020167' })).status,
    ).toBe(200);
    const responded = await provider.json(
      'POST',
      `/api/applications/${applicationId}/information-requests/${requested.body.requestId}/response`,
      { reply: 'Corrected.' },
    );
    expect(responded.status).toBe(200);
    const item = await exclusionsItem(applicationId);
    expect(item.status).toBe('discrepancy');
    expect(item.note).toMatch(/^Match: OIG LEIE: SOMEONE, ELSE; NPI 1316020167/);
  });

  it('monitoring screens approved providers and emails a digest of what is new and what is stale', async () => {
    const { applicationId } = await underReview('Morgan', `Approved${tag()}`, { npi: '1457312388' });
    await app.runtime.deps.db.execute(
      sql`update provider_applications set application_status = 'approved' where id = ${applicationId}`,
    );
    const list = fixture('leie/UPDATED.csv').toString('utf8').trim();
    await stageAndApply(
      `${list}\r\n${leieRow({ last: 'OTHER', first: 'PERSON', npi: '1457312388' })}\r\n`,
      'UPDATED.csv',
    );
    const [standing] = await app.runtime.deps.db
      .execute<{ exclusion_match: string | null }>(
        sql`select exclusion_match from provider_applications where id = ${applicationId}`,
      )
      .then((r) => r.rows);
    expect(standing!.exclusion_match).toBe('match');
    const digest = app.mail.filter(
      (m) => m.to === admin.email && m.subject === 'Exclusion screening: new matches',
    );
    expect(digest.length).toBeGreaterThan(0);
    expect(digest.at(-1)!.text).toMatch(/approved providers: 1/);
    expect(digest.at(-1)!.text).not.toContain('Morgan');

    // The monthly run, 40 days later: nothing new, but every list is stale now.
    const later = new Date(Date.now() + 40 * 24 * 60 * 60 * 1000);
    const before = app.mail.length;
    const result = await runScreeningMonitor(
      {
        db: app.runtime.deps.db,
        mailer: app.runtime.deps.mailer,
        appUrl: 'http://portal.test',
        logger: app.runtime.logger,
      },
      later,
      'monthly',
    );
    expect(result.newMatches).toHaveLength(0);
    expect(result.stale.join(' ')).toMatch(/OIG LEIE \(last imported/);
    expect(app.mail.length).toBeGreaterThan(before);
    expect(app.mail.at(-1)!.text).toMatch(/Stale lists/);
  });
});
