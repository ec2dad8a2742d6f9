/**
 * API contract of 'Review and Confirm' (issue 29 item 6): POST
 * /api/applications/:applicationId/sections/:slug/confirm confirms a section copied from the
 * provider's previous application, so it counts towards progress. Served by
 * server/applications/section-confirmations.routes.ts; called by web/features/sections.
 */
import { z } from 'zod';

/** Path parameters: the application (any text: a non-UUID answers 404) and the section's route slug. */
export const sectionConfirmParamsSchema = z.object({ applicationId: z.string(), slug: z.string() });

/** The confirmation (200), the same when the section was confirmed already (idempotent). */
export const sectionConfirmationSchema = z.object({
  /** domain/sections/registry.ts section key. */
  sectionKey: z.string(),
  /** When it was first confirmed (ISO 8601, UTC). */
  confirmedAt: z.iso.datetime(),
});
export type SectionConfirmation = z.infer<typeof sectionConfirmationSchema>;
