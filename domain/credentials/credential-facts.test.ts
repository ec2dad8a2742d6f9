/**
 * The published credential's facts (credential-facts.ts): issue 51 item 4, only board certifications
 * are published as board certifications; ACLS of kind 'other' is not, and a certification of a
 * snapshot stored before the kind existed still is.
 */
import { describe, expect, it } from 'vitest';
import type { ApplicationSnapshot, SnapshotRow } from '../review/application-snapshot.ts';
import { credentialFactsOf } from './credential-facts.ts';

function snapshot(certifications: SnapshotRow[]): ApplicationSnapshot {
  return {
    applicationId: 'a',
    userId: 'u',
    personalInformation: { npi_number: '1234567893' },
    profile: null,
    lists: { certifications },
    documents: [],
  };
}

describe('credentialFactsOf: board certifications (issue 51 item 4)', () => {
  it("publishes the board certifications, not one of kind 'other', keeping each row's place as its key", () => {
    const facts = credentialFactsOf(
      snapshot([
        { certification_kind: 'other', certification_name: 'ACLS', certifying_body: 'AHA' },
        { certification_kind: 'board', certification_name: 'Internal Medicine', certifying_body: 'ABIM' },
        // Stored before the kind existed: a board certification, as every one was then.
        { certification_name: 'Family Medicine', certifying_body: 'ABFM' },
      ]),
      1,
    );
    expect(facts.boardCertifications.map((c) => [c.rowKey, c.name, c.board])).toEqual([
      ['certification-2', 'Internal Medicine', 'ABIM'],
      ['certification-3', 'Family Medicine', 'ABFM'],
    ]);
  });
});
