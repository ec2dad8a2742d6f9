/**
 * Phone and fax numbers as the roster writes them (issue 52 item 4, docs/decisions/030 'Roster
 * formats'). The application keeps phones as the provider typed them (spec §5: formats are hints
 * only); a roster writes one format, so a payer's loader reads one shape and no phone starts with a
 * character a spreadsheet would run as a formula (`+`, `-`, `=`, `@`).
 *
 * - A North American (NANP, country code 1) number: `(305) 555-0100`, whether it was typed as
 *   `+1 (305) 555-0100`, `1-305-555-0100` or `305.555.0100`.
 * - Another country's number: as dialled from the United States, `011 44 20 7946 0958`.
 * - The extension apart (`x12`, `ext. 12`, `;ext=12` all read): its digits only, `12`.
 * - Text that is not a possible phone number (`call the front desk`, `12345`): as typed, unchanged;
 *   the CSV formula guard still defuses it if it starts with a formula character.
 *
 * Parsing is libphonenumber-js's (Google's libphonenumber metadata, minimal set), with the United
 * States as the default country for numbers typed without a country code.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** A phone in the roster format: the number and, apart, its extension's digits (null when none). */
export interface RosterPhone {
  number: string;
  extension: string | null;
}

/**
 * `typed` in the roster format; null for null or blank input. Never throws: text that does not
 * parse as a possible number comes back as typed (trimmed), with no extension.
 */
export function rosterPhone(typed: string | null | undefined): RosterPhone | null {
  const text = typed?.trim();
  if (!text) return null;
  const parsed = parsePhoneNumberFromString(text, 'US');
  if (!parsed?.isPossible()) return { number: text, extension: null };
  const extension = parsed.ext ?? null;
  const national = parsed.nationalNumber;
  if (parsed.countryCallingCode === '1' && national.length === 10) {
    return {
      number: `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
      extension,
    };
  }
  // 'IDD' from the United States: '011 44 20 7946 0958' (never a leading '+'). Formatted from the
  // E.164 number (`parsed.number`, no extension), as each country writes an extension its own way.
  const dialled = parsePhoneNumberFromString(parsed.number)?.format('IDD', { fromCountry: 'US' });
  if (!dialled) return { number: text, extension: null };
  return { number: dialled, extension };
}

/** A fax number in the roster format, its extension (rare) kept as ` ext. N` in the same cell. */
export function rosterFax(typed: string | null | undefined): string | null {
  const fax = rosterPhone(typed);
  if (!fax) return null;
  return fax.extension ? `${fax.number} ext. ${fax.extension}` : fax.number;
}
