/**
 * What the 'Exclusions' and 'Screening Matches' tabs say (issue 30 items 1, 2, 4, 5), kept apart from
 * the components so the wording is tested: a source's staleness, an applied import in words, the
 * labels of a file's kind, a finding's strength, what it matched on and how each side-by-side line
 * agrees, and which decisions a finding offers. Shapes are the API contract's (domain/api/screening.ts).
 */
import {
  type ApplyImportResult,
  type ComparisonLine,
  type ExclusionSourceStatus,
  type FindingDecision,
  type ScreeningFinding,
  STALE_SOURCE_DAYS,
  type StagedImport,
  type StateCoverage,
} from '../../../domain/api/screening.ts';

const number = new Intl.NumberFormat('en-US');

/** '1 row', '1,204 rows'. */
export function countOf(n: number, one: string, other: string): string {
  return `${number.format(n)} ${n === 1 ? one : other}`;
}

/**
 * Why a source is stale (issue 30 item 5), or null when it is not: "Never imported" when it has no
 * applied import, else "Last import over 35 days ago" (STALE_SOURCE_DAYS). The server decides `stale`.
 */
export function staleText(source: Pick<ExclusionSourceStatus, 'stale' | 'lastApplied'>): string | null {
  if (!source.stale) return null;
  return source.lastApplied ? `Last import over ${STALE_SOURCE_DAYS} days ago` : 'Never imported';
}

/**
 * What the 'Exclusions' tab says of state lists (issue 51 item 1): the states the product has a list
 * for, and the states of providers in credentialing it has none for, e.g. ["State Medicaid lists in
 * the product: NY, PA.", "No state list here for: CA (2 providers), TX (1 provider). Screen those
 * providers against their state's list by hand and record it on the review page."].
 */
export function stateCoverageText(coverage: StateCoverage): string[] {
  const lines = [`State Medicaid lists in the product: ${coverage.statesWithList.join(', ') || 'none'}.`];
  if (coverage.statesWithoutList.length > 0) {
    const states = coverage.statesWithoutList
      .map((s) => `${s.state} (${countOf(s.providers, 'provider', 'providers')})`)
      .join(', ');
    lines.push(
      `No state list here for: ${states}. Screen those providers against their state's list by hand and record it on the review page.`,
    );
  } else
    lines.push('Every state where a provider in credentialing is licensed or practises has a list here.');
  return lines;
}

/** How a file changes its source's list (issue 30 item 2). */
export const fileKindLabel: Record<StagedImport['kind'], string> = {
  full: 'Full list (replaces the list)',
  additions: 'New exclusions (added to the list)',
  reinstatements: 'Reinstatements (end exclusions on the list)',
};

/**
 * The toast after 'Apply' (issue 30 items 2 and 5): the list before and after, what changed, and the
 * screening that followed, e.g. "OIG LEIE: list replaced, 2 rows before, 40 after. 4 applications
 * screened: 1 new match, 0 new possible matches." A full file replaces the list (its `changedRows`
 * are not news); a supplement adds rows; a reinstatements file ends exclusions.
 */
export function applyResultText(result: ApplyImportResult): string {
  const sizes = `${countOf(result.rowsBefore, 'row', 'rows')} before, ${number.format(result.rowsAfter)} after`;
  const changed =
    result.kind === 'full'
      ? `list replaced, ${sizes}`
      : result.kind === 'additions'
        ? `${countOf(result.changedRows, 'row', 'rows')} added, ${sizes}`
        : `${countOf(result.changedRows, 'exclusion', 'exclusions')} ended${
            result.unmatchedRows > 0
              ? ` (${countOf(result.unmatchedRows, 'reinstatement row', 'reinstatement rows')} matched no exclusion on the list)`
              : ''
          }`;
  return (
    `${result.sourceLabel}: ${changed}. ` +
    `${countOf(result.screened, 'application', 'applications')} screened: ` +
    `${countOf(result.newMatches, 'new match', 'new matches')}, ` +
    `${countOf(result.newPossibleMatches, 'new possible match', 'new possible matches')}.`
  );
}

/**
 * One skipped line of an import's summary (issue 30 item 3): 'Line 12: DOB is not a date'. The
 * reader's reasons already name their line ('line 12: ...', 'line 12 has 17 fields ...'); a reason
 * that does not gets the line put before it.
 */
export function skippedLineText(skipped: { line: number; reason: string }): string {
  const reason = skipped.reason.trim();
  if (/^line \d+\b/i.test(reason)) return `L${reason.slice(1)}`;
  return `Line ${skipped.line}: ${reason}`;
}

/** A finding's strength as the review page names it. */
export const strengthLabel: Record<ScreeningFinding['strength'], string> = {
  match: 'Match',
  possible_match: 'Possible match',
};

/** What the provider and the list row had in common. */
export const matchedOnLabel: Record<ScreeningFinding['matchedOn'], string> = {
  npi: 'NPI',
  name_dob: 'Name and date of birth',
  name: 'Name only',
};

/** The change waiting for a reviewer (issue 30 item 2: never cleared by an import itself). */
export const pendingChangeText: Record<NonNullable<ScreeningFinding['pendingChange']>, string> = {
  no_longer_listed: 'No longer on the list',
};

/**
 * How one side-by-side line agrees, in words (not colour alone, WCAG 1.4.1): 'Differs', 'Same', or
 * for 'unknown' 'Not on one side' (one side has no value) and 'Not on either side' (neither has).
 */
export function agreementText(line: Pick<ComparisonLine, 'agreement' | 'provider' | 'list'>): string {
  if (line.agreement === 'different') return 'Differs';
  if (line.agreement === 'same') return 'Same';
  return !line.provider.trim() && !line.list.trim() ? 'Not on either side' : 'Not on one side';
}

/**
 * The decisions a finding in the queue offers (issue 30 item 4): a pending change is accepted; an
 * open finding is confirmed as a match or cleared as another person; a decided one offers none.
 */
export function decisionsFor(finding: Pick<ScreeningFinding, 'status' | 'pendingChange'>): FindingDecision[] {
  if (finding.pendingChange) return ['accept_change'];
  if (finding.status === 'open') return ['confirm_match', 'not_same_person'];
  return [];
}

/** What each decision does, shown in its dialog above the reason. */
export const decisionHelp: Record<FindingDecision, string> = {
  confirm_match:
    'The provider is recorded as the person on the list. The review page shows the match, and later imports never clear it by themselves.',
  not_same_person:
    'The list row is cleared for this provider. It will not flag them again unless the row changes on the list.',
  accept_change:
    'The row is no longer on the list. Accepting the change closes this finding; the reason is kept in the audit log.',
};
