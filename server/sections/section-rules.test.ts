/**
 * The rules of issue 31 that one row's schema cannot check (section-rules.ts, applied by `saveRows`
 * in the save's transaction), over real HTTP on the real PostgreSQL: the NUCC code set, a board
 * certification (kind 'board', issue 51 item 4) of the same application, exactly one primary
 * specialty (issue 51 item 4), at most one primary location, the none answer alone.
 * Every refusal is a 400 that names the entry and leaves the section as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_PRIMARY_LOCATION } from '../../domain/sections/practice-locations.ts';
import { ONE_PRIMARY_SPECIALTY, PRIMARY_SPECIALTY_REQUIRED } from '../../domain/sections/specialties.ts';
import { createTestApp, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

type Row = Record<string, unknown> & { id: string; createdAt: string };
interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: (string | number)[]; message: string }[];
}
type Provider = Awaited<ReturnType<typeof signUpAndSignIn>>;

async function providerWithApplication() {
  const provider = await signUpAndSignIn(app);
  const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
  expect(created.status).toBe(201);
  const base = `/api/applications/${created.body.id}/sections`;
  return { provider, applicationId: created.body.id, base };
}

async function rowsOf(provider: Provider, url: string): Promise<Row[]> {
  const read = await provider.json<{ rows: Row[] }>('GET', url);
  expect(read.status).toBe(200);
  return read.body.rows;
}

/** PUT the cards; expects 200 and returns the saved rows. */
async function save(provider: Provider, url: string, rows: Record<string, unknown>[]): Promise<Row[]> {
  const saved = await provider.json<{ rows: Row[] }>('PUT', url, { rows });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.rows;
}

/** PUT the cards; expects 400 and returns the error. */
async function refused(provider: Provider, url: string, rows: Record<string, unknown>[]): Promise<ErrorBody> {
  const answer = await provider.json<ErrorBody>('PUT', url, { rows });
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.code).toBe('validation_failed');
  return answer.body;
}

