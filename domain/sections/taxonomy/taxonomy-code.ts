/**
 * The form of a Health Care Provider Taxonomy code (NUCC, X12 and NPPES): ten characters, three digits,
 * then six digits or capital letters, then 'X' (e.g. '207RC0000X'). Kept apart from the code set so a
 * schema can check the form without loading the set.
 */
export const TAXONOMY_CODE_PATTERN = /^[0-9]{3}[0-9A-Z]{6}X$/;
