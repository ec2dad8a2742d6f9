/**
 * The review's emails (issue 13): information requested, approved, rejected (to the provider) and
 * response received (to the assigned reviewer). They say what happened and link to the portal, where
 * the person signs in to read the details; a decision's email carries its letter's text instead
 * (issue 32 item 6: "an email with the same text"), the provider's own decision, addressed to them.
 * Sent after the transition commits; a failed send is logged (no address, no link) and never undoes
 * the transition (the letter stays on the dashboard).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from '../mail/mailer.ts';

export type ReviewMailKind = 'information_requested' | 'approved' | 'rejected' | 'response_received';

/** One email to send once the transaction has committed. */
export interface ReviewMail {
  kind: ReviewMailKind;
  to: string;
  applicationId: string;
  /** A decision's letter (issue 32 item 6): its subject and text replace the fixed ones. */
  letter?: { subject: string; text: string };
}

const subjects: Record<ReviewMailKind, string> = {
  information_requested: 'Action required: the credentialing team requests information',
  approved: 'Your credentialing application was approved',
  rejected: 'A decision on your credentialing application',
  response_received: 'A provider responded to your information request',
};

const bodies: Record<ReviewMailKind, string> = {
  information_requested:
    'The credentialing team needs more information about your application. Sign in to the portal to read their message and update the sections concerned, then press Submit Response.',
  approved: 'Your credentialing application was approved. Sign in to the portal to see the decision.',
  rejected:
    'The credentialing team has made a decision on your application. Sign in to the portal to read it.',
  response_received:
    'The provider responded to your information request. Sign in to the portal to review the changes.',
};

/** The message of `mail`: a fixed text and a link (dashboard for providers, review page for reviewers). */
export function reviewMailMessage(mail: ReviewMail, appUrl: string): MailMessage {
  const link =
    mail.kind === 'response_received'
      ? `${appUrl}/admin/applications/${mail.applicationId}`
      : `${appUrl}/dashboard`;
  if (mail.letter) {
    return { to: mail.to, subject: mail.letter.subject, text: `${mail.letter.text}\n\n${link}\n` };
  }
  return { to: mail.to, subject: subjects[mail.kind], text: `${bodies[mail.kind]}\n\n${link}\n` };
}

/** Send `mails` after the commit; failures are logged without address or link, never thrown. */
export async function sendReviewMails(
  mailer: Mailer,
  logger: FastifyBaseLogger,
  appUrl: string,
  mails: readonly ReviewMail[],
): Promise<void> {
  await Promise.all(
    mails.map((mail) =>
      mailer.send(reviewMailMessage(mail, appUrl)).catch((error: unknown) => {
        logger.error(
          { err: error, kind: mail.kind, applicationId: mail.applicationId },
          'could not send a review email',
        );
      }),
    ),
  );
}