async function addCertification(
  provider: Provider,
  base: string,
  name: string,
  certificationKind: 'board' | 'other' = 'board',
): Promise<Row> {
  const created = await provider.json<Row>('POST', `${base}/certifications`, {
    certificationKind,
    certificationName: name,
    certifyingBody:
      certificationKind === 'board' ? 'American Board of Internal Medicine' : 'American Heart Association',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('Specialties: the NUCC code set', () => {
  it('refuses a code outside the code set, naming the entry, and saves nothing', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/specialties`;
    // Well formed (the schema's pattern accepts it) but not a NUCC code.
    const body = await refused(provider, url, [
      { specialtyRank: 'primary', taxonomyCode: '207RC0000X' },
      { specialtyRank: 'secondary', taxonomyCode: '209ZZ0000X' },
    ]);
    const message = '209ZZ0000X is not a code of the NUCC taxonomy. Choose a specialty from the list.';
    expect(body.message).toBe(`Please correct the highlighted fields: Entry 2: ${message}`);
    expect(body.issues).toEqual([{ path: ['rows', 1, 'taxonomyCode'], message }]);
    expect(await rowsOf(provider, url)).toEqual([]);
  });

  it("writes the code set's classification and specialization, whatever the client sends", async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/specialties`;
    const [cardiology, nursePractitioner] = await save(provider, url, [
      {
        specialtyRank: 'primary',
        taxonomyCode: '207RC0000X',
        classification: 'Brain Surgery',
        specialization: 'Anything I like',
      },
      // Lower case is the same code; a classification-level code has no specialization.
      {
        specialtyRank: 'secondary',
        taxonomyCode: '363lf0000x',
        classification: '',
        specialization: 'Family',
      },
    ]);
    expect(cardiology).toMatchObject({
      taxonomyCode: '207RC0000X',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
    });
    expect(nursePractitioner).toMatchObject({
      taxonomyCode: '363LF0000X',
      classification: 'Nurse Practitioner',
      specialization: 'Family',
    });
    // A classification-level code: the client's specialization is dropped, not stored.
    const [internal] = await save(provider, url, [
      {
        id: cardiology!.id,
        specialtyRank: 'primary',
        taxonomyCode: '207R00000X',
        specialization: 'Oncology',
      },
      { id: nursePractitioner!.id, specialtyRank: 'secondary', taxonomyCode: '363LF0000X' },
    ]);
    expect(internal).toMatchObject({
      taxonomyCode: '207R00000X',
      classification: 'Internal Medicine',
      specialization: null,
    });
    const stored = await app.runtime.deps.database.pool.query(
      'select classification, specialization from specialties where id = $1',
      [cardiology!.id],
    );
    expect(stored.rows).toEqual([{ classification: 'Internal Medicine', specialization: null }]);
  });
});

describe('Specialties: the linked board certification', () => {
  it("links one of the application's certifications, and refuses another provider's, saving nothing", async () => {
    const alice = await providerWithApplication();
    const bob = await providerWithApplication();
    const own = await addCertification(alice.provider, alice.base, 'Internal Medicine');
    const bobs = await addCertification(bob.provider, bob.base, 'Cardiovascular Disease');
    const url = `${alice.base}/specialties`;

    const [linked] = await save(alice.provider, url, [
      { specialtyRank: 'primary', taxonomyCode: '207R00000X', boardCertificationId: own.id },
    ]);
    expect(linked!.boardCertificationId).toBe(own.id);

    // Bob's certification id in Alice's second card: refused whole, her first card unchanged.
    const body = await refused(alice.provider, url, [
      { id: linked!.id, specialtyRank: 'primary', taxonomyCode: '207R00000X', boardCertificationId: own.id },
      { specialtyRank: 'secondary', taxonomyCode: '207RC0000X', boardCertificationId: bobs.id },
    ]);
    const message =
      'This certification is not in your Certifications section (it may have been deleted). Choose one from the list.';
    expect(body.message).toBe(`Please correct the highlighted fields: Entry 2: ${message}`);
    expect(body.issues).toEqual([{ path: ['rows', 1, 'boardCertificationId'], message }]);
    expect(await rowsOf(alice.provider, url)).toEqual([linked]);

    // Nor by changing the saved card: the link stays her own.
    await refused(alice.provider, url, [
      { id: linked!.id, specialtyRank: 'primary', taxonomyCode: '207R00000X', boardCertificationId: bobs.id },
    ]);
    const stored = await app.runtime.deps.database.pool.query(
      'select application_id, board_certification_id from specialties where board_certification_id = $1',
      [bobs.id],
    );
    expect(stored.rows).toEqual([]);
    expect((await rowsOf(alice.provider, url))[0]!.boardCertificationId).toBe(own.id);
  });

  it("refuses a link to a certification of type 'Other Certification' (issue 51 item 4), saving nothing", async () => {
    // First, the provider lists a board certification and ACLS.
    const { provider, base } = await providerWithApplication();
    const board = await addCertification(provider, base, 'Internal Medicine');
    const acls = await addCertification(provider, base, 'Advanced Cardiovascular Life Support', 'other');
    expect(acls.certificationKind).toBe('other');
    const url = `${base}/specialties`;

    // Second, a specialty linked to ACLS is refused whole, the other card too.
    const body = await refused(provider, url, [
      { specialtyRank: 'primary', taxonomyCode: '207R00000X', boardCertificationId: board.id },
      { specialtyRank: 'secondary', taxonomyCode: '207RC0000X', boardCertificationId: acls.id },
    ]);
    const message =
      "This certification is not a board certification (its type is 'Other Certification (e.g. ACLS, BLS, PALS)'). Choose a board certification, or leave this empty.";
    expect(body.message).toBe(`Please correct the highlighted fields: Entry 2: ${message}`);
    expect(body.issues).toEqual([{ path: ['rows', 1, 'boardCertificationId'], message }]);
    expect(await rowsOf(provider, url)).toEqual([]);

    // Last, linked to the board certification it is saved.
    const [saved] = await save(provider, url, [
      { specialtyRank: 'primary', taxonomyCode: '207R00000X', boardCertificationId: board.id },
    ]);
    expect(saved!.boardCertificationId).toBe(board.id);
  });

  it("clears the specialty's link when the linked certification is deleted", async () => {
    const { provider, base } = await providerWithApplication();
    const certification = await addCertification(provider, base, 'Internal Medicine');
    const url = `${base}/specialties`;
    const [specialty] = await save(provider, url, [
      { specialtyRank: 'primary', taxonomyCode: '207R00000X', boardCertificationId: certification.id },
    ]);
    expect(specialty!.boardCertificationId).toBe(certification.id);

    const deleted = await provider.request('DELETE', `${base}/certifications/${certification.id}`);
    expect(deleted.status).toBe(204);
    const [after] = await rowsOf(provider, url);
    expect(after).toEqual({ ...specialty, boardCertificationId: null });
    // The screen's next save of the old link (a stale form) is refused, not stored.
    await refused(provider, url, [
      {
        id: specialty!.id,
        specialtyRank: 'primary',
        taxonomyCode: '207R00000X',
        boardCertificationId: certification.id,
      },
    ]);
  });
});

describe('exactly one primary specialty, at most one primary location', () => {
  it('refuses two primary specialties in one save, and nothing is saved', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/specialties`;
    const body = await refused(provider, url, [
      { specialtyRank: 'primary', taxonomyCode: '207R00000X' },
      { specialtyRank: 'secondary', taxonomyCode: '207RG0100X' },
      // No rank is primary (the field's default).
      { taxonomyCode: '207RC0000X' },
    ]);
    expect(body).toEqual({
      code: 'validation_failed',
      message: 'Only one specialty can be primary. Make the others secondary.',
      issues: [{ path: ['rows', 2, 'specialtyRank'], message: ONE_PRIMARY_SPECIALTY }],
    });
    expect(await rowsOf(provider, url)).toEqual([]);
  });

  it('refuses a second primary sent alone in a later save (the first was saved earlier), and keeps the first', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/specialties`;
    const first = await save(provider, url, [{ specialtyRank: 'primary', taxonomyCode: '207R00000X' }]);
    // A save of only the new card (the first is not in the body): the rule covers every saved row.
    const body = await refused(provider, url, [{ specialtyRank: 'primary', taxonomyCode: '207RC0000X' }]);
    expect(body.message).toBe(ONE_PRIMARY_SPECIALTY);
    expect(body.issues).toEqual([{ path: ['rows', 1, 'specialtyRank'], message: ONE_PRIMARY_SPECIALTY }]);
    expect(await rowsOf(provider, url)).toEqual(first);
    // Made secondary, it is saved.
    const both = await save(provider, url, [
      { id: first[0]!.id, specialtyRank: 'primary', taxonomyCode: '207R00000X' },
      { specialtyRank: 'secondary', taxonomyCode: '207RC0000X' },
    ]);
    expect(both.map((r) => r.specialtyRank)).toEqual(['primary', 'secondary']);
  });

  it('refuses specialties without a primary one (issue 51 item 4), in one save or by demoting the saved one', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/specialties`;
    const body = await refused(provider, url, [
      { specialtyRank: 'secondary', taxonomyCode: '207R00000X' },
      { specialtyRank: 'secondary', taxonomyCode: '207RC0000X' },
    ]);
    expect(body).toEqual({
      code: 'validation_failed',
      message: 'Mark exactly one specialty as primary.',
      issues: [{ path: ['rows', 0, 'specialtyRank'], message: PRIMARY_SPECIALTY_REQUIRED }],
    });
    expect(await rowsOf(provider, url)).toEqual([]);

    // The saved primary made secondary, with a new secondary card: refused whole, nothing changed.
    const first = await save(provider, url, [{ specialtyRank: 'primary', taxonomyCode: '207R00000X' }]);
    const demoted = await refused(provider, url, [
      { id: first[0]!.id, specialtyRank: 'secondary', taxonomyCode: '207R00000X' },
      { specialtyRank: 'secondary', taxonomyCode: '207RC0000X' },
    ]);
    expect(demoted.message).toBe(PRIMARY_SPECIALTY_REQUIRED);
    expect(await rowsOf(provider, url)).toEqual(first);
  });

  it('refuses a second primary practice location, and nothing is saved', async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/practice-locations`;
    const body = await refused(provider, url, [
      { practiceName: 'Lakeside Family Practice', isPrimaryLocation: true },
      { practiceName: 'Northside Clinic', isPrimaryLocation: true },
    ]);
    expect(body.message).toBe(ONE_PRIMARY_LOCATION);
    expect(body.issues).toEqual([{ path: ['rows', 1, 'isPrimaryLocation'], message: ONE_PRIMARY_LOCATION }]);
    expect(await rowsOf(provider, url)).toEqual([]);
  });
});

