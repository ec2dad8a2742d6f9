/**
 * Hand-made decided files for the report tests (issue 34): people and files inserted directly in the
 * order the product writes them, through `query` (the test app's pool).
 */
import { randomUUID } from 'node:crypto';

type Query = (text: string, values: unknown[]) => Promise<unknown>;

/** A decided file: its provider, cycle, outcome and the dates and rows around its decision. */
export interface FileFixture {
  provider: [string, string];
  cycle?: 'initial' | 'recredentialing';
  status?: 'approved' | 'rejected';
  /** Completion: the completion attestation and submitted_at. */
  completedAt: string;
  reAttestedAt?: string;
  reviewStartedAt: string;
  decidedAt: string;
  decidedBy: string;
  requests?: [string, string | null][];
  /** [sent_at, closed_at, outcome] */
  referrals?: [string, string, string][];
  /** [status, verified_at, validator] */
  items?: [string, string, string][];
}

/** `person` and `decidedFile`, writing through `query`. */
export function reportFixtures(query: Query) {
  /** A person with a profile (a provider or a staff member), inserted directly. */
  async function person(firstName: string, lastName: string) {
    const id = randomUUID();
    const email = `${id}@example.test`;
    await query(
      `insert into "user" (id, name, email, email_verified, first_name, last_name) values ($1, $2, $3, true, $4, $5)`,
      [id, `${firstName} ${lastName}`, email, firstName, lastName],
    );
    await query('insert into profiles (user_id, first_name, last_name, email) values ($1, $2, $3, $4)', [
      id,
      firstName,
      lastName,
      email,
    ]);
    return id;
  }

  /**
   * A decided file with its attestations, requests, referrals and checklist, inserted directly in the
   * order the product writes them: under review first, the decision last (its figures are recorded
   * when it is: decision_facts, migration 0031).
   */
  async function decidedFile(f: FileFixture) {
    const userId = await person(...f.provider);
    const id = randomUUID();
    await query(
      `insert into provider_applications (id, user_id, application_status, cycle, submitted_at, review_started_at)
       values ($1, $2, 'under_review', $3, $4, $5)`,
      [id, userId, f.cycle ?? 'initial', f.completedAt, f.reviewStartedAt],
    );
    const attest = (kind: string, at: string) =>
      query(
        `insert into application_attestations (application_id, user_id, kind, answers_encrypted, statement, signature,
           signed_at, snapshot_version, snapshot_sha256) values ($1, $2, $3, 'x', 'statement', 'signature', $4, 1, 'x')`,
        [id, userId, kind, at],
      );
    await attest('completion', f.completedAt);
    if (f.reAttestedAt) await attest('re_attestation', f.reAttestedAt);
    for (const [requestedAt, respondedAt] of f.requests ?? []) {
      await query(
        `insert into information_requests (application_id, message, sections, requested_at, responded_at)
         values ($1, 'Please send', '{}', $2, $3)`,
        [id, requestedAt, respondedAt],
      );
    }
    for (const [sentAt, closedAt, outcome] of f.referrals ?? []) {
      await query(
        `insert into decision_referrals (application_id, track, reasons, sent_at, closed_at, outcome)
         values ($1, 'committee', '[]', $2, $3, $4)`,
        [id, sentAt, closedAt, outcome],
      );
    }
    let position = 0;
    for (const [status, verifiedAt, validator] of f.items ?? []) {
      position += 1;
      await query(
        `insert into verification_items (application_id, kind, item_key, target, primary_source, status, verified_at,
           validator_id, position) values ($1, 'license', $2, 'License', 'State board', $3, $4, $5, $6)`,
        [id, `item-${position}`, status, verifiedAt || null, validator || null, position],
      );
    }
    await query(
      `update provider_applications set application_status = $2, decided_at = $3, decided_by = $4,
         decided_by_role = 'medical_director' where id = $1`,
      [id, f.status ?? 'approved', f.decidedAt, f.decidedBy],
    );
    return id;
  }
  return { person, decidedFile };
}
