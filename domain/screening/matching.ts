/**
 * How screening matches a provider with an exclusion list row (issues 15 and 30): names are compared
 * folded (accents, case, spacing, hyphens and punctuation removed: `normaliseName`) as `LAST|FIRST`
 * (`nameKey`), NPIs as ten digits (`listNpi`). Pure; server/screening/screening.ts runs it over the
 * rows its query finds, the NPPES check (server/review/nppes.ts) and the side-by-side view fold names
 * the same way.
 *
 * A row with the provider's NPI, or with their name key and birth date, is a **match**; a row with the
 * name key alone is a **possible match**, for a person to judge with the row in front of them.
 */

export type ScreeningOutcome = 'no_match' | 'possible_match' | 'match';

export const screeningOutcomeLabel: Record<ScreeningOutcome, string> = {
  no_match: 'No match',
  possible_match: 'Possible match',
  match: 'Match',
};

/** `O'Brien-Smith`, `obrien smith`, `Ó Brien Smith` -> `OBRIENSMITH`: letters only, upper case. */
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

/** An NPI as the lists write it: ten digits, else null (the LEIE writes 0000000000 when it has none). */
export function listNpi(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return /^\d{10}$/.test(v) && v !== '0000000000' ? v : null;
}

/** What screening knows of a provider: NPI (or null), name key ('' when unknown), birth date YYYY-MM-DD. */
export interface ScreeningSubject {
  npi: string | null;
  key: string;
  dob: string | null;
}

/** What screening reads of a list row. */
export interface ScreenedRow {
  npi: string | null;
  nameKey: string;
  dob: string | null;
}

/** How `row` matches `subject`, or null: by NPI, by name + birth date (both matches), by name alone. */
export function matchOf(
  subject: ScreeningSubject,
  row: ScreenedRow,
): { strength: 'match' | 'possible_match'; on: 'npi' | 'name_dob' | 'name' } | null {
  if (subject.npi !== null && row.npi === subject.npi) return { strength: 'match', on: 'npi' };
  if (subject.key === '' || row.nameKey !== subject.key) return null;
  if (subject.dob !== null && row.dob === subject.dob) return { strength: 'match', on: 'name_dob' };
  return { strength: 'possible_match', on: 'name' };
}
