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

/**
 * GET /api/admin/roster.csv (issue 52 item 4): the roster query, and for a machine that parses the
 * file (never a spreadsheet) `guard=none`, the values exact with no formula defused, and `bom=false`,
 * no UTF-8 byte order mark before the header (a plain `utf-8` reader would keep it in the first
 * header's name). Defaults: `guard=formulas`, `bom=true` (what Excel needs).
 */
export const rosterCsvQuerySchema = rosterQuerySchema.extend({
  guard: z
    .enum(['formulas', 'none'], { error: 'Write guard=formulas (the default) or guard=none' })
    .optional(),
  bom: z.enum(['true', 'false'], { error: 'Write bom=true (the default) or bom=false' }).optional(),
});
export type RosterCsvQuery = z.infer<typeof rosterCsvQuerySchema>;
