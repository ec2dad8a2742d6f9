/**
 * A list row as the admin sees it (domain/api/screening.ts `ExclusionRow`), from an `exclusion_entries`
 * row or the copy a finding keeps of it (`FindingEntry`, screening_findings.entry: the row as it was
 * when found, so the queue still shows it after the list moves on).
 */
import type { ExclusionRow } from '../../domain/api/screening.ts';
import type { ExclusionEntryInput } from '../../domain/screening/exclusion-formats.ts';

/** The fields of a list row a finding keeps (issue 30 item 4: the side-by-side view), and its file line. */
export type FindingEntry = Pick<
  ExclusionEntryInput,
  | 'lastName'
  | 'firstName'
  | 'middleName'
  | 'businessName'
  | 'npi'
  | 'dob'
  | 'address'
  | 'city'
  | 'state'
  | 'zip'
  | 'licenseNumber'
  | 'providerType'
  | 'exclusionType'
  | 'exclusionDate'
  | 'reinstatementDate'
> & { line: number };

/** `e`'s fields a finding keeps (drops the raw fields, keys and bookkeeping). */
export function findingEntryOf(e: FindingEntry): FindingEntry {
  return {
    line: e.line,
    lastName: e.lastName,
    firstName: e.firstName,
    middleName: e.middleName,
    businessName: e.businessName,
    npi: e.npi,
    dob: e.dob,
    address: e.address,
    city: e.city,
    state: e.state,
    zip: e.zip,
    licenseNumber: e.licenseNumber,
    providerType: e.providerType,
    exclusionType: e.exclusionType,
    exclusionDate: e.exclusionDate,
    reinstatementDate: e.reinstatementDate,
  };
}

/** "LAST, FIRST MIDDLE", or the business name when the row names no person. */
export function listRowName(e: Pick<FindingEntry, 'lastName' | 'firstName' | 'middleName' | 'businessName'>) {
  if (!e.lastName && !e.firstName) return e.businessName;
  const given = [e.firstName, e.middleName].filter(Boolean).join(' ');
  return given ? `${e.lastName}, ${given}` : e.lastName;
}

/** The API shape of a list row. */
export function exclusionRowOf(e: FindingEntry): ExclusionRow {
  return {
    name: listRowName(e),
    npi: e.npi,
    dob: e.dob,
    address: [e.address, e.city, [e.state, e.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '),
    licenseNumber: e.licenseNumber,
    providerType: e.providerType,
    exclusionType: e.exclusionType,
    exclusionDate: e.exclusionDate,
    reinstatementDate: e.reinstatementDate,
    line: e.line,
  };
}
