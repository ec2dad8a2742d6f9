/**
 * Issue 35 goal 4: the admin lists' pages remembered between requests (list-cache.ts, migrations 0034
 * and 0035), against the database:
 * - a page is read once and served again while its list's version holds; any write to a table the
 *   list reads (even one that changes no row) makes the next request read it again;
 * - while a write is open (bumped, not committed) the version is not settled: pages are read but not
 *   remembered, so none can hold data older than its version; a failed read, a read in a transaction
 *   and a page older than LIST_CACHE_MAX_AGE_MS are not served again; concurrent requests share a read;
 * - every table in the plans of every list's statements (all filters, a search, a custom page size)
 *   has the trigger that bumps that list: a statement that starts reading a new table fails here
 *   until a migration adds its trigger;
 * - through HTTP: a new provider, a new expiring credential, an application entering review and a
 *   renamed provider show on the next page.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentialKinds, expiringWindows } from '../../domain/credentials/expiring-credentials.ts';
import { createTestApp, grantAdmin, signUpAndSignIn, type TestApp } from '../../tests/harness.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { reviewQueue } from '../review/review-queue.service.ts';
import { listExpiringCredentials } from './admin-expiring.service.ts';
import { listProviderCards } from './admin-providers.service.ts';
import {
  LIST_CACHE_MAX_AGE_MS,
  listVersionSequences,
  readListVersion,
  remembered,
  type VersionedList,
} from './list-cache.ts';

let app: TestApp;
let db: Database;

beforeAll(async () => {
  app = await createTestApp();
  db = app.runtime.deps.db;
});
afterAll(async () => {
  await app?.close();
});

/** A write to a table of every list that changes no row: statement triggers still fire. */
const touchEveryList = () => db.execute(sql`update profiles set first_name = first_name where false`);

describe('remembered', () => {
  it('reads a page once while the version holds, and again after any write', async () => {
    let reads = 0;
    const read = async () => ({ page: ++reads });
    expect(await remembered(db, 'providers', 'a', read)).toEqual({ page: 1 });
    expect(await remembered(db, 'providers', 'a', read)).toEqual({ page: 1 });
    // Another key, another list: their own pages.
    expect(await remembered(db, 'providers', 'b', read)).toEqual({ page: 2 });
    expect(await remembered(db, 'expiring', 'a', read)).toEqual({ page: 3 });
    await touchEveryList();
    expect(await remembered(db, 'providers', 'a', read)).toEqual({ page: 4 });
    expect(await remembered(db, 'expiring', 'a', read)).toEqual({ page: 5 });
    expect(await remembered(db, 'providers', 'a', read)).toEqual({ page: 4 });
  });

  it('never remembers a page read while a write is open, so none is older than its version', async () => {
    const writer = new pg.Client({ connectionString: app.databaseUrl });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(
        'update provider_applications set application_status = application_status where false',
      );
      // The writer bumped the version and holds the list's lock until it commits.
      const open = await readListVersion(db, 'reviewQueue');
      expect(open.settled).toBe(false);
      let reads = 0;
      const read = async () => ++reads;
      expect(await remembered(db, 'reviewQueue', 'open', read)).toBe(1);
      expect(await remembered(db, 'reviewQueue', 'open', read)).toBe(2);
      await writer.query('commit');
      const settled = await readListVersion(db, 'reviewQueue');
      expect(settled).toEqual({ version: open.version, settled: true });
      expect(await remembered(db, 'reviewQueue', 'open', read)).toBe(3);
      expect(await remembered(db, 'reviewQueue', 'open', read)).toBe(3);
    } finally {
      await writer.end();
    }
  });

  it('refuses a sequence that is not a list’s, and leaves its lock free', async () => {
    const refused = await db
      .execute(sql`select * from admin_list_version('profiles_id_seq')`)
      .catch((e) => e);
    expect(String(refused?.cause?.message)).toMatch(/no list has the sequence profiles_id_seq/);
    const free = await db.execute<{ free: boolean }>(
      sql`select pg_try_advisory_lock(35, hashtext('profiles_id_seq')) as free`,
    );
    expect(free.rows[0]!.free).toBe(true);
    await db.execute(sql`select pg_advisory_unlock(35, hashtext('profiles_id_seq'))`);
  });

  it('does not keep a failed read, reads afresh in a transaction and after the maximum age', async () => {
    await expect(
      remembered(db, 'expiring', 'fails', async () => {
        throw new Error('database unreachable');
      }),
    ).rejects.toThrow('database unreachable');
    expect(await remembered(db, 'expiring', 'fails', async () => 'read again')).toBe('read again');

    let reads = 0;
    await db.transaction(async (tx) => {
      expect(await remembered(tx, 'expiring', 'tx', async () => ++reads)).toBe(1);
      expect(await remembered(tx, 'expiring', 'tx', async () => ++reads)).toBe(2);
    });

    let clock = 1_000;
    const now = () => clock;
    expect(await remembered(db, 'expiring', 'aged', async () => 'first', { now })).toBe('first');
    clock += LIST_CACHE_MAX_AGE_MS - 1;
    expect(await remembered(db, 'expiring', 'aged', async () => 'second', { now })).toBe('first');
    clock += 1;
    expect(await remembered(db, 'expiring', 'aged', async () => 'third', { now })).toBe('third');
  });

  it('reads again once the clock passes what the value said it holds until', async () => {
    let clock = 5_000;
    const now = () => clock;
    let reads = 0;
    const read = async () => ({ read: ++reads, until: 6_000 });
    const options = { now, validUntil: (value: { until: number }) => value.until };
    expect((await remembered(db, 'reviewQueue', 'clocked', read, options)).read).toBe(1);
    clock = 5_999;
    expect((await remembered(db, 'reviewQueue', 'clocked', read, options)).read).toBe(1);
    clock = 6_000;
    expect((await remembered(db, 'reviewQueue', 'clocked', read, options)).read).toBe(2);
  });

  it('lets concurrent requests for one page share a single read', async () => {
    await touchEveryList();
    let reads = 0;
    // The read holds until the others have asked: no timing assumption (a loaded machine once took
    // longer than a fixed 10 ms to start the first read, and a second read started).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const read = async () => {
      reads++;
      await gate;
      return 'page';
    };
    // The first request reads the version and starts the read; the others find it in memory.
    const first = remembered(db, 'providers', 'shared', read);
    await vi.waitFor(() => expect(reads).toBe(1));
    const others = Array.from({ length: 20 }, () => remembered(db, 'providers', 'shared', read));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const pages = await Promise.all([first, ...others]);
    expect(pages.every((page) => page === 'page')).toBe(true);
    expect(reads).toBe(1);
  });
});

