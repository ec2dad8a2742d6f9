/**
 * Issue 35 goal 4: the admin lists' totals remembered between requests (list-totals.ts). Unit: a total
 * is served while its list's version holds and for at most LIST_TOTAL_TTL_MS, counted again at a new
 * version, never remembered when it failed or when no version was read. Against the database
 * (migration 0034): every write to a table a total reads bumps that list's version, so a total is
 * exact at the next page once the write committed: a new provider, a completed application, a new
 * expiring credential each show at once in 'Users & Applications', the 'Review Queue' and 'Expiring'.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import type { Database } from '../db/client.ts';
import { LIST_TOTAL_TTL_MS, type ListTotal, listVersion, rememberedTotal } from './list-totals.ts';

describe('rememberedTotal', () => {
  const db = {} as Database;
  let counts = 0;
  const count = (total: number) => async (): Promise<ListTotal> => {
    counts++;
    return { total, totalCapped: false };
  };

  it('serves a total at its version, counts again at a new one or after the time to live', async () => {
    let clock = 1_000;
    const now = () => clock;
    counts = 0;
    expect(await rememberedTotal(db, 'providers', 'all', '7', count(5), now)).toEqual({
      total: 5,
      totalCapped: false,
    });
    expect((await rememberedTotal(db, 'providers', 'all', '7', count(6), now)).total).toBe(5);
    expect(counts).toBe(1);
    // Another filter, another list: their own totals.
    expect((await rememberedTotal(db, 'providers', 'search:ann', '7', count(2), now)).total).toBe(2);
    expect((await rememberedTotal(db, 'expiring', 'all', '7', count(9), now)).total).toBe(9);
    // A write bumped the version: counted again.
    expect((await rememberedTotal(db, 'providers', 'all', '8', count(6), now)).total).toBe(6);
    clock += LIST_TOTAL_TTL_MS - 1;
    expect((await rememberedTotal(db, 'providers', 'all', '8', count(7), now)).total).toBe(6);
    clock += 1;
    expect((await rememberedTotal(db, 'providers', 'all', '8', count(7), now)).total).toBe(7);
  });

  it('does not remember a failed count, nor one without a version', async () => {
    const other = {} as Database;
    await expect(
      rememberedTotal(other, 'reviewQueue', 'all', '1', async () => {
        throw new Error('database unreachable');
      }),
    ).rejects.toThrow('database unreachable');
    expect((await rememberedTotal(other, 'reviewQueue', 'all', '1', count(3))).total).toBe(3);
    expect((await rememberedTotal(other, 'reviewQueue', 'all', undefined, count(4))).total).toBe(4);
    expect((await rememberedTotal(other, 'reviewQueue', 'all', undefined, count(5))).total).toBe(5);
  });
});

describe('list totals against the database', () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await signUpAndSignIn(app, { firstName: 'Tally', lastName: 'Admin' });
    await grantAdmin(app, admin);
  });
  afterAll(async () => {
    await app?.close();
  });

  const version = async (list: 'providers' | 'reviewQueue' | 'expiring') => {
    const result = await app.runtime.deps.db.execute<{ v: string }>(sql`select ${listVersion(list)} as v`);
    return result.rows[0]!.v;
  };
  const total = async (path: string) => {
    const answer = await admin.json<{ total: number }>('GET', path);
    expect(answer.status).toBe(200);
    return answer.body.total;
  };

  it('bumps a list’s version at every write to its tables, and the next page counts it', async () => {
    const providersPath = '/api/admin/providers?page=1&pageSize=20';
    const queuePath = '/api/admin/review-queue?page=1';
    const expiringPath = '/api/admin/expiring-credentials?window=90&page=1&pageSize=20';
    const providersBefore = await total(providersPath);
    const queueBefore = await total(queuePath);
    const expiringBefore = await total(expiringPath);
    // Served again from memory: nothing changed.
    expect(await total(providersPath)).toBe(providersBefore);

    const versions = { providers: await version('providers'), expiring: await version('expiring') };
    const provider = await signUpAndSignIn(app, { firstName: 'Newly', lastName: 'Counted' });
    expect(await version('providers')).not.toBe(versions.providers);
    expect(await total(providersPath)).toBe(providersBefore + 1);

    // A draft with a license expiring in 10 days: the 'Expiring' tab lists current applications' rows.
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status).toBe(201);
    const expires = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const saved = await provider.json(
      'PUT',
      `/api/applications/${created.body.id}/sections/professional-licenses`,
      {
        rows: [
          {
            licenseType: 'medical_license',
            licenseNumber: 'TALLY-1',
            issuingState: 'MA',
            expirationDate: expires,
          },
        ],
      },
    );
    expect(saved.status).toBe(200);
    expect(await version('expiring')).not.toBe(versions.expiring);
    expect(await total(expiringPath)).toBe(expiringBefore + 1);

    // Into the review queue, written in SQL as a completion does (status and submission time).
    const queueVersion = await version('reviewQueue');
    await app.runtime.deps.db.execute(
      sql`update provider_applications set application_status = 'submitted', submitted_at = now() where id = ${created.body.id}`,
    );
    expect(await version('reviewQueue')).not.toBe(queueVersion);
    expect(await total(queuePath)).toBe(queueBefore + 1);
  });
});
