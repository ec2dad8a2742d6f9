/**
 * What every list format's row reader shares (issue 30 item 3): a row's date columns read with the
 * first bad one as the skip reason, NPIs, and values clipped for messages. Pure. Split out of
 * exclusion-formats.ts (issue 52 item 1) so that the per-source formats can live in modules of their own.
 */
import type { ExclusionEntryInput } from './exclusion-types.ts';
import { parseListDate } from './list-dates.ts';

/** An entry before its keys and raw fields are added. */
export type Mapped = Omit<ExclusionEntryInput, 'nameKey' | 'entryKey' | 'fields'>;

/** Reads a row's date columns; the first invalid one becomes the row's skip reason. */
export class DateReader {
  error: string | null = null;
  private readonly fields: Record<string, string>;
  private readonly line: string;
  private readonly now: Date;
  constructor(fields: Record<string, string>, line: string, now: Date) {
    this.fields = fields;
    this.line = line;
    this.now = now;
  }

  read(column: string): string | null {
    const raw = this.fields[column] ?? '';
    const date = parseListDate(raw, this.now);
    if (date !== 'invalid') return date;
    this.error ??= `${this.line}: ${column} ${clip(raw)} is not a date`;
    return null;
  }
}

/** Ten digits, not all zero (the LEIE's `0000000000` is "none"); anything else is no NPI. */
export function tenDigits(value: string): string | null {
  return /^\d{10}$/.test(value) && !/^0+$/.test(value) ? value : null;
}

export function joinNonEmpty(parts: readonly string[], separator: string): string {
  return parts.filter((p) => p !== '').join(separator);
}

/** A value quoted in a message, cut short so a message never carries a long field. */
export function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
