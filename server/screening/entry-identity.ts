/**
 * The whole-row identity of an exclusion list row (issue 30, decision 027), `rowHash`: hex SHA-256 of
 * the row's entry key (domain/screening/exclusion-formats.ts `entryKey`: which exclusion it is, across
 * the source's files) and its address, licence, type and waiver fields. A possible match a reviewer
 * cleared flags the same provider again only when this changes.
 *
 * Each part is trimmed and upper-cased and joined with '|'. Migration 0020 computes the same with
 * PostgreSQL's `upper`/`sha256` for the rows moved from the old `leie_exclusions` table;
 * server/db/migration-0020.test.ts checks that both agree.
 */
import { createHash } from 'node:crypto';
import type { ExclusionEntryInput } from '../../domain/screening/exclusion-formats.ts';

/** The fields the row hash reads besides the entry key. */
export type IdentityFields = Pick<
  ExclusionEntryInput,
  'address' | 'city' | 'state' | 'zip' | 'licenseNumber' | 'providerType' | 'waiverDate' | 'waiverState'
>;

const sha256 = (parts: readonly (string | null)[]) =>
  createHash('sha256')
    .update(parts.map((p) => (p ?? '').trim().toUpperCase()).join('|'), 'utf8')
    .digest('hex');

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
