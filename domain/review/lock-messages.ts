/**
 * Why a provider cannot change a completed application (issue 13, decision 018 "Locks"): the one
 * text the server answers a refused write with (409, server/applications/review-lock.ts) and the
 * read-only section screens show, so both say the same thing.
 */
import type { ApplicationStatus } from '../application-status.ts';
import { finalStatuses } from './review-workflow.ts';

/** "November 23, 2026" (UTC): the completion date in the lock message. */
export function formatLockDay(date: Date): string {
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The lock message of an application in `status` completed at `submittedAt` (null: completed before
 * the date was recorded). Meant for any status past draft.
 */
export function applicationLockMessage(status: ApplicationStatus, submittedAt: Date | null): string {
  const completed = submittedAt ? ` on ${formatLockDay(submittedAt)}` : '';
  if (finalStatuses.includes(status)) {
    return `This application was completed${completed} and the credentialing team has made its decision; it can no longer be changed.`;
  }
  return `This application was completed${completed} and is with the credentialing team; you can change it only when they request information.`;
}
