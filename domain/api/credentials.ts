/**
 * API contract of expiring credentials (issue 14): GET
 * /api/applications/:applicationId/expiring-credentials answers what the application holds that
 * expires within 90 days or has expired (domain/credentials/expiring-credentials.ts). Validated and
 * serialised by server/credentials/credentials.routes.ts; typed on the web by the dashboard's
 * 'Expiring Credentials' card.
 */
import { z } from 'zod';
import { credentialKinds } from '../credentials/expiring-credentials.ts';
import { catalogSections } from '../sections/section-catalog.ts';

export const expiringCredentialsParamsSchema = z.object({ applicationId: z.string() });

export const expiringCredentialSchema = z.object({
  kind: z.enum(credentialKinds),
  /** The section screen that holds it (section-catalog key). */
  sectionKey: z.enum(catalogSections.map((s) => s.key) as [string, ...string[]]),
  rowId: z.string(),
  name: z.string(),
  /** `YYYY-MM-DD`. */
  expiresOn: z.iso.date(),
  /** Calendar days from today (UTC); negative once expired. */
  daysLeft: z.number().int(),
  urgency: z.enum(['expired', 'within_7', 'within_30', 'within_60', 'within_90']),
});

export const expiringCredentialsSchema = z.object({
  /** Soonest (most overdue) first; empty when nothing expires within 90 days. */
  credentials: z.array(expiringCredentialSchema),
});
export type ExpiringCredentials = z.infer<typeof expiringCredentialsSchema>;
