/** Display formats shared by the screens. Dates use the user's locale. */
import dayjs from 'dayjs';

/** '2026-11-23T10:00:00Z' -> 'Nov 23, 2026'. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  return dayjs(iso).format('MMM D, YYYY');
}
