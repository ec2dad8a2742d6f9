/**
 * The day bounds of the admin's date filters (the audit log, issue 34; the reports, decision 031):
 * `YYYY-MM-DD` UTC days between FILTER_FIRST_DAY and FILTER_LAST_DAY, `from` on or before `to`.
 * One definition, so every filter refuses the same days with the same words.
 */
import { z } from 'zod';

/** The earliest and latest day a date filter accepts (`YYYY-MM-DD`, UTC). */
export const FILTER_FIRST_DAY = '2000-01-01';
export const FILTER_LAST_DAY = '2099-12-31';

/** An optional filter day named `name` in its messages ('From', 'To'). */
export const filterDay = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date (YYYY-MM-DD)` })
    .refine((day) => day >= FILTER_FIRST_DAY && day <= FILTER_LAST_DAY, {
      error: `${name} must be between ${FILTER_FIRST_DAY} and ${FILTER_LAST_DAY}`,
    })
    .optional();

/** The refinement of a range: `from` on or before `to` when both are given ... */
export const fromNotAfterTo = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || q.from <= q.to;
/** ... and its issue, on `to`. */
export const fromNotAfterToIssue = { error: 'From must be on or before To', path: ['to'] };
