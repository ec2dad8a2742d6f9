/**
 * Input helpers of the personal information form (spec §2 "SSN (masked input, placeholder XXX-XX-XXXX)",
 * §5 "the SSN, phone and NPI placeholders are hints only and are not enforced"). The NPI and DEA
 * warnings are domain/sections/identifier-checks.ts (shared with the review checklist).
 */

/** Digits an SSN has (SSA: area 3, group 2, serial 4). */
const SSN_DIGITS = 9;

/**
 * The SSN mask: keeps the digits of whatever was typed or pasted (at most 9) and inserts the dashes of
 * XXX-XX-XXXX as the digits arrive. `'123456789'` -> `'123-45-6789'`, `'123 45'` -> `'123-45'`, `''` -> `''`.
 */
export function formatSsn(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, SSN_DIGITS);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}
