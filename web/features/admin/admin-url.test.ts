/** The 'Reports' filter in the admin dashboard's URL (issue 34): what is read back, what is dropped. */
import { describe, expect, it } from 'vitest';
import { readAdminView } from './admin-url.ts';

const reportsOf = (query: string) => readAdminView(new URLSearchParams(query), null).reports;

describe("the 'Reports' filter in the URL", () => {
  it('reads a range and a specialist under their own names', () => {
    expect(reportsOf('tab=reports&reportFrom=2026-01-01&reportTo=2026-03-31&specialist=u1')).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      specialist: 'u1',
    });
  });

  it("never takes the audit log's days as a report's range", () => {
    expect(reportsOf('tab=reports&from=2001-01-01&to=2026-03-31')).toEqual({});
    expect(readAdminView(new URLSearchParams('from=2001-01-01&to=2026-03-31'), null).audit).toMatchObject({
      from: '2001-01-01',
      to: '2026-03-31',
    });
  });

  it('drops a range the server would refuse, and keeps the specialist', () => {
    // Over 36 months, one end only, from after to, not a day.
    expect(reportsOf('reportFrom=2020-01-01&reportTo=2026-03-31&specialist=u1')).toEqual({
      specialist: 'u1',
    });
    expect(reportsOf('reportFrom=2026-01-01')).toEqual({});
    expect(reportsOf('reportFrom=2026-03-01&reportTo=2026-01-01')).toEqual({});
    expect(reportsOf('reportFrom=2026-02-30&reportTo=2026-03-01')).toEqual({});
  });

  it('is empty (the last 12 months, everyone) when the URL names none', () => {
    expect(reportsOf('tab=reports')).toEqual({});
  });
});
