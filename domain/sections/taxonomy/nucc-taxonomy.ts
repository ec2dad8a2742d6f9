/**
 * The NUCC Health Care Provider Taxonomy code set (issue 31 item 1): what one code is, the version we
 * ship, and the search the Specialties screen uses. The data is the file next to this one,
 * `nucc-taxonomy-26.1.csv` (the code set's fact columns; SOURCE.md says where it comes from), read by
 * the server (server/sections/taxonomy.ts), which validates codes with it and serves it to the screen.
 * Pure: no Node, no DOM.
 */

/** The NUCC code set version shipped (README "Reference data"); the file name carries it too. */
export const NUCC_TAXONOMY_VERSION = '26.1';
/** The file's name, in this folder. */
export const NUCC_TAXONOMY_FILE = `nucc-taxonomy-${NUCC_TAXONOMY_VERSION}.csv`;

/** One code of the code set (NUCC's three levels: grouping, classification, specialization). */
export interface TaxonomyEntry {
  /** Ten characters, e.g. '207RC0000X'. */
  code: string;
  /** Level I, e.g. 'Allopathic & Osteopathic Physicians'. */
  grouping: string;
  /** Level II, e.g. 'Internal Medicine'. */
  classification: string;
  /** Level III, e.g. 'Cardiovascular Disease'; '' for a classification-level code. */
  specialization: string;
  /** NUCC's display name, e.g. 'Cardiovascular Disease Physician'. */
  displayName: string;
  /** 'Individual' or 'Non-Individual' (an organization's code). */
  section: string;
}

/** The file's header, in order (SOURCE.md). */
export const NUCC_TAXONOMY_COLUMNS = [
  'Code',
  'Grouping',
  'Classification',
  'Specialization',
  'Display Name',
  'Section',
] as const;

/**
 * One record of the file (fields in NUCC_TAXONOMY_COLUMNS order) as an entry, trimmed.
 * @throws Error when the record does not have the file's six fields
 */
export function taxonomyEntryOf(record: readonly string[]): TaxonomyEntry {
  if (record.length !== NUCC_TAXONOMY_COLUMNS.length) {
    throw new Error(`A taxonomy record has ${record.length} fields, not ${NUCC_TAXONOMY_COLUMNS.length}`);
  }
  const [code, grouping, classification, specialization, displayName, section] = record.map((f) =>
    f.trim(),
  ) as [string, string, string, string, string, string];
  return { code, grouping, classification, specialization, displayName, section };
}

/** How an entry is named in a list: 'Internal Medicine, Cardiovascular Disease'. */
export function taxonomyLabel(entry: Pick<TaxonomyEntry, 'classification' | 'specialization'>): string {
  return entry.specialization ? `${entry.classification}, ${entry.specialization}` : entry.classification;
}

/** Lower-case, accents and punctuation folded to spaces: what a search compares. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** An entry prepared for searching: its code and its words, folded once. */
export interface SearchableTaxonomyEntry {
  entry: TaxonomyEntry;
  code: string;
  text: string;
}

/** Folds every entry once, so each keystroke's search only compares strings. */
export function searchableTaxonomy(entries: readonly TaxonomyEntry[]): SearchableTaxonomyEntry[] {
  return entries.map((entry) => ({
    entry,
    code: entry.code.toLowerCase(),
    text: ` ${fold(`${entry.classification} ${entry.specialization} ${entry.displayName} ${entry.grouping}`)}`,
  }));
}

/**
 * The entries matching `query`, best first, at most `limit`: a code typed whole or in part matches by
 * prefix ('207rc'); otherwise every word of the query must start a word of the entry's names
 * ('cardio dis' finds 'Cardiovascular Disease'). Ranked: code prefix, then names whose classification
 * or specialization starts with the query, then the others, each in the code set's order.
 * An empty query returns the first `limit` entries.
 */
export function searchTaxonomy(
  searchable: readonly SearchableTaxonomyEntry[],
  query: string,
  limit = 50,
): TaxonomyEntry[] {
  const q = fold(query);
  if (!q) return searchable.slice(0, limit).map((s) => s.entry);
  const words = q.split(' ');
  const codeQuery = query.trim().toLowerCase();
  const ranked: [number, TaxonomyEntry][] = [];
  for (const item of searchable) {
    if (/^[0-9]/.test(codeQuery) && item.code.startsWith(codeQuery)) {
      ranked.push([0, item.entry]);
      continue;
    }
    if (!words.every((word) => item.text.includes(` ${word}`))) continue;
    const names = fold(`${item.entry.specialization} ${item.entry.classification}`);
    ranked.push([names.startsWith(q) || fold(item.entry.classification).startsWith(q) ? 1 : 2, item.entry]);
  }
  // Array.prototype.sort is stable: equal ranks keep the code set's order.
  return ranked
    .sort((a, b) => a[0] - b[0])
    .slice(0, limit)
    .map(([, entry]) => entry);
}
