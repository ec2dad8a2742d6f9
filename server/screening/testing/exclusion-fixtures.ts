/**
 * The exclusion list fixtures of tests/fixtures/exclusions read as the import reads them (issue 30
 * item 3; SOURCES.md says where each was published), for the format tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import {
  detectExclusionFormat,
  type ExclusionEntryInput,
  type ExclusionFormat,
  listFileDialect,
  readExclusionRow,
} from '../../../domain/screening/exclusion-formats.ts';

/** The day the fixtures are read on (two-digit years pivot on it). */
export const FIXTURE_NOW = new Date('2026-08-15T12:00:00Z');
const now = FIXTURE_NOW;
const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/exclusions');

/** A fixture's text: UTF-8 when it is valid UTF-8, else Windows-1252 (what the server does too). */
function fixtureText(file: string): string {
  const bytes = fs.readFileSync(path.join(FIXTURES, file));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** A fixture split as the import splits it: records with their 1-based line numbers. */
export function fixtureRecords(file: string): { line: number; record: string[] }[] {
  const text = fixtureText(file);
  const dialect = listFileDialect(text.slice(0, text.indexOf('\n')));
  const rows = parse(text, {
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  return rows.map((r) => ({ line: r.info.lines, record: r.record }));
}

export function format(header: readonly string[], fileName: string): ExclusionFormat {
  const detected = detectExclusionFormat(header, fileName);
  if ('error' in detected) throw new Error(detected.error);
  return detected.format;
}

/** Every row of a fixture read with the format its header and name give. */
export function readFixture(file: string) {
  const [header, ...rows] = fixtureRecords(file);
  const fmt = format(header!.record, path.basename(file));
  const entries: (ExclusionEntryInput & { line: number })[] = [];
  const skips: string[] = [];
  for (const { line, record } of rows) {
    const read = readExclusionRow(fmt, record, line, now);
    if ('skip' in read) skips.push(read.skip);
    else entries.push({ ...read.entry, line });
  }
  return { format: fmt, entries, skips };
}

export const byName = (entries: readonly ExclusionEntryInput[], last: string, first: string) =>
  entries.filter((e) => e.lastName === last && e.firstName === first);
