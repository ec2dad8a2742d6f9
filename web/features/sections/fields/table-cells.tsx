/** Cell formats shared by the section tables: empty values show a dash (read as "none"), dates 'Mar 1, 2024'. */
import { VisuallyHidden } from '@mantine/core';
import { formatDate } from '../../../format.ts';

/** Text of an optional value, or a dash that screen readers announce as "none". */
export function orDash(value: string | number | null | undefined) {
  if (value === null || value === undefined || value === '') {
    return (
      <>
        <span aria-hidden="true">—</span>
        <VisuallyHidden>none</VisuallyHidden>
      </>
    );
  }
  return String(value);
}

/** A 'YYYY-MM-DD' date as 'Mar 1, 2024', or a dash. */
export function dateCell(value: string | null | undefined) {
  return value ? formatDate(value) : orDash(null);
}
