/**
 * People are told (issue 50 item 9), real PostgreSQL and HTTP, mail captured as sent: each medical
 * director (not the file's own provider) when a clean file lands on 'Clean Files'; the file's
 * specialist when a decision is recorded on it; each member of a meeting when it is created and when
 * its agenda changes, with the date and time and an iCalendar invitation (RFC 5545, read back with
 * ical.js) whose UID stays and whose SEQUENCE rises. No mail to staff names the provider.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting, MeetingList } from '../../domain/api/committee.ts';
import { createTestApp, signUpStaff, TEST_ORIGIN, type TestApp } from '../../tests/harness.ts';
import { reviewSignature } from '../../tests/http-client.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { MEETING_LENGTH_MINUTES } from './meeting-notices.ts';
import { meetingTime } from './minutes.ts';
import {
  castVotes,
  committeeMember,
  medicalDirector,
  reviewedFile,
  sendForDecision,
} from './testing/decide.ts';

let app: TestApp;
let specialist: Awaited<ReturnType<typeof signUpStaff>>;

beforeAll(async () => {
  app = await createTestApp();
  specialist = await signUpStaff(app, 'specialist');
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const WAITING = "A clean file waits for your decision on 'Clean Files'";
const DECIDED = 'A decision was recorded on a file you reviewed';

/** The mail sent while `act` ran. */
async function mailDuring(act: () => Promise<unknown>): Promise<MailMessage[]> {
  const before = app.mail.length;
  await act();
  return app.mail.slice(before);
}

/** The provider's full name, which no mail to staff may carry. */
async function nameOf(provider: { json: typeof specialist.json }) {
  const me = await provider.json<{ profile: { firstName: string; lastName: string } }>('GET', '/api/me');
  return { first: me.body.profile.firstName, last: me.body.profile.lastName };
}

/** The invitation's one event, parsed by ical.js from the mail's iCalendar text. */
function invitationOf(mail: MailMessage) {
  expect(mail.icalEvent?.method).toBe('REQUEST');
  const calendar = new ICAL.Component(ICAL.parse(mail.icalEvent?.content ?? ''));
  expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  const event = new ICAL.Event(events[0]);
  return {
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    attendees: event.attendees.map((a) => String(a.getFirstValue()).toLowerCase()),
    organizer: String(events[0]?.getFirstPropertyValue('organizer')).toLowerCase(),
  };
}

