/**
 * API contract of file assignment (issue 32 item 3): GET /api/admin/assignees lists who may be
 * assigned a file (staff who review: Administrators and Credentialing Specialists); POST
 * /api/admin/applications/:applicationId/assign makes one of them its reviewer. Validated and
 * serialised by server/assignment/assignment.routes.ts; typed on the web by the review page.
 */
import { z } from 'zod';

export const assigneeSchema = z.object({ userId: z.string(), name: z.string(), email: z.string() });
export type Assignee = z.infer<typeof assigneeSchema>;

export const assigneesSchema = z.object({ assignees: z.array(assigneeSchema) });
export type Assignees = z.infer<typeof assigneesSchema>;

export const assignBodySchema = z.object({
  userId: z.string({ error: 'Choose who reviews the file' }).min(1, 'Choose who reviews the file').max(100),
});

export const assignResultSchema = z.object({
  /** The reviewer now. */
  reviewerId: z.string(),
  /** False when the file was already theirs (nothing changed, nothing audited). */
  changed: z.boolean(),
});
export type AssignResult = z.infer<typeof assignResultSchema>;
