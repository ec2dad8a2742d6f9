/**
 * Test helper: move an application's attestations back in time, as if signed `days` earlier. The
 * table refuses updates by trigger (append-only, decision 022); replica mode skips the trigger for
 * this one connection of the test's own, which is then given back with the mode reset.
 */
import type pg from 'pg';

export async function ageAttestations(pool: pg.Pool, applicationId: string, days: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('set session_replication_role = replica');
    await client.query(
      `update application_attestations set signed_at = signed_at - make_interval(days => $2::int)
       where application_id = $1`,
      [applicationId, days],
    );
  } finally {
    await client.query('reset session_replication_role').catch(() => {});
    client.release();
  }
}
