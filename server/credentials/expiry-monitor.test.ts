/**
 * The daily expiring-credentials job (issue 14) against the real PostgreSQL, with the clock driven
 * by the test: each threshold fires once, a second run and a second instance send nothing new, the
 * administrators get one digest, and only current applications are watched; hospital privileges'
 * end dates too (issue 31 item 5), whose passing reopens the privileges item of an approved provider.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import { runDueJobs } from '../cluster/scheduled-jobs.ts';
import { approveCleanFile } from '../committee/testing/decide.ts';
import { credentialExpiryNotices } from '../db/schema/credentials.ts';
import { hospitalAffiliations, professionalLicenses } from '../db/schema/sections.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { createCompletedApplication } from '../notifications/testing/completed-application.ts';
import { completedApplication } from '../review/testing/completed-review-application.ts';
import { verifyEveryItem } from '../review/testing/verify-items.ts';
import { markNoticesDigested, runExpiryMonitor } from './expiry-monitor.ts';

let app: TestApp;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  app = await createTestApp();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const day = 24 * 60 * 60 * 1000;
/** The job's dependencies: the test app's database and its capturing mailer (`app.mail`). */
const monitorDeps = () => ({
  db: app.runtime.deps.db,
  mailer: app.runtime.deps.mailer,
  appUrl: 'https://portal.example',
  logger: silent,
});
/** Noon UTC, `offset` days from the license's expiry date. */
const at = (expiresOn: string, offset: number) =>
  new Date(Date.parse(`${expiresOn}T12:00:00Z`) + offset * day);

