/**
 * The letter of every decision (issue 32 item 6, domain/committee/decision-letters.ts): written in the
 * decision's transaction as the facts it states, so a decision never exists without its letter; the
 * PDF is rendered from the same facts when downloaded, and the email carries the same text.
 */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { providerFullName } from '../../domain/account.ts';
import type { AppealState } from '../../domain/api/review.ts';
import { AppError } from '../../domain/app-error.ts';
import type { ApplicationStatus } from '../../domain/application-status.ts';
import { isoDay } from '../../domain/calendar.ts';
import {
  appealDeadline,
  appealOpen,
  decisionLetter,
  type Letter,
  type LetterFacts,
  type LetterKind,
  letterText,
  letterTitle,
} from '../../domain/committee/decision-letters.ts';
import { isUuid } from '../../domain/uuid.ts';
import type { Queryable } from '../db/client.ts';
import { user } from '../db/schema/auth.ts';
import { committeeAppeals, decisionLetters } from '../db/schema/committee.ts';
import { profiles } from '../db/schema/core.ts';
import { applicationVersions } from '../db/schema/review.ts';
import { renderPdf } from '../pdf/pdf-document.ts';
import { readOrganizationSettings } from '../settings/settings.service.ts';
import { appealAttachmentsOf } from './appeal-attachment-reads.ts';

/**
 * The provider's name as the decided application's newest snapshot gives it (issue 49 item 4: the
 * name the file was signed and reviewed under, not the account's live profile), else the profile's
 * ('' without either).
 */
export async function providerNameOf(
  tx: Queryable,
  application: { id: string; userId: string },
): Promise<string> {
  const [version] = await tx
    .select({
      firstName: sql<string | null>`${applicationVersions.snapshot}->'profile'->>'first_name'`,
      lastName: sql<string | null>`${applicationVersions.snapshot}->'profile'->>'last_name'`,
    })
    .from(applicationVersions)
    .where(eq(applicationVersions.applicationId, application.id))
    .orderBy(desc(applicationVersions.version))
    .limit(1);
  if (version?.firstName || version?.lastName) return providerFullName(version);
  const [profile] = await tx
    .select({ firstName: profiles.firstName, lastName: profiles.lastName })
    .from(profiles)
    .where(eq(profiles.userId, application.userId));
  return providerFullName(profile);
}

/**
 * Stores the letter of a decision of `applicationId` in the caller's transaction.
 * @returns the letter, for the email sent after the commit
 */
export async function writeDecisionLetter(
  tx: Queryable,
  applicationId: string,
  facts: LetterFacts,
  now: Date,
  decidedBy?: string | null,
): Promise<Letter> {
  // Issue 50 item 7: the letter names who decided and on what, and carries the organization's name,
  // address and signer as they are now (kept with the letter: a later change does not rewrite it).
  const settings = await readOrganizationSettings(tx);
  const signed: LetterFacts = {
    ...facts,
    decider: await deciderOf(tx, applicationId, facts.by, decidedBy ?? null),
    organization: settings.organizationName
      ? { name: settings.organizationName, address: settings.address }
      : null,
    signer: settings.signerName ? { name: settings.signerName, title: settings.signerTitle } : null,
  };
  await tx.insert(decisionLetters).values({ applicationId, kind: facts.kind, facts: signed, createdAt: now });
  return decisionLetter(signed);
}

/**
 * Who decided, as the letters, the review page and the File Summary name it (issue 50 item 7): the
 * medical director's name; for the committee, its members' own votes on the file's latest decided
 * agenda item ('by a vote of 2 to 0: Mae Director, Cal Member'); null otherwise.
 */