describe('the lists’ triggers cover every table their statements read', () => {
  /** Each relation read by `plan` (EXPLAIN FORMAT JSON): scans, index scans, index-only scans. */
  function relationsOf(plan: unknown, into = new Set<string>()): Set<string> {
    if (Array.isArray(plan)) for (const item of plan) relationsOf(item, into);
    else if (plan && typeof plan === 'object') {
      for (const [key, value] of Object.entries(plan)) {
        if (key === 'Relation Name' && typeof value === 'string') into.add(value);
        else relationsOf(value, into);
      }
    }
    return into;
  }

  it('checks the plans of every filter against the triggers of migrations 0034 and 0035', async () => {
    // The tables whose statement trigger bumps each list.
    const triggers = await db.execute<{ table_name: string; lists: string }>(sql`
      select c.relname as table_name, encode(t.tgargs, 'escape') as lists
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where p.proname = 'admin_list_versions_bump'`);
    const watched = new Map<string, Set<string>>();
    for (const row of triggers.rows) {
      for (const sequence of row.lists.split('\\000').filter(Boolean)) {
        const tables = watched.get(sequence) ?? new Set<string>();
        tables.add(row.table_name);
        watched.set(sequence, tables);
      }
    }

    // Every statement the lists send, captured from a handle on the same pool that logs them.
    const statements: { sql: string; params: unknown[] }[] = [];
    const logged = drizzle(app.runtime.deps.database.pool, {
      schema,
      logger: { logQuery: (query, params) => void statements.push({ sql: query, params }) },
    });
    const read = async (run: () => Promise<unknown>) => {
      statements.length = 0;
      await run();
      return statements.filter(
        (s) => /^\s*(with|select)\b/i.test(s.sql) && !s.sql.includes('admin_list_version('),
      );
    };
    const admin = { userId: 'list-cache-test-reviewer' } as Actor;
    const now = new Date();
    const runs: [VersionedList, () => Promise<unknown>][] = [
      ['providers', () => listProviderCards(logged, { page: 1, pageSize: 20 })],
      ['providers', () => listProviderCards(logged, { page: 2, pageSize: 50 })],
      ['providers', () => listProviderCards(logged, { page: 1, pageSize: 20, search: 'anderson' })],
      ['providers', () => listProviderCards(logged, { page: 1, pageSize: 20, search: '1234567893' })],
      ...[undefined, 'submitted' as const, 'under_review' as const].flatMap((status) =>
        [undefined, 'me' as const].map((assigned): [VersionedList, () => Promise<unknown>] => [
          'reviewQueue',
          () => reviewQueue(logged, admin, { page: 1, status, assigned }, now),
        ]),
      ),
      ...expiringWindows.flatMap((window) =>
        [undefined, ...credentialKinds].map((kind): [VersionedList, () => Promise<unknown>] => [
          'expiring',
          () => listExpiringCredentials(logged, { window, kind, page: 1, pageSize: 20 }, now),
        ]),
      ),
      ['expiring', () => listExpiringCredentials(logged, { window: '90', page: 1, pageSize: 7 }, now)],
    ];
    const unwatched: string[] = [];
    const seen = new Map<VersionedList, Set<string>>();
    let planned = 0;
    for (const [list, run] of runs) {
      const tables = watched.get(listVersionSequences[list]) ?? new Set<string>();
      for (const statement of await read(run)) {
        const explained = await app.runtime.deps.database.pool.query(
          `explain (format json) ${statement.sql}`,
          statement.params,
        );
        planned++;
        for (const relation of relationsOf(explained.rows[0]['QUERY PLAN'])) {
          seen.set(list, (seen.get(list) ?? new Set()).add(relation));
          if (!tables.has(relation)) unwatched.push(`${list}: ${relation}`);
        }
      }
    }
    expect(planned).toBeGreaterThan(runs.length);
    // The plans were read: each list's own tables are among them.
    expect([...(seen.get('providers') ?? [])]).toEqual(
      expect.arrayContaining(['profiles', 'documents', 'provider_credentials', 'professional_licenses']),
    );
    expect([...(seen.get('reviewQueue') ?? [])]).toEqual(
      expect.arrayContaining(['verification_items', 'information_requests', 'user', 'credential_updates']),
    );
    expect([...(seen.get('expiring') ?? [])]).toEqual(
      expect.arrayContaining(['vaccinations', 'payors', 'profiles', 'provider_applications']),
    );
    expect([...new Set(unwatched)]).toEqual([]);
  });
});

