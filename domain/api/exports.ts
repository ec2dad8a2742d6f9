/**
 * API contract of the exports (issue 33 item 2): the roster's column choice and download query.
 * The columns themselves are domain/exports/roster.ts's.
 */
import { z } from 'zod';
import { type RosterColumnKey, rosterColumnKeys } from '../exports/roster.ts';

const columnList = z
  .array(z.enum(rosterColumnKeys, { error: 'Choose columns from the roster column list' }))
  .min(1, 'Choose at least one column')
  .max(rosterColumnKeys.length)
  .refine((columns) => new Set(columns).size === columns.length, 'Choose each column once');

/** PUT /api/admin/roster/columns: the administrator's choice, in order; GET answers it too. */
export const rosterColumnChoiceSchema = z.object({ columns: columnList });
export type RosterColumnChoice = z.infer<typeof rosterColumnChoiceSchema>;

/** GET /api/admin/roster/columns: the remembered choice, or the default layout when none was saved. */
export const rosterColumnsAnswerSchema = z.object({
  columns: z.array(z.enum(rosterColumnKeys)),
  isDefault: z.boolean(),
});

/**
 * GET /api/admin/roster.csv and roster.xlsx: `columns` comma-separated (e.g. `npi,last_name`); absent,
 * the caller's remembered choice (an administrator) or the default layout (an API client).
 */
export const rosterQuerySchema = z.object({
  columns: z
    .string()
    .max(1000)
    .transform((text, ctx): RosterColumnKey[] => {
      const parsed = columnList.safeParse(text.split(',').map((c) => c.trim()));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Invalid columns' });
      return z.NEVER;
    })
    .optional(),
});
