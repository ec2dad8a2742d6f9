/**
 * The list sections stored as rows (every list section but documents: the spec's nine and the five of
 * issue 31), against the real PostgreSQL: one `it.each` over the registry
 * runs create / read back / update / delete / order / validation for every section; then the
 * atomicity of a repeatable-card save, CME ordering and the route's input errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_DATE_MESSAGE } from '../../domain/sections/section.ts';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { type StoredListSection, storedListSections } from './list-sections.service.ts';
import { listSectionFixtures as fixtures } from './testing/list-section-fixtures.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

type Row = Record<string, unknown> & { id: string; createdAt: string };
type Fields = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: (string | number)[]; message: string }[];
}

type Provider = Awaited<ReturnType<typeof signUpAndSignIn>>;

async function providerWithApplication(): Promise<{
  provider: Provider;
  applicationId: string;
  base: string;
}> {
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  expect(created.status).toBe(201);
  return { provider, applicationId: created.body.id, base: `/api/applications/${created.body.id}/sections` };
}

/** Save `rows` the way the section's screen does: one PUT of all cards, or one POST per row. */
async function create(
  provider: Provider,
  url: string,
  section: StoredListSection,
  rows: Fields[],
): Promise<Row[]> {
  if (section.layout === 'repeatable-cards') {
    const saved = await provider.json<{ rows: Row[] }>('PUT', url, { rows });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return saved.body.rows;
  }
  const created: Row[] = [];
  for (const row of rows) {
    const response = await provider.json<Row>('POST', url, row);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    created.push(response.body);
  }
  return created;
}

/** Send one row the way the section's screen does; for validation cases. */
function send(provider: Provider, url: string, section: StoredListSection, row: Fields) {
  return section.layout === 'repeatable-cards'
    ? provider.json<ErrorBody>('PUT', url, { rows: [row] })
    : provider.json<ErrorBody>('POST', url, row);
}

const fieldPath = (section: StoredListSection, field: string) =>
  section.layout === 'repeatable-cards' ? ['rows', 0, field] : [field];

const rowOf = (fields: Fields) => ({ id: expect.any(String), createdAt: expect.any(String), ...fields });

