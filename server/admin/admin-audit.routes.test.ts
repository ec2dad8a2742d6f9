/**
 * The 'Audit Log' tab's filters and CSV export (issue 34) on the real server and PostgreSQL:
 * GET /api/admin/audit-log by provider (subject), actor, action and a range of UTC days (inclusive
 * edges), alone and combined; GET /api/admin/audit-log/actors; GET /api/admin/audit-log/export (the
 * same filter as CSV: header, order, RFC 4180 quoting, formula cells defused, keyset batches) and the
 * export's own audit event (the filter's shape, no names). Administrators and auditors only.
 *
 * The fixture's events are written straight into audit_log in 2001 (inserts are allowed; the table
 * refuses updates and deletes), so their times are exact and no sign-up of the tests falls among them.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditActorList, AuditLog } from '../../domain/api/admin.ts';
import {
  Client,
  createTestApp,
  grantAdmin,
  signUpAndSignIn,
  signUpStaff,
  type TestApp,
} from '../../tests/harness.ts';
import { auditEventBatches } from './admin-audit.service.ts';

/** The body's text, after checking it starts with the UTF-8 byte order mark (fetch's text() drops it). */
async function csvText(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}

const HEADER =
  'Time (UTC),Action,Action label,Actor,Actor ID,Subject,Subject ID,Resource type,Resource ID,IP address,Details\r\n';

let app: TestApp;
type Person = Awaited<ReturnType<typeof signUpAndSignIn>>;
let admin: Person;
let specialist: Person;
let auditor: Person;
let priya: Person;
let quinn: Person;
const pool = () => app.runtime.deps.database.pool;

/** The fixture's event ids by name. */
const ev: Record<string, number> = {};
const fixtureIds = () => new Set(Object.values(ev));

