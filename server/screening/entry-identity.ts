/**
 * The two identities of an exclusion list row (issue 30, decision 027), as hex SHA-256:
 * - `entryKey`: which exclusion the row is, across the source's files (the person or business, NPI,
 *   birth date, exclusion type and date). A monthly reinstatement row finds the exclusion it ends by it.
 * - `rowHash`: the row as a whole (the entry key plus address, licence, type and waiver fields). A
 *   possible match a reviewer cleared flags the same provider again only when this changes.
 *
 * Each part is trimmed and upper-cased (the lists write names in capitals; case is not identity) and
 * joined with '|'. Migration 0020 computes the same with PostgreSQL's `upper`/`sha256` for the rows
 * moved from the old `leie_exclusions` table; entry-identity.test.ts checks that both agree.
 */
import { createHash } from 'node:crypto';

/** The fields the identities read (an ExclusionEntryInput, domain/screening/exclusion-formats.ts). */
export interface IdentityFields {
  lastName: string;
  firstName: string;
  middleName: string;
  businessName: string;
  npi: string | null;
  dob: string | null;
  exclusionType: string;
  exclusionDate: string | null;
  address: string;
  city: string;
  state: string;
  zip: string;
  licenseNumber: string;
  providerType: string;
  waiverDate: string | null;
  waiverState: string;
}

const sha256 = (parts: readonly (string | null)[]) =>
  createHash('sha256')
    .update(parts.map((p) => (p ?? '').trim().toUpperCase()).join('|'), 'utf8')
    .digest('hex');

/** The row's exclusion identity within `source` (an ExclusionSourceId). */
export function entryKey(source: string, e: IdentityFields): string {
  return sha256([
    source,
    e.lastName,
    e.firstName,
    e.middleName,
    e.businessName,
    e.npi,
    e.dob,
    e.exclusionType,
    e.exclusionDate,
  ]);
}

/** The whole row's identity: changes when any field a reviewer compared changes. */
export function rowHash(key: string, e: IdentityFields): string {
  return sha256([
    key,
    e.address,
    e.city,
    e.state,
    e.zip,
    e.licenseNumber,
    e.providerType,
    e.waiverDate,
    e.waiverState,
  ]);
}
