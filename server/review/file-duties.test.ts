/**
 * Nobody acts on their own file (issue 50 item 1), real PostgreSQL and HTTP: a provider whose file is
 * under review is granted every staff role (Administrator, Credentialing Specialist, Medical Director,
 * Committee Member) and calls every route that declares a file duty, on their own file: each answers
 * 403 with the sentence of domain/review/file-duties.ts, and nothing changes. The same routes of
 * another provider's file pass the guard. And the rule itself, as a table.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FileDuty,
  fileDuties,
  fileDutyRefusal,
  fileDutyText,
  ownFileRefusal,
  recusalOf,
} from '../../domain/review/file-duties.ts';
import { createTestApp, grantAdmin, type signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { completedApplication } from './testing/completed-review-application.ts';

let app: TestApp;
let own: { applicationId: string; providerId: string };
let other: { applicationId: string };
let staffProvider: Awaited<ReturnType<typeof signUpAndSignIn>>;
const ids = {
  finding: randomUUID(),
  otherFinding: randomUUID(),
  item: randomUUID(),
  otherItem: randomUUID(),
};

/** A meeting's agenda item and an open screening finding for `applicationId` (the rows the routes name). */
async function fileRows(applicationId: string, userId: string, findingId: string, itemId: string) {
  const pool = app.runtime.deps.database.pool;
  const referral = await pool.query<{ id: string }>(
    `insert into decision_referrals (application_id, track, reasons, sent_at) values ($1, 'committee', '[]', now()) returning id`,
    [applicationId],
  );
  const meeting = await pool.query<{ id: string }>(
    `insert into committee_meetings (scheduled_at, quorum, created_at) values (now(), 1, now()) returning id`,
  );
  await pool.query(
    'insert into committee_agenda_items (id, meeting_id, application_id, referral_id, position) values ($1, $2, $3, $4, 1)',
    [itemId, meeting.rows[0]!.id, applicationId, referral.rows[0]!.id],
  );
  await pool.query(
    `insert into screening_findings (id, application_id, user_id, source, row_hash, entry_key, entry, strength, matched_on, status, found_at)
     values ($1, $2, $3, 'oig_leie', $4, 'k', '{}', 'possible_match', 'name', 'open', now())`,
    [findingId, applicationId, userId, randomUUID()],
  );
}