describe('the none answer (Training, Malpractice Claims)', () => {
  it("saves 'No claims in the last 10 years' alone, and refuses it with a claim, in one save or two", async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/malpractice-claims`;
    const claim = { status: 'closed', claimDate: '2021-03-04', amountPaid: 0, insurer: 'MedPro' };
    const mixedMessage =
      "'No claims in the last 10 years' cannot be saved together with claims. Remove the claims, or clear 'No claims in the last 10 years'.";

    // In one save: the answer next to a claim.
    const together = await refused(provider, url, [claim, { noClaims: true }]);
    expect(together.message).toBe(mixedMessage);
    expect(together.issues).toEqual([{ path: ['rows', 1, 'noClaims'], message: mixedMessage }]);
    expect(await rowsOf(provider, url)).toEqual([]);

    // The answer alone is saved, with every other field empty.
    const [answer] = await save(provider, url, [{ noClaims: true }]);
    expect(answer).toMatchObject({
      noClaims: true,
      incidentDate: null,
      claimDate: null,
      status: null,
      amountPaid: null,
      insurer: null,
      description: null,
    });

    // A later save of only a new claim: the saved answer and the claim together are refused.
    const later = await refused(provider, url, [claim]);
    expect(later.message).toBe(mixedMessage);
    expect(later.issues).toEqual([{ path: ['rows', 0, 'noClaims'], message: mixedMessage }]);
    expect(await rowsOf(provider, url)).toEqual([answer]);
  });

  it('refuses an answer row that also fills another field, naming the field, and saves nothing', async () => {
    const { provider, base } = await providerWithApplication();
    const claims = await refused(provider, `${base}/malpractice-claims`, [
      { noClaims: true, insurer: 'MedPro' },
    ]);
    const clearClaims = "Clear this field, or clear 'No claims in the last 10 years'";
    expect(claims.issues).toEqual([{ path: ['rows', 0, 'insurer'], message: clearClaims }]);
    expect(claims.message).toBe(`Please correct the highlighted fields: Entry 1, Insurer: ${clearClaims}`);
    expect(await rowsOf(provider, `${base}/malpractice-claims`)).toEqual([]);

    const training = await refused(provider, `${base}/training`, [
      { noTraining: true, trainingType: 'residency', institutionName: 'Cook County Hospital' },
    ]);
    const clearTraining = "Clear this field, or clear 'No internship, residency or fellowship'";
    expect(training.issues).toEqual([
      { path: ['rows', 0, 'trainingType'], message: clearTraining },
      { path: ['rows', 0, 'institutionName'], message: clearTraining },
    ]);
    expect(await rowsOf(provider, `${base}/training`)).toEqual([]);
  });

  it("saves 'No internship, residency or fellowship' alone, and refuses it next to a program", async () => {
    const { provider, base } = await providerWithApplication();
    const url = `${base}/training`;
    const residency = {
      trainingType: 'residency',
      institutionName: 'Cook County Hospital',
      completed: 'yes',
    };
    const [answer] = await save(provider, url, [{ noTraining: true }]);
    expect(answer).toMatchObject({ noTraining: true, trainingType: null, institutionName: null });
    // Saving the screen again as it is (the saved card with its id) keeps the answer.
    expect(await save(provider, url, [{ id: answer!.id, noTraining: true }])).toEqual([answer]);
    // A program added in a later save, next to the saved answer: refused whole.
    const body = await refused(provider, url, [residency]);
    expect(body.message).toBe(
      "'No internship, residency or fellowship' cannot be saved together with training programs. Remove the training programs, or clear 'No internship, residency or fellowship'.",
    );
    expect(await rowsOf(provider, url)).toEqual([answer]);
    // Clearing the answer on the same card turns it into the program.
    const [program] = await save(provider, url, [{ id: answer!.id, noTraining: false, ...residency }]);
    expect(program).toMatchObject({ id: answer!.id, noTraining: false, trainingType: 'residency' });
  });
});