describe('credential-expiry job', () => {
  it('emails each threshold once, digests for admins, and a second run or instance sends nothing', async () => {
    const deps = monitorDeps();
    const admin = await signUpAndSignIn(app, { firstName: 'Ada' });
    await grantAdmin(app, admin);
    const provider = await signUpAndSignIn(app, { firstName: 'Iris' });
    const { applicationId } = await createCompletedApplication({
      ...app.runtime.deps,
      userId: provider.userId,
    });
    const expiresOn = '2031-03-15';
    await app.runtime.deps.db.insert(professionalLicenses).values({
      applicationId,
      licenseType: 'medical_license',
      licenseNumber: 'IL-31',
      issuingState: 'IL',
      expirationDate: expiresOn,
    });
    // The factory's policy expired in 2025 and its other dates run to 2030: clear them from this test's
    // clock by starting after 2030, where they have all expired already (recorded at the first run).
    const mailTo = (email: string) => app.mail.filter((m) => m.to === email);
    const licenseMail = () => mailTo(provider.email).filter((m) => m.text.includes('IL-31'));

    // 100 days before: nothing for the license yet.
    await runExpiryMonitor(deps, at(expiresOn, -100));
    expect(licenseMail()).toHaveLength(0);
    const firstMails = mailTo(provider.email).length;
    expect(
      mailTo(admin.email).filter((m) => m.subject === 'Expiring credentials: daily digest'),
    ).toHaveLength(1);

    // 85 days before: the 90-day threshold, once; the same day again records and sends nothing.
    expect((await runExpiryMonitor(deps, at(expiresOn, -85))).recorded).toBe(1);
    expect(licenseMail()).toHaveLength(1);
    expect(licenseMail()[0]!.text).toContain(
      'Professional Licenses: Medical License IL-31 (IL), expires Mar 15, 2031 (85 days left)',
    );
    expect(await runExpiryMonitor(deps, at(expiresOn, -85))).toEqual({
      recorded: 0,
      providersEmailed: 0,
      adminsDigested: 0,
      reopened: 0,
    });
    // Days later, still within the same threshold: nothing new.
    expect((await runExpiryMonitor(deps, at(expiresOn, -70))).recorded).toBe(0);

    // 60, 30 and 7 days before, and after the date: one email each.
    for (const [offset, text] of [
      [-60, '(60 days left)'],
      [-20, '(20 days left)'],
      [-7, '(7 days left)'],
      [1, 'expired Mar 15, 2031 (Expired)'],
    ] as const) {
      expect((await runExpiryMonitor(deps, at(expiresOn, offset))).recorded).toBe(1);
      expect(licenseMail().at(-1)!.text).toContain(text);
    }
    expect(licenseMail()).toHaveLength(5);
    expect(mailTo(provider.email).length - firstMails).toBe(5);
    // The digest counts, names nobody.
    const digests = mailTo(admin.email).filter((m) => m.subject === 'Expiring credentials: daily digest');
    expect(digests).toHaveLength(6);
    expect(digests.at(-1)!.text).toContain('1 credential of 1 provider crossed an expiry threshold');
    expect(digests.at(-1)!.text).not.toContain('IL-31');

    // Through the scheduler, two instances on the same day: one runs it, the other does not.
    const job = {
      name: 'credential-expiry',
      periodOf: (now: Date) => now.toISOString().slice(0, 10),
      run: (now: Date) => runExpiryMonitor(deps, now).then(() => {}),
    };
    const sameDay = at(expiresOn, 2);
    expect(await runDueJobs(app.runtime.deps.db, [job], randomUUID(), sameDay, silent)).toEqual([
      'credential-expiry',
    ]);
    expect(await runDueJobs(app.runtime.deps.db, [job], randomUUID(), sameDay, silent)).toEqual([]);
    expect(licenseMail()).toHaveLength(5);
  });

  it('watches only the current application: a newer submitted one, not an older draft', async () => {
    const deps = monitorDeps();
    const provider = await signUpAndSignIn(app, { firstName: 'Omar' });
    const older = await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId });
    const newer = await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId });
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'submitted', created_at = now() + interval '1 minute' where id = $1`,
      [newer.applicationId],
    );
    for (const [applicationId, number] of [
      [older.applicationId, 'OLD-1'],
      [newer.applicationId, 'NEW-1'],
    ] as const) {
      await app.runtime.deps.db
        .insert(professionalLicenses)
        .values({ applicationId, licenseNumber: number, expirationDate: '2032-01-10' });
    }
    await runExpiryMonitor(deps, at('2032-01-10', -10));
    const texts = app.mail
      .filter((m) => m.to === provider.email)
      .map((m) => m.text)
      .join('\n');
    expect(texts).toContain('NEW-1');
    expect(texts).not.toContain('OLD-1');
  });

  it('counts one of two applications created at the same instant as current, not both', async () => {
    const deps = monitorDeps();
    const provider = await signUpAndSignIn(app, { firstName: 'Tia' });
    const first = await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId });
    const second = await createCompletedApplication({ ...app.runtime.deps, userId: provider.userId });
    await app.runtime.deps.database.pool.query(
      `update provider_applications set application_status = 'submitted', created_at = '2033-01-01T00:00:00Z'
       where id = any($1::uuid[])`,
      [[first.applicationId, second.applicationId]],
    );
    for (const applicationId of [first.applicationId, second.applicationId]) {
      await app.runtime.deps.db
        .insert(professionalLicenses)
        .values({ applicationId, licenseNumber: `TIE-${applicationId}`, expirationDate: '2032-03-10' });
    }
    await runExpiryMonitor(deps, at('2032-03-10', -10));
    const mails = app.mail.filter((m) => m.to === provider.email).map((m) => m.text);
    const named = [first.applicationId, second.applicationId].filter((id) =>
      mails.some((text) => text.includes(`TIE-${id}`)),
    );
    // The larger id wins the tie, as the admin 'Expiring' tab counts it too.
    expect(named).toEqual([[first.applicationId, second.applicationId].sort().at(-1)]);
  });

  it("reopens an approved provider's lapsed credentials as discrepancies, each once", async () => {
    const deps = monitorDeps();
    const admin = await signUpAndSignIn(app, { firstName: 'Bea' });
    await grantAdmin(app, admin);
    const { applicationId } = await completedApplication(app);
    const adminPath = (rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
    expect((await admin.json('POST', adminPath('start-review'), {})).status).toBe(200);
    await verifyEveryItem(admin, applicationId, { verifiedAt: new Date().toISOString().slice(0, 10) });
    await approveCleanFile(app, admin, applicationId);
    const items = async () =>
      (
        await app.runtime.deps.database.pool.query<{ item_key: string; status: string; note: string | null }>(
          'select item_key, status, note from verification_items where application_id = $1',
          [applicationId],
        )
      ).rows;
    const licenseItem = async () =>
      (await items()).find((i) => i.item_key === 'license:medical_license:IL:MD-1')!;
    expect((await licenseItem()).status).toBe('verified');

    // 10 days before the factory's medical license MD-1 expires (2030-06-01), only the factory's
    // malpractice policy (expired 2025-01-01) has lapsed: its coverage item is reopened, not the license.
    expect((await runExpiryMonitor(deps, at('2030-06-01', -10))).reopened).toBe(1);
    expect((await items()).find((i) => i.item_key === 'malpractice')).toMatchObject({
      status: 'discrepancy',
      note: expect.stringContaining('expired on 2025-01-01'),
    });
    expect((await licenseItem()).status).toBe('verified');
    // The day after the license's date: its item is a discrepancy with a note saying what lapsed when.
    expect((await runExpiryMonitor(deps, at('2030-06-01', 1))).reopened).toBe(1);
    const reopened = await licenseItem();
    expect(reopened.status).toBe('discrepancy');
    expect(reopened.note).toContain('Lapsed: Medical License MD-1 (IL) expired on 2030-06-01');
    expect((await items()).find((i) => i.item_key === 'npi')!.status).toBe('verified');
    const audit = await app.runtime.deps.database.pool.query(
      `select 1 from audit_log where action = 'review.credential_lapsed' and details->>'applicationId' = $1
         and details->>'kind' = 'professional_license'`,
      [applicationId],
    );
    expect(audit.rowCount).toBe(1);
    // The digest tells the team.
    const digest = app.mail.filter((m) => m.to === admin.email).at(-1)!;
    expect(digest.text).toMatch(/verification items? (was|were) of approved providers reopened/);

    // A reviewer records the renewal; a later run does not reopen the same lapse again.
    await app.runtime.deps.database.pool.query(
      `update verification_items set status = 'verified' where application_id = $1 and item_key = $2`,
      [applicationId, 'license:medical_license:IL:MD-1'],
    );
    expect((await runExpiryMonitor(deps, at('2030-06-01', 5))).reopened).toBe(0);
    expect((await licenseItem()).status).toBe('verified');
  });

  it('records more notices than one statement holds (600 licenses) and counts them in the digest', async () => {
    const deps = monitorDeps();
    const admin = await signUpAndSignIn(app, { firstName: 'Cleo' });
    await grantAdmin(app, admin);
    const provider = await signUpAndSignIn(app, { firstName: 'Dara' });
    const { applicationId } = await createCompletedApplication({
      ...app.runtime.deps,
      userId: provider.userId,
    });
    await app.runtime.deps.db.insert(professionalLicenses).values(
      Array.from({ length: 600 }, (_, i) => ({
        applicationId,
        licenseType: 'medical_license' as const,
        licenseNumber: `BULK-${i}`,
        issuingState: 'TX',
        expirationDate: '2033-09-01',
      })),
    );
    await runExpiryMonitor(deps, at('2033-09-01', -400)); // Earlier thresholds of other tests' data.
    const result = await runExpiryMonitor(deps, at('2033-09-01', -20));
    expect(result.recorded).toBe(600);
    const mail = app.mail.filter((m) => m.to === provider.email).at(-1)!;
    expect(mail.text.match(/BULK-\d+/g)).toHaveLength(600);
    const digest = app.mail.filter((m) => m.to === admin.email).at(-1)!;
    expect(digest.text).toContain('600 credentials of 1 provider crossed an expiry threshold');
    expect(digest.text).toContain('- within 30 days: 600');
    expect((await runExpiryMonitor(deps, at('2033-09-01', -20))).recorded).toBe(0);
  });

  /**
   * Run A and run B at the same `now`, as a second instance does when it takes over a lease that ended
   * during a long first run: A stops at its first email matching `pauseAt` and goes on once B has
   * sent an email matching `resumeAfter` (or, without one, once B has finished).
   * @returns per provider, the license emails both runs sent; the digests the new administrator got
   */
  async function overlappingRuns(
    expiresOn: string,
    pauseAt: (message: MailMessage) => boolean,
    resumeAfter?: (message: MailMessage) => boolean,
  ) {
    const admin = await signUpAndSignIn(app, { firstName: 'Dana' });
    await grantAdmin(app, admin);
    const providers = [
      await signUpAndSignIn(app, { firstName: 'Lee' }),
      await signUpAndSignIn(app, { firstName: 'Max' }),
    ];
    for (const provider of providers) {
      const { applicationId } = await createCompletedApplication({
        ...app.runtime.deps,
        userId: provider.userId,
      });
      await app.runtime.deps.db
        .insert(professionalLicenses)
        .values({ applicationId, licenseNumber: 'OVERLAP-1', expirationDate: expiresOn });
    }
    const sent: MailMessage[] = [];
    const signal = () => {
      let fire!: () => void;
      const fired = new Promise<void>((resolve) => (fire = resolve));
      return { fire, fired };
    };
    const paused = signal();
    const resumed = signal();
    let pausedOnce = false;
    const mailerA: Mailer = {
      send: async (message) => {
        if (!pausedOnce && pauseAt(message)) {
          pausedOnce = true;
          paused.fire();
          await resumed.fired;
        }
        sent.push(message);
      },
    };
    const mailerB: Mailer = {
      send: async (message) => {
        sent.push(message);
        if (resumeAfter?.(message)) resumed.fire();
      },
    };
    const when = at(expiresOn, -20);
    const runA = runExpiryMonitor({ ...monitorDeps(), mailer: mailerA }, when);
    await paused.fired;
    const runB = runExpiryMonitor({ ...monitorDeps(), mailer: mailerB }, when);
    if (resumeAfter) await resumed.fired;
    else await runB;
    resumed.fire();
    await Promise.all([runA, runB]);
    return {
      licenseMails: providers.map(
        (provider) => sent.filter((m) => m.to === provider.email && m.text.includes('OVERLAP-1')).length,
      ),
      digests: sent.filter((m) => m.to === admin.email && m.subject === 'Expiring credentials: daily digest')
        .length,
    };
  }

  it('overlapping runs email each provider once, while one of them is still sending', async () => {
    const license = (m: MailMessage) => m.text.includes('OVERLAP-1');
    const outcome = await overlappingRuns('2035-05-01', license, license);
    expect(outcome).toEqual({ licenseMails: [1, 1], digests: 1 });
  });

  it('overlapping runs digest each administrator once, while one of them is still sending', async () => {
    const outcome = await overlappingRuns(
      '2036-05-01',
      (m) => m.subject === 'Expiring credentials: daily digest',
    );
    expect(outcome).toEqual({ licenseMails: [1, 1], digests: 1 });
  });

  it("two runs' digests mark every notice once, never deadlocking, after one waited on a provider's email", async () => {
    // The race CI met (40P01): run B's digest waits on notices run A's email transaction holds and
    // moves (marking them emailed); A's digest starts as that commits. 100 + 100 notices: the old
    // unordered update deadlocked in 150 of 200 such tries.
    const { db, database } = app.runtime.deps;
    const applicationOf = async (firstName: string) => {
      const provider = await signUpAndSignIn(app, { firstName });
      const { applicationId } = await createCompletedApplication({
        ...app.runtime.deps,
        userId: provider.userId,
      });
      return { applicationId, userId: provider.userId };
    };
    const [waitedOn, other] = [await applicationOf('Wren'), await applicationOf('Otto')];
    const notices = (owner: { applicationId: string; userId: string }) =>
      Array.from({ length: 100 }, () => ({
        ...owner,
        kind: 'license',
        rowId: randomUUID(),
        expiresOn: '2040-01-01',
        threshold: '30',
        name: 'Race license',
      }));
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        await markNoticesDigested(db); // what earlier tests left undigested
        await db.insert(credentialExpiryNotices).values(notices(waitedOn));
        await db.insert(credentialExpiryNotices).values(notices(other));
        const emailing = await database.pool.connect();
        try {
          await emailing.query('begin');
          const emailingPid = (await emailing.query('select pg_backend_pid() as pid')).rows[0].pid;
          await emailing.query(
            'select id from credential_expiry_notices where user_id = $1 and emailed_at is null for update',
            [waitedOn.userId],
          );
          const runB = markNoticesDigested(db);
          // Until B's statement waits on the email transaction's locks.
          const blocked = async () =>
            (
              await database.pool.query(
                'select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
                [emailingPid],
              )
            ).rowCount === 1;
          while (!(await blocked())) await new Promise((resolve) => setTimeout(resolve, 5));
          await emailing.query('update credential_expiry_notices set emailed_at = now() where user_id = $1', [
            waitedOn.userId,
          ]);
          await emailing.query('commit');
          const runA = markNoticesDigested(db);
          const totals = (await Promise.all([runA, runB])).map(
            (counts) => counts.find((c) => c.threshold === null)?.total ?? 0,
          );
          expect(totals.sort((a, b) => a - b)).toEqual([0, 200]);
        } finally {
          emailing.release();
        }
      }
    } finally {
      // Not left for the next test's run to email: they name no real credential.
      await db.delete(credentialExpiryNotices).where(eq(credentialExpiryNotices.name, 'Race license'));
    }
  });

  // Last: its runs at 2037 see the other tests' credentials as expired, so it asserts on its own only.
  it("notices hospital privileges' end date and reopens the privileges item once they end (issue 31)", async () => {
    const deps = monitorDeps();
    const admin = await signUpAndSignIn(app, { firstName: 'Hana' });
    await grantAdmin(app, admin);
    const { provider, applicationId } = await completedApplication(app);
    const adminPath = (rest: string) => `/api/admin/applications/${applicationId}/${rest}`;
    expect((await admin.json('POST', adminPath('start-review'), {})).status).toBe(200);
    await verifyEveryItem(admin, applicationId, { verifiedAt: new Date().toISOString().slice(0, 10) });
    await approveCleanFile(app, admin, applicationId);
    // The factory's privileges have no end date; they end on 2037-05-01.
    const endsOn = '2037-05-01';
    await app.runtime.deps.db
      .update(hospitalAffiliations)
      .set({ endDate: endsOn })
      .where(eq(hospitalAffiliations.applicationId, applicationId));
    const hospitalItem = async () =>
      (
        await app.runtime.deps.database.pool.query<{ status: string; note: string | null }>(
          `select status, note from verification_items where application_id = $1 and kind = 'hospital_privileges'`,
          [applicationId],
        )
      ).rows;

    await runExpiryMonitor(deps, at(endsOn, -10));
    const mail = app.mail.filter((m) => m.to === provider.email).at(-1)!;
    expect(mail.text).toContain(
      'Hospital Affiliations: Springfield General Hospital (Springfield, IL), expires May 1, 2037 (10 days left)',
    );
    expect(await hospitalItem()).toEqual([{ status: 'verified', note: null }]);

    await runExpiryMonitor(deps, at(endsOn, 1));
    expect(await hospitalItem()).toEqual([
      {
        status: 'discrepancy',
        note: expect.stringContaining(
          'Lapsed: Springfield General Hospital (Springfield, IL) expired on 2037-05-01',
        ),
      },
    ]);
    const audit = await app.runtime.deps.database.pool.query(
      `select 1 from audit_log where action = 'review.credential_lapsed' and details->>'applicationId' = $1
         and details->>'kind' = 'hospital_privileges'`,
      [applicationId],
    );
    expect(audit.rowCount).toBe(1);
    // Once: a later run does not reopen the same lapse again.
    await app.runtime.deps.database.pool.query(
      `update verification_items set status = 'verified' where application_id = $1 and kind = 'hospital_privileges'`,
      [applicationId],
    );
    await runExpiryMonitor(deps, at(endsOn, 3));
    expect((await hospitalItem())[0]!.status).toBe('verified');
  });
});
