/**
 * A credential's standing under ongoing monitoring (issue 49 item 2; NCQA CR5 "ongoing monitoring
 * and interventions"; decision 035). A credentialed provider is 'Active' until monitoring finds one of:
 * - an exclusion: a match on an exclusion list (by NPI, or a possible match a person confirmed with
 *   'Confirm Match');
 * - an NPI that NPPES reports deactivated;
 * - a license past its expiry with no verified renewal in the published credential.
 * While a finding is open the credential is 'Suspended': the directory publishes the provider as
 * inactive, the roster's 'Credential Status' says why, and the file goes to the committee with the
 * reason 'Monitoring finding'. A reinstatement ('Accept Change' of a listing no longer in force), a
 * 'Not the Same Person', a verified renewal or the committee's decision resolves the finding; with
 * none open the standing is 'Active' again and published at once.
 *
 * The texts the roster, the dashboard and the review page share. Pure: no zod, no Node.
 */
import { formatIsoDay } from '../calendar.ts';

export const monitoringFindingKinds = ['exclusion', 'npi_deactivated', 'license_expired'] as const;
export type MonitoringFindingKind = (typeof monitoringFindingKinds)[number];

/** How a finding was resolved. */
export const monitoringResolutions = [
  /** The exclusion list no longer lists the provider (a reinstatement accepted by a person). */
  'reinstated',
  /** A person judged the listed person is not the provider. */
  'not_same_person',
  /** A renewed license (or a corrected NPI) was verified and published. */
  'renewal_verified',
  /** NPPES reports the NPI active again. */
  'npi_active',
  /** The committee decided to continue the credential (with or without conditions). */
  'committee_continued',
  /** The committee terminated the credential. */
  'committee_terminated',
] as const;
export type MonitoringResolution = (typeof monitoringResolutions)[number];

/** One open finding, as the standing names it. */
export interface MonitoringFinding {
  kind: MonitoringFindingKind;
  /** What was found: the list ('OIG LEIE'), the NPI, the license ('IL medical license 12345'). */
  detail: string;
  /** `YYYY-MM-DD` (UTC). */
  foundOn: string;
}

export type CredentialStanding = 'active' | 'suspended';

/** How each kind reads inside the roster's status and the review page ('exclusion: OIG LEIE'). */
export const monitoringKindLabel: Record<MonitoringFindingKind, string> = {
  exclusion: 'exclusion',
  npi_deactivated: 'NPI deactivated',
  license_expired: 'license expired',
};

/** The referral reason the committee lists a monitoring finding under. */
export const MONITORING_REFERRAL_REASON = 'Monitoring finding';

/** Why a monitoring file left 'Ready for Committee' without a decision. */
export const MONITORING_RESOLVED_TEXT =
  'Every monitoring finding was resolved (a reinstatement, not the same person, or a verified renewal) before the committee decided.';

/**
 * The standing's reason as one line: 'exclusion: OIG LEIE, 2026-11-28' (the first finding found;
 * ISO dates, as a roster's dates are).
 */
export function standingReasonText(finding: MonitoringFinding): string {
  return `${monitoringKindLabel[finding.kind]}: ${finding.detail}, ${finding.foundOn}`;
}

/** The roster's 'Credential Status' column: 'Active', or 'Suspended (exclusion: OIG LEIE, 2026-11-28)'. */
export function rosterCredentialStatus(standing: CredentialStanding, reason: string | null): string {
  return standing === 'active' ? 'Active' : `Suspended${reason ? ` (${reason})` : ''}`;
}

/**
 * What the provider's dashboard says of a finding, and what happens next (issue 49 item 2): the
 * finding, that the credential is suspended and not published as active, that the committee decides,
 * and what the provider can do.
 */
export function monitoringFindingNotice(finding: MonitoringFinding): string {
  const on = formatIsoDay(finding.foundOn);
  const what =
    finding.kind === 'exclusion'
      ? `On ${on} the ${finding.detail} exclusion list named you as excluded.`
      : finding.kind === 'npi_deactivated'
        ? `On ${on} NPPES reported your NPI ${finding.detail} as deactivated.`
        : `Your ${finding.detail} expired and no renewal has been verified (found ${on}).`;
  const next =
    finding.kind === 'license_expired'
      ? "Press 'Update Credential' on Professional Licenses to send the renewed license."
      : 'If this is not you, or it has been resolved, contact the credentialing team.';
  return `${what} Your credential is suspended: payers see it as inactive while the credentialing committee reviews the finding. ${next}`;
}

/** The dashboard's title of the notice. */
export const MONITORING_NOTICE_TITLE = 'Credential suspended';
