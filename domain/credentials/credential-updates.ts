/**
 * Credential updates after approval (issue 29 item 4, decision 025 "Credential updates"). An
 * approved provider whose credential is current may change the dated sections of the approved
 * application (personal information with the DEA number and driver's license, licenses with the DEA
 * license, payor contracts, certifications, malpractice insurance, vaccinations, hospital
 * affiliations since issue 31) and upload new
 * documents; 'Submit Update' stores the change as a new version of the application,
 * listed in the review queue as 'Credential Update' until a reviewer completes its review.
 *
 * One list of what may change, and the texts the server and the screens share. Pure: no zod, no
 * Node (decision 021), so the dashboard and the section screens load it without the schemas.
 */
import { formatIsoDay, isoDay } from '../calendar.ts';
import type { CatalogSectionKey } from '../sections/section-catalog.ts';
import type { CredentialState } from './provider-credential.ts';

/**
 * The sections an approved provider may change while the credential is current (issue 29 item 4):
 * the dated ones, so every item of the 'Expiring Credentials' card has an action that works —
 * Personal Information holds the DEA number and the driver's license, Payors the contract end dates,
 * Hospital Affiliations the privileges' end dates (issue 31). Documents: uploads only (a document an
 * approval rests on is never deleted).
 */
export const credentialUpdateSections = [
  'personalInformation',
  'professionalLicenses',
  'payors',
  'certifications',
  'malpracticeInsurance',
  'vaccinations',
  // Issue 31: hospital privileges have an end date the 'Expiring Credentials' card lists.
  'hospitalAffiliations',
  'documents',
] as const satisfies readonly CatalogSectionKey[];
export type CredentialUpdateSection = (typeof credentialUpdateSections)[number];

/** Whether `section` is one a credential update may change. */
export function isCredentialUpdateSection(section: string): section is CredentialUpdateSection {
  return (credentialUpdateSections as readonly string[]).includes(section);
}

/**
 * Whether an application of `status` may take a credential update at `now`: it is approved and it is
 * the application that set the provider's credential, which is current (not ended, not past its end).
 */
export function credentialUpdateAllowed(
  status: string,
  applicationId: string,
  credential: { applicationId: string | null; state: CredentialState },
): boolean {
  return (
    status === 'approved' &&
    credential.applicationId === applicationId &&
    credential.state.state === 'credentialed'
  );
}

/** The kind the review queue lists an open update as, beside the applications' statuses. */
export const CREDENTIAL_UPDATE_KIND_LABEL = 'Credential Update';

/** Texts of credential updates, as the issue quotes them where it does. */
export const credentialUpdateTexts = {
  updateCredential: 'Update Credential',
  submitUpdate: 'Submit Update',
  completeReview: 'Complete Update Review',
  /** The section screen in update mode. */
  explanation:
    "Your application is approved. Change what you renewed here and save, upload the new document in Documents if you have one, then press 'Submit Update': the credentialing team verifies the change. Your credential stays as it is meanwhile.",
  /** A dated section of an approved application, before 'Update Credential' is pressed. */
  offer:
    "Your application is approved. Renewed a license, DEA registration, certification, policy, vaccination, contract or hospital privileges? Press 'Update Credential' to change it here.",
  /** The confirmation of 'Submit Update'. */
  submitConfirm:
    'Your changes are sent to the credentialing team as a credential update. The changed items are verified again; your credential stays as it is meanwhile.',
  /** The dashboard, while saved changes have not been sent. */
  unsent:
    "You have saved changes the credentialing team has not received yet. Press 'Submit Update' to send them.",
  /** 409 of a submit with nothing new. */
  nothingChanged:
    "Nothing has changed since your last update was sent. Change a license, DEA registration, certification, malpractice policy, vaccination, payor contract, hospital privileges or document first, then press 'Submit Update'.",
  /** 409 of a submit when updates are not open to the application. */
  notAllowed:
    'Credential updates are open only for your approved application while your credential is current. Open your dashboard to see your credential.',
  /** The review page's banner. */
  bannerTitle: 'Credential Update',
  completeConfirm:
    'The credential update is marked reviewed and leaves the review queue. Every changed item is verified.',
  /** A section screen in update mode links to the documents screen in update mode. */
  documentsLink: 'Upload the renewed document in Documents',
  /**
   * The documents screen's own words: there a provider uploads rather than edits, and removes nothing
   * (the server refuses a removal during an update: the approval rests on the files).
   */
  documents: {
    offer:
      "Your application is approved. Have a renewed license, DEA registration, certificate, policy or vaccination record? Press 'Update Credential' to upload it here.",
    explanation:
      "Your application is approved. Upload the renewed document here, then press 'Submit Update': the credentialing team verifies the change. Documents already sent stay: your approval rests on them. Your credential stays as it is meanwhile.",
  },
} as const;

/** 'Credential update sent Mar 10, 2027: the credentialing team verifies the change' (issue 29 item 4). */
export function credentialUpdateSentText(sentAt: Date | string): string {
  const day = typeof sentAt === 'string' ? isoDay(new Date(sentAt)) : isoDay(sentAt);
  return `Credential update sent ${formatIsoDay(day)}: the credentialing team verifies the change`;
}

/** 'Credential update reviewed Mar 12, 2027' once a reviewer completed it. */
export function credentialUpdateReviewedText(reviewedAt: string): string {
  return `Credential update reviewed ${formatIsoDay(isoDay(new Date(reviewedAt)))}`;
}

/**
 * The 409 of 'Complete Update Review' while items are open: names them, so the reviewer knows what
 * is left ('Verify these first: Professional license: md IL 12345 (Needs re-verification).').
 */
export function updateReviewBlockedText(items: readonly { target: string; statusLabel: string }[]): string {
  return `Verify these first: ${items.map((i) => `${i.target} (${i.statusLabel})`).join('; ')}.`;
}

/**
 * A credentialed provider's legal name change (issue 49 item 1): the texts of the account page's
 * 'Change Legal Name', its refusals, and the refusal of a plain name change through the account API.
 */
export const legalNameChangeTexts = {
  button: 'Change Legal Name',
  title: 'Change Legal Name',
  explanation:
    'Your name is part of your credential, so a change is sent to the credentialing team as a credential update with a document that shows it (a marriage certificate, a court order, a new license). Your credential and your account keep your current name until the team accepts the change.',
  documentLabel: 'Document that shows the change',
  noDocument:
    "Upload the document that shows your name change in Documents (press 'Update Credential' there), then come back to send the change.",
  uploadLink: 'Upload it in Documents',
  submit: 'Send Name Change',
  sent: 'Name change sent: the credentialing team verifies it. Your account shows the new name once they accept it.',
  waiting: (name: string) => `Name change to ${name} sent: waiting for the credentialing team.`,
  /** 409 of POST /api/auth/update-user with a name, for a provider who holds a credential. */
  accountRefusal:
    "Your name is part of your credential. Use 'Change Legal Name' on your account page with a document that shows the change; your account shows the new name once the credentialing team accepts it.",
  sameName: 'This is already the name on your credential. Enter the new legal name.',
  documentNotNew:
    'Choose a document you uploaded for this change: the one chosen was already part of your approved application.',
  documentUnknown: 'That document is not one of this application. Reload the page and choose it again.',
} as const;
