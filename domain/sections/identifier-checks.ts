/**
 * Format checks of the NPI and the DEA number (issue 15 "Format checks"): warnings, never refusals,
 * because spec §5 leaves personal information unvalidated. One implementation for the personal
 * information screen (shown inline as the value is typed, judged as final once the field is left, and
 * listed in the save confirmation, issue 28; it still saves) and the review checklist (shown on the
 * NPI and DEA items).
 *
 * - NPI (CMS "NPI check digit" standard): ten digits, the last a Luhn check digit computed over the
 *   prefix 80840 followed by the first nine digits (npiCheckDigitValid, personal-information.ts).
 * - DEA number (DEA registrant numbering): two letters and seven digits; the first letter is the
 *   registrant type (DEA_REGISTRANT_TYPES, issue 30 item 7); check digit =
 *   (d1 + d3 + d5 + 2 x (d2 + d4 + d6)) mod 10; the second letter is normally the initial of the
 *   registrant's last name (or 9 for some business registrants).
 */
import { npiCheckDigitValid } from './personal-information.ts';

export const NPI_FORMAT_WARNING = 'An NPI is 10 digits. Check the number; you can still save it.';
export const NPI_CHECK_DIGIT_WARNING =
  'This NPI fails its check digit. Check the number; you can still save it.';
export const DEA_FORMAT_WARNING =
  'A DEA number is two letters and seven digits (e.g. AB1234563). Check it; you can still save it.';
export const DEA_CHECK_DIGIT_WARNING =
  'This DEA number fails its check digit. Check the number; you can still save it.';

/**
 * The letters a DEA number may start with: the registrant types DEA publishes (issue 30 item 7), e.g.
 * A, B, F and G for practitioners and hospitals, M for mid-level practitioners, P to U and X for
 * distributors, researchers, importers, exporters and narcotic treatment programs.
 */
export const DEA_REGISTRANT_TYPES = [
  'A',
  'B',
  'C',
  'D',
  'E',
  'F',
  'G',
  'H',
  'J',
  'K',
  'L',
  'M',
  'P',
  'R',
  'S',
  'T',
  'U',
  'X',
] as const;
export const DEA_REGISTRANT_TYPE_WARNING = `The first letter of a DEA number is its registrant type (${DEA_REGISTRANT_TYPES.slice(0, -1).join(', ')} or ${DEA_REGISTRANT_TYPES.at(-1)}). Check it; you can still save it.`;

/** Whether `letter` (either case) is a DEA registrant type (issue 30 item 7). */
export function isDeaRegistrantType(letter: string): boolean {
  return (DEA_REGISTRANT_TYPES as readonly string[]).includes(letter.toUpperCase());
}

/** The DEA second-letter warning for `lastName`. */
export function deaInitialWarning(lastName: string): string {
  return `The second letter of a DEA number is normally the initial of the last name (${lastName.trim().charAt(0).toUpperCase()}). Check it; you can still save it.`;
}

/** When to speak: `typing` stays quiet until the value could be complete; `final` judges it as it is. */
export type CheckMode = 'typing' | 'final';

/**
 * The NPI's warning, or null when it passes (or is empty). While typing, fewer than ten digits is not
 * wrong yet.
 */
export function npiWarning(npi: string, mode: CheckMode = 'typing'): string | null {
  const value = npi.trim();
  if (value === '') return null;
  if (!/^\d{10}$/.test(value)) {
    if (mode === 'typing' && /^\d{0,9}$/.test(value)) return null;
    return NPI_FORMAT_WARNING;
  }
  return npiCheckDigitValid(value) ? null : NPI_CHECK_DIGIT_WARNING;
}

/** Whether the seven digits of a DEA number (after the two letters) carry a valid check digit. */
export function deaCheckDigitValid(dea: string): boolean {
  const match = /^[A-Za-z][A-Za-z9](\d{7})$/.exec(dea.trim());
  if (!match) return false;
  const d = match[1]!.split('').map(Number);
  const sum = d[0]! + d[2]! + d[4]! + 2 * (d[1]! + d[3]! + d[5]!);
  return sum % 10 === d[6];
}

/**
 * The DEA number's warnings, in the order of the letters they judge: format, registrant type (first
 * letter, issue 30 item 7), check digit, second letter against `lastName` when given; empty when it
 * passes or is empty. While typing, a prefix of a well-formed number is not wrong yet, except a first
 * letter that no registrant type has (no later keystroke can mend it).
 */
export function deaWarnings(dea: string, lastName?: string, mode: CheckMode = 'typing'): string[] {
  const value = dea.trim();
  if (value === '') return [];
  const typeKnown = !/^[A-Za-z]/.test(value) || isDeaRegistrantType(value.charAt(0));
  if (!/^[A-Za-z][A-Za-z9]\d{7}$/.test(value)) {
    if (mode === 'typing' && /^[A-Za-z]?([A-Za-z9]\d{0,6})?$/.test(value)) {
      return typeKnown ? [] : [DEA_REGISTRANT_TYPE_WARNING];
    }
    return [DEA_FORMAT_WARNING];
  }
  const warnings: string[] = [];
  if (!typeKnown) warnings.push(DEA_REGISTRANT_TYPE_WARNING);
  if (!deaCheckDigitValid(value)) warnings.push(DEA_CHECK_DIGIT_WARNING);
  const initial = lastName?.trim().charAt(0).toUpperCase();
  const second = value.charAt(1).toUpperCase();
  if (initial && /[A-Z]/.test(initial) && second !== '9' && second !== initial) {
    warnings.push(deaInitialWarning(lastName!));
  }
  return warnings;
}

/**
 * Every warning of the NPI and the DEA number of a personal-information record, judged as final (the
 * record is being saved), in field order: what the save confirmation lists (issue 28).
 */
export function identifierWarnings(
  record: { npiNumber?: string | null; deaNumber?: string | null },
  lastName?: string,
): string[] {
  const npi = npiWarning(record.npiNumber ?? '', 'final');
  return [...(npi ? [npi] : []), ...deaWarnings(record.deaNumber ?? '', lastName, 'final')];
}

/**
 * The save confirmation's line for `warnings` (issue 28): 'Saved with 1 warning: …' or 'Saved with 2
 * warnings: … …' (the messages joined by a space, each a full sentence), or null when there are none.
 */
export function savedWithWarningsText(warnings: readonly string[]): string | null {
  if (warnings.length === 0) return null;
  const noun = warnings.length === 1 ? 'warning' : 'warnings';
  return `Saved with ${warnings.length} ${noun}: ${warnings.join(' ')}`;
}