describe('the review queue says until when its answer holds', () => {
  it('is the next whole day a row has waited, or the next UTC day', async () => {
    const provider = await signUpAndSignIn(app, { firstName: 'Waiting', lastName: 'Clock' });
    const created = await provider.json<{ id: string }>('POST', '/api/applications', {});
    expect(created.status).toBe(201);
    const submittedAt = new Date('2026-11-20T03:00:00.000Z');
    await db.execute(
      sql`update provider_applications set application_status = 'submitted', submitted_at = ${submittedAt.toISOString()} where id = ${created.body.id}`,
    );
    const day = 24 * 60 * 60 * 1000;
    const reviewer = { userId: provider.userId } as Actor;
    // 1:00 UTC on the 22nd: waited 1 day until 3:00, before the next UTC day.
    const at = new Date(submittedAt.getTime() + day + 22 * 60 * 60 * 1000);
    const { queue, validUntil } = await reviewQueue(db, reviewer, { page: 1 }, at);
    expect(queue.items.find((i) => i.applicationId === created.body.id)?.daysSinceSubmission).toBe(1);
    expect(new Date(validUntil).toISOString()).toBe('2026-11-22T03:00:00.000Z');
    // At 4:00 on the 22nd the row's next day is 3:00 on the 23rd: the UTC day ends first.
    const later = await reviewQueue(db, reviewer, { page: 1 }, new Date('2026-11-22T04:00:00.000Z'));
    expect(new Date(later.validUntil).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });
});

describe('remembered pages through HTTP', () => {
  let admin: Awaited<ReturnType<typeof signUpAndSignIn>>;

  beforeAll(async () => {
    admin = await signUpAndSignIn(app, { firstName: 'Tally', lastName: 'Admin' });
    await grantAdmin(app, admin);
  });

  const page = async <T>(path: string) => {
    const answer = await admin.json<T & { total: number }>('GET', path);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('shows every write at the next request', async () => {
    const providersPath = '/api/admin/providers?page=1&pageSize=20';
    const queuePath = '/api/admin/review-queue?page=1';
    const expiringPath = '/api/admin/expiring-credentials?window=90&page=1&pageSize=20';
    // Sent again as the same bytes, as JSON.
    const first = await admin.request('GET', providersPath);
    const again = await admin.request('GET', providersPath);
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await again.text()).toBe(await first.text());
    const providersBefore = (await page(providersPath)).total;
    const queueBefore = (await page(queuePath)).total;
    const expiringBefore = (await page(expiringPath)).total;
    expect((await page(providersPath)).total).toBe(providersBefore);

    const provider = await signUpAndSignIn(app, { firstName: 'Newly', lastName: 'Counted' });
    expect((await page(providersPath)).total).toBe(providersBefore + 1);

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
    const expiring = await page<{ credentials: { name: string; provider: { lastName: string } }[] }>(
      expiringPath,
    );
    expect(expiring.total).toBe(expiringBefore + 1);

    // Into the review queue, written in SQL as a completion does (status and submission time).
    await db.execute(
      sql`update provider_applications set application_status = 'submitted', submitted_at = now() where id = ${created.body.id}`,
    );
    const queue = await page<{ items: { applicationId: string; providerName: string }[] }>(queuePath);
    expect(queue.total).toBe(queueBefore + 1);
    expect(queue.items.find((i) => i.applicationId === created.body.id)?.providerName).toBe('Newly Counted');

    // A renamed provider: the card, the queue's row and the expiring row all say the new name.
    await db.execute(sql`update profiles set last_name = 'Renamed' where email = ${provider.email}`);
    const cards = await page<{ providers: { email: string; lastName: string }[] }>(providersPath);
    expect(cards.providers.find((p) => p.email === provider.email)?.lastName).toBe('Renamed');
    const renamedQueue = await page<{ items: { applicationId: string; providerName: string }[] }>(queuePath);
    expect(renamedQueue.items.find((i) => i.applicationId === created.body.id)?.providerName).toBe(
      'Newly Renamed',
    );
    const renamedExpiring = await page<{ credentials: { provider: { lastName: string } }[] }>(expiringPath);
    expect(renamedExpiring.credentials.some((c) => c.provider.lastName === 'Renamed')).toBe(true);
  });
});
