/**
 * Which lists a provider's exclusion screening needs, and whether they are current (issue 51 item 1):
 * federal lists always, a state list for each state licensed or practised in that the product has,
 * each imported within 35 days; the source names each list with its day and rows.
 */
import { describe, expect, it } from 'vitest';
import { screenedListsText, screeningCoverage, screeningGapMessage, statesOf } from './coverage.ts';

const now = new Date('2026-11-28T12:00:00Z');
const daysAgo = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60 * 1000);

describe('exclusion screening coverage', () => {
  it('needs OIG LEIE and SAM.gov for everyone, and the state lists of the provider’s states only', () => {
    expect(screeningCoverage([], [], now).required.map((s) => s.id)).toEqual(['oig_leie', 'sam']);
    expect(screeningCoverage(['ny', 'CA', 'NY'], [], now).required.map((s) => s.id)).toEqual([
      'oig_leie',
      'sam',
      'ny_omig',
    ]);
    expect(screeningCoverage(['CA', 'NY', 'TX'], [], now).statesWithoutList).toEqual(['CA', 'TX']);
  });

  it('names each list never imported or older than 35 days, and none when all are current', () => {
    const fresh = { appliedAt: daysAgo(35), rows: 10 };
    const coverage = screeningCoverage(
      ['PA'],
      [
        { source: 'oig_leie', ...fresh },
        { source: 'pa_medicheck', appliedAt: daysAgo(36), rows: 3 },
      ],
      now,
    );
    expect(coverage.gaps).toEqual([
      { label: 'SAM.gov exclusions', why: 'never imported' },
      { label: 'Pennsylvania Medicheck', why: `last imported ${daysAgo(36).toISOString().slice(0, 10)}` },
    ]);
    expect(screeningGapMessage(coverage.gaps)).toContain(
      "import SAM.gov exclusions (never imported), Pennsylvania Medicheck (last imported 2026-10-23) on the 'Exclusions' tab",
    );
    const all = screeningCoverage(
      ['PA'],
      ['oig_leie', 'sam', 'pa_medicheck'].map((source) => ({ source, ...fresh })),
      now,
    );
    expect(all.gaps).toEqual([]);
  });

  it('writes the source from the lists the provider needs, with the day and rows, in the catalogue’s order', () => {
    const lists = [
      { source: 'sam', appliedAt: new Date('2026-11-27T09:00:00Z'), rows: 1204 },
      { source: 'pa_medicheck', appliedAt: new Date('2026-11-20T09:00:00Z'), rows: 9 },
      { source: 'oig_leie', appliedAt: new Date('2026-11-01T09:00:00Z'), rows: 80412 },
    ];
    const federal = 'OIG LEIE of 2026-11-01 (80,412 rows), SAM.gov exclusions of 2026-11-27 (1,204 rows)';
    // Another state's list is not what an Illinois provider's verdict rests on.
    expect(screenedListsText(lists, screeningCoverage(['IL'], lists, now).required)).toBe(federal);
    expect(screenedListsText(lists, screeningCoverage(['PA'], lists, now).required)).toBe(
      `${federal}, Pennsylvania Medicheck of 2026-11-20 (9 rows)`,
    );
  });

  it('reads two-letter states only', () => {
    expect(statesOf([' ny', 'New York', '', null, 3, 'pa', 'NY'])).toEqual(['NY', 'PA']);
  });
});
