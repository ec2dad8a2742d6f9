/**
 * The committee members' meeting invitations (issue 50 item 9, docs/decisions/029): when a meeting is
 * created, and whenever its agenda changes (a file added, removed or the order changed), every member
 * is emailed the meeting's date and time (UTC, as the minutes give it) with an iCalendar invitation
 * (RFC 5545: one VEVENT whose UID is fixed per meeting and whose SEQUENCE rises with each agenda
 * change, so a calendar updates the event instead of adding a second one).
 *
 * The email names no provider: protected health information stays in the portal, where the member
 * signs in to read the files. It says how many files the agenda holds and links to the meeting.
 * Mails are sent after the change commits; a failed send is logged without the address and never
 * undoes the change (the meeting is on the member's Committee tab either way).
 */

import { count, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import type { Queryable } from '../db/client.ts';
import { committeeAgendaItems, committeeMeetings } from '../db/schema/committee.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { meetingRow, membersOf } from './meeting-rows.ts';
import { meetingTime } from './minutes.ts';

/** How long the invitation books (minutes): the spec gives no end time, a committee sits an hour. */
export const MEETING_LENGTH_MINUTES = 60;

/** Why the members are written to: a new meeting, or a change of its agenda. */
export type MeetingNoticeKind = 'created' | 'agenda_changed';

/** Where the notices point and who sends them: the portal's URL and the `MAIL_FROM` address. */
export interface MeetingNoticeOptions {
  appUrl: string;
  /** `MAIL_FROM`, e.g. 'Credentialing <no-reply@example.org>': the invitation's ORGANIZER. */
  from: string;
}

/**
 * Raises the invitation's SEQUENCE in the caller's transaction, with an agenda change: the notices
 * sent after it commit carry the new number.
 */
export async function reviseInvitation(tx: Queryable, meetingId: string): Promise<void> {
  await tx
    .update(committeeMeetings)
    .set({ noticeSequence: sql`${committeeMeetings.noticeSequence} + 1` })
    .where(eq(committeeMeetings.id, meetingId));
}

const plural = (n: number) => (n === 1 ? '1 file' : `${n} files`);

/** The organizer as the invitation names it: MAIL_FROM's name (or 'Credentialing') and address. */
function organizerOf(from: string) {
  const [first] = addressparser(from, { flatten: true });
  const email = first?.address || 'no-reply@credentialing.local';
  return { name: first?.name || 'Credentialing', email };
}

/**
 * The invitation mails of `meetingId` as it now is: one per member with an email address, each with
 * its own iCalendar text naming that member as the one attendee (members do not receive each other's
 * addresses).
 * @returns [] for a meeting with no member who can be written to
 * @throws 404 (AppError) when the meeting is not there
 */
export async function meetingNoticeMails(
  db: Queryable,
  meetingId: string,
  kind: MeetingNoticeKind,
  options: MeetingNoticeOptions,
): Promise<MailMessage[]> {
  const meeting = await meetingRow(db, meetingId, false);
  const members = await membersOf(db, meetingId);
  const [agenda] = await db
    .select({ files: count() })
    .from(committeeAgendaItems)
    .where(eq(committeeAgendaItems.meetingId, meetingId));
  const files = agenda?.files ?? 0;
  const when = meetingTime(meeting.scheduledAt.toISOString());
  const link = `${options.appUrl}/admin/meetings/${meeting.id}`;
  const subject =
    kind === 'created'
      ? `Credentialing committee meeting: ${when}`
      : `Agenda changed: credentialing committee meeting of ${when}`;
  const lead =
    kind === 'created'
      ? `You are a member of the credentialing committee meeting on ${when}.`
      : `The agenda of the credentialing committee meeting on ${when} changed.`;
  const text = [
    lead,
    `Its agenda holds ${plural(files)}. Sign in to the portal to read them before the meeting:`,
    link,
    '',
    'The attached invitation adds the meeting to your calendar.',
    '',
  ].join('\n');
  const organizer = organizerOf(options.from);
  const host = new URL(options.appUrl).hostname || 'credentialing.local';
  return members.flatMap((member) => {
    if (!member.email) return [];
    const calendar = ical({ prodId: { company: 'Credentialing', product: 'Committee' } });
    calendar.method(ICalCalendarMethod.REQUEST);
    calendar.createEvent({
      id: `committee-meeting-${meeting.id}@${host}`,
      sequence: meeting.noticeSequence,
      start: meeting.scheduledAt,
      end: new Date(meeting.scheduledAt.getTime() + MEETING_LENGTH_MINUTES * 60_000),
      stamp: new Date(),
      summary: 'Credentialing committee meeting',
      description: `Agenda: ${plural(files)}. ${link}`,
      url: link,
      status: ICalEventStatus.CONFIRMED,
      organizer,
      attendees: [
        {
          name: member.name,
          email: member.email,
          role: ICalAttendeeRole.REQ,
          status: ICalAttendeeStatus.NEEDSACTION,
        },
      ],
    });
    return [
      {
        to: member.email,
        subject,
        text,
        icalEvent: { method: 'REQUEST', filename: 'meeting.ics', content: calendar.toString() },
      },
    ];
  });
}

/**
 * Sends the members' notices of `meetingId` once its change has committed: failures (reading the
 * meeting or sending) are logged without addresses, never thrown.
 */
export async function sendMeetingNotices(
  deps: { db: Queryable; mailer: Mailer },
  log: FastifyBaseLogger,
  meetingId: string,
  kind: MeetingNoticeKind,
  options: MeetingNoticeOptions,
): Promise<void> {
  let mails: MailMessage[] = [];
  try {
    mails = await meetingNoticeMails(deps.db, meetingId, kind, options);
  } catch (error) {
    log.error({ err: error, meetingId, kind }, 'could not prepare the meeting notices');
    return;
  }
  await Promise.all(
    mails.map((mail) =>
      deps.mailer.send(mail).catch((error: unknown) => {
        log.error({ err: error, meetingId, kind }, 'could not send a meeting notice');
      }),
    ),
  );
}
