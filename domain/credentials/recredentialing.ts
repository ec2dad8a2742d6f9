/**
 * Recredentialing (issue 14; NCQA CR 4: every approved practitioner is recredentialed at least every
 * 36 months): when an approved application's cycle ends, when the provider is reminded, and when the
 * dashboard offers 'Start Recredentialing'. Pure functions of the approval time and an injected
 * "now", shared by the daily reminder job, the API and the dashboard. No zod (decision 021).
 */
import { addMonths, isoDay } from '../calendar.ts';
import { daysUntil } from './expiring-credentials.ts';

/** NCQA CR 4: the longest time between two credentialing decisions, in months. */
export const RECREDENTIALING_CYCLE_MONTHS = 36;

/** Days before the due date at which the provider is emailed (issue 14), widest first. */
export const RECREDENTIALING_REMINDER_DAYS = [180, 90, 30] as const;

/** The dashboard offers 'Start Recredentialing' from this many days before the due date. */
export const RECREDENTIALING_WINDOW_DAYS = RECREDENTIALING_REMINDER_DAYS[0];

/**
 * The recredentialing due date (`YYYY-MM-DD`, UTC) of an application approved at `approvedAt`:
 * 36 calendar months after the approval day (the day clamped to the month's end).
 */
export function recredentialingDueOn(approvedAt: Date): string {
  return addMonths(isoDay(approvedAt), RECREDENTIALING_CYCLE_MONTHS);
}

/** True from RECREDENTIALING_WINDOW_DAYS days before `dueOn` onwards (also once it is overdue). */
export function recredentialingOpen(dueOn: string, now: Date): boolean {
  return daysUntil(dueOn, now) <= RECREDENTIALING_WINDOW_DAYS;
}

/**
 * The reminder threshold `now` falls under: the smallest of 180/90/30 days that `dueOn` is within,
 * or null when it is further away. An overdue cycle stays under 30 (its reminder was sent).
 */
export function recredentialingThreshold(
  dueOn: string,
  now: Date,
): (typeof RECREDENTIALING_REMINDER_DAYS)[number] | null {
  const daysLeft = daysUntil(dueOn, now);
  let crossed: (typeof RECREDENTIALING_REMINDER_DAYS)[number] | null = null;
  for (const days of RECREDENTIALING_REMINDER_DAYS) if (daysLeft <= days) crossed = days;
  return crossed;
}
