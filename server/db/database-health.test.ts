/**
 * Which errors mean "the database cannot be reached" (answered 503, counted, not logged per request)
 * and which stay ordinary failures (issue 19 items 1 and 2). The real outages are in
 * database-outage.test.ts; these are the driver's error shapes, one each.
 */
import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDatabaseHealth, isDatabaseUnavailableError, isSocketError } from './database-health.ts';

const socketError = (code: string, port?: number) =>
  Object.assign(new Error(`connect ${code}`), { code, port });
const serverError = (code: string) => Object.assign(new Error('server says'), { code, severity: 'FATAL' });

describe('isDatabaseUnavailableError', () => {
  it.each([
    ['connection refused on the database port', socketError('ECONNREFUSED', 5432)],
    ['both addresses of localhost refused', new AggregateError([socketError('ECONNREFUSED', 5432)])],
    ['a reset under a Drizzle query', new DrizzleQueryError('select 1', [], socketError('ECONNRESET'))],
    [
      'a timeout under a wrapper of a Drizzle query',
      new Error('Failed to get session', {
        cause: new DrizzleQueryError('select 1', [], socketError('ETIMEDOUT')),
      }),
    ],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['SQLSTATE 08006 connection_failure', serverError('08006')],
    ['SQLSTATE 57P01 admin_shutdown', serverError('57P01')],
    ['SQLSTATE 57P02 crash_shutdown', serverError('57P02')],
    ['SQLSTATE 57P03 cannot_connect_now', serverError('57P03')],
  ])('%s: unavailable', (_name, error) => {
    expect(isDatabaseUnavailableError(error, 5432)).toBe(true);
  });

  it.each([
    ['a unique violation', serverError('23505')],
    ['connection refused by another service (SMTP, object storage)', socketError('ECONNREFUSED', 2525)],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('%s: not unavailable', (_name, error) => {
    expect(isDatabaseUnavailableError(error, 5432)).toBe(false);
  });
});

describe('isSocketError', () => {
  it('finds a socket code anywhere in the causes, portless as a pooled connect reset is', () => {
    expect(isSocketError(socketError('ECONNRESET'))).toBe(true);
    expect(isSocketError(new Error('wrapped', { cause: socketError('ECONNREFUSED') }))).toBe(true);
    expect(isSocketError(serverError('23505'))).toBe(false);
    expect(isSocketError(new TypeError('x is undefined'))).toBe(false);
  });
});

describe('createDatabaseHealth', () => {
  it('logs one line when it goes down and one when it is back, whatever happens in between', async () => {
    const lines: string[] = [];
    let up = false;
    const health = createDatabaseHealth({
      probe: async () => {
        if (!up) throw socketError('ECONNREFUSED', 5432);
      },
      logger: { warn: (_fields, message) => void lines.push(message) },
      port: 5432,
    });
    try {
      // First, the database is found down, and requests keep failing.
      expect(await health.check()).toBe(false);
      for (let i = 0; i < 100; i++) {
        health.suspect(socketError('ECONNREFUSED', 5432));
        health.reportUnreachable(socketError('ECONNREFUSED', 5432));
        health.countRefused();
      }
      expect(health.reachable).toBe(false);
      expect(lines).toEqual(['database unreachable']);

      // Then it is back: one line, with the refused requests.
      up = true;
      expect(await health.check()).toBe(true);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^database back after \d+\.\d s$/);
    } finally {
      health.stop();
    }
  });

  it('does not log the database back on a probe that began before it went down', async () => {
    const lines: string[] = [];
    const answers: (() => void)[] = [];
    const health = createDatabaseHealth({
      // Each probe answers when the test says so: a `select 1` still in flight when the server dies.
      probe: () => new Promise<void>((resolve) => void answers.push(resolve)),
      logger: { warn: (_fields, message) => void lines.push(message) },
      port: 5432,
    });
    try {
      const inFlight = health.check();
      health.reportUnreachable(socketError('ECONNREFUSED', 5432)); // The postmaster exited meanwhile.
      answers.shift()!();
      expect(await inFlight).toBe(false);
      expect(health.reachable).toBe(false);
      expect(lines).toEqual(['database unreachable']);

      // A probe begun after the outage was reported does bring it back, once.
      const next = health.check();
      answers.shift()!();
      expect(await next).toBe(true);
      expect(lines).toEqual(['database unreachable', expect.stringMatching(/^database back after/)]);
    } finally {
      health.stop();
    }
  });
});
