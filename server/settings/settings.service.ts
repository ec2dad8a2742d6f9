/**
 * The organization's settings (issue 50 item 7; contract domain/api/settings.ts): one row, read by the
 * decision letters and the 'Settings' tab, written by administrators (audited, never the values:
 * 'settings.changed' names the fields changed).
 */
import { eq } from 'drizzle-orm';
import { emptyOrganizationSettings, type OrganizationSettings } from '../../domain/api/settings.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database, Queryable } from '../db/client.ts';
import { organizationSettings } from '../db/schema/core.ts';

/** The settings, or the empty ones before any was saved. */
export async function readOrganizationSettings(db: Queryable): Promise<OrganizationSettings> {
  const [row] = await db.select().from(organizationSettings).where(eq(organizationSettings.id, 1));
  if (!row) return emptyOrganizationSettings;
  return {
    organizationName: row.organizationName,
    address: row.address,
    signerName: row.signerName,
    signerTitle: row.signerTitle,
  };
}

/** Saves `settings` (validated by the route's schema) as `actor`'s change at `now`; audited. */
export async function saveOrganizationSettings(
  db: Database,
  actor: Pick<Actor, 'userId' | 'ipAddress'>,
  settings: OrganizationSettings,
  now: Date,
): Promise<OrganizationSettings> {
  return db.transaction(async (tx) => {
    const before = await readOrganizationSettings(tx);
    const values = { ...settings, updatedAt: now, updatedBy: actor.userId };
    await tx
      .insert(organizationSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: organizationSettings.id, set: values });
    const changed = (Object.keys(settings) as (keyof OrganizationSettings)[]).filter(
      (key) => settings[key] !== before[key],
    );
    await recordAudit(tx, {
      action: 'settings.changed',
      actorUserId: actor.userId,
      ipAddress: actor.ipAddress,
      details: { fields: changed.join(',') },
    });
    return settings;
  });
}
