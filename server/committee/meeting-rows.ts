/**
 * A meeting's rows as every committee module reads them (issue 32 item 5): the meeting (locked for a
 * change with `openMeeting`, refused once closed), its members, and the 404s of a meeting or an
 * agenda item that is not there. Split from meetings.service.ts so the agenda and the votes lock a
 * meeting without importing the meeting views.
 */
import { asc, eq } from 'drizzle-orm';
import { AppError } from '../../domain/app-error.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { committeeMeetingMembers, committeeMeetings } from '../db/schema/committee.ts';

/** 404 for a meeting id that is not one, names no meeting, or one the viewer does not sit on. */
export const meetingNotFound = () =>
  new AppError('not_found', 'Meeting not found. Return to the Committee tab and choose a meeting.');

/** 404 for an agenda item or file that is not (any more) on the meeting's agenda. */
export const itemNotFound = () =>
  new AppError('not_found', 'That file is not on this agenda any more. Reload the meeting.');

/** The meeting's row (locked for update when `lock`). @throws 404 */
export async function meetingRow(db: Queryable, meetingId: string, lock: boolean) {
  if (!isUuid(meetingId)) throw meetingNotFound();
  const query = db.select().from(committeeMeetings).where(eq(committeeMeetings.id, meetingId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw meetingNotFound();
  return row;
}

/** The meeting's members by name, with their email addresses and when they were marked present. */
export async function membersOf(db: Queryable, meetingId: string) {
  return db
    .select({
      userId: committeeMeetingMembers.userId,
      name: committeeMeetingMembers.name,
      email: user.email,
      presentAt: committeeMeetingMembers.presentAt,
    })
    .from(committeeMeetingMembers)
    .leftJoin(user, eq(user.id, committeeMeetingMembers.userId))
    .where(eq(committeeMeetingMembers.meetingId, meetingId))
    .orderBy(asc(committeeMeetingMembers.name));
}

/** The meeting locked for a change; refused (409) once closed. */
export async function openMeeting(tx: Queryable, meetingId: string) {
  const row = await meetingRow(tx, meetingId, true);
  if (row.closedAt) {
    throw new AppError('conflict', 'This meeting is closed: its minutes are final and cannot change.');
  }
  return row;
}
