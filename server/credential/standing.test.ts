/**
 * Ongoing monitoring's other findings and the committee's part (issue 49 items 2 and 5), real
 * PostgreSQL and HTTP: a published license that lapses with no published renewal suspends the
 * credential and puts the approved file on 'Ready for Committee' ('Monitoring finding'); a renewal the
 * reviewer accepts restores it and takes the file off the list; the committee continues a suspended
 * credential or terminates it (out of the directory). An approval effective later is 'pending' and
 * unpublished until its day.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionFile } from '../../domain/api/committee.ts';
import { isoDay } from '../../domain/calendar.ts';
import { credentialLabel, credentialState } from '../../domain/credentials/provider-credential.ts';
import { createTestApp, signUpStaff, type TestApp } from '../../tests/harness.ts';
import {
  approveCleanFile,
  decideOnAgenda,
  medicalDirector,
  reviewedFile,
} from '../committee/testing/decide.ts';
import type { Database } from '../db/client.ts';
import { providerCredentials } from '../db/schema/credentials.ts';
import { professionalLicenses } from '../db/schema/sections.ts';
import { credentialedProviderPage } from '../directory/credentialed-providers.ts';
import { storeNextVersion } from '../notifications/application-snapshot.ts';
import { publishCredentialVersion } from './published-credential.ts';
import { syncLicenseFindings } from './standing.ts';

let app: TestApp;
let db: Database;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;
const DAY = 86_400_000;

beforeAll(async () => {
  app = await createTestApp();
  db = app.runtime.deps.db;
  specialist = await signUpStaff(app, 'specialist');
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** A provider approved through the product. */
async function approved() {
  const { provider, applicationId } = await reviewedFile(app, specialist);
  await approveCleanFile(app, specialist, applicationId);
  return { provider, applicationId, userId: provider.userId };
}

/** Sets the medical license's expiry in the live table and publishes it, as an accepted update does. */
async function publishLicenseExpiry(
  f: { applicationId: string; userId: string },
  expiresOn: string,
  at: Date,
) {
  await db
    .update(professionalLicenses)
    .set({ expirationDate: expiresOn })
    .where(eq(professionalLicenses.applicationId, f.applicationId));
  await db.transaction(async (tx) => {
    const { version } = await storeNextVersion(
      tx,
      { id: f.applicationId, userId: f.userId },
      'credential_update',
    );
    await publishCredentialVersion(tx, {
      userId: f.userId,
      applicationId: f.applicationId,
      version,
      now: at,
    });
  });
}

async function committeeList(): Promise<DecisionFile[]> {
  const director = await medicalDirector(app);
  const list = await director.json<{ files: DecisionFile[] }>('GET', '/api/admin/decisions?list=committee');
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return list.body.files;
}

const inDirectory = async (userId: string, now = new Date()) =>
  (await credentialedProviderPage(db, { now, limit: 10, userIds: [userId] }))[0];

describe('a lapsed license (NCQA CR5)', () => {
  it('suspends the credential and refers the file; a published renewal restores it and withdraws the referral', async () => {
    const f = await approved();
    const soon = isoDay(new Date(Date.now() + 5 * DAY));
    await publishLicenseExpiry(f, soon, new Date());
    expect((await inDirectory(f.userId))?.standing).toBe('active');

    // Six days on, the daily job finds the license lapsed: the credential is suspended and referred.
    const later = new Date(Date.now() + 6 * DAY);
    expect(await db.transaction((tx) => syncLicenseFindings(tx, later, [f.userId]))).toEqual({
      opened: 1,
      resolved: 0,
    });
    const suspended = await inDirectory(f.userId, later);
    expect(suspended).toMatchObject({
      standing: 'suspended',
      standingReason: `license expired: IL medical license MD-1, ${isoDay(later)}`,
    });
    const file = (await committeeList()).find((x) => x.applicationId === f.applicationId);
    expect(file).toMatchObject({
      kind: 'monitoring',
      reasons: [expect.stringMatching(/^Monitoring finding: license expired/)],
    });

    // A second run finds nothing new.
    expect(await db.transaction((tx) => syncLicenseFindings(tx, later, [f.userId]))).toEqual({
      opened: 0,
      resolved: 0,
    });

    // The renewal is accepted and published: active at once, off the committee's list.
    await publishLicenseExpiry(f, isoDay(new Date(Date.now() + 700 * DAY)), later);
    expect((await inDirectory(f.userId, later))?.standing).toBe('active');
    expect((await committeeList()).some((x) => x.applicationId === f.applicationId)).toBe(false);
  }, 120_000);
});

describe("the committee's decision on a monitoring finding", () => {
  async function suspendedFile() {
    const f = await approved();
    await publishLicenseExpiry(f, isoDay(new Date(Date.now() - DAY)), new Date());
    await db.transaction((tx) => syncLicenseFindings(tx, new Date(), [f.userId]));
    expect((await inDirectory(f.userId))?.standing).toBe('suspended');
    return f;
  }

  it("'Continue' restores the credential; 'Terminate' ends it and takes it out of the directory", async () => {
    const kept = await suspendedFile();
    const meeting = await decideOnAgenda(app, kept.applicationId, {
      decision: 'approve',
      effectiveDate: isoDay(new Date()),
    });
    expect(meeting.agenda.find((i) => i.applicationId === kept.applicationId)?.kind).toBe('monitoring');
    expect((await inDirectory(kept.userId))?.standing).toBe('active');

    const ended = await suspendedFile();
    await decideOnAgenda(app, ended.applicationId, {
      decision: 'deny',
      text: 'License lapsed without renewal.',
    });
    expect(await inDirectory(ended.userId)).toBeUndefined();
    const [row] = await db
      .select()
      .from(providerCredentials)
      .where(eq(providerCredentials.userId, ended.userId));
    expect(row?.endedOn).toBe(isoDay(new Date()));
    expect(
      (await committeeList()).some((x) =>
        [kept.applicationId, ended.applicationId].includes(x.applicationId),
      ),
    ).toBe(false);
  }, 180_000);
});

describe('an effective date ahead (issue 49 item 5)', () => {
  it("is 'Approved, effective …' until that day, then credentialed until three years from it", () => {
    const record = {
      applicationId: 'a',
      credentialedAt: new Date('2026-12-15T00:00:00Z'),
      approvedAt: new Date('2026-12-15T00:00:00Z'),
      endsOn: '2029-12-15',
      endedOn: null,
    };
    const before = credentialState(record, new Date('2026-11-28T12:00:00Z'));
    expect(before).toEqual({ state: 'pending', effectiveOn: '2026-12-15', endsOn: '2029-12-15' });
    expect(credentialLabel(before)).toBe('Approved, effective Dec 15, 2026');
    const onTheDay = credentialState(record, new Date('2026-12-15T00:00:00Z'));
    expect(credentialLabel(onTheDay)).toBe('Credentialed until Dec 15, 2029');
  });
});