export async function deciderOf(
  tx: Queryable,
  applicationId: string,
  by: LetterFacts['by'],
  decidedBy: string | null,
): Promise<string | null> {
  if (by === 'medical_director' && decidedBy) {
    const [person] = await tx.select({ name: user.name }).from(user).where(eq(user.id, decidedBy));
    return person?.name || null;
  }
  if (by !== 'committee') return null;
  const { rows } = await tx.execute<{ votes_for: number; votes_against: number; names: string[] | null }>(sql`
    select i.votes_for, i.votes_against,
      (select array_agg(m.name order by m.name) from committee_votes v
        join committee_meeting_members m on m.meeting_id = i.meeting_id and m.user_id = v.member_id
        where v.agenda_item_id = i.id and v.vote = i.decision) as names
    from committee_agenda_items i
    where i.application_id = ${applicationId}::uuid and i.decision is not null
    order by i.decided_at desc limit 1`);
  const item = rows[0];
  if (!item || item.votes_for === null) return null;
  const names = item.names?.length ? `: ${item.names.join(', ')}` : '';
  return `by a vote of ${item.votes_for} to ${item.votes_against}${names}`;
}

/** The letters of an application, oldest first, as the dashboard and the review page list them. */
export async function lettersOf(db: Queryable, applicationId: string) {
  const rows = await db
    .select({ id: decisionLetters.id, kind: decisionLetters.kind, createdAt: decisionLetters.createdAt })
    .from(decisionLetters)
    .where(eq(decisionLetters.applicationId, applicationId))
    .orderBy(asc(decisionLetters.createdAt), asc(decisionLetters.id));
  return rows.map((row) => ({
    letterId: row.id,
    kind: row.kind as LetterKind,
    title: letterTitle[row.kind as LetterKind],
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * One letter of `applicationId` as a PDF (US Letter) and its file name; the caller has checked who may
 * read the application. @throws 404 for a letter of another application or none
 */
export async function letterPdf(
  db: Queryable,
  applicationId: string,
  letterId: string,
): Promise<{ pdf: Buffer; fileName: string }> {
  const notFound = new AppError('not_found', 'Letter not found. Reload the page to see the letters.');
  if (!isUuid(letterId) || !isUuid(applicationId)) throw notFound;
  const [row] = await db.select().from(decisionLetters).where(eq(decisionLetters.id, letterId));
  if (!row || row.applicationId !== applicationId) throw notFound;
  const letter = decisionLetter(row.facts as LetterFacts);
  const pdf = await renderPdf({
    title: letter.title,
    subject: letter.subject,
    createdAt: row.createdAt,
    header: 'Credentialing Team',
    blocks: letter.paragraphs.map((text) => ({ kind: 'paragraph', text })),
  });
  return {
    pdf,
    fileName: `${letter.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${row.createdAt.toISOString().slice(0, 10)}.pdf`,
  };
}

/** The email of a letter: its subject and the same text. */
export function letterMail(letter: Letter): { subject: string; text: string } {
  return { subject: letter.subject, text: letterText(letter) };
}

/**
 * Where the appeal of `application` stands at `now` (issue 32 item 6): null unless it was denied or
 * appealed; 'available' (with its deadline) or 'closed' while none was requested; then 'requested',
 * 'upheld' or 'approved'.
 */
export async function appealStateOf(
  db: Queryable,
  application: { id: string; applicationStatus: ApplicationStatus; decidedAt: Date | null },
  now: Date,
): Promise<AppealState> {
  const [appeal] = await db
    .select()
    .from(committeeAppeals)
    .where(eq(committeeAppeals.applicationId, application.id));
  if (appeal) {
    return {
      status: (appeal.outcome as 'upheld' | 'approved' | null) ?? 'requested',
      deadline: null,
      requestedAt: appeal.requestedAt.toISOString(),
      statement: appeal.statement,
      decidedAt: appeal.decidedAt?.toISOString() ?? null,
      attachments: await appealAttachmentsOf(db, application.id),
    };
  }
  if (application.applicationStatus !== 'rejected' || !application.decidedAt) return null;
  const deniedOn = isoDay(application.decidedAt);
  const open = appealOpen(deniedOn, isoDay(now));
  return {
    status: open ? 'available' : 'closed',
    deadline: appealDeadline(deniedOn),
    requestedAt: null,
    statement: null,
    decidedAt: null,
    // Issue 50 item 8: the files attached to the appeal being written.
    attachments: open ? await appealAttachmentsOf(db, application.id) : [],
  };
}
