/**
 * Which exclusion lists a provider's screening must cover, and whether it did (issue 51 item 1,
 * decision 039). A screening verdict says only what was screened:
 * - the lists required for a provider are every federal list (OIG LEIE, SAM.gov) and the state
 *   Medicaid list of each state where the provider is licensed or practises, as far as the product
 *   has one (`exclusionSources`);
 * - a required list covers the provider only when it was imported within STALE_SOURCE_DAYS (35) days
 *   (the monitoring period, `isStaleList`); a missing or stale one keeps the 'Exclusion screening'
 *   item from being verified and the file from being sent for decision, with a message naming it;
 * - the item's source is written from the lists screened, each with the day its file was applied
 *   and its rows: 'OIG LEIE of 2026-11-01 (80,412 rows), SAM.gov exclusions of 2026-11-27 (1,204 rows)'.
 * Pure: the server's checks and the web's texts read the same rules.
 */
import { STALE_SOURCE_DAYS } from '../api/screening.ts';
import { type ExclusionSource, exclusionSources } from './exclusion-formats.ts';
import { isStaleList } from './staleness.ts';

/** One list as screening last loaded it: `appliedAt` null when it was never imported. */
export interface LoadedList {
  source: string;
  appliedAt: Date | null;
  /** Rows on the list after that apply. */
  rows: number;
}

/** A required list and why it does not cover the provider now. */
export interface ScreeningGap {
  label: string;
  /** 'never imported' or 'last imported 2026-09-01'. */
  why: string;
}

export interface ScreeningCoverage {
  /** The lists the provider must be screened against, in `exclusionSources` order. */
  required: readonly ExclusionSource[];
  /** Required lists that are missing or stale: each blocks a 'No match' verdict. */
  gaps: readonly ScreeningGap[];
  /** The provider's states (licensed or practising) for which the product has no state list. */
  statesWithoutList: readonly string[];
}

const STATE = /^[A-Z]{2}$/;

/** The two-letter states of `values` (trimmed, upper-cased, deduplicated, sorted); others dropped. */
export function statesOf(values: readonly unknown[]): string[] {
  const states = values
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim().toUpperCase())
    .filter((v) => STATE.test(v));
  return [...new Set(states)].sort();
}

/** The states the product has a state exclusion list for ('NY', 'PA'). */
export const statesWithList: readonly string[] = exclusionSources.flatMap((s) => (s.state ? [s.state] : []));

/** `'YYYY-MM-DD'` of `date` in UTC. */
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The coverage of a provider licensed or practising in `providerStates`, by `lists` (each source's
 * last apply; sources absent were never imported), at `now`.
 */
export function screeningCoverage(
  providerStates: readonly string[],
  lists: readonly LoadedList[],
  now: Date,
): ScreeningCoverage {
  const states = statesOf(providerStates);
  const required = exclusionSources.filter((s) => s.state === null || states.includes(s.state));
  const gaps = required.flatMap((source) => {
    const list = lists.find((l) => l.source === source.id);
    const appliedAt = list?.appliedAt ?? null;
    if (!isStaleList(appliedAt, now)) return [];
    return [{ label: source.label, why: appliedAt ? `last imported ${day(appliedAt)}` : 'never imported' }];
  });
  return { required, gaps, statesWithoutList: states.filter((s) => !statesWithList.includes(s)) };
}

/** 'SAM.gov exclusions (never imported), New York OMIG (last imported 2026-09-01)'. */
export const gapsText = (gaps: readonly ScreeningGap[]) =>
  gaps.map((g) => `${g.label} (${g.why})`).join(', ');

/**
 * Why 'Verify' of the exclusion item (and 'Send for Decision') is refused while `gaps` remain; the
 * reviewer's next step is on the 'Exclusions' tab.
 */
export const screeningGapMessage = (gaps: readonly ScreeningGap[]) =>
  `Exclusion screening cannot be verified until every list is current: import ${gapsText(gaps)} on the 'Exclusions' tab (each list must be imported within ${STALE_SOURCE_DAYS} days).`;

/** The clean-file reason of a screening with gaps (domain/committee/clean-file.ts). */
export const screeningGapReason = (gaps: readonly ScreeningGap[]) =>
  `Exclusion screening incomplete: ${gapsText(gaps)}`;

/**
 * The exclusion item's source: each of the provider's `required` lists that was screened, with its
 * file's day and rows, in `exclusionSources` order: 'OIG LEIE of 2026-11-01 (80,412 rows), SAM.gov
 * exclusions of 2026-11-27 (1,204 rows)'. Lists the provider does not need (another state's) are not
 * named: the verdict does not rest on them.
 */
export function screenedListsText(
  lists: readonly LoadedList[],
  required: readonly ExclusionSource[],
): string {
  return required
    .flatMap((source) => {
      const list = lists.find((l) => l.source === source.id && l.appliedAt);
      return list?.appliedAt
        ? [`${source.label} of ${day(list.appliedAt)} (${list.rows.toLocaleString('en-US')} rows)`]
        : [];
    })
    .join(', ');
}

/** 'No state exclusion list in the product for: CA, TX' (empty when none is missing). */
export const statesWithoutListText = (states: readonly string[]) =>
  states.length ? `No state exclusion list in the product for: ${states.join(', ')}` : '';
