/**
 * Accent- and case-blind text for search (issue 52 item 3; FHIR R4 search.html#string: "the search
 * is case-insensitive and accent-insensitive"): `foldText('Núñez')` is `'nunez'`. The database side
 * is `lower(translate(column, FOLD_FROM, FOLD_TO))` (server/directory), which needs no extension
 * (PostgreSQL's `unaccent` is not installed on every server this runs on) and gives the same answer
 * as `foldText` for every letter of FOLD_FROM. Pure.
 */

/** Accented Latin letters folded by the database, each to the one ASCII letter of FOLD_TO. */
export const FOLD_FROM =
  'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿŠšŽžČčĆćŁłŃńŚśŹźŻżĘęĄąŐőŰűĞğŞşİıŘřĚěŮů';
const SPECIAL: Record<string, string> = { Ø: 'O', ø: 'o', Ł: 'L', ł: 'l', ı: 'i' };
/** FOLD_FROM's letters without their marks, position by position. */
export const FOLD_TO = [...FOLD_FROM]
  .map((c) => SPECIAL[c] ?? c.normalize('NFD').replace(/\p{M}/gu, ''))
  .join('');

/**
 * `text` lower-cased without diacritics (NFD, marks removed; ø, ł, ı mapped), for comparing names.
 * @example foldText('Núñez') // 'nunez'
 */
export function foldText(text: string): string {
  return [...text.normalize('NFD').replace(/\p{M}/gu, '')]
    .map((c) => SPECIAL[c] ?? c)
    .join('')
    .toLowerCase();
}
