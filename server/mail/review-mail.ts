/**
 * The emails about credentialing files (issue 13; here, in `mail`, since issue 51 item 6 so that
 * `notifications`, which `review` builds on, sends one too): information requested, approved, rejected (to the provider) and
 * response received (to the assigned reviewer); issue 50 item 9: a clean file waiting (to each
 * medical director) and a decision recorded (to the file's specialist); issue 51 item 6: a
 * recredentialing opened by staff ('Start Recredentialing Now', to the provider) and an application
 * completed (to the staff who review files: the completion delivered inside the product). They say
 * what happened and link to the portal, where the person signs in to read the details; a decision's email carries its letter's text instead
 * (issue 32 item 6: "an email with the same text"), the provider's own decision, addressed to them.
 * Sent after the transition commits; a failed send is logged (no address, no link) and never undoes
 * the transition (the letter stays on the dashboard).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from './mailer.ts';

export type ReviewMailKind =
  | 'information_requested'
  | 'approved'
  | 'rejected'
  | 'response_received'
  | 'clean_file_waiting'
  | 'decision_recorded'
  | 'recredentialing_started'
  | 'application_completed';

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
  clean_file_waiting: "A clean file waits for your decision on 'Clean Files'",
  decision_recorded: 'A decision was recorded on a file you reviewed',
  recredentialing_started: 'Your recredentialing application is open',
  application_completed: "A completed credentialing application is on the 'Review Queue'",
};

const bodies: Record<ReviewMailKind, string> = {
  information_requested:
    'The credentialing team needs more information about your application. Sign in to the portal to read their message and update the sections concerned, then press Submit Response.',
  approved: 'Your credentialing application was approved. Sign in to the portal to see the decision.',
  rejected:
    'The credentialing team has made a decision on your application. Sign in to the portal to read it.',
  response_received:
    'The provider responded to your information request. Sign in to the portal to review the changes.',
  clean_file_waiting:
    "A credentialing file was sent for decision and is on your 'Clean Files' list. Sign in to the portal to review it, then approve it or send it to the committee.",
  decision_recorded:
    "A decision was recorded on a credentialing file you reviewed. Sign in to the portal to read it on the file's review page.",
  recredentialing_started:
    'The credentialing team opened your recredentialing application. It starts from your last application: sign in to the portal, review and confirm each section, then complete it before your credential ends.',
  application_completed:
    "A provider completed and signed their credentialing application. It is on the 'Review Queue'. Sign in to the portal to open the file and start its review.",
};

/** Where each mail links: the provider's dashboard, the file's review page, or the Decisions tab. */
function linkOf(mail: ReviewMail, appUrl: string): string {
  switch (mail.kind) {
    case 'response_received':
    case 'decision_recorded':
    case 'application_completed':
      return `${appUrl}/admin/applications/${mail.applicationId}`;
    case 'clean_file_waiting':
      return `${appUrl}/admin?tab=decisions`;
    default:
      return `${appUrl}/dashboard`;
  }
}

/**
 * The message of `mail`: a fixed text naming no provider (issue 50 item 9: staff are told a file
 * waits or was decided, and read it in the portal) and a link (`linkOf`).
 */
export function reviewMailMessage(mail: ReviewMail, appUrl: string): MailMessage {
  const link = linkOf(mail, appUrl);
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
