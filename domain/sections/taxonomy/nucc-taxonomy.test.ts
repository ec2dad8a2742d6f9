/**
 * The shipped NUCC Health Care Provider Taxonomy code set (version 26.1) and the search of the
 * Specialties screen (issue 31 item 1), over the real file: read as text by the test runner (the
 * `?raw` import; domain code never reads files) and parsed as RFC 4180 CSV, as the server does.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  NUCC_TAXONOMY_COLUMNS,
  NUCC_TAXONOMY_FILE,
  NUCC_TAXONOMY_VERSION,
  searchableTaxonomy,
  searchTaxonomy,
  type TaxonomyEntry,
  taxonomyEntryOf,
  taxonomyLabel,
} from './nucc-taxonomy.ts';
import fileText from './nucc-taxonomy-26.1.csv?raw';
import { TAXONOMY_CODE_PATTERN } from './taxonomy-code.ts';

const [header, ...records] = parse(fileText, { skip_empty_lines: true }) as string[][];
const entries: TaxonomyEntry[] = records.map(taxonomyEntryOf);
const searchable = searchableTaxonomy(entries);
const codes = (found: TaxonomyEntry[]) => found.map((e) => e.code);

describe('the shipped code set file', () => {
  it('is version 26.1: 883 codes, six columns, each code well formed and unique', () => {
    expect(NUCC_TAXONOMY_VERSION).toBe('26.1');
    expect(NUCC_TAXONOMY_FILE).toBe('nucc-taxonomy-26.1.csv');
    expect(header).toEqual([...NUCC_TAXONOMY_COLUMNS]);
    expect(entries).toHaveLength(883);
    expect(entries.filter((e) => !TAXONOMY_CODE_PATTERN.test(e.code))).toEqual([]);
    expect(new Set(codes(entries)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.section))).toEqual(new Set(['Individual', 'Non-Individual']));
    expect(entries.filter((e) => !e.classification || !e.grouping || !e.displayName)).toEqual([]);
  });

  it("holds NUCC's names, quoted fields included", () => {
    const byCode = new Map(entries.map((e) => [e.code, e]));
    expect(byCode.get('207RC0000X')).toEqual({
      code: '207RC0000X',
      grouping: 'Allopathic & Osteopathic Physicians',
      classification: 'Internal Medicine',
      specialization: 'Cardiovascular Disease',
      displayName: 'Cardiovascular Disease Physician',
      section: 'Individual',
    });
    // A classification-level code has no specialization.
    expect(byCode.get('207R00000X')).toMatchObject({
      classification: 'Internal Medicine',
      specialization: '',
    });
    // A comma inside a quoted field stays in the field.
    expect(byCode.get('363LN0005X')).toMatchObject({
      classification: 'Nurse Practitioner',
      specialization: 'Neonatal, Critical Care',
    });
    expect(taxonomyLabel(byCode.get('363LF0000X')!)).toBe('Nurse Practitioner, Family');
    expect(taxonomyLabel(byCode.get('207R00000X')!)).toBe('Internal Medicine');
  });

  it('refuses a record that does not have six fields', () => {
    expect(() => taxonomyEntryOf(['207RC0000X', 'Allopathic & Osteopathic Physicians'])).toThrow(
      'A taxonomy record has 2 fields, not 6',
    );
  });
});

describe('searchTaxonomy', () => {
  it('finds codes by prefix, typed in any case, in the code set order', () => {
    expect(codes(searchTaxonomy(searchable, '207rc0000x'))).toEqual(['207RC0000X']);
    const physicians = searchTaxonomy(searchable, '207', 500);
    expect(physicians.length).toBeGreaterThan(100);
    expect(physicians.every((e) => e.code.startsWith('207'))).toBe(true);
    expect(codes(physicians)).toEqual(codes(entries.filter((e) => e.code.startsWith('207'))));
    expect(codes(searchTaxonomy(searchable, ' 363LF '))).toEqual(['363LF0000X']);
  });

  it('finds names by the start of each word, in any order, accents and punctuation aside', () => {
    expect(codes(searchTaxonomy(searchable, 'cardio dis'))).toContain('207RC0000X');
    expect(codes(searchTaxonomy(searchable, 'disease cardiovascular'))).toContain('207RC0000X');
    // 'ology' starts no word: the search matches word starts, not inside words.
    expect(codes(searchTaxonomy(searchable, 'ology'))).toEqual([]);
    expect(codes(searchTaxonomy(searchable, 'psychiatric/mental health nurse practitioner'))).toEqual([
      '363LP0808X',
    ]);
    expect(codes(searchTaxonomy(searchable, 'Psychiátric Mental'))).toContain('363LP0808X');
    // Every word must match: a second word that matches nothing empties the list.
    expect(searchTaxonomy(searchable, 'cardio zebra')).toEqual([]);
    expect(searchTaxonomy(searchable, 'xyzzy')).toEqual([]);
  });

  it('ranks names that start with the query before names that only contain its words', () => {
    const cardio = codes(searchTaxonomy(searchable, 'cardio', 200));
    // 'Advanced Heart Failure and Transplant Cardiology' comes first in the file, but its
    // specialization does not start with 'cardio': it ranks after 'Cardiovascular Disease'.
    expect(cardio.indexOf('207RC0000X')).toBeLessThan(cardio.indexOf('207RA0001X'));
    expect(cardio.indexOf('207RA0001X')).toBeGreaterThan(-1);
    // The classification or specialization starting with the query: the first rank.
    const startsWith = (e: TaxonomyEntry) =>
      `${e.specialization} ${e.classification}`.toLowerCase().startsWith('cardio') ||
      e.classification.toLowerCase().startsWith('cardio');
    const byCode = new Map(entries.map((e) => [e.code, e]));
    const firstRank = cardio.filter((c) => startsWith(byCode.get(c)!));
    expect(cardio.slice(0, firstRank.length)).toEqual(firstRank);

    expect(codes(searchTaxonomy(searchable, 'family med')).slice(0, 1)).toEqual(['207Q00000X']);
    expect(codes(searchTaxonomy(searchable, 'nurse pract')).slice(0, 2)).toEqual([
      '363L00000X',
      '363LA2100X',
    ]);
  });

  it('returns at most `limit` entries (50 by default), and the first ones for an empty query', () => {
    expect(searchTaxonomy(searchable, 'a')).toHaveLength(50);
    expect(searchTaxonomy(searchable, 'a', 5)).toHaveLength(5);
    expect(codes(searchTaxonomy(searchable, '   ', 3))).toEqual(codes(entries.slice(0, 3)));
    expect(codes(searchTaxonomy(searchable, ''))).toEqual(codes(entries.slice(0, 50)));
  });
});
