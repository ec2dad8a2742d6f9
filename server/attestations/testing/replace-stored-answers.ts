/**
 * Test helper: make an application's stored attestations hold `answers` (encrypted with `cipher`,
 * as `recordAttestation` stores them), so a test can stand in for an attestation signed before the
 * question list grew (issue 31 item 2: the four questions of issue 14). The table refuses updates by
 * trigger (append-only, decision 022); replica mode skips the trigger for this one connection of the
 * test's own, which is then given back with the mode reset.
 */
import type pg from 'pg';
import type { FieldCipher } from '../../security/field-cipher.ts';

export async function replaceStoredAnswers(
  pool: pg.Pool,
  cipher: FieldCipher,
  applicationId: string,
  answers: Record<string, { answer: 'yes' | 'no'; explanation?: string }>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('set session_replication_role = replica');
    await client.query(
      'update application_attestations set answers_encrypted = $2 where application_id = $1',
      [applicationId, cipher.encrypt(JSON.stringify(answers))],
    );
  } finally {
    await client.query('reset session_replication_role').catch(() => {});
    client.release();
  }
}
