/** Display formats shared by the screens. Dates use the user's locale. */
import dayjs from 'dayjs';

/** '2026-11-23T10:00:00Z' -> 'Nov 23, 2026'. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  return dayjs(iso).format('MMM D, YYYY');
}

/** Bytes -> '1.23 MB' (spec §9: MB with two decimals). */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
