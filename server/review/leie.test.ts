/**
 * OIG LEIE import and exclusion screening (issue 15), real PostgreSQL and HTTP, with small synthetic
 * LEIE files made here (invented names only): the import replaces the list, a bad file leaves the old
 * one; Start Review screens the application (No match -> verified with the list's date, Possible match
 * -> pending for a person, Match -> discrepancy); a new import re-screens applications under review
 * but never overwrites what a reviewer recorded by hand.
 */

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReview } from '../../domain/api/review.ts';
import { LEIE_COLUMNS } from '../../domain/review/leie-screening.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { signedAttestation } from '../../tests/http-client.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Lior' });
  await grantAdmin(app, admin);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** One LEIE row (18 fields) from the fields given; the rest empty as the OIG writes them. */
function leieRow(f: { last?: string; first?: string; npi?: string; dob?: string; busName?: string }): string {
  const fields = [
    f.last ?? '',
    f.first ?? '',
    '',
    f.busName ?? '',
    'IND- LIC HC SERV PRO',
    'NURSE/NURSES AIDE',
    '',
    f.npi ?? '0000000000',
    f.dob ?? '',
    '12 INVENTED RD',
    'NOWHERE',
    'IL',
    '60000',
    '1128b4',
    '20200115',
    '00000000',
    '00000000',
    '',
  ];
  return fields.map((v) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',');
}

function leieFile(rows: string[]): string {
  return `${LEIE_COLUMNS.join(',')}\r\n${rows.join('\r\n')}\r\n`;
}

async function importFile(content: string | Buffer, name = 'UPDATED.csv') {
  const form = new FormData();
  form.append(
    'file',
    new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: 'text/csv' }),
    name,
  );
  const response = await admin.request('POST', '/api/admin/leie/import', form);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A provider named `first last` whose completed application an admin has started reviewing. */
async function underReview(first: string, last: string) {
  const provider = await signUpAndSignIn(app, { firstName: first, lastName: last });
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  await createCompletedApplication({
    ...app.runtime.deps,
    userId: provider.userId,
    applicationId: created.body.id,
  });
  expect([200, 202]).toContain(
    (
      await provider.json(
        'POST',
        `/api/applications/${created.body.id}/completion`,
        await signedAttestation(provider),
      )
    ).status,
  );
  expect(
    (await admin.json('POST', `/api/admin/applications/${created.body.id}/start-review`, {})).status,
  ).toBe(200);
  return created.body.id;
}