beforeAll(async () => {
  app = await createTestApp();
  // First, a provider completes an application; so does another provider.
  const mine = await completedApplication(app);
  staffProvider = mine.provider;
  own = { applicationId: mine.applicationId, providerId: mine.provider.userId };
  other = { applicationId: (await completedApplication(app)).applicationId };
  const otherOwner = await app.runtime.deps.database.pool.query<{ user_id: string }>(
    'select user_id from provider_applications where id = $1',
    [other.applicationId],
  );
  await fileRows(own.applicationId, own.providerId, ids.finding, ids.item);
  await fileRows(other.applicationId, otherOwner.rows[0]!.user_id, ids.otherFinding, ids.otherItem);
  // Then the first provider is made staff with every role, second factor and all.
  await app.runtime.deps.database.pool.query(
    `insert into staff_roles (user_id, role) values ($1, 'specialist'), ($1, 'medical_director'), ($1, 'committee')`,
    [own.providerId],
  );
  await grantAdmin(app, staffProvider);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** The route's path with its params filled for a file: the application, finding or agenda item. */
function pathFor(url: string, file: { applicationId: string; findingId: string; itemId: string }): string {
  return url
    .replace(':applicationId', file.applicationId)
    .replace(':id', file.findingId)
    .replace(':itemId', file.itemId)
    .replace(/:\w+/g, randomUUID());
}

describe('the file-duty guard', () => {
  it('refuses the provider, whatever their roles, on every route that acts on a file, before anything else', async () => {
    const routes = app.runtime.app.routeTable.filter((r) => r.fileDuty);
    // Every duty a route declares is one of the rule's, and the known write routes are all guarded.
    expect(routes.length).toBeGreaterThanOrEqual(17);
    for (const r of routes) expect(fileDuties).toContain(r.fileDuty!.duty);
    const before = await app.runtime.deps.database.pool.query(
      'select application_status, reviewer_id from provider_applications where id = $1',
      [own.applicationId],
    );
    for (const route of routes) {
      const file = { applicationId: own.applicationId, findingId: ids.finding, itemId: ids.item };
      const body = route.fileDuty!.file === 'body_application' ? { applicationId: own.applicationId } : {};
      const answer = await staffProvider.json<{ message: string }>(
        route.method as 'POST',
        pathFor(route.url, file),
        route.method === 'DELETE' ? undefined : body,
      );
      expect(answer.status, `${route.method} ${route.url}`).toBe(403);
      expect(answer.body.message, `${route.method} ${route.url}`).toBe(ownFileRefusal(route.fileDuty!.duty));
    }
    // Nothing moved.
    const after = await app.runtime.deps.database.pool.query(
      'select application_status, reviewer_id from provider_applications where id = $1',
      [own.applicationId],
    );
    expect(after.rows).toEqual(before.rows);
  }, 120_000);

  it("lets the same person do the same on another provider's file (the guard is about the file)", async () => {
    const started = await staffProvider.json(
      'POST',
      `/api/admin/applications/${other.applicationId}/start-review`,
      {},
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const recusals = await staffProvider.json<{ message?: string }>(
      'PUT',
      pathFor('/api/committee/meetings/:meetingId/agenda/:itemId/recusals', {
        applicationId: other.applicationId,
        findingId: ids.otherFinding,
        itemId: ids.otherItem,
      }),
      { memberIds: [] },
    );
    // Past the guard: the meeting id is not this item's, so the service answers 404, not the rule's 403.
    expect(recusals.status).toBe(404);
  });
});

describe('fileDutyRefusal (the rule as a table)', () => {
  const provider = 'p';
  const verifier = 'v';
  const denialVoter = 'd';
  const stranger = 's';
  const file = { providerId: provider, verifierIds: [verifier], denialVoterIds: [denialVoter] };
  const cases: [string, string, FileDuty, string | null][] = [
    ['the provider', provider, 'start_review', ownFileRefusal('start_review')],
    ['the provider', provider, 'vote', ownFileRefusal('vote')],
    ['the provider', provider, 'approve', ownFileRefusal('approve')],
    ['a verifier', verifier, 'verify', null],
    ['a verifier', verifier, 'send_for_decision', null],
    [
      'a verifier',
      verifier,
      'approve',
      expect.stringMatching(/^You verified items of this file: a clean file/) as never,
    ],
    [
      'a verifier',
      verifier,
      'vote',
      expect.stringMatching(/^You verified items of this file: you cannot vote/) as never,
    ],
    ['a denial voter', denialVoter, 'vote', expect.stringMatching(/^You voted on the denial/) as never],
    ['a denial voter', denialVoter, 'record_decision', null],
    ['anyone else', stranger, 'vote', null],
    ['anyone else', stranger, 'approve', null],
  ];
  it.each(cases)('%s (%s) may %s: %s', (_who, userId, duty, expected) => {
    expect(fileDutyRefusal({ userId }, file, duty)).toEqual(expected);
  });

  it('names every duty in words', () => {
    for (const duty of fileDuties)
      expect(ownFileRefusal(duty)).toBe(`This is your own file: someone else must ${fileDutyText[duty]}.`);
  });

  it('recuses the provider, a recorded recusal, a verifier and a denial voter, in that order', () => {
    const facts = { ...file, recusedIds: ['r', provider] };
    expect(recusalOf(provider, facts)).toBe('own_file');
    expect(recusalOf('r', facts)).toBe('recused');
    expect(recusalOf(verifier, facts)).toBe('verifier');
    expect(recusalOf(denialVoter, facts)).toBe('denial_voter');
    expect(recusalOf(stranger, facts)).toBeNull();
  });
});
