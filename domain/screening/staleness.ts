/**
 * When an exclusion list is stale (issue 30 item 5): never applied, or last applied more than
 * STALE_SOURCE_DAYS (35) days before `now`. OIG publishes the LEIE monthly; 35 days leaves a few days
 * for the month's file to be fetched and imported.
 */
import { STALE_SOURCE_DAYS } from '../api/screening.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** True when a list last applied at `appliedAt` (null: never) is stale at `now`. */
export function isStaleList(appliedAt: Date | null, now: Date): boolean {
  return appliedAt === null || now.getTime() - appliedAt.getTime() > STALE_SOURCE_DAYS * DAY_MS;
}
