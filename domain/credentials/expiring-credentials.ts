/**
 * Expiring credentials (issue 14, ongoing monitoring): the dated credentials an application holds,
 * how many days each has left, and how urgent that is. Pure functions of the dates and an injected
 * "now", shared by the server (what the API answers) and the dashboard's 'Expiring Credentials'
 * card. No zod here: the dashboard's first load stays without it (decision 021).
 *
 * Dates are calendar dates (`YYYY-MM-DD`, as the sections store them); days are counted between
 * calendar days in UTC, so a credential expiring today has 0 days left and is not yet expired, and
 * one whose date has passed is expired.
 */
import type { CatalogSectionKey } from '../sections/section-catalog.ts';

/** The dated credentials the product watches (issue 14; hospital privileges since issue 31). */
export const credentialKinds = [
  'professional_license',
  'malpractice_insurance',
  'certification',
  'vaccination',
  'drivers_license',
  'payor_contract',
  // Issue 31 item 5: the end date of hospital privileges (not of an admitting arrangement).
  'hospital_privileges',
] as const;
export type CredentialKind = (typeof credentialKinds)[number];

/** What each kind is called on screen. */
export const credentialKindLabel: Record<CredentialKind, string> = {
  professional_license: 'Professional license',
  malpractice_insurance: 'Malpractice insurance',
  certification: 'Certification',
  vaccination: 'Vaccination',
  drivers_license: "Driver's license",
  payor_contract: 'Payor contract',
  hospital_privileges: 'Hospital privileges',
};

/** The section screen where each kind is kept (and renewed). */
export const credentialKindSection: Record<CredentialKind, CatalogSectionKey> = {
  professional_license: 'professionalLicenses',
  malpractice_insurance: 'malpracticeInsurance',
  certification: 'certifications',
  vaccination: 'vaccinations',
  drivers_license: 'personalInformation',
  payor_contract: 'payors',
  hospital_privileges: 'hospitalAffiliations',
};

/** Days before expiry at which the provider is told (issue 14), widest first. */
export const EXPIRY_THRESHOLDS_DAYS = [90, 60, 30, 7] as const;
/** The card and the admin tab show what expires within this many days, or has expired. */
export const EXPIRING_WINDOW_DAYS = EXPIRY_THRESHOLDS_DAYS[0];

/**
 * The windows of the admin 'Expiring' tab (issue 14): `expired` is what has passed its date; a number
 * N is what has expired or expires within N days (the thresholds, so the tab and the notices agree).
 */
export const expiringWindows = ['expired', '7', '30', '60', '90'] as const satisfies readonly (
  | 'expired'
  | `${(typeof EXPIRY_THRESHOLDS_DAYS)[number]}`
)[];
export type ExpiringWindow = (typeof expiringWindows)[number];
/** The tab's default window: everything the provider's card would show. */
export const DEFAULT_EXPIRING_WINDOW = `${EXPIRING_WINDOW_DAYS}` as const satisfies ExpiringWindow;

/** 'Expired', 'Within 7 days', … as the window filter names them. */
export function expiringWindowLabel(window: ExpiringWindow): string {
  return window === 'expired' ? 'Expired' : `Within ${window} days`;
}

/** How urgent an expiry is: past its date, or within the smallest threshold it falls under. */
export type ExpiryUrgency = 'expired' | 'within_7' | 'within_30' | 'within_60' | 'within_90';

/** One dated credential of an application, as the server reads it. */
export interface DatedCredential {
  kind: CredentialKind;
  /** The row's id (the personal information row for a driver's license). */
  rowId: string;
  /** What identifies it to the provider: 'Medical License IL-1234', 'Aetna', 'Hepatitis B'. */
  name: string;
  /** `YYYY-MM-DD`. */
  expiresOn: string;
}

/** A dated credential with its days left and urgency. */
export interface ExpiringCredential extends DatedCredential {
  /** Calendar days from today (UTC) to the expiry date; negative once expired. */
  daysLeft: number;
  urgency: ExpiryUrgency;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Calendar days from `now`'s UTC date to `isoDate` (0 on the day itself, negative after it). */
export function daysUntil(isoDate: string, now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return Math.round((Date.UTC(year, month - 1, day) - today) / DAY_MS);
}

/** The urgency of `daysLeft`, or null when it is further away than EXPIRING_WINDOW_DAYS. */
export function expiryUrgency(daysLeft: number): ExpiryUrgency | null {
  if (daysLeft < 0) return 'expired';
  if (daysLeft <= 7) return 'within_7';
  if (daysLeft <= 30) return 'within_30';
  if (daysLeft <= 60) return 'within_60';
  if (daysLeft <= 90) return 'within_90';
  return null;
}

/**
 * The credentials that expire within EXPIRING_WINDOW_DAYS of `now` or have expired, soonest (most
 * overdue) first.
 * @param now the clock, injected (tests drive it)
 */
export function expiringSoon(credentials: readonly DatedCredential[], now: Date): ExpiringCredential[] {
  const expiring: ExpiringCredential[] = [];
  for (const credential of credentials) {
    const daysLeft = daysUntil(credential.expiresOn, now);
    const urgency = expiryUrgency(daysLeft);
    if (urgency) expiring.push({ ...credential, daysLeft, urgency });
  }
  return expiring.sort((a, b) => a.daysLeft - b.daysLeft || a.name.localeCompare(b.name));
}

/** 'Expired', 'Expires today', '1 day left', '20 days left'. */
export function daysLeftText(daysLeft: number): string {
  if (daysLeft < 0) return 'Expired';
  if (daysLeft === 0) return 'Expires today';
  return daysLeft === 1 ? '1 day left' : `${daysLeft} days left`;
}