describe('people are told (issue 50 item 9)', () => {
  it('tells each medical director that a clean file waits (not about their own), and the specialist when it is decided', async () => {
    const director = await medicalDirector(app);
    const second = await signUpStaff(app, 'medical_director');
    const { provider, applicationId } = await reviewedFile(app, specialist);
    // The provider also holds the Medical Director role: they are not told about their own file.
    await app.runtime.deps.database.pool.query(
      `insert into staff_roles (user_id, role) values ($1, 'medical_director')`,
      [provider.userId],
    );
    const { first, last } = await nameOf(provider);

    const sent = await mailDuring(() => sendForDecision(specialist, applicationId));
    const waiting = sent.filter((m) => m.subject === WAITING);
    expect(waiting.map((m) => m.to).sort()).toEqual([director.email, second.email].sort());
    for (const mail of waiting) {
      expect(mail.text).toContain(`${TEST_ORIGIN}/admin?tab=decisions`);
      expect(mail.text).not.toContain(first);
      expect(mail.text).not.toContain(last);
    }
    expect(sent.some((m) => m.to === provider.email)).toBe(false);

    const decided = await mailDuring(async () => {
      const approved = await director.json(
        'POST',
        `/api/admin/applications/${applicationId}/approve`,
        reviewSignature(director),
      );
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    });
    const told = decided.filter((m) => m.subject === DECIDED);
    expect(told.map((m) => m.to)).toEqual([specialist.email]);
    expect(told[0]?.text).toContain(`${TEST_ORIGIN}/admin/applications/${applicationId}`);
    expect(told[0]?.text).not.toContain(last);
    // The provider has their letter; nobody else is written to.
    expect(decided.map((m) => m.to).sort()).toEqual([provider.email, specialist.email].sort());
  }, 120_000);

  it('invites each member to a meeting with an iCalendar event, updated as the agenda changes, and tells the specialist of the decision', async () => {
    const director = await medicalDirector(app);
    const member = await committeeMember(app);
    const at = new Date(Date.now() - 60_000);
    at.setUTCSeconds(0, 0);
    const members = [director.email, member.email].sort();

    let meeting: Meeting | undefined;
    const invited = await mailDuring(async () => {
      const created = await director.json<Meeting>('POST', '/api/committee/meetings', {
        scheduledAt: at.toISOString(),
        memberIds: [director.userId, member.userId],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      meeting = created.body;
    });
    const meetingId = meeting?.meetingId ?? '';
    expect(invited.map((m) => m.to).sort()).toEqual(members);
    const uids = new Set<string>();
    for (const mail of invited) {
      expect(mail.subject).toBe(`Credentialing committee meeting: ${meetingTime(at.toISOString())}`);
      expect(mail.text).toContain('Its agenda holds 0 files.');
      expect(mail.text).toContain(`${TEST_ORIGIN}/admin/meetings/${meetingId}`);
      const event = invitationOf(mail);
      expect(event).toMatchObject({
        sequence: 0,
        start: at.toISOString(),
        end: new Date(at.getTime() + MEETING_LENGTH_MINUTES * 60_000).toISOString(),
      });
      // Each member's invitation names them alone: members do not receive each other's addresses.
      expect(event.attendees).toEqual([`mailto:${mail.to.toLowerCase()}`]);
      expect(event.organizer).toMatch(/^mailto:.+@/);
      uids.add(event.uid);
    }
    expect(uids.size).toBe(1);
    const [uid] = [...uids];
    expect(uid).toContain(meetingId);

    // A file on the agenda: the same event, a higher SEQUENCE, the new count, no provider's name.
    const { provider, applicationId } = await reviewedFile(app, specialist);
    const { last } = await nameOf(provider);
    const routed = await sendForDecision(specialist, applicationId);
    if (routed.track === 'clean_files') {
      const onward = await director.json(
        'POST',
        `/api/admin/applications/${applicationId}/send-to-committee`,
        {
          note: 'For the committee',
        },
      );
      expect(onward.status).toBe(200);
    }
    let itemId = '';
    const added = await mailDuring(async () => {
      const answer = await director.json<Meeting>('POST', `/api/committee/meetings/${meetingId}/agenda`, {
        applicationId,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      itemId = answer.body.agenda[0]?.itemId ?? '';
    });
    expect(added.map((m) => m.to).sort()).toEqual(members);
    for (const mail of added) {
      expect(mail.subject).toBe(
        `Agenda changed: credentialing committee meeting of ${meetingTime(at.toISOString())}`,
      );
      expect(mail.text).toContain('Its agenda holds 1 file.');
      expect(mail.text).not.toContain(last);
      expect(mail.icalEvent?.content).not.toContain(last);
      expect(invitationOf(mail)).toMatchObject({ uid, sequence: 1 });
    }

    // The Committee list counts the file (issue 50 item 9: it said 'Files 0' for an agenda with one).
    const listed = async () =>
      (await member.json<MeetingList>('GET', '/api/committee/meetings')).body.meetings.find(
        (m) => m.meetingId === meetingId,
      );
    expect(await listed()).toMatchObject({ files: 1, decided: 0, memberCount: 2 });

    // Recusals change no agenda: nobody is written to.
    expect(
      await mailDuring(async () => {
        const recusals = await director.json(
          'PUT',
          `/api/committee/meetings/${meetingId}/agenda/${itemId}/recusals`,
          { memberIds: [] },
        );
        expect(recusals.status, JSON.stringify(recusals.body)).toBe(200);
      }),
    ).toEqual([]);

    // The committee's decision is recorded: the specialist is told, the members are not.
    await castVotes(app, meetingId, itemId, [director, member], 'approve');
    const decided = await mailDuring(async () => {
      const recorded = await director.json(
        'POST',
        `/api/committee/meetings/${meetingId}/agenda/${itemId}/decision`,
        { discussion: 'Discussed the file.' },
      );
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    });
    expect(decided.filter((m) => m.subject === DECIDED).map((m) => m.to)).toEqual([specialist.email]);
    expect(decided.some((m) => members.includes(m.to))).toBe(false);
    expect(await listed()).toMatchObject({ files: 1, decided: 1 });
  }, 180_000);
});
