/** What the 'Exclusions' and 'Screening Matches' tabs say (issue 30 items 2, 4, 5). */
import { describe, expect, it } from 'vitest';
import type { ApplyImportResult } from '../../../domain/api/screening.ts';
import {
  agreementText,
  applyResultText,
  countOf,
  decisionsFor,
  skippedLineText,
  staleText,
  stateCoverageText,
} from './screening-texts.ts';

const result = (over: Partial<ApplyImportResult> = {}): ApplyImportResult => ({
  source: 'oig_leie',
  sourceLabel: 'OIG LEIE',
  kind: 'full',
  rowsBefore: 2,
  rowsAfter: 1204,
  changedRows: 1202,
  unmatchedRows: 0,
  screened: 1,
  newMatches: 1,
  newPossibleMatches: 3,
  ...over,
});

describe('a source that is stale (item 5)', () => {
  it('says it was never imported, or that its last import is over 35 days old', () => {
    expect(staleText({ stale: true, lastApplied: null })).toBe('Never imported');
    expect(
      staleText({
        stale: true,
        lastApplied: {
          appliedAt: '2025-01-01T00:00:00.000Z',
          fileName: 'UPDATED.csv',
          kind: 'full',
          rowCount: 10,
        },
      }),
    ).toBe('Last import over 35 days ago');
  });

  it('says nothing when the server does not call it stale', () => {
    expect(staleText({ stale: false, lastApplied: null })).toBeNull();
  });
});

describe('the toast after Apply (item 2)', () => {
  it('says a full file replaced the list, its size before and after, and what the screening found', () => {
    expect(applyResultText(result())).toBe(
      'OIG LEIE: list replaced, 2 rows before, 1,204 after. 1 application screened: 1 new match, 3 new possible matches.',
    );
  });

  it('counts the rows a supplement added', () => {
    expect(
      applyResultText(result({ kind: 'additions', rowsBefore: 1204, rowsAfter: 1210, changedRows: 6 })),
    ).toBe(
      'OIG LEIE: 6 rows added, 1,204 rows before, 1,210 after. 1 application screened: 1 new match, 3 new possible matches.',
    );
  });

  it('counts ended exclusions for reinstatements, and the rows that matched none', () => {
    expect(
      applyResultText(
        result({
          kind: 'reinstatements',
          rowsBefore: 10,
          rowsAfter: 10,
          changedRows: 1,
          unmatchedRows: 12,
          screened: 0,
          newMatches: 0,
          newPossibleMatches: 1,
        }),
      ),
    ).toBe(
      'OIG LEIE: 1 exclusion ended (12 reinstatement rows matched no exclusion on the list). 0 applications screened: 0 new matches, 1 new possible match.',
    );
    expect(applyResultText(result({ kind: 'reinstatements', changedRows: 2, unmatchedRows: 0 }))).toContain(
      'OIG LEIE: 2 exclusions ended. ',
    );
  });
});

describe('how a side-by-side line agrees (item 4)', () => {
  it("says 'Differs' and 'Same' in words", () => {
    expect(agreementText({ agreement: 'different', provider: '1985-03-03', list: '1970-01-01' })).toBe(
      'Differs',
    );
    expect(agreementText({ agreement: 'same', provider: 'Quillfeather', list: 'QUILLFEATHER' })).toBe('Same');
  });

  it('tells one side missing from both missing', () => {
    expect(agreementText({ agreement: 'unknown', provider: '1234567893', list: '' })).toBe('Not on one side');
    expect(agreementText({ agreement: 'unknown', provider: '', list: 'MA' })).toBe('Not on one side');
    expect(agreementText({ agreement: 'unknown', provider: ' ', list: '' })).toBe('Not on either side');
  });
});

describe('the decisions a finding offers (item 4)', () => {
  it('offers Confirm Match and Not the Same Person on an open finding', () => {
    expect(decisionsFor({ status: 'open', pendingChange: null })).toEqual([
      'confirm_match',
      'not_same_person',
    ]);
  });

  it('offers Accept Change only on a pending change, whatever the status', () => {
    expect(decisionsFor({ status: 'confirmed', pendingChange: 'no_longer_listed' })).toEqual([
      'accept_change',
    ]);
    expect(decisionsFor({ status: 'open', pendingChange: 'no_longer_listed' })).toEqual(['accept_change']);
  });

  it('offers nothing on a decided finding', () => {
    expect(decisionsFor({ status: 'cleared', pendingChange: null })).toEqual([]);
    expect(decisionsFor({ status: 'confirmed', pendingChange: null })).toEqual([]);
  });
});

describe('counts', () => {
  it('use the singular for one and group thousands', () => {
    expect(countOf(1, 'row', 'rows')).toBe('1 row');
    expect(countOf(0, 'row', 'rows')).toBe('0 rows');
    expect(countOf(80000, 'row', 'rows')).toBe('80,000 rows');
  });
});

describe('a skipped line of the summary (item 3)', () => {
  it("keeps the reader's own 'line N' once, capitalised", () => {
    expect(skippedLineText({ line: 12, reason: 'line 12: DOB is not a date' })).toBe(
      'Line 12: DOB is not a date',
    );
    expect(skippedLineText({ line: 7, reason: 'line 7 has 17 fields instead of 18' })).toBe(
      'Line 7 has 17 fields instead of 18',
    );
  });

  it('puts the line before a reason that does not name it', () => {
    expect(skippedLineText({ line: 3, reason: 'no name' })).toBe('Line 3: no name');
  });
});

describe('the state lists (issue 51 item 1)', () => {
  it('names the states with a list, and the providers’ states without one with their counts', () => {
    expect(
      stateCoverageText({
        statesWithList: ['NY', 'PA'],
        statesWithoutList: [
          { state: 'CA', providers: 2 },
          { state: 'TX', providers: 1 },
        ],
      }),
    ).toEqual([
      'State Medicaid lists in the product: NY, PA.',
      "No state list here for: CA (2 providers), TX (1 provider). Screen those providers against their state's list by hand and record it on the review page.",
    ]);
    expect(stateCoverageText({ statesWithList: ['NY'], statesWithoutList: [] })[1]).toBe(
      'Every state where a provider in credentialing is licensed or practises has a list here.',
    );
  });
});