async function insertEvent(
  name: string,
  values: {
    at: string;
    action: string;
    actor?: string | null;
    subject?: string | null;
    resourceType?: string;
    resourceId?: string;
    ip?: string;
    details?: Record<string, unknown>;
  },
) {
  const { rows } = await pool().query<{ id: string }>(
    `insert into audit_log (occurred_at, action, actor_user_id, subject_user_id, resource_type, resource_id, ip_address, details)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [
      values.at,
      values.action,
      values.actor ?? null,
      values.subject ?? null,
      values.resourceType ?? null,
      values.resourceId ?? null,
      values.ip ?? null,
      values.details ? JSON.stringify(values.details) : null,
    ],
  );
  ev[name] = Number(rows[0]!.id);
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await signUpAndSignIn(app, { firstName: 'Ada', lastName: 'Admin' });
  await grantAdmin(app, admin);
  specialist = await signUpStaff(app, 'specialist', { firstName: 'Sam', lastName: 'Specialist' });
  auditor = await signUpStaff(app, 'auditor', { firstName: 'Aud', lastName: 'Itor' });
  priya = await signUpAndSignIn(app, { firstName: 'Priya', lastName: 'Subject' });
  quinn = await signUpAndSignIn(app, { firstName: 'Quinn', lastName: 'Other' });
  // First, the day before the range ends one millisecond before midnight UTC.
  await insertEvent('febLast', {
    at: '2001-02-28T23:59:59.999Z',
    action: 'admin.view_provider',
    actor: admin.userId,
    subject: quinn.userId,
  });
  // Then 1 March: its first instant (twice, to tie on time), and its last millisecond.
  await insertEvent('marFirst', {
    at: '2001-03-01T00:00:00.000Z',
    action: 'document.download',
    actor: admin.userId,
    subject: priya.userId,
    resourceType: 'document',
    resourceId: '@SUM(A1)',
    ip: '10.0.0.1',
    details: { note: 'a, "quoted" value' },
  });
  await insertEvent('marFirstTie', {
    at: '2001-03-01T00:00:00.000Z',
    action: 'document.download',
    actor: admin.userId,
    subject: quinn.userId,
    resourceType: 'document',
    resourceId: 'doc-2',
  });
  await insertEvent('marLast', {
    at: '2001-03-01T23:59:59.999Z',
    action: 'admin.view_provider',
    actor: specialist.userId,
    subject: priya.userId,
    resourceType: 'application',
    resourceId: 'app-1',
  });
  // Then 2 March at midnight, and an anonymous failed sign-in on the 3rd.
  await insertEvent('mar2', {
    at: '2001-03-02T00:00:00.000Z',
    action: 'document.download',
    actor: specialist.userId,
    subject: quinn.userId,
  });
  await insertEvent('anonymous', {
    at: '2001-03-03T12:00:00.000Z',
    action: 'auth.sign_in_failed',
    ip: '10.0.0.9',
    details: { reason: 'bad_password' },
  });
});
afterAll(async () => {
  await app?.close();
});

/** The audit log page of `query` (pageSize 100), checked to be 200. */
async function log(query: string): Promise<AuditLog> {
  const response = await admin.json<AuditLog>('GET', `/api/admin/audit-log?pageSize=100&${query}`);
  expect(response.status).toBe(200);
  return response.body;
}
/** The fixture's events in a page, by name, in the page's order. */
function fixtureNames(page: AuditLog): string[] {
  const byId = new Map(Object.entries(ev).map(([name, id]) => [id, name]));
  return page.events.filter((e) => fixtureIds().has(e.id)).map((e) => byId.get(e.id)!);
}

describe('GET /api/admin/audit-log filters', () => {
  it('filters by action alone', async () => {
    const page = await log('action=document.download');
    expect(page.events.every((e) => e.action === 'document.download')).toBe(true);
    expect(fixtureNames(page)).toEqual(['mar2', 'marFirstTie', 'marFirst']);
  });

  it('filters by provider (subject) alone, and names the provider for the filter control', async () => {
    const page = await log(`subjectUserId=${priya.userId}`);
    expect(page.events.every((e) => e.subject?.userId === priya.userId)).toBe(true);
    expect(fixtureNames(page)).toEqual(['marLast', 'marFirst']);
    expect(page.filterPeople).toEqual({
      subject: { userId: priya.userId, name: 'Priya Subject', email: priya.email },
      actor: null,
    });
  });

  it('filters by actor alone', async () => {
    const page = await log(`actorUserId=${specialist.userId}`);
    expect(page.events.every((e) => e.actor?.userId === specialist.userId)).toBe(true);
    expect(fixtureNames(page)).toEqual(['mar2', 'marLast']);
    expect(page.filterPeople.actor).toEqual(expect.objectContaining({ name: 'Sam Specialist' }));
  });

  it('filters by UTC days, both ends inclusive', async () => {
    // One day: its first instant and its last millisecond are in; the neighbours' are not.
    expect(fixtureNames(await log('from=2001-03-01&to=2001-03-01'))).toEqual([
      'marLast',
      'marFirstTie',
      'marFirst',
    ]);
    expect((await log('from=2001-03-01&to=2001-03-01')).total).toBe(3);
    expect(fixtureNames(await log('to=2001-02-28'))).toEqual(['febLast']);
    expect((await log('to=2001-02-28')).total).toBe(1);
    expect(fixtureNames(await log('from=2001-03-02'))).toEqual(['anonymous', 'mar2']);
    expect(fixtureNames(await log('from=2001-02-28&to=2001-03-02'))).toEqual([
      'mar2',
      'marLast',
      'marFirstTie',
      'marFirst',
      'febLast',
    ]);
  });

  it('combines every filter', async () => {
    const all = `action=document.download&subjectUserId=${quinn.userId}&actorUserId=${specialist.userId}`;
    expect(fixtureNames(await log(`${all}&from=2001-03-02&to=2001-03-02`))).toEqual(['mar2']);
    expect((await log(`${all}&from=2001-03-01&to=2001-03-01`)).events).toEqual([]);
    const page = await log(`action=admin.view_provider&subjectUserId=${priya.userId}&to=2001-03-01`);
    expect(page.events).toEqual([
      expect.objectContaining({
        id: ev.marLast,
        occurredAt: '2001-03-01T23:59:59.999Z',
        actor: { userId: specialist.userId, name: 'Sam Specialist', email: specialist.email },
        subject: { userId: priya.userId, name: 'Priya Subject', email: priya.email },
      }),
    ]);
  });

  it('refuses dates that are not days, out of bounds, or in the wrong order', async () => {
    for (const query of [
      'from=2001-02-30',
      'from=1999-12-31',
      'to=2100-01-01',
      'from=2001-03-02&to=2001-03-01',
      'from=01/03/2001',
      'action=drop.table',
    ]) {
      const response = await admin.json('GET', `/api/admin/audit-log?${query}`);
      expect(response.status, query).toBe(400);
      expect((await admin.request('GET', `/api/admin/audit-log/export?${query}`)).status, query).toBe(400);
    }
  });
});

describe('GET /api/admin/audit-log/actors', () => {
  it('lists everyone holding a staff role, not providers', async () => {
    const list = await auditor.json<AuditActorList>('GET', '/api/admin/audit-log/actors');
    expect(list.status).toBe(200);
    const ids = list.body.people.map((p) => p.userId);
    expect(ids).toEqual(expect.arrayContaining([admin.userId, specialist.userId, auditor.userId]));
    expect(ids).not.toContain(priya.userId);
    expect(list.body.people.find((p) => p.userId === admin.userId)).toEqual({
      userId: admin.userId,
      name: 'Ada Admin',
      email: admin.email,
    });
  });
});

describe('GET /api/admin/audit-log/export', () => {
  it('streams the filter as CSV: header, newest first, quoted, formula cells defused', async () => {
    const response = await admin.request('GET', '/api/admin/audit-log/export?from=2001-02-28&to=2001-03-01');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain('audit-log-2001-02-28-to-2001-03-01.csv');
    const text = await csvText(response);
    expect(text.startsWith(HEADER)).toBe(true);
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 4 + 1);
    // The first 1 March event, as written: quoted details, the defused resource id.
    expect(lines[3]).toBe(
      [
        '2001-03-01T00:00:00.000Z',
        'document.download',
        'Downloaded document',
        'Ada Admin',
        admin.userId,
        'Priya Subject',
        priya.userId,
        'document',
        "'@SUM(A1)",
        '10.0.0.1',
        '"{""note"":""a, \\""quoted\\"" value""}"',
      ].join(','),
    );
    const records: string[][] = parse(text);
    expect(records[0]).toEqual(HEADER.trim().split(','));
    expect(records.slice(1).map((r) => Date.parse(r[0]!))).toEqual(
      [
        '2001-03-01T23:59:59.999Z',
        '2001-03-01T00:00:00.000Z',
        '2001-03-01T00:00:00.000Z',
        '2001-02-28T23:59:59.999Z',
      ].map(Date.parse),
    );
    expect(records[1]).toEqual([
      '2001-03-01T23:59:59.999Z',
      'admin.view_provider',
      'Viewed provider details',
      'Sam Specialist',
      specialist.userId,
      'Priya Subject',
      priya.userId,
      'application',
      'app-1',
      '',
      '',
    ]);
    expect(JSON.parse(records[3]![10]!)).toEqual({ note: 'a, "quoted" value' });
    expect(records[2]![8]).toBe('doc-2');
  });

  it("defuses a formula after a ';' inside a cell: the ';'-locale bypass (issue 52 item 4)", async () => {
    // Not in the fixture (`ev`): a day of its own, so no other test's range sees it.
    await pool().query(
      `insert into audit_log (occurred_at, action, resource_type, resource_id, details)
       values ('2001-05-05T10:00:00Z', 'document.download', 'document', $1, $2)`,
      ['x;=1+1;', JSON.stringify({ note: 'ok;-2+3' })],
    );
    const response = await admin.request('GET', '/api/admin/audit-log/export?from=2001-05-05&to=2001-05-05');
    const text = await csvText(response);
    // Split on ';' as a spreadsheet in a ';' locale would: no piece starts with a formula character.
    const pieces = text.split(/\r\n/)[1]!.split(';');
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece).not.toMatch(/^"*[=+\-@]/);
    const records: string[][] = parse(text);
    expect(records[1]![8]).toBe("x;'=1+1;");
    expect(records[1]![10]).toBe(`{"note":"ok;'-2+3"}`);
  });

  it('writes an anonymous event with empty actor and subject', async () => {
    const response = await admin.request('GET', '/api/admin/audit-log/export?from=2001-03-03&to=2001-03-03');
    const records: string[][] = parse(await csvText(response));
    expect(records.slice(1)).toEqual([
      [
        '2001-03-03T12:00:00.000Z',
        'auth.sign_in_failed',
        expect.any(String),
        '',
        '',
        '',
        '',
        '',
        '',
        '10.0.0.9',
        '{"reason":"bad_password"}',
      ],
    ]);
  });

  it('reads in keyset batches that together are the list, ties broken by id', async () => {
    const filter = { from: '2001-02-28', to: '2001-03-03' };
    const batches: number[][] = [];
    for await (const batch of auditEventBatches(app.runtime.deps.db, filter, 2)) {
      batches.push(batch.map((e) => e.id));
    }
    expect(batches).toEqual([
      [ev.anonymous, ev.mar2],
      [ev.marLast, ev.marFirstTie],
      [ev.marFirst, ev.febLast],
    ]);
  });

  it('is audited before the rows leave, with the filter shape and no names', async () => {
    // First, the auditor exports one provider's downloads in March 2001.
    const response = await auditor.request(
      'GET',
      `/api/admin/audit-log/export?action=document.download&subjectUserId=${priya.userId}&from=2001-03-01&to=2001-03-31`,
    );
    expect(response.status).toBe(200);
    expect(parse(await csvText(response))).toHaveLength(2);
    // Then the log holds the export: who, from where, the filter's shape; never whose log it was.
    const { rows } = await pool().query(
      `select actor_user_id, subject_user_id, resource_type, resource_id, ip_address, details
       from audit_log where action = 'admin.export_audit_log' and actor_user_id = $1`,
      [auditor.userId],
    );
    expect(rows).toEqual([
      {
        actor_user_id: auditor.userId,
        subject_user_id: null,
        resource_type: null,
        resource_id: null,
        ip_address: expect.any(String),
        details: {
          action: 'document.download',
          from: '2001-03-01',
          to: '2001-03-31',
          subjectFiltered: true,
          actorFiltered: false,
        },
      },
    ]);
    const stored = JSON.stringify(rows);
    for (const secret of [priya.userId, priya.email, 'Priya', 'Subject'])
      expect(stored).not.toContain(secret);
    // And the tab lists it under its own action.
    const page = await log('action=admin.export_audit_log');
    expect(page.events[0]).toEqual(
      expect.objectContaining({
        action: 'admin.export_audit_log',
        actor: expect.objectContaining({ userId: auditor.userId }),
      }),
    );
  });

  it('names every filter as unset when none is given', async () => {
    const response = await admin.request('GET', '/api/admin/audit-log/export');
    expect(response.status).toBe(200);
    const records: string[][] = parse(await csvText(response));
    // The export's own event is the newest, so it is the file's first row.
    expect(records[1]![1]).toBe('admin.export_audit_log');
    expect(JSON.parse(records[1]![10]!)).toEqual({
      action: 'all',
      from: 'any',
      to: 'any',
      subjectFiltered: false,
      actorFiltered: false,
    });
  });
});

describe('who may read the audit log', () => {
  it('refuses anonymous callers (401), providers and specialists (403)', async () => {
    const anonymous = new Client(app);
    for (const path of [
      '/api/admin/audit-log',
      '/api/admin/audit-log/actors',
      '/api/admin/audit-log/export',
      `/api/admin/audit-log/export?subjectUserId=${priya.userId}`,
    ]) {
      expect((await anonymous.request('GET', path)).status, path).toBe(401);
      expect((await priya.request('GET', path)).status, path).toBe(403);
      expect((await specialist.request('GET', path)).status, path).toBe(403);
    }
    const { rows } = await pool().query(
      `select count(*)::int as n from audit_log where action = 'admin.export_audit_log' and actor_user_id = any($1)`,
      [[priya.userId, specialist.userId]],
    );
    expect(rows[0].n).toBe(0);
  });
});
