/**
 * The NUCC Health Care Provider Taxonomy code set the server validates specialties with and serves to
 * the Specialties screen (issue 31 item 1). Read once, on first use, from the shipped file
 * `domain/sections/taxonomy/nucc-taxonomy-<version>.csv` (domain/sections/taxonomy/nucc-taxonomy.ts
 * names it; SOURCE.md says where it comes from).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import {
  NUCC_TAXONOMY_COLUMNS,
  NUCC_TAXONOMY_FILE,
  type TaxonomyEntry,
  taxonomyEntryOf,
} from '../../domain/sections/taxonomy/nucc-taxonomy.ts';
import { TAXONOMY_CODE_PATTERN } from '../../domain/sections/taxonomy/taxonomy-code.ts';
import { packageRoot } from '../paths.ts';

/** The shipped file, next to the domain module that names it. */
export const taxonomyFileUrl = pathToFileURL(
  path.join(packageRoot, 'domain', 'sections', 'taxonomy', NUCC_TAXONOMY_FILE),
);

/** The code set as loaded: entries in the file's order, and by code. */
export interface TaxonomyCodeSet {
  entries: readonly TaxonomyEntry[];
  byCode: ReadonlyMap<string, TaxonomyEntry>;
}

/**
 * Parse the code set file's text (UTF-8, header `Code,Grouping,Classification,Specialization,Display
 * Name,Section`).
 * @throws Error when the header differs, a code is malformed or appears twice: the shipped file is
 *   wrong, which a start-up must not hide
 */
export function parseTaxonomyFile(text: string): TaxonomyCodeSet {
  const records = parse(text, { bom: true, relax_column_count: false, skip_empty_lines: true }) as string[][];
  const [header, ...rows] = records;
  if (header?.join(',') !== NUCC_TAXONOMY_COLUMNS.join(',')) {
    throw new Error(`The taxonomy file's header is not ${NUCC_TAXONOMY_COLUMNS.join(',')}`);
  }
  const entries = rows.map(taxonomyEntryOf);
  const byCode = new Map<string, TaxonomyEntry>();
  for (const entry of entries) {
    if (!TAXONOMY_CODE_PATTERN.test(entry.code)) throw new Error(`Malformed taxonomy code ${entry.code}`);
    if (byCode.has(entry.code)) throw new Error(`Taxonomy code ${entry.code} appears twice`);
    byCode.set(entry.code, entry);
  }
  return { entries, byCode };
}

let loaded: TaxonomyCodeSet | undefined;

/** The shipped code set, read and parsed on first use (about 880 codes). */
export function taxonomyCodeSet(): TaxonomyCodeSet {
  loaded ??= parseTaxonomyFile(readFileSync(taxonomyFileUrl, 'utf8'));
  return loaded;
}