describe('list sections: create, read, update, delete, order, validation', () => {
  it.each(storedListSections.map((section) => [section.slug, section] as const))(
    '%s',
    async (_slug, section) => {
      const fixture = fixtures[section.key];
      const { provider, base } = await providerWithApplication();
      const url = `${base}/${section.slug}`;

      // First, the provider's section is empty.
      expect((await provider.json<{ rows: Row[] }>('GET', url)).body).toEqual({ rows: [] });

      // Second, a full row and a sparse one are saved; empty optional fields come back null, defaults applied.
      const [full, sparse] = await create(provider, url, section, [fixture.full, fixture.sparse]);
      expect(full).toEqual(rowOf(fixture.full));
      expect(sparse).toEqual(rowOf(fixture.sparseSaved));
      expect(Number.isNaN(Date.parse(full!.createdAt))).toBe(false);

      // Reading back gives every value exactly, in the section's order.
      const read = await provider.json<{ rows: Row[] }>('GET', url);
      expect(read.status).toBe(200);
      expect(read.body.rows).toEqual(
        section.orderBy === 'createdAt' ? [sparse, full] : [full, sparse], // newest first / by position / dated first
      );

      // Third, repeatable cards: update one card, reorder both, nothing duplicated.
      if (fixture.update) {
        const resaved = await provider.json<{ rows: Row[] }>('PUT', url, {
          rows: [
            { id: sparse!.id, ...fixture.sparse },
            { id: full!.id, ...fixture.full, ...fixture.update.change },
          ],
        });
        expect(resaved.status, JSON.stringify(resaved.body)).toBe(200);
        expect(resaved.body.rows).toEqual([
          { ...sparse, ...fixture.sparseSaved },
          { ...full, ...fixture.full, ...fixture.update.saved },
        ]);
        expect((await provider.json<{ rows: Row[] }>('GET', url)).body.rows).toEqual(resaved.body.rows);
      }

      // Fourth, validation: required fields, an impossible date, a value outside the list; nothing saved.
      for (const [field, message] of Object.entries(fixture.required)) {
        for (const empty of [undefined, '', '   ', null]) {
          const invalid = await send(provider, url, section, { ...fixture.full, [field]: empty });
          expect(invalid.status).toBe(400);
          expect(invalid.body.code).toBe('validation_failed');
          expect(invalid.body.issues).toEqual([{ path: fieldPath(section, field), message }]);
        }
      }
      if (fixture.dateField) {
        const invalid = await send(provider, url, section, {
          ...fixture.full,
          [fixture.dateField]: '2024-02-30',
        });
        expect(invalid.status).toBe(400);
        expect(invalid.body.issues).toEqual([
          { path: fieldPath(section, fixture.dateField), message: INVALID_DATE_MESSAGE },
        ]);
        const label = section.fields.find((f) => f.name === fixture.dateField)!.label;
        expect(invalid.body.message).toContain(`${label}: ${INVALID_DATE_MESSAGE}`);
      }
      const wrong = await send(provider, url, section, {
        ...fixture.full,
        [fixture.wrong.field]: fixture.wrong.value,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.issues).toEqual([
        { path: fieldPath(section, fixture.wrong.field), message: fixture.wrong.message },
      ]);
      expect((await provider.json<{ rows: Row[] }>('GET', url)).body.rows).toHaveLength(2);

      // Fifth, delete one row: it is gone, the other stays; deleting it again is 404.
      expect((await provider.request('DELETE', `${url}/${full!.id}`)).status).toBe(204);
      const afterDelete = await provider.json<{ rows: Row[] }>('GET', url);
      expect(afterDelete.body.rows.map((r) => r.id)).toEqual([sparse!.id]);
      expect((await provider.json<ErrorBody>('DELETE', `${url}/${full!.id}`)).status).toBe(404);
    },
  );

  it('drops unknown fields: nothing but the section fields reaches the database', async () => {
    const alice = await providerWithApplication();
    const bob = await providerWithApplication();
    const smuggled = {
      applicationId: bob.applicationId,
      createdAt: '2000-01-01T00:00:00.000Z',
      position: 99,
      isAdmin: true,
    };
    const payor = await alice.provider.json<Row>('POST', `${alice.base}/payors`, {
      ...fixtures.payors.full,
      ...smuggled,
    });
    expect(payor.status).toBe(201);
    expect(payor.body).toEqual(rowOf(fixtures.payors.full));
    expect(payor.body.createdAt).not.toBe(smuggled.createdAt);
    const cards = await alice.provider.json<{ rows: Row[] }>('PUT', `${alice.base}/education`, {
      rows: [{ ...fixtures.education.full, ...smuggled }],
    });
    expect(cards.body.rows).toEqual([rowOf(fixtures.education.full)]);
    const stored = await app.runtime.deps.database.pool.query(
      `select application_id, position from education where application_id = any($1)
       union all select application_id, 0 from payors where application_id = any($1)`,
      [[alice.applicationId, bob.applicationId]],
    );
    expect(stored.rows).toEqual([
      { application_id: alice.applicationId, position: 0 },
      { application_id: alice.applicationId, position: 0 },
    ]);
    expect((await bob.provider.json<{ rows: Row[] }>('GET', `${bob.base}/payors`)).body.rows).toEqual([]);
  });

  it('orders CME by completion date, newest first, undated last (newest first among them)', async () => {
    const { provider, base } = await providerWithApplication();
    const titles = ['2023 undated-older', '2023 course', '2024 course', 'undated newer'];
    const dates = [null, '2023-01-10', '2024-06-01', ''];
    for (const [i, title] of titles.entries()) {
      const created = await provider.json('POST', `${base}/cme`, {
        activityTitle: title,
        providerName: 'ACC',
        completionDate: dates[i],
      });
      expect(created.status).toBe(201);
    }
    const rows = (await provider.json<{ rows: Row[] }>('GET', `${base}/cme`)).body.rows;
    expect(rows.map((r) => r.activityTitle)).toEqual([
      '2024 course',
      '2023 course',
      'undated newer',
      '2023 undated-older',
    ]);
  });

  it('keeps decimals, booleans and numbers typed: CME 0.5 steps, years known parsed as an integer', async () => {
    const { provider, base } = await providerWithApplication();
    const half = await provider.json<Row>('POST', `${base}/cme`, {
      activityTitle: 'A',
      providerName: 'P',
      creditHours: '1.5',
    });
    expect(half.body.creditHours).toBe(1.5);
    const off = await provider.json<ErrorBody>('POST', `${base}/cme`, {
      activityTitle: 'A',
      providerName: 'P',
      creditHours: 0.3,
    });
    expect(off.status).toBe(400);
    expect(off.body.issues).toEqual([
      { path: ['creditHours'], message: 'Enter credit hours in steps of 0.5' },
    ]);
    // Spec §5: years known is parsed as an integer: 2.5 is stored as 2.
    const fraction = await provider.json<Row>('POST', `${base}/peer-references`, {
      referenceName: 'R',
      yearsKnown: 2.5,
    });
    expect(fraction.status, JSON.stringify(fraction.body)).toBe(201);
    expect(fraction.body.yearsKnown).toBe(2);
    const stored = await provider.json<{ rows: Row[] }>('GET', `${base}/peer-references`);
    expect(stored.body.rows.map((r) => r.yearsKnown)).toEqual([2]);
  });
});

describe('a repeatable-card save is atomic', () => {
  it('a PUT whose second card is invalid changes nothing and names card 2 and its field', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/professional-licenses`;
    // First, one license is saved.
    const [saved] = (
      await provider.json<{ rows: Row[] }>('PUT', url, { rows: [fixtures.professionalLicenses.full] })
    ).body.rows;
    // Second, the provider edits it, adds a new card and a third with an impossible date.
    const invalid = await provider.json<ErrorBody>('PUT', url, {
      rows: [
        { id: saved!.id, ...fixtures.professionalLicenses.full, licenseNumber: 'CHANGED' },
        { licenseNumber: 'NEW-1', issueDate: '2024-02-30' },
        { licenseNumber: 'NEW-2' },
      ],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('validation_failed');
    expect(invalid.body.issues).toEqual([{ path: ['rows', 1, 'issueDate'], message: INVALID_DATE_MESSAGE }]);
    expect(invalid.body.message).toContain('Entry 2, Issue Date');
    // Nothing changed: the saved license is as it was and no card was inserted.
    expect((await provider.json<{ rows: Row[] }>('GET', url)).body.rows).toEqual([saved]);
  });

  it('a database failure on the second card rolls back the first', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/vaccinations`;
    const [saved] = (await provider.json<{ rows: Row[] }>('PUT', url, { rows: [fixtures.vaccinations.full] }))
      .body.rows;
    // The database refuses one lot number (a test-only trigger): it fails after the first card is written.
    const pool = app.runtime.deps.database.pool;
    await pool.query(`
      create function refuse_lot() returns trigger language plpgsql as $$
      begin
        if new.lot_number = 'REFUSED' then raise exception 'refused' using errcode = '22023'; end if;
        return new;
      end $$;
      create trigger refuse_lot before insert or update on vaccinations for each row execute function refuse_lot();`);
    try {
      const failed = await provider.json<ErrorBody>('PUT', url, {
        rows: [
          { id: saved!.id, ...fixtures.vaccinations.full, lotNumber: 'UPDATED' },
          { vaccineName: 'mmr', lotNumber: 'FIRST-NEW' },
          { vaccineName: 'tdap', lotNumber: 'REFUSED' },
        ],
      });
      expect(failed.status).toBe(400);
      expect((await provider.json<{ rows: Row[] }>('GET', url)).body.rows).toEqual([saved]);
    } finally {
      await pool.query('drop trigger refuse_lot on vaccinations; drop function refuse_lot();');
    }
  });

  it("a PUT that references another application's row saves nothing", async () => {
    const alice = await providerWithApplication();
    const bob = await providerWithApplication();
    const [bobsRow] = (
      await bob.provider.json<{ rows: Row[] }>('PUT', `${bob.base}/education`, {
        rows: [fixtures.education.full],
      })
    ).body.rows;
    const attempt = await alice.provider.json<ErrorBody>('PUT', `${alice.base}/education`, {
      rows: [{ institutionName: 'Alice University' }, { id: bobsRow!.id, institutionName: 'Hijacked' }],
    });
    expect(attempt.status).toBe(404);
    expect((await alice.provider.json<{ rows: Row[] }>('GET', `${alice.base}/education`)).body.rows).toEqual(
      [],
    );
    expect((await bob.provider.json<{ rows: Row[] }>('GET', `${bob.base}/education`)).body.rows).toEqual([
      bobsRow,
    ]);
    // Nor can a row of another section of the same application be claimed.
    const [license] = (
      await alice.provider.json<{ rows: Row[] }>('PUT', `${alice.base}/professional-licenses`, {
        rows: [{ licenseNumber: 'L' }],
      })
    ).body.rows;
    const crossSection = await alice.provider.json<ErrorBody>('PUT', `${alice.base}/education`, {
      rows: [{ id: license!.id, institutionName: 'X' }],
    });
    expect(crossSection.status).toBe(404);
    // A card listed twice is refused before anything is written.
    const twice = await alice.provider.json<ErrorBody>('PUT', `${alice.base}/professional-licenses`, {
      rows: [
        { id: license!.id, licenseNumber: 'A' },
        { id: license!.id, licenseNumber: 'B' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.issues).toEqual([{ path: ['rows', 1, 'id'], message: 'Duplicate entry' }]);
  });
});

describe('input errors are 4xx with a message, never 500', () => {
  it('unknown slugs, wrong methods, malformed bodies, bad ids', async () => {
    const { provider, base } = await providerWithApplication();
    const unknown = await provider.json<ErrorBody>('GET', `${base}/hobbies`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('There is no section "hobbies"');
    expect((await provider.json<ErrorBody>('GET', `${base}/documents`)).status).toBe(404);
    const postCards = await provider.json<ErrorBody>('POST', `${base}/education`, fixtures.education.full);
    expect(postCards.status).toBe(400);
    expect(postCards.body.message).toBe(
      'The Education section is saved as a whole screen: send PUT with { rows: [...] }.',
    );
    const putTable = await provider.json<ErrorBody>('PUT', `${base}/payors`, {
      rows: [fixtures.payors.full],
    });
    expect(putTable.status).toBe(400);
    expect(putTable.body.message).toBe(
      'The Payors section adds one entry at a time: send POST with one entry.',
    );

    const malformed = await provider.request('POST', `${base}/payors`, undefined, {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    const badJson = await fetch(`${app.baseUrl}${base}/payors`, {
      method: 'POST',
      headers: {
        cookie: provider.cookie,
        origin: 'http://localhost:3000',
        'content-type': 'application/json',
      },
      body: '{"payorName": ',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as ErrorBody).message).toBe('The request body is not valid JSON.');
    for (const body of [[fixtures.payors.full], 'Aetna', { payorName: 42 }, { payorName: 'x'.repeat(201) }]) {
      expect((await provider.json<ErrorBody>('POST', `${base}/payors`, body)).status).toBe(400);
    }
    for (const body of [
      {},
      { rows: 'none' },
      { rows: [1] },
      { rows: [{ id: 'not-a-uuid' }] },
      { rows: Array(51).fill({}) },
    ]) {
      const response = await provider.json<ErrorBody>('PUT', `${base}/education`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('validation_failed');
    }
    // Values PostgreSQL cannot store: a NUL character, the year 0000.
    const nul = await provider.json<ErrorBody>('POST', `${base}/payors`, { payorName: 'A\u0000B' });
    expect(nul.status).toBe(400);
    expect(nul.body.issues?.[0]?.path).toEqual(['payorName']);
    const yearZero = await provider.json<ErrorBody>('PUT', `${base}/education`, {
      rows: [{ graduationDate: '0000-01-01' }],
    });
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.issues).toEqual([
      { path: ['rows', 0, 'graduationDate'], message: INVALID_DATE_MESSAGE },
    ]);

    expect((await provider.json('DELETE', `${base}/payors/not-a-uuid`)).status).toBe(404);
    expect(
      (await provider.json('DELETE', `${base}/payors/00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(404);
    expect((await provider.json('GET', '/api/applications/not-a-uuid/sections/payors')).status).toBe(404);
    expect((await provider.json<{ rows: Row[] }>('GET', `${base}/payors`)).body.rows).toEqual([]);
  });
});