async function exclusionsItem(applicationId: string) {
  const review = await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`);
  return review.body.checklist.find((i) => i.kind === 'exclusions')!;
}

const tag = () => randomBytes(3).toString('hex').replace(/\d/g, 'x');

describe('OIG LEIE', () => {
  it('imports a file, reports it, and refuses a bad file while keeping the previous list', async () => {
    const empty = await admin.json<{ importedAt: string | null }>('GET', '/api/admin/leie');
    expect(empty.body.importedAt).toBeNull();
    const imported = await importFile(
      leieFile([
        leieRow({ last: 'INVENTED', first: 'PERSON', npi: '1245319599', dob: '19700101' }),
        leieRow({ busName: 'INVENTED CLINIC, LLC' }),
      ]),
    );
    expect(imported).toMatchObject({ status: 200, body: { rowCount: 2, fileName: 'UPDATED.csv' } });
    const status = await admin.json<{ rowCount: number }>('GET', '/api/admin/leie');
    expect(status.body.rowCount).toBe(2);

    const wrongHeader = await importFile('NAME,NPI\nSOMEONE,1234567893\n', 'other.csv');
    expect(wrongHeader.status).toBe(400);
    expect(String(wrongHeader.body.message)).toMatch(/first line must be LASTNAME,FIRSTNAME/);
    const shortRow = await importFile(`${LEIE_COLUMNS.join(',')}\nONLY,THREE,FIELDS\n`);
    expect(shortRow.status).toBe(400);
    expect(String(shortRow.body.message)).toMatch(/line 2 has 3 fields/);
    const notCsv = await importFile(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x22, 0x0a, 0x22, 0x00, 0x2c, 0x22]),
      'x.png',
    );
    expect(notCsv.status).toBe(400);
    // The file name is stored with the import: a NUL in it is refused with a message, never a 500.
    const nulName = await importFile(leieFile([leieRow({ busName: 'OTHER CLINIC' })]), 'UPDATED\u0000.csv');
    expect(nulName).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^The file name/) },
    });
    expect((await admin.json<{ rowCount: number }>('GET', '/api/admin/leie')).body.rowCount).toBe(2);
    const rows = await app.runtime.deps.database.pool.query('select count(*)::int as n from leie_exclusions');
    expect(rows.rows[0].n).toBe(2);
  });

  it('screens at Start Review: no match is verified against the list of its import date', async () => {
    const applicationId = await underReview('Clear', `Case${tag()}`);
    const item = await exclusionsItem(applicationId);
    const list = await admin.json<{ importedAt: string }>('GET', '/api/admin/leie');
    expect(item).toMatchObject({
      status: 'verified',
      source: 'OIG LEIE',
      verifiedAt: list.body.importedAt.slice(0, 10),
    });
    expect(item.note).toMatch(/^No match/);
  });

  it('a name without the date of birth is a possible match, left pending with the row for a person', async () => {
    const last = `Namesake${tag()}`;
    await importFile(leieFile([leieRow({ last: last.toUpperCase(), first: 'ROWAN', dob: '19551111' })]));
    const applicationId = await underReview('Rowan', last);
    const item = await exclusionsItem(applicationId);
    expect(item.status).toBe('pending');
    expect(item.note).toMatch(new RegExp(`^Possible match: ROWAN ${last.toUpperCase()}; born 1955-11-11`));
  });

  it("an NPI on the list is a match; a new import re-screens reviews but keeps a reviewer's own record", async () => {
    await importFile(leieFile([leieRow({ last: 'OTHER', first: 'NAME', npi: '1245319599' })]));
    const flagged = await underReview('Marked', `Later${tag()}`);
    const kept = await underReview('Checked', `ByHand${tag()}`);
    expect((await exclusionsItem(flagged)).status).toBe('verified');
    const manual = await exclusionsItem(kept);
    const recorded = await admin.json(
      'PATCH',
      `/api/admin/applications/${kept}/verification-items/${manual.id}`,
      {
        status: 'verified',
        source: 'SAM.gov and OIG search by hand',
        verifiedAt: new Date().toISOString().slice(0, 10),
      },
    );
    expect(recorded.status).toBe(200);

    // Every factory application has the NPI 1234567893: now on the list.
    const imported = await importFile(
      leieFile([leieRow({ last: 'ANYONE', first: 'ELSE', npi: '1234567893' })]),
    );
    expect(imported.body.rescreened).toBeGreaterThanOrEqual(2);
    const match = await exclusionsItem(flagged);
    expect(match.status).toBe('discrepancy');
    expect(match.note).toMatch(/^Match: ELSE ANYONE; NPI 1234567893/);
    expect(await exclusionsItem(kept)).toMatchObject({
      status: 'verified',
      source: 'SAM.gov and OIG search by hand',
    });
  });

  it('re-screens approved providers after an import: a new match flags the card and emails the admins once', async () => {
    // An approved provider: every item verified (the exclusion item may already be by screening), approved.
    await importFile(leieFile([leieRow({ last: 'NOONE', first: 'LISTED', npi: '1245319599' })]));
    const last = `Approved${tag()}`;
    const applicationId = await underReview('Avery', last);
    for (const item of (
      await admin.json<AdminReview>('GET', `/api/admin/applications/${applicationId}/review`)
    ).body.checklist) {
      if (item.status === 'verified') continue;
      const saved = await admin.json(
        'PATCH',
        `/api/admin/applications/${applicationId}/verification-items/${item.id}`,
        {
          status: 'verified',
          source: item.primarySource,
          verifiedAt: new Date().toISOString().slice(0, 10),
        },
      );
      expect(saved.status).toBe(200);
    }
    expect((await admin.json('POST', `/api/admin/applications/${applicationId}/approve`, {})).status).toBe(
      200,
    );
    const card = async () =>
      (
        await admin.json<{ providers: { currentApplication: { exclusionMatch: string | null } | null }[] }>(
          'GET',
          `/api/admin/providers?search=${encodeURIComponent(last.toLowerCase())}`,
        )
      ).body.providers[0]?.currentApplication?.exclusionMatch;
    expect(await card()).toBeNull();

    // The next month's list has this provider's name and birth date (the factory's 1980-02-29).
    const alerts = () =>
      app.mail.filter((m) => m.subject === 'OIG exclusion list: approved providers now match');
    const before = alerts().length;
    const listed = leieFile([leieRow({ last: last.toUpperCase(), first: 'AVERY', dob: '19800229' })]);
    const first = await importFile(listed);
    expect(first.body).toMatchObject({ newMatches: 1 });
    expect(first.body.approvedScreened).toEqual(expect.any(Number));
    expect(await card()).toBe('match');
    expect(alerts().length).toBe(before + 1); // one administrator in this app: one mail
    expect(alerts().at(-1)!.to).toBe(admin.email);
    expect(alerts().at(-1)!.text).not.toContain(last);
    // The same list again: still flagged, no second alert.
    const again = await importFile(listed);
    expect(again.body).toMatchObject({ newMatches: 0 });
    expect(alerts().length).toBe(before + 1);
  });
});
