/**
 * OIG LEIE exclusion screening rules (issue 15): the LEIE full file's columns, how names and dates are
 * normalised, and what a set of list rows means for one provider. Pure; the import and the queries
 * are server/review/leie.ts.
 *
 * Matching: the NPI exactly, or last name + first name + date of birth: "Match"; last name + first
 * name alone: "Possible match", for a person to judge with the list row in front of them.
 */

/** The header of the LEIE full file `UPDATED.csv` (OIG), in order. */
export const LEIE_COLUMNS = [
  'LASTNAME',
  'FIRSTNAME',
  'MIDNAME',
  'BUSNAME',
  'GENERAL',
  'SPECIALTY',
  'UPIN',
  'NPI',
  'DOB',
  'ADDRESS',
  'CITY',
  'STATE',
  'ZIP',
  'EXCLTYPE',
  'EXCLDATE',
  'REINDATE',
  'WAIVERDATE',
  'WVRSTATE',
] as const;

export type ScreeningOutcome = 'no_match' | 'possible_match' | 'match';

export const screeningOutcomeLabel: Record<ScreeningOutcome, string> = {
  no_match: 'No match',
  possible_match: 'Possible match',
  match: 'Match',
};

/** `O'Brien-Smith`, `obrien smith` -> `OBRIENSMITH`: letters only, upper case. */
export function normaliseName(name: string | null | undefined): string {
  return (name ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
}

/** The key screening matches names on: `LAST|FIRST` normalised; '' when either is missing. */
export function nameKey(lastName: string | null | undefined, firstName: string | null | undefined): string {
  const last = normaliseName(lastName);
  const first = normaliseName(firstName);
  return last && first ? `${last}|${first}` : '';
}

/** An LEIE date `YYYYMMDD` as `YYYY-MM-DD`; null for empty or `00000000`. */
export function leieDate(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!/^\d{8}$/.test(v) || v === '00000000') return null;
  return `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
}

/** An LEIE NPI: ten digits, else null (the file writes 0000000000 when it has none). */
export function leieNpi(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return /^\d{10}$/.test(v) && v !== '0000000000' ? v : null;
}

/** One list row as screening sees it. */
export interface ExclusionRow {
  npi: string | null;
  nameKey: string;
  dob: string | null;
}

/**
 * The outcome of `rows` (the list rows found by NPI or name key) for a provider with `npi`, name key
 * `key` and date of birth `dob` (YYYY-MM-DD), and the rows that make it.
 */
export function screeningOutcome<Row extends ExclusionRow>(
  provider: { npi: string | null; key: string; dob: string | null },
  rows: readonly Row[],
): { outcome: ScreeningOutcome; rows: Row[] } {
  const matches = rows.filter(
    (r) =>
      (provider.npi !== null && r.npi === provider.npi) ||
      (provider.key !== '' && r.nameKey === provider.key && provider.dob !== null && r.dob === provider.dob),
  );
  if (matches.length > 0) return { outcome: 'match', rows: matches };
  const possible = rows.filter((r) => provider.key !== '' && r.nameKey === provider.key);
  if (possible.length > 0) return { outcome: 'possible_match', rows: possible };
  return { outcome: 'no_match', rows: [] };
}
